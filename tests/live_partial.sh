# Live: a process of 3000 threads under a descriptor limit that cannot take a counter set per
# thread is still counted: its main and busiest threads, its row marked as estimated, said
# once in the log; and it is not attached again each tick (no perf_event_open after the
# first frames, the descriptors steady). In a PID namespace of the test's own.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

# 3000 threads that each sleep a second and spin 0.2 ms: the CPU time is spread over them
background "$WORKLOAD" crowd 3000 0.2 "$TMP/crowd.log"
CROWD=$BG
wait_until 30 grep -qs ready "$TMP/crowd.log"
check "the crowd of 3000 threads runs" grep -qs ready "$TMP/crowd.log"
# 512 descriptors (soft and hard): some 120 sets of the 4 software events, far from 3001
# LeakSanitizer cannot run under ptrace: in a sanitizer build, strace makes it fail
sh -c 'ulimit -n 512; exec "$@"' _ env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -ttt -e trace=perf_event_open -o "$TMP/open.strace" \
	"$PMCTOP" -b -p "$CROWD" -d 0.5 -n 12 -o json --task-counts=perf >"$TMP/p.json" 2>"$TMP/p.err"
st=$?
sed 's/^/# stderr: /' "$TMP/p.err" | head -5
check "pmctop exits 0" test "$st" = 0
check "twelve frames" test "$(wc -l <"$TMP/p.json")" = 12
check "it says once that the process's threads do not all fit" \
	test "$(grep -c "has 3001 threads and the file descriptors left fit" "$TMP/p.err")" = 1
# the opens after the frame where the attach is done: none (strace's -ttt and the frames' time are both
# the wall clock); and the descriptors pmctop holds stay as they are from then on
python3 - "$TMP/p.json" "$TMP/open.strace" "$CROWD" <<'PY' >"$TMP/verdict"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
pid = int(sys.argv[3])
rows = [([p for p in f["processes"] if p["pid"] == pid] or [None])[0] for f in frames]
# the attach may take the first ticks on a loaded machine ('not attached yet', never a
# number): it has at most 3 ticks, then the process is counted in every frame
a = next((i for i, r in enumerate(rows) if r is not None and not r.get("not_counted")), len(rows))
# a frame's time is taken as its tick begins: the attach ends in that tick, before the next
ta = frames[min(a + 1, len(frames) - 1)]["time"]
opens = [float(l.split()[1]) for l in open(sys.argv[2]) if "perf_event_open(" in l]
late = [t for t in opens if t > ta]
print("opens", len(opens), "late", len(late))
early = all(r is None or r.get("not_counted") == "not attached yet" for r in rows[:a])
counted = a <= 3 and early and all(r is not None and not r.get("not_counted") for r in rows[a:])
print("counted", "ok" if counted else [r and r.get("not_counted") for r in rows])
# never a plain number: an estimate ('*'), or n/a in a frame where none of the counted
# threads ran while the others did (nothing to scale); estimates in some frames at least;
# the first frame after the attach has no interval yet
def sure(r):
    return "cpu" in r["estimated"] or "cpu" in r["not_running"]
later = rows[a + 1:]
marked = bool(later) and all(r and sure(r) for r in later) and any("cpu" in r["estimated"] for r in later)
print("marked", "ok" if marked else [r and (r["estimated"], r["not_running"], r["cpu"]) for r in rows])
fds = [f["self"]["fds"] for f in frames[a:]]
print("fds", "ok" if len(set(fds)) == 1 and fds[0] <= 512 else fds)
PY
sed 's/^/# /' "$TMP/verdict"
read -r _ nopen _ late <"$TMP/verdict"
check "it opened counters for some threads ($nopen opens)" test "$nopen" -gt 0
check "and none after the first frames: no attach retried each tick" test "$late" = 0
check "the process is counted in every frame once attached (in at most 3 ticks)" grep -qx "counted ok" "$TMP/verdict"
check "its counts are marked as estimates (or n/a), never plain" grep -qx "marked ok" "$TMP/verdict"
check "pmctop's descriptors stay as they are once it is attached" grep -qx "fds ok" "$TMP/verdict"
done_testing
