# What a workload really did in each of pmctop's frames, from the workload's own log.
#
# Under load a workload does not reach its nominal rate, so a rate pmctop reports is compared
# with what the workload logged over the same interval, never with the rate it was asked for.
#
# usage: oracle.py FRAMES.json LOG WHAT [PID]
#   FRAMES.json  pmctop -b -o json output; each frame covers [time - interval, time] (wall clock)
#   LOG          the workload's log: lines "WALL COUNT..." of cumulative counts, and for spin a
#                first line "tids TID..." naming the threads of the columns after the process's
#   WHAT         cpu      %CPU of process PID (log: CPU seconds of the process)
#                pf       page faults per second of process PID (log: faults done)
#                samples  samples per second of the sampling pane (log: faults done)
#                threads  %CPU of each logged thread in -H frames (log: CPU seconds per thread)
#                cgpf     page faults per second of the cgroup whose path is given for PID
#                         (log: faults done by the workload in that cgroup)
# prints one line per frame (and per thread): "TIME REPORTED EXPECTED"; REPORTED is "missing"
# when the frame has no such row. The first frame, printed at once, has no interval and no
# counts (interval null): it is skipped.
import json
import sys


def load_log(path):
    tids, rows = [], []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "tids":
            tids = [int(t) for t in f[1:]]
            continue
        rows.append([float(x) for x in f])
    return tids, rows


def at(rows, col, t):
    """The cumulative count of column col at wall time t, linear between log lines."""
    if not rows:
        return 0.0
    if t <= rows[0][0]:
        return rows[0][col]
    if t >= rows[-1][0]:
        return rows[-1][col]
    lo, hi = 0, len(rows) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rows[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    t0, t1 = rows[lo][0], rows[hi][0]
    v0, v1 = rows[lo][col], rows[hi][col]
    return v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)


def rate(rows, col, frame):
    t1 = frame["time"]
    t0 = t1 - frame["interval"]
    return (at(rows, col, t1) - at(rows, col, t0)) / frame["interval"]


def main():
    frames = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    tids, rows = load_log(sys.argv[2])
    what = sys.argv[3]
    pid = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4].isdigit() else None
    for f in frames:
        if not f.get("interval"):
            continue
        if what in ("cpu", "pf"):
            row = [p for p in f["processes"] if p["pid"] == pid]
            got = "%.2f" % row[0][what] if row else "missing"
            scale = 100.0 if what == "cpu" else 1.0
            print(f["time"], got, "%.2f" % (scale * rate(rows, 1, f)))
        elif what == "cgpf":
            row = [c for c in f.get("cgroups", []) if c["cgroup"] == sys.argv[4]]
            got = "%.2f" % row[0]["pf"] if row and row[0].get("pf") is not None else "missing"
            print(f["time"], got, "%.2f" % rate(rows, 1, f))
        elif what == "samples":
            print(f["time"], "%.2f" % f["samples_per_s"], "%.2f" % rate(rows, 1, f))
        elif what == "threads":
            for k, tid in enumerate(tids):
                row = [t for t in f.get("threads", []) if t["tid"] == tid]
                got = "%.2f" % row[0]["cpu"] if row else "missing"
                print(f["time"], got, "%.2f" % (100.0 * rate(rows, 2 + k, f)))
        else:
            sys.exit("unknown WHAT " + what)


main()
