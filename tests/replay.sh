# Replay of recordings through the real binary, and a live record -> replay round trip.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/hw.rec"

check "replayed text frames equal the golden file" \
	sh -c '"$PMCTOP" -b -d 0 --replay "$1" | diff -u "$2" - >&2' _ "$REC" "$top_srcdir/tests/golden/hw.txt"

# the pids of the last frame's process table, in order
pids_in_order() {
	awk '/^ *(PID|PROCS) /{t=1; s=""; next} t && NF==0 {t=0; last=s} t {s = s $1 " "} END {print last}' "$1"
}
# the first frame comes at once, without counts: -n 2 is the first interval of counts
"$PMCTOP" -b -n 2 -d 0 -s cpi --replay "$REC" >"$TMP/cpi.txt" 2>&1
check "-s cpi puts the highest CPI first" test "$(pids_in_order "$TMP/cpi.txt")" = "202 101 303 404 "
"$PMCTOP" -b -n 2 -d 0 -s cpi -r --replay "$REC" >"$TMP/cpir.txt" 2>&1
check "-s cpi -r puts the lowest CPI first" test "$(pids_in_order "$TMP/cpir.txt")" = "101 202 303 404 "
check "-n 2 prints two frames" test "$(grep -c '^pmctop - ' "$TMP/cpi.txt")" = 2
"$PMCTOP" -b -n 1 -d 0 --replay "$REC" >"$TMP/first.txt" 2>&1
check "-n 1 prints the first frame only: /proc's columns, no counts (never 0)" sh -c '
	test "$(grep -c "^pmctop - " "$1")" = 1 &&
	grep -q "^pmctop - .*, interval - (first frame: counters from the next)" "$1" &&
	grep -q "^    202 bob          1 R  3.20g  20.0   1:01.20      -     -     -     -      -" "$1"' _ "$TMP/first.txt"
"$PMCTOP" -b -n 2 -d 0 -s res --replay "$REC" >"$TMP/res.txt" 2>&1
check "-s res puts the most resident memory first" test "$(pids_in_order "$TMP/res.txt")" = "202 101 404 303 "
"$PMCTOP" -b -d 0 --replay "$top_srcdir/tests/data/sw.rec" >"$TMP/old.txt" 2>&1
check "a recording from before RES, %MEM and TIME+ shows them empty, never 0" \
	sh -c 'grep -q "^ *[0-9][0-9]* root  *[0-9]  *S      -     -         - " "$1" && ! grep -Eq "^ *[0-9]+ root +[0-9]+ [A-Z] +0 " "$1"' _ "$TMP/old.txt"
"$PMCTOP" -b -d 0 --replay "$REC" >"$TMP/nok.txt" 2>&1
"$PMCTOP" -b -d 0 --kernel-threads --replay "$REC" >"$TMP/k.txt" 2>&1
check "kernel threads are left out unless asked for" sh -c '! grep -q kthreadd "$1"' _ "$TMP/nok.txt"
check "--kernel-threads lists the recording's kernel thread" test "$(pids_in_order "$TMP/k.txt")" = "202 101 505 2 303 404 "
"$PMCTOP" -b -d 0 --per-user --replay "$REC" >"$TMP/users.txt" 2>&1
check "--per-user: one row per user, the busiest first" test "$(pids_in_order "$TMP/users.txt")" = "2 1 1 1 "
check "--per-user: alice's IPC is her summed instructions over summed cycles" \
	grep -q "^      2 alice        6   588288   3.5  82:07.57  100.0  2.90  1.97" "$TMP/users.txt"
"$PMCTOP" -b -d 0 -p 202 --replay "$REC" >"$TMP/p.txt"
check "-p keeps only that pid" test "$(pids_in_order "$TMP/p.txt")" = "202 "
"$PMCTOP" -b -d 0 -n 3 -u alice --replay "$REC" >"$TMP/u.txt"
check "-u keeps only that user's processes" test "$(pids_in_order "$TMP/u.txt")" = "101 505 "

valid_json() {
	python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert "processes" in o and "cpus" in o, "fields"
    # the first frame at once, with no interval and no counts; the others with both
    assert (o["interval"] is None) == (n == 0), "interval"
    assert all((p["cpu"] is None) == (n == 0) for p in o["processes"] if "not_counted" not in p)
    assert all(p["res"] is not None and p["cputime"] is not None for p in o["processes"])
    n += 1
assert n == int(sys.argv[2]), n
' "$1" "$2"
}
"$PMCTOP" -b -d 0 -o json --replay "$REC" >"$TMP/hw.json"
check "JSON output is one valid object per frame" valid_json "$TMP/hw.json" 3
# pid 101's second frame: cache ran part of the time (estimated), l1d not at all (not running)
marks() {
	python3 -c '
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])]
p = [[(r["estimated"], r["not_running"]) for r in o["processes"] if r["pid"] == 101][0] for o in f]
sys.exit(p != [([], []), ([], []), (["cache"], ["l1d"])])' "$1"
}
check "multiplexed and not-running values are marked in JSON" marks "$TMP/hw.json"
"$PMCTOP" -b -d 0 -o csv --replay "$REC" >"$TMP/hw.csv"
check "CSV has one header and a row per process and CPU per frame" \
	test "$(grep -c '^time,' "$TMP/hw.csv"),$(wc -l <"$TMP/hw.csv")" = "1,$((1 + 3 + 4 + 3 + 4 + 3 + 5))"

