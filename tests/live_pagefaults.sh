# Live: the page-fault rate pmctop reports for a process is within 10 % of the faults the process
# logged over the same interval, and the columns are those of the mode pmctop says it is in.
. "$top_srcdir/tests/lib.sh"
exclusive
RATE=2000

background "$WORKLOAD" faults $RATE 8 "$TMP/faults.log"
sleep 0.5
"$PMCTOP" -b -p "$BG" -d 1 -n 5 -o json >"$TMP/pf.json" 2>"$TMP/pf.err"
check "pmctop -b -p exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/pf.err"
# the rows of the workload, frame by frame: reported rate and the rate the workload logged
oracle "$TMP/pf.json" "$TMP/faults.log" pf "$BG" >"$TMP/rates"
diag "asked for $RATE/s; per frame, time, reported and logged: $(tr '\n' ';' <"$TMP/rates")"
# five frames: the first at once, without counts (the oracle skips it), then four intervals
check "four intervals for the workload" test "$(grep -vc missing "$TMP/rates")" = 4
# the first interval begins at the attach and may hold the faults of starting up: not compared
tail -n 3 "$TMP/rates" >"$TMP/compared"
while read -r t got want; do
	check "page-fault rate $got within 10 % of the $want/s the workload did" \
		agree "$got" "$want" 0.10 20
done <"$TMP/compared"
check "the workload really faulted (at least $((RATE / 10))/s in each compared frame)" \
	awk -v min=$((RATE / 10)) '$3 < min { exit 1 }' "$TMP/compared"

# what the mode implies: with hardware counters, hardware columns; without, none and one notice
mode=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["mode"])' "$TMP/pf.json")
diag "mode: $mode"
hwcols() { head -1 "$TMP/pf.json" | grep -q '"ipc":'; }
case $mode in
"hardware events"*)
	check "hardware mode: no software-only notice" sh -c '! grep -q "no hardware PMU" "$1"' _ "$TMP/pf.err"
	check "hardware mode: the IPC column is there" hwcols
	;;
"no hardware PMU"*)
	check "software-only mode said once on stderr" test "$(grep -c 'no hardware PMU' "$TMP/pf.err")" = 1
	# the schema is the same on every machine: the IPC field is there, and never a number
	check "software mode: IPC is null, never a number" \
		sh -c 'grep -q "\"ipc\":null" "$1" && ! grep -q "\"ipc\":[0-9-]" "$1"' _ "$TMP/pf.json"
	;;
*)
	not_ok "pmctop reports an unknown mode: $mode"
	;;
esac
# pmctop's own cost in every live frame: no CPU share before an interval, then one of a CPU at most
# per frame on this 2-CPU machine, memory, and descriptors within the limit
self_ok() {
	python3 - "$1" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
s = [f["self"] for f in frames]
assert s[0]["cpu"] is None, s[0]
for x in s[1:]:
    assert x["cpu"] is not None and 0 <= x["cpu"] <= 200, x
for x in s:
    assert x["rss_kib"] > 500 and 3 <= x["fds"] <= x["max_fds"], x
print("# self per frame:", " ".join("%s%%/%dKiB/%dfd" % (x["cpu"], x["rss_kib"], x["fds"]) for x in s))
PY
}
check "each live frame gives pmctop's own CPU share, memory and descriptors" self_ok "$TMP/pf.json"
"$PMCTOP" -b --replay "$top_srcdir/tests/data/sw.rec" -d 0 -o json >"$TMP/replay.json" 2>/dev/null
check "a replay's frames carry no cost of the pmctop replaying them" sh -c '! grep -q "\"self\"" "$1"' _ "$TMP/replay.json"
done_testing
