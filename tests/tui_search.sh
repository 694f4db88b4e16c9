# Search and filter on the screen, as in htop: they act with each key typed, and take any
# character the terminal sends (tests/data/wide.rec: processes named in CJK and emoji).
. "$top_srcdir/tests/lib.sh"
WIDE="$top_srcdir/tests/data/wide.rec"

. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-search
# the pids of the process table, top to bottom
table_pids() { screen | awk '/^ +(PID|TID) /{t=1; next} t && $1 ~ /^[0-9]+$/ {print $1}' | tr '\n' ' '; }
pids_match() { [ "$(table_pids)" = "$1" ]; }
# pids_are PIDS: until the table lists exactly PIDS ("101 303 ")
pids_are() {
	wait_until 5 pids_match "$1" && return 0
	diag "the table lists '$(table_pids)', not '$1'"
	return 1
}
# type TEXT: the text as the terminal sends it, UTF-8
type() { tmux send-keys -t "$S" -l "$1"; }

# A replay run to the end (-d 0), so the frame stands still while keys are tested.
start "$PMCTOP --replay $WIDE -d 0"
check "the replay's last frame" pids_are "202 101 505 303 404 "

keys '/'
type "新し"
check "a CJK search is typed as it is" wait_for "^Search: 新し_$"
keys Enter
keys Enter
check "the search selected the CJK process: Enter opens it" wait_for "^PID 303 新しいdaemon "
keys Escape
wait_for "F1Help" >/dev/null

keys '/'
type "😀"
keys Enter Enter
check "an emoji search selects its process" wait_for "^PID 202 😀stream "
keys Escape
wait_for "F1Help" >/dev/null

keys '/'
type "无此"
check "a search that matches nothing says so as it is typed" wait_for "^Search: 无此_ no match"
keys Escape
check "Esc closes the search" wait_for "F1Help"

keys '\'
type "数"
check "the filter applies with the first CJK character, before Enter" pids_are "101 "
check "the filter prompt shows the character typed" wait_for "^Filter: 数_$"
keys BSpace
check "Backspace takes the whole character: every process again" pids_are "202 101 505 303 404 "
check "nothing is left of it in the prompt" wait_for "^Filter: _$"
type "しい"
check "the filter matches in the middle of a name" pids_are "303 "
keys Enter
check "Enter keeps the filter; the header names it" wait_for "filter 'しい'"
keys '\'
keys BSpace BSpace
check "a new edit of the filter applies as it is typed" pids_are "202 101 505 303 404 "
keys Escape
check "Esc in the filter gives back the filter it had" pids_are "303 "
check "the header names it again" wait_for "filter 'しい'"
keys Escape
check "Esc on the table clears it" pids_are "202 101 505 303 404 "

keys q
check "q quits cleanly" wait_for "EXIT=0"
done_testing
