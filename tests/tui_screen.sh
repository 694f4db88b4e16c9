# The screen's htop keys under tmux at 80x24 and 200x50: sideways scrolling and its marks,
# the tree, tags, follow, F3/F4, Tab, mouse clicks, and signals and nice values sent to a
# real child process (live), refused in a replay and for another user's process.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/hw.rec"

TUI_WAIT=100
. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-screen
screen_lacks() { ! screen_shows "$1"; }
# gone PATTERN: until the screen no longer shows PATTERN
gone() {
	wait_until 10 screen_lacks "$1" && return 0
	diag "screen still shows '$1'"
	return 1
}
table_pids() { screen | awk '/^[< ] +(PID|TID) /{t=1; next} t && $1 ~ /^[0-9]+$/ {print $1} t && $1 == "*" {print $2}' | tr '\n' ' '; }
pids_match() { [ "$(table_pids)" = "$1" ]; }
# pids_are WANT: until the table lists these pids, in this order
pids_are() {
	wait_until 10 pids_match "$1" && return 0
	diag "pids '$(table_pids)', want '$1'"
	return 1
}
highlighted() {
	tmux capture-pane -p -e -t $S | grep '\[46m\|;46m\|\[7m' | sed 's/\x1b\[[0-9;]*m//g' |
		grep -q -- "$1"
}
# selected PATTERN: until the highlighted row (black on cyan, or reverse) matches PATTERN
selected() {
	wait_until 10 highlighted "$1" && return 0
	diag "no highlighted row matches '$1'"
	return 1
}
quit() { keys q; wait_for "EXIT=0" >/dev/null; }
# The mouse tests run pmctop as on an xterm, whose mouse reports are SGR (ESC [ < b ; x ; y M)
# and reach any column; tmux's own key sequences (Home) are those of screen-256color.
XTERM="env TERM=xterm-256color"
# click X Y: a press and release of the first button at the 1-based cell X, Y
click() {
	tmux send-keys -t $S -l "$(printf '\033[<0;%d;%dM' "$1" "$2")"
	tmux send-keys -t $S -l "$(printf '\033[<0;%d;%dm' "$1" "$2")"
}
# title_line: the 1-based line of the table's column titles
title_line() { screen | grep -n '^[< ] *PID ' | head -1 | cut -d: -f1; }
# title_x NAME: the 1-based column where the title NAME starts
title_x() { screen | grep '^[< ] *PID ' | head -1 | awk -v t="$1" '{ print index($0, t) }'; }

# ---- 80x24, a replay run to its end (-d 0): the frame stands still ----
start "$PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
check "80x24: > marks columns hidden for width" wait_for "COMMAND *>$"
check "80x24: the footer names the htop keys" wait_for "F2Setup EnterDrill F3Search F4Filter F5Tree F6SortBy F9Kill"
keys Right
check "Right scrolls: < at the left end of the titles" wait_for "^<   PID "
# the stops at 80 columns: THR, S and RES, RES and %MEM, %MEM, TIME+, then PF/s
keys Right Right Right Right Right
check "columns hidden for width come into view" wait_for "^<   PID .*PF/s"
keys Left Left Left Left Left Left
check "Left scrolls back to the first fit" wait_for "^    PID USER .*COMMAND *>$"
check "Left/Right no longer change the sort (by %CPU)" pids_are "202 101 505 303 404 "
# > cycles the sort; a column hidden for width is scrolled into view: PF/s is hidden at 80
for _ in 1 2 3 4 5 6 7 8; do keys '>'; done
check "> reaches PF/s" pids_are "505 202 101 303 404 "
check "the sort column is scrolled into view" wait_for "^<   PID .*PF/s"
keys P
check "P sorts by %CPU, its column in view" wait_for "^[< ] *PID .*%CPU"
keys Left Left Left Left Left Left Left Left Left Left
wait_for "^    PID USER" >/dev/null
check "default order is by %CPU" pids_are "202 101 505 303 404 "
keys t
# at 80 columns the name is cut at the edge: └─ takes three cells of newproc's room
check "t: the tree view" wait_for "^ *505 alice .*└─ newpr>"
check "the child comes right after its parent" pids_are "202 101 505 303 404 "
# from %CPU back over TIME+, %MEM, RES, S, THR and USER to PID
for _ in 1 2 3 4 5 6 7; do keys '<'; done
check "the tree sorted by PID: children under parents" pids_are "101 505 202 303 404 "
keys F5
check "F5 leaves the tree" pids_are "101 202 303 404 505 "
check "the guides are gone" gone "└─"
keys Home Space
check "Space tags the selected process (*)" wait_for "^\*   101 alice"
check "the header counts the tags" wait_for "1 tagged"
keys Space
check "Space again tags the next" wait_for "2 tagged"
keys U
check "U untags all" gone "tagged"
keys F
check "F follows the selected process" wait_for "following 303"
keys Down
check "moving by hand ends following" gone "following"
for k in F9 k F7 F8; do
	keys "$k"
	check "$k in a replay says so" wait_for "not in a replay"
	keys 1 1 # any key clears the notice; 1 twice leaves the meters as they were
	gone "not in a replay" >/dev/null
