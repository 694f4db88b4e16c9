#!/usr/bin/env python3
# Writes grafana.rec: a hand-made recording with hardware counts per CPU, process and cgroup, for
# tests/grafana.sh. The two CPUs have very different miss ratios (an average of per-CPU ratios is
# far from the machine's); some groups are multiplexed, one never runs; a process exits, another
# starts. Rates are per second; the file holds cumulative counts as the kernel reports them.
names = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "cycles",
         "instructions", "cache-references", "cache-misses", "L1-dcache-loads",
         "L1-dcache-load-misses", "dTLB-loads", "dTLB-load-misses", "branches", "branch-misses"]
groups = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
NS = 1000000000
TICKS = 5
# pid: comm, cgroup, cpu, first and last tick it runs in, rates per second of each event
# (task-clock ns first); the counts grow by a tenth each tick so no two frames are alike
tasks = {
    101: ("db-server", "/system.slice/db.service", 0, 0, TICKS - 1,
          (800000000, 100, 300, 5, 2400000000, 4800000000, 2000000, 40000, 1200000000,
           12000000, 1200000000, 120000, 600000000, 3000000)),
    202: ("stream", "/user.slice/user-1001.slice", 1, 0, TICKS - 1,
          (900000000, 2000, 20, 1, 2700000000, 1080000000, 40000000, 16000000, 300000000,
           45000000, 300000000, 6000000, 90000000, 5400000)),
    303: ("nginx", "/web.slice/nginx.service", 0, 0, TICKS - 1,
          (150000000, 400, 900, 12, 300000000, 240000000, 3000000, 600000, 90000000,
           4500000, 90000000, 900000, 50000000, 1500000)),
    404: ("cron", "/system.slice/cron.service", 1, 0, 2,
          (50000000, 50, 10, 1, 100000000, 70000000, 100000, 10000, 20000000, 400000,
           20000000, 20000, 10000000, 200000)),
    505: ("backup", "/system.slice/backup.service", 1, 3, TICKS - 1,
          (60000000, 3000, 40, 2, 150000000, 90000000, 500000, 100000, 30000000, 900000,
           30000000, 60000, 15000000, 450000)),
}
# (tick, pid or cpu, group): share of the enabled time the group ran; 0 never ran
MUX = {(2, 303, 2): 0.5, (3, 303, 3): 0.0, (3, 101, 4): 0.25}
CPU_MUX = {(3, 2): 0.5}  # the cache group, on every CPU alike in tick 3
CGROUPS = ["/system.slice", "/system.slice/db.service", "/user.slice", "/web.slice"]

out = ["pmctop-recording 1",
       "# Made by tests/data/make-grafana-rec.py: hardware counts per CPU, process and cgroup.",
       "host grafana-demo 6.12.0-demo",
       "mode hardware events (skl), recorded by hand"]
for i, n in enumerate(names):
    out.append(f"event {i} {groups[i]} {'sw' if groups[i] == 0 else 'hw'} default ok {n}")
cum = {p: [[0, 0, 0] for _ in names] for p in tasks}
cpucum = [[[0, 0, 0] for _ in names] for _ in range(2)]
busy, total = [0, 0], [0, 0]


def fmt(c):
    return " ".join(f"{a}/{b}/{r}" for a, b, r in c)


for tick in range(TICKS):
    out.append(f"tick {(tick + 1) * NS} {1795400000 + tick}.000000 1.00 1.00 1.00 {500 + tick}")
    inc = [[0] * len(names) for _ in range(2)]
    ran = [0, 0]
    for p, (comm, cg, cpu, first, last, rates) in tasks.items():
        if tick <= first or tick > last:
            continue  # counted from the tick after it appears
        f = 1 + tick / 10
        for i in range(len(names)):
            r = int(rates[i] * f) if i else rates[0]
            en = rates[0]
            share = MUX.get((tick, p, groups[i]), 1.0)
            run = int(en * share)
            cum[p][i][0] += r * run // en if groups[i] else r
            cum[p][i][1] += en
            cum[p][i][2] += run if groups[i] else en
            inc[cpu][i] += r
        ran[cpu] += rates[0]
    for c in range(2):
        if tick > 0:
            busy[c] += ran[c] * 100 // NS
            total[c] += 100
            for i in range(len(names)):
                share = CPU_MUX.get((tick, groups[i]), 1.0)
                cpucum[c][i][0] += int(inc[c][i] * share)
                cpucum[c][i][1] += NS
                cpucum[c][i][2] += int(NS * share)
        out.append(f"cpu {c} {busy[c]} {total[c]} {fmt(cpucum[c])}")
    for p, (comm, cg, cpu, first, last, rates) in tasks.items():
        if tick < first or tick > last:
            continue
        out.append(f"task {p} 1 1000 alice R 1 {1000 + p} ok {fmt(cum[p])} {comm} {comm} {cg}")
    out.append(f"cgroups {len(CGROUPS) * len(names)} 0")
    for g in CGROUPS:
        # a cgroup counts the tasks in it and below it, while they run
        c = [[0, 0, 0] for _ in names]
        for p, (comm, cg, cpu, first, last, rates) in tasks.items():
            if cg == g or cg.startswith(g + "/"):
                for i in range(len(names)):
                    for k in range(3):
                        c[i][k] += cum[p][i][k]
        out.append(f"cgroup {g} ok {fmt(c)}")
    out.append("end")
with open("grafana.rec", "w") as f:
    f.write("\n".join(out) + "\n")
