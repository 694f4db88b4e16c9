# The interactive screen, driven under tmux: keys, views, resizing, and a clean exit.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/hw.rec"

. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-test
# the pids of the process table, top to bottom
table_pids() { screen | awk '/^ +(PID|TID) /{t=1; next} t && $1 ~ /^[0-9]+$/ {print $1}' | tr '\n' ' '; }

# A replay run to the end (-d 0), so the frame stands still while keys are tested.
start "$PMCTOP --replay $REC -d 0"
check "header: host, recorded time, kernel and event mode" wait_for "pmctop - demo-server (replay 00:06:42)  kernel 6.1.0-demo"
check "header: multiplexed events are counted" wait_for "2 events multiplexed"
check "column titles at 80x24" wait_for "PID USER .*%CPU.*IPC.*CPI.*COMMAND"
check "per-core meters" wait_for "^  0 \[.*100.0%"
check "footer keys" wait_for "F1Help"
check "default order is by %CPU" test "$(table_pids)" = "202 101 505 303 404 "
keys C
sleep 0.3
check "C sorts by CPI, highest first" test "$(table_pids)" = "202 505 101 303 404 "
keys R
sleep 0.3
check "R reverses the order" test "$(table_pids)" = "101 505 202 303 404 "
keys '\' db Enter
sleep 0.3
check "the filter hides rows that do not match" test "$(table_pids)" = "101 "
check "the header names the filter" wait_for "filter 'db'"
keys Escape
sleep 0.3
check "Esc clears the filter" test "$(table_pids)" = "101 505 202 303 404 "
keys Home Enter
check "Enter drills into the selected process" wait_for "PID 101 db-server  user alice  4 threads"
check "a process not sampled in the recording says so" wait_for "this recording has no samples of this process"
keys t
check "t lists its threads" wait_for "worker-1"
check "threads are sorted like the table" test "$(table_pids)" = "102 103 104 101 "
keys Escape
check "Esc goes back to the table" wait_for "^ *PID USER"
keys Home Down Down Enter
check "drill-down of a sampled process: the sampling pane" wait_for "Samples: Intel PEBS (period 10007)"
check "the hot pages with their data source and mapping" wait_for "0x000055d0c1007000 .* 280 DRAM *\[heap\]"
keys m
check "m groups the samples per mapping" wait_for "87.3 *12 .*\[heap\]"
keys t
check "t shows the process's threads" wait_for "this recording has no per-thread counts for pid 202"
keys Escape
keys Down
keys '?'
check "? shows help with keys and columns" sh -c 'sleep 0.3; tmux capture-pane -p -t '$S' | grep -q "sort by cycles per instruction"'
keys Escape e
check "e shows the log" wait_for "Log (oldest first)"
keys Escape
keys '/' new Enter
sleep 0.3
check "/ search selects the match" sh -c 'tmux capture-pane -p -t '$S' -e | grep "newproc" | grep -q "\[30m\|\[7m\|\[46m"'
keys d abc Enter
check "a bad delay is refused with a message" wait_for "invalid delay 'abc'"
keys x
check "an unknown key says how to get help" wait_for "unknown key 'x': press h for help"

# Resize to 40x10 and back: the same screen as a fresh start at that size.
keys 1 1	# any key clears the notice; 1 twice leaves the meters as they were
tmux resize-window -t $S -x 40 -y 10
check "at 40x10 columns are dropped, not garbled" wait_for "^ *PID  *%CPU  *IPC  *CPI COMMAND"
check "at 40x10 the meters give way" sh -c '! tmux capture-pane -p -t '$S' | grep -q "^  0 \["'
tmux resize-window -t $S -x 80 -y 24
sleep 0.5
screen >"$TMP/after-resize"
keys q
check "q exits with status 0" wait_for "EXIT=0"
start "$PMCTOP --replay $REC -d 0 -s cpi -r"
wait_for "F1Help" >/dev/null
sleep 0.3
screen >"$TMP/fresh"
same_screen() { diff "$1" "$2" >"$TMP/diff" || { sed 's/^/# /' "$TMP/diff"; return 1; }; }
check "back at 80x24 the screen is whole again" same_screen "$TMP/after-resize" "$TMP/fresh"
keys q
wait_for "EXIT=0" >/dev/null
keys "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
check "the terminal is restored (echo and icanon)" wait_for "^\(echo icanon\|icanon echo\) *$"

