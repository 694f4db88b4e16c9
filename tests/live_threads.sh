# Live: two busy threads are summed into one process row whose %CPU is the CPU time they really
# got (under load that is less than 200 %); threads born after the attach and threads that
# exit are accounted; -H shows each thread with its own %CPU.
. "$top_srcdir/tests/lib.sh"
exclusive
# %CPU agrees with the workload's own CPU clocks within 10 % and 5 points: the log is taken every
# 10 ms and pmctop stamps a frame a little before it reads the counters
REL=0.10
ABS=5

# compare FRAMES LOG WHAT PID FIRST: each frame from the FIRSTth on agrees with the log
compare() {
	oracle "$1" "$2" "$3" "$4" | tail -n +"$5" >"$TMP/cmp"
	sed 's/^/# time, reported, logged: /' "$TMP/cmp"
	[ -s "$TMP/cmp" ] || return 1
	while read -r _ got want; do
		agree "$got" "$want" $REL $ABS || return 1
	done <"$TMP/cmp"
}

background "$WORKLOAD" spin 2 6 "$TMP/spin.log"
sleep 0.3
"$PMCTOP" -b -p "$BG" -d 1 -n 4 -o json >"$TMP/t.json" 2>/dev/null
check "four frames (the first at once, without counts)" test "$(wc -l <"$TMP/t.json")" = 4
thr=$(python3 -c 'import json, sys
f = [json.loads(l) for l in open(sys.argv[1])][-1]
print([p["threads"] for p in f["processes"] if p["pid"] == int(sys.argv[2])][0])' "$TMP/t.json" "$BG")
check "the row counts all threads (THR $thr, want 3)" test "$thr" = 3
# the first interval starts at the attach, a moment after the workload's first log line
check "%CPU of the two threads is the CPU time they got" compare "$TMP/t.json" "$TMP/spin.log" cpu "$BG" 2
kill "$BG" 2>/dev/null
wait "$BG" 2>/dev/null

# threads created after pmctop attached are counted by inheritance
late() {
	sh -c 'sleep 1; exec "$1" spin 2 6 "$2"' _ "$WORKLOAD" "$TMP/late.log" &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.3
	"$PMCTOP" -b -p "$p" -d 1 -n 4 -o json >"$TMP/late.json" 2>/dev/null
	# the last frame is after the exec and the thread creation
	compare "$TMP/late.json" "$TMP/late.log" cpu "$p" 3 &&
		awk '$3 < 10 { exit 1 }' "$TMP/cmp"	# and the threads did run in it
}
check "threads created after attach are counted" late

# threads that exit keep their counts: the row follows the CPU time, drops to about 0 once
# they are gone, never below, and there is no error
burst() {
	"$WORKLOAD" burst 2 1.5 8 "$TMP/burst.log" &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.2
	"$PMCTOP" -b -p "$p" -d 1 -n 5 -o json >"$TMP/burst.json" 2>"$TMP/burst.err"
	[ "$(wc -l <"$TMP/burst.json")" = 5 ] || return 1
	compare "$TMP/burst.json" "$TMP/burst.log" cpu "$p" 1 || return 1
	last=$(tail -1 "$TMP/cmp" | awk '{print $2}')
	within "$last" 0 5 && ! grep -v "no hardware PMU" "$TMP/burst.err" | grep -q .
}
check "threads that exit keep their counts and the row goes on" burst

# -H: each thread is counted on its own: each busy thread shows the CPU time it got, the main
# thread, which only logs, about 0
per_thread() {
	"$WORKLOAD" spin 2 8 "$TMP/h.log" &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.2
	"$PMCTOP" -b -H -p "$p" -d 1 -n 3 -o json >"$TMP/h.json" 2>/dev/null
	python3 -c 'import json, sys
f = [json.loads(l) for l in open(sys.argv[1])][-1]
for t in f["threads"]:
    print(t["tid"], t["pid"], t["cpu"])' "$TMP/h.json" >"$TMP/h.rows"
	sed 's/^/# tid pid %CPU: /' "$TMP/h.rows"
	[ "$(wc -l <"$TMP/h.rows")" = 3 ] || return 1
	[ "$(awk -v p="$p" '$2 == p' "$TMP/h.rows" | wc -l)" = 3 ] || return 1
	[ "$(awk -v p="$p" '$1 == p && $3 < 5' "$TMP/h.rows" | wc -l)" = 1 ] || return 1
	compare "$TMP/h.json" "$TMP/h.log" threads "" 3
}
check "-H shows each thread with its own %CPU" per_thread

# -H counted by BPF (the default as root): each thread's task-clock is the CPU time it got, so
# over each frame its rate agrees with its own %CPU, and the rows of the busy threads add up to
# the process's task-clock counted beside them
bpf_threads() {
	"$WORKLOAD" spin 2 8 "$TMP/b.log" &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.2
	"$PMCTOP" -b -H -p "$p" -d 1 -n 4 -e task-clock -o json >"$TMP/b.json" 2>"$TMP/b.err" &
	ph=$!
	"$PMCTOP" -b -p "$p" -d 1 -n 4 -e task-clock -o json >"$TMP/bp.json" 2>/dev/null
	wait $ph
	grep -q 'processes by BPF at context switches' "$TMP/b.json" || return 2
	python3 - "$TMP/b.json" "$TMP/bp.json" "$p" <<'PY'
import json, sys
pid = int(sys.argv[3])
th = [json.loads(l) for l in open(sys.argv[1])]
pr = [json.loads(l) for l in open(sys.argv[2])]
ok = True
for f in th[1:]:
    rows = [t for t in f["threads"] if t["pid"] == pid]
    for t in rows:
        rate = t["events"]["task-clock"] / (f["interval"] * 1e9) * 100
        good = abs(rate - t["cpu"]) <= max(5, 0.10 * t["cpu"])
        print("# tid %d: task-clock %.1f %%, %%CPU %.1f %s" % (t["tid"], rate, t["cpu"], "" if good else "DIFFERS"))
        ok &= good
    if len(rows) != 3:
        print("# %d thread rows, want 3" % len(rows))
        ok = False
tsum = sum(t["events"]["task-clock"] for f in th[1:] for t in f["threads"] if t["pid"] == pid)
psum = sum(p["events"]["task-clock"] for f in pr[1:] for p in f["processes"] if p["pid"] == pid)
print("# the thread rows' task-clock %d ns, the process row's %d ns" % (tsum, psum))
ok &= abs(tsum - psum) <= 0.05 * psum
sys.exit(0 if ok else 1)
PY
}
if [ "$(id -u)" = 0 ]; then
	bpf_threads
	r=$?
	if [ $r = 2 ]; then
		skip "BPF does not count here: $(head -1 "$TMP/b.err")"
	else
		check "-H by BPF: each thread's task-clock is its own CPU time, and they sum to the process" test $r = 0
	fi
else
	skip "BPF needs root"
fi
# Threads that replace one another, the process keeping two: every backend's thread rows follow
# the tids, not only their number (the BPF backend re-reads thread files it keeps open and must
# notice that one died and another came)
background "$WORKLOAD" relay 6 "$TMP/relay.log"
relay=$BG
backends="proc perf"
[ "$(id -u)" = 0 ] && backends="$backends bpf"
for b in $backends; do
	"$PMCTOP" -b -H -p "$relay" --task-counts=$b -d 0.2 -n 45 -o json >"$TMP/relay-$b.json" \
		2>"$TMP/relay-$b.err" &
	eval "pid_$b=\$!"
done
for b in $backends; do
	eval "wait \$pid_$b"
done
# the workers but the first (it may start before a watcher's first listing) and the last
workers=$(sed -n 's/^tid //p' "$TMP/relay.log" | sed '1d;$d')
check "the relay workload ran its workers (4 in the middle)" test "$(echo "$workers" | wc -w)" = 4
for b in $backends; do
	seen=$(python3 -c 'import json, sys
pid = int(sys.argv[2])
print(" ".join(sorted({str(t["tid"]) for l in open(sys.argv[1]) for t in json.loads(l).get("threads", []) if t["pid"] == pid})))' "$TMP/relay-$b.json" "$relay")
	missing=
	for w in $workers; do
		case " $seen " in *" $w "*) ;; *) missing="$missing $w" ;; esac
	done
	diag "--task-counts=$b: thread rows of tids $seen"
	check "--task-counts=$b -H: a row for each worker that replaced another (missing:${missing:- none})" \
		test -z "$missing"
done
done_testing
