# The screen on a recording, under tmux: stepping frame by frame (j, J), going to a recorded
# time (:), the events screen (E), and a recording from a FIFO, which only goes forward.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/steps.rec"

TUI_ENV="TZ=UTC"
. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-replay
# frame TIME CPU: the header shows the recorded time and pid 100 (alpha) its %CPU of that frame
frame() { wait_for "(replay $1)" && wait_for "^ *100 alice .* $2 .* alpha"; }

# steps.rec: frame k (ticks k-1 and k, recorded at 08:26:4k) shows pid 100 at k * 10 %CPU.
# With a 30 s interval nothing moves on its own: every frame comes from a key.
start "$PMCTOP --replay $REC -d 30"
first_frame() { wait_for "(replay 08:26:40)" && wait_for "^ *100 alice  *R  *-  *-  *- "; }
check "the first tick is shown at once, /proc columns only (counters from the next)" first_frame
keys j
check "j shows the next frame, paused" frame 08:26:41 10.0
check "stepping pauses the replay" wait_for "PAUSED"
keys j j
check "j again: frame 3" frame 08:26:43 30.0
keys J
check "J goes back a frame" frame 08:26:42 20.0
keys J J
check "J stops at the first frame and says so" wait_for "this is the first frame"
check "the first frame stays on screen" frame 08:26:41 10.0
keys : +5 Enter
# a delta across the jump (ticks 1 to 5) would read 35.0
check "T +5 goes to the frame 5 s after the start, its own deltas" frame 08:26:45 50.0
check "the process that started in tick 4 is there" wait_for "^ *300 alice .* gamma"
keys : 08:26:47 Enter
check "T HH:MM:SS goes to the frame recorded then" frame 08:26:47 70.0
keys j
check "j at the end says so" wait_for "this is the last frame of the recording"
keys : 08:26:42 Enter
check "T goes back in time too" frame 08:26:42 20.0
check "back before tick 4, the later process is gone" sh -c '! tmux capture-pane -p -t '$S' | grep -q gamma'
keys : 9:00 Enter
check "a time after the end is refused" wait_for "the recording ends before that time (8 ticks, 7 s)"
keys : 25:00 Enter
check "a malformed time is refused with what to give" wait_for "invalid time '25:00': give HH:MM:SS"
check "the frame stays where it was" frame 08:26:42 20.0

# The events screen of frame 6, where pid 100's cache group ran half the time.
keys : +6 Enter
frame 08:26:46 60.0 >/dev/null
keys E
check "E shows the events screen" wait_for "Events in the last interval"
check "every event with its group and status" wait_for "^task-clock  *0 sw   built-in counted  *100.0  *100.0"
check "a multiplexed event with its share of time on the PMU" wait_for "^cache-references  *2 hw   built-in multiplexed  *83.3  *100.0"
keys E
check "E again goes back to the table" wait_for "^ *PID USER"

# The drill-down's hot pages of pid 100 (the busiest, first in the table): a list that scrolls.
keys Home Enter
check "Enter opens the hot pages, saying which is selected" wait_for "SOURCE  1 of 5 pages"
check "a narrow line names an anonymous mapping by its start" wait_for "0x000000007f202000 .* \[anon 7f200000\]$"
keys Down
check "Down moves the selection down the pages" wait_for "SOURCE  2 of 5 pages"
check "the selected page's instructions, by file offset where the file is not here" wait_for "^  .*0x000000401120  alpha+0x1120"
keys End
check "End selects the last page" wait_for "SOURCE  5 of 5 pages"
tmux resize-window -t $S -x 120 -y 24
check "a wide line names it by its range, and the count goes right" wait_for "\[anon 7f200000-7f208000\]"
check "the count goes to the right of the titles when there is room" wait_for "MAPPING  *5 of 5 pages$"
tmux resize-window -t $S -x 80 -y 24
keys Escape
keys q
check "q exits with status 0" wait_for "EXIT=0"

# Paused while frames fall due, then resumed: the replay goes on to its end.
start "$PMCTOP --replay $REC -d 0.2"
keys Space
wait_for "PAUSED" >/dev/null
sleep 1
keys Space
check "Space resumes a paused replay, which plays to its end" wait_for "(end of recording)" 100
keys q
wait_for "EXIT=0" >/dev/null

# A FIFO goes forward only: j works, J and : say why they cannot.
mkfifo "$TMP/fifo"
start "$PMCTOP --replay $TMP/fifo -d 30"
cat "$REC" >"$TMP/fifo" &
KILL_PIDS="$KILL_PIDS $!"
wait_for "collecting the first interval" >/dev/null
keys j j
check "a FIFO steps forward" frame 08:26:42 20.0
keys J
check "a FIFO cannot go back, and says so" wait_for "this recording comes from a pipe: it can only go forward (j)"
keys : +1 Enter
check "nor go to a time" wait_for "this recording comes from a pipe: it can only go forward (j)"
keys q
check "q exits the FIFO replay with status 0" wait_for "EXIT=0"
done_testing
