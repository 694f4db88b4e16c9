# Live: page-fault samples of a process land on the four pages it keeps faulting, in its mapping,
# one sample per fault the process logged having done.
. "$top_srcdir/tests/lib.sh"
exclusive
RATE=2000

background "$WORKLOAD" hotpages $RATE 8 "$TMP/hot.log" >"$TMP/addrs"
sleep 0.5
"$PMCTOP" -b --sample "$BG" -n 4 -d 1 -o json --top 4 >"$TMP/s.json" 2>"$TMP/s.err"
check "pmctop -b --sample exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/s.err"
check "the source is named on stderr with what it means" \
	grep -q "sampling pid $BG with page faults: first touches, copy-on-write and refaults" "$TMP/s.err"
python3 - "$TMP/s.json" "$TMP/addrs" $RATE <<'PY' >"$TMP/verdict"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
want = sorted(int(a, 16) for a in open(sys.argv[2]).read().split())
rate = float(sys.argv[3])
last = frames[-1]
got = sorted(int(p["page"], 16) for p in last["pages"])
print("frames", len(frames))
print("top4", "ok" if got == want else "got %s want %s" % ([hex(g) for g in got], [hex(w) for w in want]))
print("mapping", "ok" if all("memfd:pmctop-hot" in p["mapping"] for p in last["pages"]) else [p["mapping"] for p in last["pages"]])
print("lost", max(f["lost"] for f in frames))
print("source", last["source"])
PY
sed 's/^/# /' "$TMP/verdict"
check "four frames (the first at once, with no rate yet)" grep -qx "frames 4" "$TMP/verdict"
check "the four hot pages are the top four" grep -qx "top4 ok" "$TMP/verdict"
check "in the right mapping" grep -qx "mapping ok" "$TMP/verdict"
check "no samples lost at this rate" grep -qx "lost 0" "$TMP/verdict"
# the first interval begins at the attach; the others must show one sample per fault done
oracle "$TMP/s.json" "$TMP/hot.log" samples | tail -n 2 >"$TMP/rates"
sed 's/^/# time, samples\/s, faults\/s logged: /' "$TMP/rates"
per_fault() {
	[ "$(wc -l <"$TMP/rates")" = 2 ] || return 1
	while read -r _ got want; do
		agree "$got" "$want" 0.10 20 && awk -v w="$want" -v min=$((RATE / 10)) 'BEGIN { exit !(w >= min) }' || return 1
	done <"$TMP/rates"
}
check "one sample per fault the workload did" per_fault
check "the pane names the source" grep -qx "source page faults" "$TMP/verdict"

# perf as an oracle: its sampled addresses put the same four pages on top
if command -v perf >/dev/null && perf record -q -o /dev/null -e page-faults -c 1 true 2>/dev/null; then
	background "$WORKLOAD" hotpages $RATE 4 >"$TMP/addrs2"
	sleep 0.3
	timeout -s INT 1.5 perf record -q -e page-faults -c 1 -d -p "$BG" -o "$TMP/perf.data" 2>/dev/null
	perf script -i "$TMP/perf.data" -F addr 2>/dev/null | python3 -c '
import collections, sys
c = collections.Counter(int(l, 16) & ~4095 for l in sys.stdin if l.strip())
for page in sorted(p for p, _ in c.most_common(4)):
    print(hex(page))' >"$TMP/perf.top"
	python3 -c 'import sys; [print(hex(int(l, 16))) for l in sorted(open(sys.argv[1]).read().split(), key=lambda a: int(a, 16))]' "$TMP/addrs2" >"$TMP/want.top"
	diag "perf's top pages: $(cat "$TMP/perf.top" | tr '\n' ' ')"
	check "perf record -d agrees on the four hot pages" cmp -s "$TMP/perf.top" "$TMP/want.top"
else
	skip "perf is not installed or cannot record here"
fi

