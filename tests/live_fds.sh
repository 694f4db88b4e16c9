# Live: with few file descriptors pmctop keeps running, counts the busiest processes first and
# says how many it could not count. The processes are the test's own: a busy one and a dozen
# idle ones, in a PID namespace of the test's own (or named with -p where there is none).
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

background "$WORKLOAD" spin 1 8 "$TMP/spin.log"
busy=$BG
pids="$$,$busy"
for _ in $(seq 12); do
	background "$WORKLOAD" sleep 10
	pids="$pids,$BG"
done
sleep 0.3
only=""
[ "$ISOLATED" = yes ] || only="-p $pids"
# 40 descriptors: with per-task events the busy process and a few others fit, the rest do not
# shellcheck disable=SC2086
sh -c 'ulimit -n 40; exec "$@"' _ "$PMCTOP" -b -n 3 -d 0.5 -o json --task-counts=perf $only \
	>"$TMP/f.json" 2>"$TMP/f.err"
st=$?
sed 's/^/# stderr: /' "$TMP/f.err"
python3 - "$TMP/f.json" "$busy" <<'PY' >"$TMP/f.rows"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
counted = [p for p in last["processes"] if not p.get("not_counted")]
uncounted = [p for p in last["processes"] if p.get("not_counted") == "out of file descriptors"]
busy = [p for p in last["processes"] if p["pid"] == int(sys.argv[2])]
print(len(counted), len(uncounted), "counted" if busy and not busy[0].get("not_counted") else "not-counted")
PY
read -r counted uncounted busyst <"$TMP/f.rows"
diag "counted $counted, not counted $uncounted; the busy process: $busyst"
check "pmctop keeps running and exits 0" test "$st" = 0
check "three frames" test "$(wc -l <"$TMP/f.json")" = 3
check "it says it ran out of descriptors, once" test "$(grep -c 'out of file descriptors' "$TMP/f.err")" = 1
check "some processes are counted" test "$counted" -ge 1
check "the others are listed as not counted" test "$uncounted" -ge 1
check "the busiest process is among the counted" test "$busyst" = counted
# and its %CPU is the CPU time it really got in the last frame
oracle "$TMP/f.json" "$TMP/spin.log" cpu "$busy" | tail -n 1 >"$TMP/cmp"
read -r _ got want <"$TMP/cmp"
check "its %CPU $got is the ${want} % it got" agree "$got" "$want" 0.10 5

# counted from /proc (the default without a PMU), no descriptor is held per task: the same 40
# count every process, and nothing is said about descriptors
# shellcheck disable=SC2086
sh -c 'ulimit -n 40; exec "$@"' _ "$PMCTOP" -b -n 3 -d 0.5 -o json --task-counts=proc $only \
	>"$TMP/p.json" 2>"$TMP/p.err"
st=$?
sed 's/^/# proc stderr: /' "$TMP/p.err"
python3 - "$TMP/p.json" <<'PY' >"$TMP/p.rows"
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
print(len(last["processes"]), sum(1 for p in last["processes"] if p.get("not_counted")),
      "proc" if "task counts from /proc" in last["mode"] else "other")
PY
read -r listed uncounted mode <"$TMP/p.rows"
diag "from /proc: $listed listed, $uncounted not counted, mode $mode"
check "from /proc with 40 descriptors: exits 0" test "$st" = 0
check "from /proc: the mode says so" test "$mode" = proc
check "from /proc: all $listed processes counted (at least the 14 of the test)" \
	sh -c 'test "$1" -ge 14 && test "$2" = 0' _ "$listed" "$uncounted"
check "from /proc: nothing said about descriptors" sh -c '! grep -q "descriptors" "$1"' _ "$TMP/p.err"
done_testing
