#!/usr/bin/env python3
# Writes cgroup.rec: a hand-made pmctop recording with cgroup rows (software events, as on a
# machine without a PMU), for tests of the cgroup view, batch output and the exporter.
# Rates are per second; the file holds cumulative counts as the kernel reports them.
names = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "cycles",
         "instructions"]
groups = [0, 0, 0, 0, 1, 1]
ok = [True, True, True, True, False, False]
NS = 1000000000
# task-clock ns, faults, switches, migrations per second
cg_rates = {
    "/system.slice": (1200000000, 3000, 900, 20),
    "/system.slice/db.service": (900000000, 2500, 400, 10),
    "/user.slice": (300000000, 500, 250, 5),
    "/web.slice": None,  # out of file descriptors: not counted
}
tasks = {
    # pid: ppid, uid, user, state, threads, start, comm, cmdline, cgroup, rates
    101: (1, 1000, "alice", "S", 4, 5000, "db-server", "/usr/bin/db-server --port 5432",
          "/system.slice/db.service", (900000000, 2500, 400, 10)),
    202: (1, 0, "root", "R", 1, 6000, "logd", "/usr/sbin/logd",
          "/system.slice/logd.service", (300000000, 500, 500, 10)),
    303: (1, 1001, "bob", "S", 1, 7000, "bash", "-bash", "/user.slice/user-1001.slice",
          (300000000, 500, 250, 5)),
    404: (1, 0, "root", "S", 1, 100, "init", "/sbin/init", "/init.scope", (0, 0, 0, 0)),
}
cpus = {0: (900000000, 3000, 900, 20), 1: (600000000, 1000, 300, 10)}


def counts(rates, t, enabled):
    out = []
    for i, n in enumerate(names):
        if not ok[i]:
            out.append("-ENOENT")
            continue
        v = int(rates[i] * t)
        out.append("%d/%d/%d" % (v, enabled, enabled))
    return " ".join(out)


def esc(s):
    r = ""
    for c in s:
        if ord(c) <= 0x20 or ord(c) == 0x7f or c == "%":
            r += "%%%02X" % ord(c)
        else:
            r += c
    return r or "%"


lines = ["pmctop-recording 1",
         "# Made by tests/data/make-cgroup-rec.py: cgroup rows on a machine without a PMU.",
         "host cg-demo 6.18.0-demo",
         "mode no hardware PMU: software events only ('cycles': not supported by this PMU)"]
for i, n in enumerate(names):
    lines.append("event %d %d %s default %s %s" % (i, groups[i], "sw" if groups[i] == 0 else "hw",
                                                   "ok" if ok[i] else "ENOENT", n))
for k in range(3):
    t = 1.0 + k
    lines.append("tick %d %.6f 0.50 0.40 0.30 %.2f" % (int(t * NS), 1795300000.0 + t,
                                                        3600.0 + t))
    for c, r in cpus.items():
        lines.append("cpu %d %d %d %s" % (c, int(r[0] * t / NS * 100), int(t * 100),
                                          counts((0,) + r[1:], t, int(t * NS))))
    for pid, (ppid, uid, user, state, thr, start, comm, cmd, cg, r) in tasks.items():
        lines.append("task %d %d %d %s %s %d %d ok %s %s %s %s" % (
            pid, ppid, uid, esc(user), state, thr, start, counts(r, t, int(t * NS)), esc(comm),
            esc(cmd), esc(cg)))
    lines.append("cgroups 48 19976")
    for path in sorted(cg_rates):
        r = cg_rates[path]
        if r is None:
            lines.append("cgroup %s EMFILE %s" % (esc(path), " ".join(["-EMFILE"] * len(names))))
            continue
        # a cgroup's events are enabled while its tasks run, summed over the CPUs
        lines.append("cgroup %s ok %s" % (esc(path), counts(r, t, int(r[0] * t))))
    lines.append("end")
print("\n".join(lines))