start=$(date +%s%N)
"$PMCTOP" -b --replay "$REC" >/dev/null
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
check "replay keeps the recorded pace (2 s of ticks took ${elapsed} ms)" within "$elapsed" 1800 6000

# Live round trip: the frames a live run printed come back the same from its recording.
"$PMCTOP" -b -n 3 -d 0.3 -o json --record "$TMP/live.rec" >"$TMP/live.json" 2>"$TMP/live.err"
check "live run with --record exits 0" test $? = 0
"$PMCTOP" -b -d 0 -o json --replay "$TMP/live.rec" >"$TMP/replayed.json" 2>>"$TMP/live.err"
# all but pmctop's own cost, which is the live run's and no replay's
sed 's/,"self":{[^}]*}//' "$TMP/live.json" >"$TMP/live-data.json"
check "a live frame carries pmctop's own cost" grep -q '"self":{"cpu":' "$TMP/live.json"
check "replaying a live recording reproduces its frames exactly" cmp "$TMP/live-data.json" "$TMP/replayed.json"
check "the recording has a header and ticks" sh -c 'head -1 "$1" | grep -qx "pmctop-recording 1" && test "$(grep -c "^tick " "$1")" = 3' _ "$TMP/live.rec"
check "the live recording carries /proc's facts: memtotal and a procinfo line per task" \
	sh -c 'test "$(grep -c "^memtotal [1-9]" "$1")" = 3 && test "$(grep -c "^procinfo " "$1")" = "$(grep -c "^task " "$1")"' _ "$TMP/live.rec"
"$PMCTOP" -b -d 0 -o text --replay "$TMP/live.rec" >"$TMP/replayed.txt"
"$PMCTOP" -b -d 0 -o text --replay "$TMP/live.rec" --record "$TMP/again.rec" >/dev/null
check "recording a replay writes the same stream" cmp "$TMP/live.rec" "$TMP/again.rec"
check "a live recording keeps the mode as facts, not as sentences" \
	sh -c 'grep -q "^modefacts hw=0 asked=1 " "$1" && ! grep -q "^mode " "$1"' _ "$TMP/live.rec"
check "the live recording carries the uptime on its ticks" \
	sh -c 'grep "^tick " "$1" | awk "NF != 7 || \$7 <= 0 { exit 1 }"' _ "$TMP/live.rec"

# A recording that fails part way (a file size limit of 4 KiB) stops once, says so once, and the
# frames go on; the run then ends with status 1.
(
	ulimit -f 4
	trap '' XFSZ
	exec "$PMCTOP" -b -d 0 -o csv --replay "$REC" --record "$TMP/small.rec"
) >"$TMP/small.csv" 2>"$TMP/small.err"
check "a recording that fails part way ends with status 1" test $? = 1
check "the failure is said once, with the file name" \
	test "$(grep -c "cannot write the recording '$TMP/small.rec'" "$TMP/small.err")" = 1
check "every frame is still printed" cmp "$TMP/hw.csv" "$TMP/small.csv"

# --sample PID on a recording that sampled another process: no pages, never the other's
"$PMCTOP" -b -d 0 --replay "$REC" --sample 101 >"$TMP/s101.txt"
check "--sample of a process the recording did not sample shows none of another's pages" \
	sh -c 'grep -q "^Sampling pid 101: no samples of it" "$1" && ! grep -q "^RANK" "$1"' _ "$TMP/s101.txt"
"$PMCTOP" -b -d 0 -o json --replay "$REC" --sample 101 >"$TMP/s101.json"
check "and in JSON an empty page list for that pid" \
	sh -c 'test "$(grep -c "\"pid\":101,\"source\":null,\"pages\":\[\]" "$1")" = 3' _ "$TMP/s101.json"
"$PMCTOP" -b -d 0 --replay "$REC" --sample 202 >"$TMP/s202.txt"
check "--sample of the sampled process shows its pages" grep -q "^Sampling pid 202: Intel PEBS" "$TMP/s202.txt"

# A recording read from a pipe that stalls: signals still end the run at once, with status 0.
mkfifo "$TMP/fifo"
for sig in INT TERM; do
	(head -n 200 "$REC"; sleep 60) >"$TMP/fifo" &
	writer=$!
	KILL_PIDS="$KILL_PIDS $writer"
	"$PMCTOP" -b -d 0 --replay "$TMP/fifo" >"$TMP/fifo.out" 2>&1 &
	reader=$!
	# wait until it has read the header and is waiting for the rest (a sanitizer build on a
	# loaded machine can take seconds to start: a signal before then is not what is tested)
	wait_until 120 grep -q '^pmctop - ' "$TMP/fifo.out" ||
		diag "no frame from the stalled replay in 120 s"
	kill -$sig $reader
	ended() { ! kill -0 "$reader" 2>/dev/null; }
	wait_until 5 ended
	if kill -0 $reader 2>/dev/null; then
		kill -KILL $reader
		not_ok "SIG$sig ends a replay whose stream stalled"
	else
		wait $reader
		check "SIG$sig ends a replay whose stream stalled, with status 0" test $? = 0
	fi
	kill $writer 2>/dev/null
done
# A stream with no line ends is rejected after one line's worth, not read without bound.
timeout 10 "$PMCTOP" -b -d 0 --replay /dev/zero >/dev/null 2>"$TMP/zero.err"
check "--replay /dev/zero stops with status 2" test $? = 2
check "and names the overlong line" grep -q "/dev/zero:1: line longer than 65536 bytes" "$TMP/zero.err"
done_testing
