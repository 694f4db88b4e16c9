# Live, in a PID namespace of its own, with per-task counters in the hardware-like layout (6
# groups a process, PMCTOP_SIM_GROUPS): where 160 processes of one thread run every tick (each
# wakes every 50 ms and faults a page), more than the 128 from which processes of few threads are
# read at the pace, each one's groups are read about one tick in four, not every tick: pmctop's
# reads (its /proc/PID/io syscr) are fewer a frame than those of a --read-all run beside it,
# and its counts between reads are guessed from each process's CPU clock and rates and marked
# estimated. Summed over all of them, at every frame, their page faults and task-clock are
# within 3 % (and a frame's worth) of the --read-all run's at the same moment, and none is n/a.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

need_isolation
need_task_counters page-faults
if ! [ -r /proc/self/schedstat ] || [ "$(cut -d' ' -f1 /proc/self/schedstat)" = 0 ]; then
	skip "no run times in schedstat files: every thread is read"
	done_testing
	exit 0
fi

NP=160
# each pmctop opens 6 groups of a process, some 14 descriptors: 2240 for them all, and more
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096 2>/dev/null
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then
	skip_all "a limit of $(ulimit -n) descriptors: $NP processes would not all be counted"
fi
EV="-e task-clock,page-faults --task-counts=perf"
PART=$TMP/part.json
ALL=$TMP/all.json
: >"$TMP/pids"
for _ in $(seq $NP); do
	background "$WORKLOAD" waker 50 600
	echo "$BG" >>"$TMP/pids"
done

frames() { wc -l <"$1"; }
has_frames() { [ "$(frames "$1")" -ge "$2" ]; }
syscr() { sed -n 's/^syscr: //p' "/proc/$1/io"; }

# shellcheck disable=SC2086
PMCTOP_SIM_GROUPS=6 "$PMCTOP" -b -d 0.2 $EV -o json >"$PART" 2>"$TMP/part.err" &
pp=$!
# shellcheck disable=SC2086
PMCTOP_SIM_GROUPS=6 "$PMCTOP" -b -d 0.2 $EV --read-all -o json >"$ALL" 2>"$TMP/all.err" &
pa=$!
KILL_PIDS="$KILL_PIDS $pp $pa"
# the attach, each one's run time, then its rates: the pace grows from there
wait_until 60 has_frames "$PART" 8 || diag "no frames from the run at the pace"
wait_until 60 has_frames "$ALL" 8 || diag "--read-all made no frames"
p0=$(syscr $pp) a0=$(syscr $pa) f0=$(frames "$PART") g0=$(frames "$ALL")
wait_until 60 has_frames "$PART" $((f0 + 30)) || diag "the run at the pace made too few frames"
p1=$(syscr $pp) a1=$(syscr $pa) f1=$(frames "$PART") g1=$(frames "$ALL")
f=$(frames "$ALL")
wait_until 60 has_frames "$ALL" $((f + 2)) || diag "--read-all made no frames"
kill -TERM $pp $pa
wait $pp
sp=$?
wait $pa
sa=$?
check "pmctop at the pace exits 0" test $sp = 0
check "pmctop --read-all exits 0" test $sa = 0

# reads a frame: at the pace, against --read-all
rp=$(((p1 - p0) / (f1 - f0 > 0 ? f1 - f0 : 1)))
ra=$(((a1 - a0) / (g1 - g0 > 0 ? g1 - g0 : 1)))
# of the frames from the 8th on, for the processes of the list: their page faults and
# task-clock summed so far at each frame of the run at the pace, against --read-all's at the
# same moment (between its frames, in proportion), both from the 8th frame's moment on: the
# most either was off, less 3 % and a frame's worth (in frames; -1: too few frames), and the
# frames compared; then the process frames with an event estimated, those with one n/a, and
# all the process frames
track() {
	python3 - "$PART" "$ALL" "$TMP/pids" <<'PY'
import json, sys
want = {int(p) for p in open(sys.argv[3]).read().split()}
evs = ("page-faults", "task-clock")
def series(fn):
    out, cum, est, na, seen = [], [0.0, 0.0], 0, 0, 0
    for k, line in enumerate(open(fn)):
        f = json.loads(line)
        for p in f.get("processes", []):
            if p["pid"] not in want:
                continue
            e = p.get("events", {})
            for i, name in enumerate(evs):
                cum[i] += e.get(name) or 0
            if k >= 8:
                seen += 1
                est += any(n in p.get("estimated", []) for n in evs)
                na += any(e.get(n) is None for n in evs)
        if k >= 7:
            out.append((f["time"], list(cum)))
    return out, est, na, seen
part, pest, pna, pseen = series(sys.argv[1])
full, _, _, _ = series(sys.argv[2])
if not part or len(full) < 2:
    print("-1 0 0 0 0")
    sys.exit(0)
def at(s, t):
    for (t0, c0), (t1, c1) in zip(s, s[1:]):
        if t0 <= t <= t1 and t1 > t0:
            return [a + (b - a) * (t - t0) / (t1 - t0) for a, b in zip(c0, c1)]
    return None
t0 = max(part[0][0], full[0][0])
p0, a0 = at(part, t0), at(full, t0)
worst, compared = 0.0, 0
for i in range(2):
    steps = sorted(b[1][i] - a[1][i] for a, b in zip(full, full[1:]))
    frame = steps[len(steps) // 2] if steps else 0
    for t, c in part:
        a = at(full, t)
        if t < t0 or a is None or p0 is None or a0 is None:
            continue
        compared += i == 0
        p, q = c[i] - p0[i], a[i] - a0[i]
        worst = max(worst, (abs(p - q) - 0.03 * q - frame) / max(frame, 1))
print("%.2f" % worst, compared, pest, pna, pseen)
PY
}
read -r off compared est na seen <<EOF
$(track)
EOF
diag "reads a frame: $rp at the pace, $ra with --read-all; $est of $seen process frames estimated"
check "the run at the pace made its frames ($((f1 - f0)))" test $((f1 - f0)) -ge 30
# --read-all: the leader's stat, 6 groups and the rest of a tick, some 9 reads a process; at the
# pace the 6 groups one frame in four (and its schedstat one read in four): about 5 (every frame
# would be as many as --read-all's)
check "at the pace, under 3/4 of the reads a frame of --read-all ($rp against $ra)" \
	test $((4 * rp)) -lt $((3 * ra))
check "frames between reads marked estimated ($est of $seen)" test "$est" -ge $((seen / 3))
check "no process frame has its counts n/a ($na)" test "$na" = 0
check "frames of both runs at the same moments compared ($compared)" test "$compared" -ge 20
check "page faults and task-clock so far within 3 % and a frame of --read-all's at every frame (over by $off frames)" \
	within "$off" 0 0
done_testing