done
keys z
check "z pauses" wait_for "PAUSED"
keys Z
check "Z resumes" gone "PAUSED"
keys Home F3 e
check "F3 opens the search" wait_for "^Search: e_"
keys F3
check "F3 in the search selects a match" selected "^ *202 "
keys F3
check "F3 again: the next match, the prompt still open" selected "^ *303 "
check "the prompt stays open" wait_for "^Search: e_"
keys Escape F4 db Enter
check "F4 filters" pids_are "101 "
keys Escape
pids_are "101 202 303 404 505 " >/dev/null
keys Home Enter
check "Enter: the drill-down of the selected process" wait_for "PID 101 db-server"
keys Tab
check "Tab: back to the table, the drill-down left open" wait_for "^    PID USER"
keys BTab
check "Shift-Tab: back to the drill-down left open" wait_for "PID 101 db-server"
keys Escape
wait_for "^    PID USER" >/dev/null
quit
# the mouse: a click on a title sorts by it, again reverses; a click on a row selects it
start "$XTERM $PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
y=$(title_line)
x=$(title_x CPI)
click "$x" "$y"
check "a click on a title sorts by its column (CPI)" pids_are "202 505 101 303 404 "
click "$x" "$y"
check "a second click reverses" pids_are "101 505 202 303 404 "
click 10 $((y + 3))
keys Enter
check "a click on a row selects it" wait_for "PID 202 stream"
keys Escape
# q closes a panel: quit from the table (its footer), once Esc has closed the drill-down
wait_for "F2Setup" >/dev/null
quit

# command lines: past the last column, Right moves the text, as far as the longest line's end
start "$PMCTOP --replay $REC -d 0 -c --no-cpus"
wait_for "F1Help" >/dev/null
for _ in $(seq 30); do keys Right; done
# at the end of the longest, '<' at the left says it is scrolled
check "-c: the command lines scroll to their end, not past it" wait_for "^ *101 .*0 <ort 5432$"
for _ in $(seq 30); do keys Left; done
check "-c: Left goes back to the start, '>' saying the line goes on" wait_for "^ *101 .* /usr/bin>$"
quit

# --no-mouse: pmctop does not ask the terminal for mouse reports (tmux knows what was asked)
mouse_modes() { tmux display -p -t $S '#{mouse_standard_flag}#{mouse_sgr_flag}'; }
start "$XTERM $PMCTOP --replay $REC -d 0"
wait_for "F1Help" >/dev/null
check "the screen asks the terminal for clicks (SGR reports)" test "$(mouse_modes)" = 11
quit
start "$XTERM $PMCTOP --replay $REC -d 0 --no-mouse"
wait_for "F1Help" >/dev/null
check "--no-mouse leaves the mouse to the terminal" test "$(mouse_modes)" = 00
quit

# ---- 200x50 ----
tmux resize-window -t $S -x 200 -y 50
start "$PMCTOP --replay $REC -d 0 -c"
wait_for "F1Help" >/dev/null
check "200x50: every column fits, no > mark" wait_for "LLC-load-misses/s COMMAND LINE *$"
keys Right t
check "200x50: the tree" wait_for "^ *505 alice .*└─ newproc --fast"
check "200x50: with nothing cut off, Right does not scroll" wait_for "^    PID USER .*COMMAND LINE *$"
quit
start "$XTERM $PMCTOP --replay $REC -d 0 -c"
wait_for "F1Help" >/dev/null
keys t
y=$(title_line)
click "$(title_x CACHE%)" "$y"
check "200x50: a click sorts by CACHE%" wait_for "sort CACHE%, as a tree"
click "$(title_x LLC-load-misses/s)" "$y"
check "200x50: clicks reach columns past 94" wait_for "sort LLC-load-misses"
quit