# Ctrl-C (SIGINT) leaves cleanly too
start "$PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
keys C-c
check "Ctrl-C leaves with status 0" wait_for "EXIT=0"
keys "clear" Enter

# At 200x50 every column fits.
tmux resize-window -t $S -x 200 -y 50
start "$PMCTOP --replay $REC -d 0"
check "at 200x50 all columns show" wait_for "PID USER       THR S    RES  %MEM     TIME+   %CPU   GHZ   IPC   CPI CACHE%  L1D% DTLB% BRMIS%    PF/s   CS/s MIG/s CNT% LLC-load-misses/s COMMAND"
check "S, RES, %MEM and TIME+ as top writes them" wait_for "^    202 bob          1 R  3.20g  20.0   1:03.10   95.0 "
keys K
check "K lists the recording's kernel thread" wait_for "^ *2 root .* kthreadd$"
keys W
check "W shows one row per user, PROCS first" wait_for "^  PROCS USER       THR S    RES  %MEM     TIME+   %CPU"
check "W: alice's two processes in one row, her IPC from the summed counts" \
	wait_for "^      2 alice        6   588288   3.5  82:07.57  100.0  2.90  1.97"
check "W: the header counts users" wait_for "^Users: 4 shown"
keys W
check "W again: the processes" wait_for "^    PID USER       THR S"
keys K
check "K again hides the kernel thread" sh -c 'sleep 0.3; ! tmux capture-pane -p -t '$S' | grep -q kthreadd'
keys q
wait_for "EXIT=0" >/dev/null

# Keys act at once, not at the next tick: a 30 s interval, then C.
start "$PMCTOP --replay $REC -d 30"
wait_for "F1Help" >/dev/null
keys C
check "keys act at once, not at the next tick" wait_for "sort CPI" 30
keys q
wait_for "EXIT=0" >/dev/null

# NO_COLOR: attributes only, no colours.
tmux resize-window -t $S -x 80 -y 24
start "NO_COLOR=1 $PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
check "NO_COLOR shows no colours" sh -c '! tmux capture-pane -p -e -t '$S' | grep -q "\[3[0-7]m\|\[4[0-7]m\|\[3[0-7];\|\[4[0-7];\|;3[0-7]m\|;4[0-7]m"'
keys q
wait_for "EXIT=0" >/dev/null
start "$PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
check "colours are used otherwise" sh -c 'tmux capture-pane -p -e -t '$S' | grep -q "\[3[0-7]m\|\[4[0-7]m\|;3[0-7]m\|;4[0-7]m\|\[3[0-7];\|\[4[0-7];"'
keys q
wait_for "EXIT=0" >/dev/null

# Live, on this machine: the header names the mode pmctop detects, with what that mode implies,
# and a busy process shows the CPU time it really gets (under load, less than 100 %).
exclusive
mode=$(pmctop_mode)
diag "mode: $mode"
background "$WORKLOAD" spin 1 30 "$TMP/spin.log"
start "$PMCTOP -d 0.5"
case $mode in
"no hardware PMU"*)
	check "live: the software-only banner" wait_for "no hardware PMU: software events only"
	check "live: no hardware columns without a PMU" sh -c '! tmux capture-pane -p -t '$S' | grep -q "^ *PID .* IPC "'
	;;
"hardware events"*)
	check "live: the header names the hardware events" wait_for "Events: hardware events"
	check "live: the hardware columns are there" wait_for "^ *PID .* IPC "
	;;
*)
	not_ok "pmctop reports an unknown mode: $mode"
	;;
esac
# what watching costs closes the first line, where the width leaves room for it
tmux resize-window -t $S -x 200 -y 50
check "live: the header gives pmctop's own CPU, memory and descriptors" \
	wait_for "load [0-9. ]*  self [0-9.]*% [0-9.]*MiB [0-9]*/[0-9]*fd"