# record -> replay: the frames come back the same, samples and mappings included
background "$WORKLOAD" hotpages $RATE 5 >/dev/null
sleep 0.3
"$PMCTOP" -b --sample "$BG" -n 2 -d 0.5 -o json --record "$TMP/s.rec" >"$TMP/live.json" 2>/dev/null
"$PMCTOP" -b --replay "$TMP/s.rec" --sample "$BG" -d 0 -o json >"$TMP/replayed.json" 2>/dev/null
check "a sampling recording replays to the same frames" cmp "$TMP/live.json" "$TMP/replayed.json"
check "the recording holds sample and map lines" \
	sh -c 'grep -q "^sample " "$1" && grep -q "^map .*memfd:pmctop-hot" "$1"' _ "$TMP/s.rec"

# the rings overflow while pmctop is stopped: the drops are counted and shown, sampling goes on
# (a fixed period of 1: left to itself the period would rise to keep the rate down)
background "$WORKLOAD" hotpages 40000 30 "$TMP/over.log" >/dev/null
sleep 0.3
"$PMCTOP" -b --sample "$BG" --sample-period 1 -n 8 -d 0.5 -o json >"$TMP/o.json" 2>"$TMP/o.err" &
p=$!
sleep 1.2
kill -STOP $p
# stay stopped until the workload has faulted far more than the rings hold (2 x 512 KiB of
# samples of about 50 bytes: about 21000), however slowly a loaded machine lets it run
minflt() { awk '{ print $10 }' "/proc/$BG/stat" 2>/dev/null || echo 0; }
start_flt=$(minflt)
faulted() { [ $(($(minflt) - start_flt)) -ge 80000 ]; }
wait_until 20 faulted
diag "faults while pmctop was stopped: $(($(minflt) - start_flt))"
kill -CONT $p
wait $p
st=$?
python3 - "$TMP/o.json" <<'PY' >"$TMP/o.verdict"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])]
print("per frame: lost, samples/s:", " | ".join("%d %s" % (o["lost"], o["samples_per_s"]) for o in f))
# the first frame comes at once: no interval, no rate yet (null, never 0)
print("first", "ok" if f[0]["interval"] is None and f[0]["samples_per_s"] is None else f[0])
print("frames", len(f))
print("lost", f[-1]["lost"])
print("after", f[-1]["samples_per_s"])
PY
sed 's/^/# /' "$TMP/o.verdict"
check "an overflowing ring is not fatal (status $st)" test "$st" = 0
check "all eight frames" grep -qx "frames 8" "$TMP/o.verdict"
check "the first has no rate yet (null, not 0)" grep -qx "first ok" "$TMP/o.verdict"
check "the dropped samples are counted" sh -c '! grep -qx "lost 0" "$1"' _ "$TMP/o.verdict"
# after the overflow the last frame shows the faults the workload did, all of them sampled
oracle "$TMP/o.json" "$TMP/over.log" samples | tail -n 1 >"$TMP/after"
read -r _ got want <"$TMP/after"
check "sampling goes on after the overflow ($got samples/s for $want faults/s)" agree "$got" "$want" 0.10 20

# the sampled process exits: the run ends after a last frame, status 0, and says why (as
# perf record -p does), instead of going on forever with nothing to sample
"$WORKLOAD" faults 2000 1.5 &
gone=$!
timeout 60 "$PMCTOP" -b --sample "$gone" -d 0.3 -o json >"$TMP/gone.json" 2>"$TMP/gone.err"
st=$?
wait "$gone" 2>/dev/null
check "sampling a process that exits ends with status 0 (status $st)" test "$st" = 0
check "and says the process exited" grep -q "^pmctop: process $gone exited$" "$TMP/gone.err"
check "after the frames it had" sh -c 'test "$(wc -l <"$1")" -ge 2' _ "$TMP/gone.json"

# --sample on a pid that does not exist
"$PMCTOP" -b --sample 4000000 -n 1 >/dev/null 2>"$TMP/bad.err"
check "--sample of a missing pid exits 2" test $? = 2
check "and says so" grep -q "no process with pid '4000000'" "$TMP/bad.err"
done_testing
