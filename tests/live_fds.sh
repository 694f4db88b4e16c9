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
# 40 descriptors: the busy process and a few others fit, the rest do not
# shellcheck disable=SC2086
sh -c 'ulimit -n 40; exec "$@"' _ "$PMCTOP" -b -n 3 -d 0.5 -o json $only >"$TMP/f.json" 2>"$TMP/f.err"
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
done_testing