tmux resize-window -t $S -x 80 -y 24
# busy_shown: once the busy process is on screen with some %CPU (up to 30 s on a loaded host),
# that %CPU is what the workload logged over some 0.5 s frame that ended in the 5 s before the
# capture (the screen shows one of those frames)
busy_shown() {
	for _ in $(seq 150); do
		now=$(date +%s.%N)
		v=$(tmux capture-pane -p -t $S |
			awk -v p="$BG" '/^ *PID /{ for (i = 1; i <= NF; i++) if ($i == "%CPU") c = i; next } c && $1 == p {print $c}')
		if [ -n "$v" ] && [ "$v" != 0.0 ]; then
			python3 - "$TMP/spin.log" "$now" "$v" <<'PY' && return 0
import sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if not l.startswith("tids")]
now, v = float(sys.argv[2]), float(sys.argv[3])
def at(t):
    prev = rows[0]
    for r in rows:
        if r[0] >= t:
            if r[0] == prev[0]:
                return r[1]
            return prev[1] + (r[1] - prev[1]) * (t - prev[0]) / (r[0] - prev[0])
        prev = r
    return rows[-1][1]
# only frames the workload's log covers whole
rates = [200 * (at(now - k / 20) - at(now - k / 20 - 0.5)) for k in range(101)
         if now - k / 20 - 0.5 >= rows[0][0]]
if len(rates) < 10:
    sys.exit(1)
print("# %%CPU on screen %.1f, logged over frames ending in the last %.1f s: %.1f to %.1f"
      % (v, len(rates) / 20, min(rates), max(rates)))
sys.exit(not (min(rates) * 0.9 - 5 <= v <= max(rates) * 1.1 + 5))
PY
		fi
		sleep 0.2
	done
	tmux capture-pane -p -t $S | sed "s/^/# |/"
	return 1
}
check "live: a busy process shows the CPU time it gets" busy_shown
# the sampling pane on a live process: its four faulting pages come out on top
keys q
wait_for "EXIT=0" >/dev/null
tmux resize-window -t $S -x 120 -y 30
background "$WORKLOAD" hotpages 2000 30 >"$TMP/addrs"
sleep 0.3
start "$PMCTOP --sample $BG"
top4_are() {
	got=$(tmux capture-pane -p -t $S | awk '/^HEAT/{t=1; next} t && NF {print $2}' | head -4 | sed 's/^0x0*//' | sort | tr '\n' ' ')
	[ "$got" = "$want" ]
}
top4() {
	want=$(tr -d ' ' <"$TMP/addrs" | sed 's/^0x//' | sort | tr '\n' ' ')
	wait_until 5 top4_are && return 0
	diag "want $want got $got"
	return 1
}
check "live: the sampling pane names page faults" wait_for "Samples: page faults (period 1)"
check "live: the four faulting pages lead the pane" top4
check "live: in the memfd mapping" wait_for "/memfd:pmctop-hot"
# q closes the drill-down --sample opened, as htop's panels; q again quits
keys q
wait_for "^ *PID USER" >/dev/null
keys q
wait_for "EXIT=0" >/dev/null
start "$PMCTOP -d 0.5"
wait_for "F1Help" >/dev/null

# SIGTERM restores the terminal too
pkill -TERM -xf "$PMCTOP -d 0.5"
check "SIGTERM leaves with status 0" wait_for "EXIT=0"
keys "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
check "the terminal is restored after SIGTERM" wait_for "^\(echo icanon\|icanon echo\) *$"

# Every signal that ends the run gives the terminal back, not only INT, TERM and HUP.
for sig in QUIT USR1 USR2 ALRM; do
	start "$PMCTOP -d 0.5"
	wait_for "F1Help" >/dev/null
	pkill -$sig -xf "$PMCTOP -d 0.5"
	wait_for "EXIT=" >/dev/null
	keys "clear; stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
	check "SIG$sig leaves the alternate screen and restores the terminal" \
		wait_for "^\(echo icanon\|icanon echo\) *$"
done

# The first frame at once, on the screen too: with a tick an hour away, the table, the load and
# the /proc columns are drawn (the counters are '-' until the next tick)
start "$PMCTOP -d 3600"
check "live: the first frame is drawn at once, /proc's columns in it" wait_for "^ *PID USER .*TIME+" 100
keys q
wait_for "EXIT=0" >/dev/null

