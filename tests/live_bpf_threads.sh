# Live, thread rows (-H) counted by BPF: a thread that has not run since the last tick is not read
# again (its stat file is read at least every 16 ticks), while one that runs is read each tick; the
# leader's file is read once a tick, for its process row and its thread row alike; a thread that
# ends and one that starts within a tick, the count of threads unchanged, are seen within a few
# ticks; the rows stay right: the busy thread's CPU time is its own, the idle threads' is none.
. "$top_srcdir/tests/lib.sh"
isolate

if [ "$(id -u)" != 0 ]; then
	skip_all "BPF needs root (CAP_BPF and CAP_PERFMON)"
fi
if ! command -v strace >/dev/null; then
	skip "no strace to count the reads"
	done_testing
	exit 0
fi
"$PMCTOP" -b -H -n 1 -d 0.2 -p $$ -o json >"$TMP/probe.json" 2>"$TMP/probe.err"
if ! grep -q 'processes by BPF at context switches' "$TMP/probe.json"; then
	sed 's/^/# probe stderr: /' "$TMP/probe.err"
	skip "thread rows are not counted by BPF here (a build without it)"
	done_testing
	exit 0
fi

IDLE=19
FRAMES=60
background "$WORKLOAD" swap $IDLE 120 "$TMP/swap.log"
W=$BG
# the main thread, the busy one and the idle ones
all_there() { grep -q "^Threads:[[:space:]]*$((IDLE + 2))\$" "/proc/$W/status"; }
# and each has said its tid (the busy one once it ran)
all_said() { all_there && [ "$(grep -c '^idle ' "$TMP/swap.log")" = $IDLE ] && grep -q '^busy ' "$TMP/swap.log"; }
wait_until 30 all_said
busy=$(sed -n 's/^busy //p' "$TMP/swap.log")
before=$(ls "/proc/$W/task")

# LeakSanitizer cannot run under ptrace: in a sanitizer build, strace makes it fail. Only the
# preads stop pmctop (--seccomp-bpf, where strace has it): a stop between its two map reads would
# make it read every row
SECCOMP=
strace --seccomp-bpf -f -e trace=pread64 -o /dev/null true 2>/dev/null && SECCOMP=--seccomp-bpf
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace $SECCOMP -f -y -e trace=pread64 -o "$TMP/h.strace" \
	"$PMCTOP" -b -H -p "$W" -d 0.1 -n $FRAMES -o json >"$TMP/h.json" 2>"$TMP/h.err" &
P=$!
KILL_PIDS="$KILL_PIDS $P"
frames() { wc -l <"$TMP/h.json"; }
frames_from() { [ "$(frames)" -ge "$1" ]; }
# a third of the way: one idle thread ends and another starts, the count unchanged
wait_until 60 frames_from $((FRAMES / 3))
kill -USR1 "$W"
swapped() {
	grep -q '^swapped' "$TMP/swap.log" && all_there &&
		[ "$(ls "/proc/$W/task" | tr '\n' ' ')" != "$(printf '%s\n' "$before" | tr '\n' ' ')" ]
}
wait_until 10 swapped
after=$(ls "/proc/$W/task")
new=$(printf '%s\n' "$after" | grep -vxF "$before")
gone=$(printf '%s\n' "$before" | grep -vxF "$after")
diag "busy thread $busy; swapped out $gone, in $new"
sed "s/^/# swap log: /" "$TMP/swap.log" | tail -n 3
# 8 ticks later (a row gone is shown once more, then not)
n0=$(frames)
wait_until 60 frames_from $((n0 + 8)) || diag "8 frames after the swap did not come: the checks see the last"
# last_tids: the tids of the rows of the last whole frame, one a line
last_tids() {
	python3 - "$TMP/h.json" "$W" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.endswith("\n")]
f = json.loads(lines[-1])
print("\n".join(str(r["tid"]) for r in f["threads"] if r["pid"] == int(sys.argv[2])))
PY
}
last_tids >"$TMP/tids"
check "8 frames after the swap: the new thread $new has a row" grep -qx "$new" "$TMP/tids"
check "8 frames after the swap: the thread $gone that ended has none" \
	sh -c '! grep -qx "$1" "$2"' _ "$gone" "$TMP/tids"
check "8 frames after the swap: a row for each thread there is" \
	test "$(sort -n "$TMP/tids" | tr '\n' ' ')" = "$(printf '%s\n' "$after" | sort -n | tr '\n' ' ')"
wait "$P"
check "pmctop -H exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/h.err" | grep -v 'no hardware PMU' | head -5

# reads TID: the preads of thread TID's stat file
reads() { grep -c "pread64([0-9]*</proc/$W/task/$1/stat>" "$TMP/h.strace"; }
rb=$(reads "$busy")
rl=$(reads "$W")
most=0
total=0
for t in $after; do
	[ "$t" = "$W" ] || [ "$t" = "$busy" ] || [ "$t" = "$new" ] && continue
	r=$(reads "$t")
	total=$((total + r))
	[ "$r" -gt "$most" ] && most=$r
