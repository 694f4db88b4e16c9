# Live, in a PID namespace of its own, with per-task counters in the hardware-like layout (6
# groups a process, PMCTOP_SIM_GROUPS) and a descriptor limit that holds every process's
# software set and stat file but the whole layout for only some: 200 processes of one thread
# that run every tick. The attach gives the hardware sets only what the others' software sets
# and stat files leave, so no process ever waits for descriptors ("out of file descriptors"),
# none is uncounted once attached, each keeps its stat file open, and some have the whole
# layout. Then the hardware top holds: few counters are opened from frame to frame (a process
# moved out of the top and one moved in close and open theirs). The build before failed three
# of these checks: 1 or 2 processes waited for descriptors in most frames, 13 had no stat file.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

need_isolation
need_task_counters page-faults
# strace 5.3 or later: only the counters' opens stop pmctop
if ! strace -f --seccomp-bpf -e trace=perf_event_open -o /dev/null true 2>/dev/null; then
	skip_all "strace with --seccomp-bpf is not installed: the opens cannot be counted"
fi

NP=200
# a process: its software group (4 descriptors with these events) and its stat file; the whole
# layout 14 and the stat file. 200 x 5 = 1000, and 400 more: the whole layout for some 40
LIMIT=$((24 + 64 + NP * 5 + 400))
EV="-e task-clock,page-faults --task-counts=perf"
OUT=$TMP/frames.txt
: >"$TMP/pids"
for _ in $(seq $NP); do
	background "$WORKLOAD" waker 50 600
	echo "$BG" >>"$TMP/pids"
done

frames() { grep -c '^pmctop - ' "$1"; }
has_frames() { [ "$(frames "$1")" -ge "$2" ]; }
# the frame from which every process had been attached: the first without "not attached yet"
attached_at() {
	awk '/^pmctop - / { f++ } /^Tasks: / && !/not attached yet/ { print f; exit }' "$1"
}
attached() { [ -n "$(attached_at "$1")" ]; }
# pmctop's descriptors: all, those of counters, the stat files of the processes of the list
fds() {
	ls -l "/proc/$1/fd" 2>/dev/null | awk -v list="$TMP/pids" '
		BEGIN { while ((getline p <list) > 0) want[p] = 1 }
		/ -> / { all++ }
		/anon_inode:\[?perf_event\]?/ { perf++ }
		/\/task\/[0-9]+\/stat$/ {
			split($NF, f, "/")
			if (f[3] in want) stat++
		}
		END { print all + 0, perf + 0, stat + 0 }'
}

# its counters' opens, timed (only they stop it: the rest runs at full speed)
# shellcheck disable=SC2086
(ulimit -n $LIMIT && ASAN_OPTIONS=detect_leaks=0 exec strace -f --seccomp-bpf -e trace=perf_event_open -ttt -o "$TMP/opens" \
	env PMCTOP_SIM_GROUPS=6 "$PMCTOP" -b -d 0.2 $EV >"$OUT" 2>"$TMP/err") &
st=$!
KILL_PIDS="$KILL_PIDS $st"
if ! wait_until 30 traced_child $st pmctop; then
	kill -TERM $st
	skip_all "pmctop did not start under strace"
fi
pp=$TRACED
# from 12 frames after the attach (strace slows it; a loaded machine more)
wait_until 120 attached "$OUT" || diag "pmctop never had every process attached"
a=$(attached_at "$OUT")
wait_until 60 has_frames "$OUT" $((${a:-0} + 12)) || diag "pmctop made too few frames"
read -r all0 perf0 stat0 <<EOF
$(fds $pp)
EOF
t0=$(date +%s.%N)
f=$(frames "$OUT")
wait_until 60 has_frames "$OUT" $((f + 12)) || diag "pmctop made too few frames"
read -r all1 perf1 stat1 <<EOF
$(fds $pp)
EOF
t1=$(date +%s.%N)
kill -TERM $pp
wait $st
sp=$?
check "pmctop exits 0" test $sp = 0
opened=$(awk -v a="$t0" -v b="$t1" '$2 >= a && $2 <= b && /perf_event_open\(/ { n++ } END { print n + 0 }' "$TMP/opens")
total=$(grep -c 'perf_event_open(' "$TMP/opens")
diag "counters opened: $total, $opened of them in the 12 frames measured"
diag "descriptors: $all0 then $all1 ($perf0 then $perf1 of counters, $stat0 then $stat1 stat files)"
diag "$(grep -c 'out of file descriptors' "$OUT") frames with processes waiting for descriptors"
grep '^Tasks: .*not counted' "$OUT" | sed 's/.* zombie, //' | sort | uniq -c | head -5 |
	while read -r line; do diag "$line"; done
check "no frame has a process waiting for descriptors" \
	sh -c "! grep -q 'out of file descriptors' '$OUT' && ! grep -q 'out of file descriptors' '$TMP/err'"
# the frames from the first one with every process attached: none not counted but for an
# attach under way (a process started meanwhile, one moved between layouts)
check "once attached, no frame has a process not counted for want of descriptors" \
	sh -c "awk '/^Tasks: / { if (s && /not counted/ && !/not counted \\((attaching|not attached yet)\\)\$/) bad = 1; if (!/not attached yet/) s = 1 } END { exit !s || bad }' '$OUT'"
check "the software sets were not all the limit held: some have the whole layout ($perf1 counters)" \
	test "$perf1" -gt $((NP * 4 + 100))
check "every process keeps its stat file ($stat0, then $stat1 of $NP)" \
	test "$stat0" = $NP -a "$stat1" = $NP
# a process moved out of the top opens its software group (4), one moved in its whole layout
# (14): some move at each choice (every 5 frames), the busiest being some 30 % busier than
# the least busy of the top; moving all of the top at each would open some 40 x 18 a choice
check "in those 12 frames, fewer counters opened than moving a quarter of the processes ($opened)" \
	test "$opened" -le $((NP / 4 * 18))
done_testing