# -n on the screen: quit after that many frames, as top does
start "$PMCTOP --replay $REC -d 0.2 -n 1"
check "-n 1 on the screen draws one frame and leaves with status 0" wait_for "EXIT=0"

# A recording from a FIFO that stalls: the screen stays responsive, and q ends it.
mkfifo "$TMP/stall"
head -n 200 "$REC" >"$TMP/stall.head"
(cat "$TMP/stall.head"; sleep 60) >"$TMP/stall" &
KILL_PIDS="$KILL_PIDS $!"
start "$PMCTOP --replay $TMP/stall"
check "a stalled replay still draws its frame" wait_for "F1Help"
keys q
check "q ends a replay whose stream stalled" wait_for "EXIT=0"
# top's and htop's habits: T, M, N and P sort; F6 is a sort menu; q closes a panel and quits
# only from the table; ':' is the replay's Go to.
start "$PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
keys T
check "T sorts by TIME+, as in top" wait_for "sort TIME+"
check "T opens no prompt" sh -c '! tmux capture-pane -p -t '$S' | grep -q "Go to"'
keys M
check "M sorts by memory, as in top and htop" wait_for "sort %MEM"
check "M: the biggest first" test "$(table_pids)" = "202 101 505 404 303 "
keys N
check "N sorts by PID" wait_for "sort PID"
check "N: the pids in order" test "$(table_pids)" = "101 202 303 404 505 "
keys P
check "P sorts by %CPU" wait_for "sort %CPU"
keys F6
check "F6 opens the sort menu on the column sorted by" wait_for "^ %CPU \*"
check "the menu lists the columns" wait_for "^ TIME+ "
check "the footer says how to use it" wait_for "Sort: Up/Down; Enter: sort by the column; Esc: cancel"
keys Up Enter
check "Up and Enter sort by the column above" wait_for "sort TIME+"
check "Enter closes the menu" sh -c 'sleep 0.3; ! tmux capture-pane -p -t '$S' | grep -q "Sort by"'
keys F6 Down Escape
check "Esc closes the menu and keeps the sort" wait_for "F1Help"
check "Esc keeps the sort" wait_for "sort TIME+"
keys F6
wait_for "Sort by" >/dev/null
keys q
check "q in the sort menu closes it" wait_for "F1Help"
check "q in the sort menu does not quit" sh -c '! tmux capture-pane -p -t '$S' | grep -q "EXIT="'
# u: htop's list of users, each with its processes, the most first
keys u
check "u opens the users menu" wait_for "^ PROCS USER"
check "All users first, with every process" wait_for "^     5 All users"
check "then alice's two processes" wait_for "^     2 alice"
check "the footer says how to use it" wait_for "User: Up/Down; Enter: show the user's processes; Esc: cancel"
keys Down Enter
check "Enter on alice filters by her" wait_for "; user 'alice'"
check "Enter: only alice's processes" test "$(table_pids | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "101 505 "
keys u End Escape
check "Esc leaves the users menu" wait_for "F1Help"
check "Esc keeps the filter" test "$(table_pids | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "101 505 "
keys u Home Enter
check "All users clears the filter" wait_for "^ *303 "
check "All users: every process again" test "$(table_pids | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "101 202 303 404 505 "
keys h
wait_for "sort by cycles per instruction" >/dev/null
keys q
check "q in help goes back to the table, as in htop" wait_for "^ *PID USER"
keys e q
check "q in the log goes back to the table" wait_for "^ *PID USER"
keys E q
check "q in the events goes back to the table" wait_for "^ *PID USER"
keys Home Enter
wait_for "PID 101 db-server" >/dev/null
keys q
check "q in the drill-down goes back to the table" wait_for "^ *PID USER"
keys h
wait_for "sort by cycles per instruction" >/dev/null
keys F10
check "F10 closes panels too" wait_for "^ *PID USER"
check "F10 in a panel does not quit" sh -c '! tmux capture-pane -p -t '$S' | grep -q "EXIT="'
keys :
check ": opens the replay's Go to" wait_for "Go to (HH:MM:SS or +seconds): "
keys Escape
check "pmctop still runs after all these" sh -c '! tmux capture-pane -p -t '$S' | grep -q "EXIT="'
keys q
check "q on the table quits" wait_for "EXIT=0"
keys clear Enter

done_testing