# ---- live: signals and nice values for a child of this test ----
tmux resize-window -t $S -x 80 -y 24
sleep 1000 &
SLEEPER=$!
KILL_PIDS="$KILL_PIDS $SLEEPER"
state() { awk '{ print $3 }' /proc/"$SLEEPER"/stat 2>/dev/null; }
in_state() { [ "$(state)" = "$1" ]; }
# reaches STATE: until the sleeper is in STATE (up to 10 s)
reaches() {
	wait_until 10 in_state "$1" && return 0
	diag "state '$(state)', want '$1'"
	return 1
}
start "$PMCTOP -d 0.5 -p $SLEEPER"
check "live: the child is listed" wait_for "^ *$SLEEPER .* sleep"
keys k
check "k opens the signal menu" wait_for "^Send signal:"
check "the menu lists the signals by number" wait_for "^ 19 STOP"
keys s Enter
check "a letter picks STOP; Enter asks first" wait_for "send SIGSTOP (19) to pid $SLEEPER (sleep)? y: send"
keys n
check "any other key cancels" wait_for "nothing sent"
check "the child was not stopped" test "$(state)" = S
keys F9 s Enter y
check "y sends: the status line says so" wait_for "sent SIGSTOP to pid $SLEEPER"
check "the child is stopped" reaches T
keys k 1 8 Enter y
check "a number picks CONT" wait_for "sent SIGCONT to pid $SLEEPER"
check "the child runs again" reaches S
keys F8
check "F8 raises the nice value" wait_for "pid $SLEEPER: nice 1"
check "the child's nice value is 1" test "$(ps -o ni= -p $SLEEPER | tr -d ' ')" = 1
keys F7
check "F7 lowers it" wait_for "pid $SLEEPER: nice 0"
check "the child's nice value is 0" test "$(ps -o ni= -p $SLEEPER | tr -d ' ')" = 0
keys k Enter y
check "TERM is the default" wait_for "sent SIGTERM to pid $SLEEPER"
wait "$SLEEPER"
check "the child ended by SIGTERM" test $? = 143
quit

# another user's process: the reason is on the status line and in the log
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "another user's process: needs root and setpriv to run pmctop as nobody"
elif ! $NOBODY "$PMCTOP" --version >/dev/null 2>&1; then
	skip "another user's process: nobody cannot run $PMCTOP (a directory above it is closed)"
else
	sleep 1000 &
	SLEEPER=$!
	KILL_PIDS="$KILL_PIDS $SLEEPER"
	start "$NOBODY $PMCTOP -d 0.5 -p $SLEEPER"
	wait_for "^ *$SLEEPER .* sleep" >/dev/null
	keys k Enter y
	check "another user's process: permission denied" wait_for "cannot send SIGTERM to pid $SLEEPER: permission denied: it belongs to another user"
	check "it lives on" reaches S
	keys F8
	check "nice of another user's process: permission denied" wait_for "cannot raise the nice value of pid $SLEEPER: permission denied"
	keys e
	# the log starts with the live mode's notes: down a line at a time to the refusals (a
	# page down can land inside the wrapped message, whose pid is then off the screen)
	in_log() {
		for _ in $(seq 40); do
			wait_for "cannot send SIGTERM to pid $SLEEPER" 5 >/dev/null 2>&1 && return 0
			keys Down
		done
		return 1
	}
	check "the refusals are in the log" in_log
	keys Escape
	wait_for "F2Setup" >/dev/null
	quit
	kill "$SLEEPER"
fi
# Wide names (tests/data/wide.rec: CJK and emoji) are measured in cells, under a UTF-8 locale
# and under LANG=C, where what the terminal cannot show is '?', as ps and htop print it.
WIDE="$top_srcdir/tests/data/wide.rec"
# name_col PATTERN: the cell where PATTERN starts on the first screen line that has it
name_col() {
	screen | python3 -c '
import sys, unicodedata
pat = sys.argv[1]
for line in sys.stdin:
    if pat in line:
        pre = line[:line.index(pat)]
        print(sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in pre))
        break
' "$1"
}
aligned() {
	want=$(name_col newproc)
	for name in "$@"; do
		got=$(name_col "$name")
		[ -n "$got" ] && [ "$got" = "$want" ] || { diag "'$name' at cell '$got', newproc at $want"; return 1; }
	done
}
# right_edge PATTERN: the line with PATTERN is 80 cells wide and ends in '>'
right_edge() {
	screen | python3 -c '
import sys, unicodedata
for line in sys.stdin:
    line = line.rstrip("\n")
    if sys.argv[1] in line:
        w = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        sys.exit(0 if w == 80 and line.endswith(">") else 1)
sys.exit(1)
' "$1"
}
start "$PMCTOP --replay $WIDE -d 0"
check "UTF-8: an emoji name is shown" wait_for "^ *202 bob .* 😀stream$"
check "UTF-8: CJK and emoji names start in the same cell as ASCII ones" \
	aligned "😀stream" "数据库" "新しいda"
check "UTF-8: a name cut at the edge ends in '>', never half a wide character" right_edge "新しいda>"
keys c
check "UTF-8: a CJK command line that goes on ends in '>'" wait_for "^ *101 alice .* /usr/bin>$"
for i in $(seq 60); do keys Right; done
check "Right scrolls to the end of the wide command line, '<' marking the scroll" \
	wait_for "^ *101 .* <务器.log$"
quit
start "LANG=C $PMCTOP --replay $WIDE -d 0"
check "LANG=C: what the terminal cannot show is '?', one a byte" wait_for "^ *202 bob .* ????stre>$"
check "LANG=C: CJK names are '?', not blanks" wait_for "^ *101 alice .* ?????????$"
check "LANG=C: the names still line up" aligned "????stre>" "?????????"
quit
done_testing
