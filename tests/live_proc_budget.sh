# Live, in a PID namespace of its own, as nobody (no BPF; its /proc backend counts, switches
# from the threads' schedstat files): a process of 24 threads that each sleep 2 ms 300 times has
# 2 of its threads read a tick, not 24 (strace counts the reads); its switches are marked
# estimated while so read, and summed over the frames they are those of --read-all (every thread
# read every tick, nothing estimated) and of the threads' own count (getrusage). /proc is not
# listed again while no pid is given, and a process started later is shown all the same.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

need_isolation
if ! command -v strace >/dev/null; then
	skip_all "strace is not installed: the reads cannot be counted"
fi
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "needs root to drop to nobody"
	done_testing
	exit 0
fi
# nobody runs copies, and writes its logs where it may
cp "$PMCTOP" "$TMP/pmctop"
cp "$WORKLOAD" "$TMP/workload"
chmod 755 "$TMP" "$TMP/pmctop" "$TMP/workload"
mkdir "$TMP/w"
chmod 777 "$TMP/w"
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"

THREADS=24
SLEEPS=300
EV="-e task-clock,context-switches --task-counts=proc"
LOG=$TMP/w/team.log
PART=$TMP/part.json
ALL=$TMP/all.json

# frames FILE: its frames so far (a JSON line each)
frames() { wc -l <"$1"; }
has_frames() { [ "$(frames "$1")" -ge "$2" ]; }
# listings: the listings of /proc by the strace'd pmctop so far
listings() { proc_listings "$TMP/strace"; }

mkfifo "$TMP/go"
background $NOBODY "$TMP/workload" team $THREADS $SLEEPS "$TMP/go" "$LOG"
wl=$BG
wait_until 30 grep -qs ready "$LOG" || diag "the team did not start"
# shellcheck disable=SC2086
ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=pread64,getdents64 -o "$TMP/strace" \
	$NOBODY "$TMP/pmctop" -b -d 0.2 $EV -o json >"$PART" 2>"$TMP/part.err" &
st=$!
# shellcheck disable=SC2086
$NOBODY "$TMP/pmctop" -b -d 0.2 $EV --read-all -o json >"$ALL" 2>"$TMP/all.err" &
pa=$!
KILL_PIDS="$KILL_PIDS $st $pa"
# pmctop under strace (strace itself does not pass a TERM on)
TRACED=""
wait_until 30 traced_child $st pmctop || diag "pmctop did not start under strace"
pp=$TRACED
KILL_PIDS="$KILL_PIDS $pp"
# both have read every thread twice (their first two reads, which take each thread's rate)
wait_until 60 has_frames "$PART" 4 || diag "no frames from the run that reads part"
wait_until 60 has_frames "$ALL" 4 || diag "no frames from --read-all"

# no pid given: /proc is not listed again (the nap starts no process; the grep before it does)
f1=$(frames "$PART")
l1=$(listings)
nap 4
l2=$(listings)
f2=$(frames "$PART")
diag "/proc listed $((l2 - l1)) times in $((f2 - f1)) frames while no process started"
check "frames were made while no process started ($((f2 - f1)))" test $((f2 - f1)) -ge 4
# the wc's and the grep's pids: a listing each, and one more after it; a rescan (every 10 s)
# may fall in the nap
check "/proc was not listed each frame ($((l2 - l1)) listings in $((f2 - f1)) frames)" \
	test $((l2 - l1)) -le 4 -a $((2 * (l2 - l1))) -lt $((f2 - f1))

echo go >"$TMP/go"
wait_until 120 grep -qs switches "$LOG" || diag "the team's work did not end"
# a process started now: pmctop lists /proc again and shows it
background "$WORKLOAD" sleep 120
late=$BG
shown() { grep -q "\"pid\": *$late[,}]" "$PART"; }
# within 6 s: /proc is listed again for the pid given, not for the rescan every 10 s
check "a process started later is shown" wait_until 6 shown
# the last reads after the work: every thread read since it last ran, twice over
f=$(frames "$PART")
wait_until 60 has_frames "$PART" $((f + 16)) || diag "the run that reads part made no frames"
f=$(frames "$ALL")
wait_until 60 has_frames "$ALL" $((f + 4)) || diag "--read-all made no frames"
traced_child $st pmctop || diag "pmctop under strace not found: strace is killed"
pp=$TRACED
[ -n "$pp" ] || kill -KILL $st
kill -TERM $pp $pa
wait $st
sp=$?
wait $pa
sa=$?
check "pmctop reading part of the threads exits 0" test $sp = 0
check "pmctop --read-all exits 0" test $sa = 0

tsw=$(grep switches "$LOG" | cut -d' ' -f2)
read -r psw pest pran _ _ <<EOF
$(switch_sums "$PART" "$wl")
EOF
read -r asw aest aran _ _ <<EOF
$(switch_sums "$ALL" "$wl")
EOF
nf=$(frames "$PART")
reads=$(grep -c "^[0-9]* *pread64([0-9]*</proc/$wl/task/[0-9]*/schedstat>" "$TMP/strace")
diag "the threads' own count: $tsw switches; read in part: $psw ($pest of $pran frames estimated);"
diag "--read-all: $asw ($aest of $aran estimated); $reads schedstat reads of the team in $nf frames"
check "the threads counted their switches" test "${tsw:-0}" -ge $((THREADS * SLEEPS))
check "read in part, its switches were marked estimated ($pest frames)" test "$pest" -ge 3
check "--read-all marks none estimated ($aest)" test "$aest" = 0
# the first two reads take all 24 threads, then at most 2 a tick
check "at most 2 of the 24 threads read a tick after the first two ($reads in $nf frames)" \
	test "$reads" -le $((2 * THREADS + 2 * nf))
check "fewer reads than every thread every frame ($reads < $((THREADS * nf / 2)))" \
	test "$reads" -lt $((THREADS * nf / 2))
# summed over the frames, the guesses gave way to the kernel's counts: never less than them,
# and no more than 5 % over (a guess that overshot is held until the kernel's count passes it)
check "read in part, the switches summed ($psw) are no fewer than --read-all's ($asw)" \
	test "$psw" -ge "$asw"
check "read in part, the switches summed ($psw) within 5 % of --read-all's ($asw)" \
	agree "$psw" "$asw" 0.05 20
# each thread also switched to wait for the start and after its loop, and the main thread
check "--read-all's switches ($asw) are the threads' own ($tsw), and a few per thread more" \
	within "$asw" "$tsw" $((tsw + 8 * THREADS + 50))
done_testing