done
diag "preads of the stat files over $FRAMES frames: busy $rb, leader $rl, idle at most $most ($total over $((IDLE - 1)))"
check "the busy thread's stat is read in most frames ($rb of $FRAMES)" test "$rb" -ge $((FRAMES / 2))
# (a switch of the busy thread between the program's two map reads makes a tick read every row)
check "an idle thread's stat is read in half the frames at most ($most of $FRAMES)" \
	test "$most" -le $((FRAMES / 2))
# (and every 16th frame twice, when the process row reads the process's own file instead)
check "the leader's file is read once a frame, for both its rows ($rl of $FRAMES)" \
	test "$rl" -le $((FRAMES + FRAMES / 4))

# the rows of the last frame: the busy thread's CPU time is its own, the idle threads' none
python3 - "$TMP/h.json" "$W" "$busy" >"$TMP/rows" <<'PY'
import json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
for r in f["threads"]:
    if r["pid"] == int(sys.argv[2]):
        print(r["tid"], r["state"], r["cputime"])
PY
sed 's/^/# last frame: tid state cputime: /' "$TMP/rows" | head -4
# its stat now, and how long after the last frame that is: it ran on since at most that long
own=$(awk '{ print $14 + $15 }' "/proc/$W/task/$busy/stat")
after=$(python3 -c 'import json, sys, time
print(time.time() - json.loads(open(sys.argv[1]).readlines()[-1])["time"])' "$TMP/h.json")
hz=$(getconf CLK_TCK)
check "the busy thread's CPU time is its own (its stat's now, less at most the $after s since)" \
	awk -v b="$busy" -v own="$own" -v hz="$hz" -v s="$after" '$1 == b { f = 1; d = own / hz - $3
		if (d < -0.02 || d > s + 0.05) exit 1 } END { exit !f }' "$TMP/rows"
check "the idle threads sleep and used no CPU time (a tick at most)" \
	awk -v b="$busy" -v w="$W" '$1 != b && $1 != w { n++; if ($2 != "S" || $3 > 0.01) exit 1 } END { exit n < 18 }' "$TMP/rows"

# Thread rows of every process (-H, nothing filtered): the program sums them all, no process is
# named to it. Filtered (-u), each process whose rows are shown is named in a table of 1024: past
# it, those rows say they are not counted, and the naming is tried again 16 ticks later, not each
# tick. 1100 processes of nobody, all but the test's own.
if [ "$ISOLATED" = yes ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	kill "$W"
	wait "$W" 2>/dev/null
	MANY=1100
	i=0
	while [ $i -lt $MANY ]; do
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$WORKLOAD" sleep 600 &
		KILL_PIDS="$KILL_PIDS $!"
		i=$((i + 1))
	done
	nobodies() { [ "$(ps -u nobody -o pid= | wc -l)" -ge $MANY ]; }
	wait_until 60 nobodies
	run_bpf() {
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -e trace=bpf -o "$TMP/$1.strace" \
			"$PMCTOP" -b -H -n 20 -d 0.1 -o csv $2 >"$TMP/$1.csv" 2>"$TMP/$1.err"
	}
	run_bpf all ""
	# the updates of the table of processes named (the map named "wanted")
	wanted_fd() { sed -n 's/.*BPF_MAP_CREATE.*map_name="wanted".* = \([0-9]*\)$/\1/p' "$TMP/$1.strace" | tail -n 1; }
	updates() { grep -c "BPF_MAP_UPDATE_ELEM, {map_fd=$(wanted_fd "$1")," "$TMP/$1.strace"; }
	failed() { grep "BPF_MAP_UPDATE_ELEM, {map_fd=$(wanted_fd "$1")," "$TMP/$1.strace" | grep -c '= -1'; }
	check "-H, nothing filtered: no process named to the program ($(updates all) in 20 frames)" \
		test -n "$(wanted_fd all)" -a "$(updates all)" = 0
	run_bpf nobody "-u nobody"
	beyond=$((MANY - 1024))
	diag "-H -u nobody: $(updates nobody) map updates, $(failed nobody) refused, $beyond processes past the table"
	check "-H -u nobody: the processes past the table are named again now and then, not each tick" \
		test "$(failed nobody)" -le $((beyond * 3))
	# the last frame's thread rows of nobody's processes: counted, or said not to be
	awk -F, -v t="$(tail -n 1 "$TMP/nobody.csv" | cut -d, -f1)" '$1 == t && $2 == "thread" &&
		$4 == "nobody"' "$TMP/nobody.csv" >"$TMP/rows"
	said=$(grep -c ',too many processes for thread rows,' "$TMP/rows")
	check "-H -u nobody: $said thread rows past the table say they are not counted ($beyond)" \
		test "$said" = "$beyond"
	check "-H -u nobody: the rest are counted ($(($(wc -l <"$TMP/rows") - said)) rows, 1024)" \
		test "$(($(wc -l <"$TMP/rows") - said))" = 1024
else
	skip "no PID namespace of its own, or no setpriv or nobody, for 1100 processes of nobody"
fi
done_testing
