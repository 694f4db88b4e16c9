# Live: PMCTOP_SIM_GROUPS=6 opens the software set as six groups a thread, the descriptors of
# a real PMU's default layout (4 + 2 x 5 = 14 a thread), and counts the same; pmctop's own
# descriptors (/proc/self/fd, the frames' self.fds) tell. In a PID namespace of the test's own.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

# a process of 20 idle threads and its main thread: 21 sets
background "$WORKLOAD" idle 20 30
IDLE=$BG
sleep 0.5
run() {
	env $1 "$PMCTOP" -b -p "$IDLE" -d 0.3 -n 3 -o json --task-counts=perf >"$TMP/$2.json" 2>"$TMP/$2.err"
	echo $? >"$TMP/$2.status"
}
run "" plain
run PMCTOP_SIM_GROUPS=6 sim
check "pmctop exits 0, both ways" test "$(cat "$TMP/plain.status"),$(cat "$TMP/sim.status")" = "0,0"
fds() { python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["self"]["fds"])' "$1"; }
rows() {
	python3 - "$1" "$IDLE" <<'PY'
import json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
r = [p for p in f["processes"] if p["pid"] == int(sys.argv[2])]
print("ok" if r and not r[0].get("not_counted") and r[0]["pf"] is not None and not r[0].get("estimated") else r)
PY
}
a=$(fds "$TMP/plain.json")
b=$(fds "$TMP/sim.json")
diag "descriptors: $a plain, $b with PMCTOP_SIM_GROUPS=6"
check "six groups a thread take 10 more descriptors for each of the 21 threads" test "$((b - a))" = 210
check "the process is counted both ways" sh -c "[ '$(rows "$TMP/plain.json")' = ok ] && [ '$(rows "$TMP/sim.json")' = ok ]"

# short of descriptors: as a real PMU's layout does, the simulated one falls back to the
# software group alone (4 descriptors a thread) for what does not fit, and says so, instead
# of leaving the process uncounted (21 x 14 = 294 descriptors do not fit in 200; 21 x 4 do)
(ulimit -n 200 && PMCTOP_SIM_GROUPS=6 "$PMCTOP" -b -p "$IDLE" -d 0.3 -n 3 -o json \
	>"$TMP/short.json" 2>"$TMP/short.err"; echo $? >"$TMP/short.status")
check "pmctop exits 0 short of descriptors" test "$(cat "$TMP/short.status")" = 0
check "the process is counted on the software group" test "$(rows "$TMP/short.json")" = ok
check "at most 200 descriptors" test "$(fds "$TMP/short.json")" -le 200
check "fewer than the whole layout would take" test "$(fds "$TMP/short.json")" -lt "$b"
check "the fallback is said" grep -q "count software events alone" "$TMP/short.json" "$TMP/short.err"
done_testing
