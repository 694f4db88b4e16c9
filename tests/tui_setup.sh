# The setup screen (F2) under tmux at 80x24 and 200x50, and the settings file it writes: hide and
# move columns, save, start again and see them; corrupt and foreign files get one message and
# the defaults. Batch text follows the file's columns; CSV keeps its fields.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/hw.rec"

. "$top_srcdir/tests/tui_lib.sh"
CFG="$TMP/cfg"
RC="$CFG/pmctop/pmctoprc"
# the shell's own settings directory, and no history file left behind
TUI_ENV="XDG_CONFIG_HOME=$CFG HISTFILE=/dev/null"
TUI_WAIT=100
tui_session pmctop-setup

line_has() { tmux capture-pane -p -e -t $S | grep -- "$1" | grep -q -- "$2"; }
# wait_attr LINE CODES: until the screen's line with LINE has the escape codes CODES (10 s)
wait_attr() {
	wait_until 10 line_has "$1" "$2" && return 0
	diag "no '$2' on the line of '$1':"
	tmux capture-pane -p -e -t $S | grep -- "$1" | cat -v | sed 's/^/# |/'
	return 1
}
# lacks PATTERN: the screen, settled, does not show PATTERN
lacks() {
	sleep 0.3
	if screen | grep -q -- "$1"; then
		diag "screen shows '$1':"
		screen | sed 's/^/# |/'
		return 1
	fi
}
# the pids of the process table, top to bottom
table_pids() { screen | awk '/^ +PID /{t=1; next} t && $1 ~ /^[0-9]+$/ {print $1}' | tr '\n' ' '; }
quit() { keys q; wait_for "EXIT=0" >/dev/null; }

# ---- 80x24: F2, hide USER, move CPI up, w ----
start "$PMCTOP --replay $REC -d 0"
check "80x24: the footer offers the setup" wait_for "F1Help F2Setup"
check "80x24: USER is a column by default" sh -c "tmux capture-pane -p -t $S | grep -q '^ *PID USER '"
keys F2
check "F2 opens the setup with its three sections" wait_for "Columns 1/25 *Meters *Colours"
check "the setup names the file w saves to" wait_for "w saves them to $CFG/pmctop/pm"
check "the footer names the setup's keys" wait_for "SpaceShow/Hide F7F8Move wWrite F10Done EscBack"
keys Down Space
check "Space hides USER" wait_for "\[ \] USER"
check "the highlighted column is described" wait_for "^USER: effective user"
# CPI is the 15th column (NI, VIRT, SHR and P hidden among those before it): up five
# places, above TIME+
keys Down Down Down Down Down Down Down Down Down Down Down Down Down
check "the highlight walks the column list" wait_for "^CPI: cycles per instruction"
keys F7 F7 F7 F7 F7
check "F7 moves CPI up, the highlight with it" wait_for "Columns 10/25"
keys w
check "w writes the settings file and says where" wait_for "settings written to $CFG/pmctop/pmctoprc"
check "the file has the header line" test "$(head -1 "$RC")" = "# pmctop config 1"
check "the file lists the shown columns in their order" grep -qx "columns=pid,threads,state,res,mem,cpi,cputime,cpu,ghz,ipc,cache,l1d,dtlb,brmis,pf,cs,mig,counted,cgroup,command" "$RC"
check "its directory is private (0700)" test "$(stat -c %a "$CFG/pmctop")" = 700
keys Escape
check "Esc leaves the setup: the table without USER, CPI before %CPU" wait_for "^ *PID .*CPI .*%CPU"
check "80x24: USER is gone from the table" lacks "^ *PID USER"
quit

start "$PMCTOP --replay $REC -d 0"
check "restarted: the saved columns at 80x24" wait_for "^ *PID .*CPI .*%CPU"
check "restarted: USER stays hidden" lacks "^ *PID USER"
quit

# ---- 200x50: every column fits; F10 saves and leaves; the mono scheme ----
tmux resize-window -t $S -x 200 -y 50
start "$PMCTOP --replay $REC -d 0"
check "200x50: the saved order, every other column" wait_for "^    PID  THR S    RES  %MEM   CPI     TIME+   %CPU   GHZ   IPC CACHE%  L1D% DTLB% BRMIS%    PF/s   CS/s MIG/s CNT% LLC-load-misses/s COMMAND$"
check "a file saved during a replay reads back without a message (no replay pace as delay)" lacks "settings file"
keys F2
check "200x50: the whole column list, no position shown" wait_for "^ Columns  *Meters  *Colours"
check "200x50: COMMAND is last and always shown" wait_for "\[x\] COMMAND (last)"
keys Tab Down Space
check "the meters: the uptime hidden" wait_for "\[ \] uptime"
check "the header loses the uptime at once" lacks "up 1 day"
keys Tab Down Enter
check "the colours: mono chosen" wait_for "(\*) mono"
keys F10
check "F10 saves and leaves the setup" wait_for "settings written to $CFG/pmctop/pmctoprc"
check "F10 left the setup for the table" wait_for "^    PID  THR S"
check "the file keeps the meters and the colours" sh -c "grep -qx 'meters=cpus,load,self,memory' '$RC' && grep -qx 'colours=mono' '$RC'"
check "mono: the titles in reverse video, no colours" sh -c "tmux capture-pane -p -e -t $S | grep 'PID  THR' | grep -q '\[7m' && ! tmux capture-pane -p -e -t $S | grep -q '\[3[0-7]m\|\[4[0-7]m\|;3[0-7]m\|;4[0-7]m\|\[3[0-7];\|\[4[0-7];'"
quit
start "$PMCTOP --replay $REC -d 0"
check "restarted at 200x50: the saved columns" wait_for "^    PID  THR S    RES  %MEM   CPI     TIME+"
check "restarted: no uptime in the header" lacks "up 1 day"
check "restarted: still no colours" sh -c "sleep 0.3; ! tmux capture-pane -p -e -t $S | grep -q '\[3[0-7]m\|\[4[0-7]m\|;3[0-7]m\|;4[0-7]m\|\[3[0-7];\|\[4[0-7];'"
quit
start "$PMCTOP --replay $REC -d 0 --no-config"
check "--no-config: the default columns" wait_for "^    PID USER       THR S    RES  %MEM     TIME+   %CPU   GHZ   IPC   CPI "
keys F2
check "--no-config: the setup says there is no file to save to" wait_for "no settings file to save to (--no-config)"
keys w
check "--no-config: w says why it writes nothing" wait_for "no settings file to write"
keys Tab Tab End Enter
check "the colours: light chosen" wait_for "(\*) light"
keys Escape
check "light: the titles white on blue, at once" wait_attr "PID USER" "37m.*44m\|37;44m\|44;37m\|44m.*37m"
quit

# ---- a corrupt file: one message with the file, the line and what; the defaults for it ----
cat >"$RC" <<EOF
# pmctop config 1
columns=pid,cpi,bogus
colours=rainbow
EOF
start "$PMCTOP --replay $REC -d 0"
check "corrupt lines: the message names the file, the first bad line, how many and what" wait_for "settings file '$RC' line 2 (first of 2 bad lines): unknown column 'bogus'"
check "corrupt line: the good part of the line is used" wait_for "^    PID   CPI LLC-load-misses/s COMMAND$"
keys e
check "the log keeps the message" wait_for "settings file '$RC' line 2"
keys Escape
quit
printf '\177ELF\002\001\001\000\000\000\000' >"$RC"
start "$PMCTOP --replay $REC -d 0"
check "binary file: the message, and the defaults" wait_for "settings file '$RC' has a NUL byte on line 1: it is no text file; pmctop starts with the defaults"
check "binary file: the default columns" wait_for "^    PID USER       THR S    RES  %MEM     TIME+   %CPU   GHZ   IPC   CPI "
keys F2 w
check "a foreign file is never overwritten" wait_for "not written: '$RC' is not a pmctop settings file"
check "the foreign file is as it was" test "$(od -An -c "$RC" | tr -d ' \n')" = '177ELF002001001\0\0\0\0'
keys Escape
quit
rm -f "$RC"
mkdir "$RC"
start "$PMCTOP --replay $REC -d 0"
check "a directory where the file should be: the message" wait_for "settings file '$RC' is a directory; pmctop starts with the defaults"
quit
rmdir "$RC"
# a link where the file should be is never written through, even one swapped in after the
# start over the file read then, nor one to a file not there yet
printf '# pmctop config 1\n' >"$RC"
printf 'root:secret\n' >"$TMP/shadow"
chmod 640 "$TMP/shadow"
start "$PMCTOP --replay $REC -d 0"
keys F2
wait_for "w saves them to" >/dev/null
rm -f "$RC"
ln -s "$TMP/shadow" "$RC"
keys w
check "a link: w refuses to write through it, and says why" wait_for "not written: '$RC' is a symbolic link, and pmctop does not write through one"
check "a link: the file it names is as it was" sh -c "test \"\$(cat '$TMP/shadow')\" = root:secret && test \"\$(stat -c %a '$TMP/shadow')\" = 640"
check "a link: it stays a link" test -L "$RC"
keys Escape
quit
rm -f "$RC"
ln -s "$TMP/nothing-yet" "$RC"
start "$PMCTOP --replay $REC -d 0"
keys F2 w
check "a link to nothing: refused too" wait_for "not written: '$RC' is a symbolic link"
check "a link to nothing: no file is made where it points" test ! -e "$TMP/nothing-yet"
keys Escape
quit
rm -f "$RC"

# ---- at 80x24 the message is cut by the width, never wrapped or garbled ----
tmux resize-window -t $S -x 80 -y 24
printf '# pmctop config 1\nsort=speed\n' >"$RC"
start "$PMCTOP --replay $REC -d 0"
check "80x24: the message's start, on the status line" wait_for "^settings file '$CFG/pmct"
check "80x24: the default sort (by %CPU)" test "$(table_pids)" = "202 101 505 303 404 "
quit
keys "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ' '; echo" Enter
check "the terminal is restored (echo and icanon)" wait_for "^\(echo icanon\|icanon echo\) *$"

# ---- batch: text follows the file's columns, CSV keeps its fields, stderr says what is wrong ----
printf '# pmctop config 1\ncolumns=pid,cpi,user\nsort=cpi\nreverse=yes\n' >"$RC"
XDG_CONFIG_HOME=$CFG "$PMCTOP" -b --replay "$REC" -d 0 -n 2 >"$TMP/text" 2>"$TMP/err"
check "batch text: the file's columns" grep -q "^    PID   CPI USER      LLC-load-misses/s COMMAND$" "$TMP/text"
check "batch text: the file's sort, reversed" sh -c "grep -A1 '^    PID   CPI' '$TMP/text' | tail -1 | grep -q '^    101 '"
check "batch: no message for a good file" test ! -s "$TMP/err"
XDG_CONFIG_HOME=$CFG "$PMCTOP" -b --replay "$REC" -d 0 -n 2 -s pid >"$TMP/text2"
check "batch: -s wins over the file (and its reverse)" sh -c "grep -A1 '^    PID   CPI' '$TMP/text2' | tail -1 | grep -q '^    101 '"
XDG_CONFIG_HOME=$CFG "$PMCTOP" -b --replay "$REC" -d 0 -n 2 -o csv >"$TMP/csv"
"$PMCTOP" -b --replay "$REC" -d 0 -n 2 -o csv --no-config >"$TMP/csv-default"
check "batch CSV keeps its fields whatever the file says" test "$(head -1 "$TMP/csv")" = "$(head -1 "$TMP/csv-default")"
XDG_CONFIG_HOME=$CFG "$PMCTOP" -b --replay "$REC" -d 0 -n 1 --no-config >"$TMP/text3"
check "batch --no-config: the default columns" grep -q "^    PID USER       THR S    RES" "$TMP/text3"
cp "$RC" "$TMP/other"
printf 'columns=pid\n' >>"$TMP/other"
"$PMCTOP" -b --replay "$REC" -d 0 -n 1 --config "$TMP/other" >"$TMP/text4"
check "batch --config FILE reads that file" grep -q "^    PID LLC-load-misses/s COMMAND$" "$TMP/text4"
printf '# pmctop config 1\nfrobnicate=1\n' >"$RC"
XDG_CONFIG_HOME=$CFG "$PMCTOP" -b --replay "$REC" -d 0 -n 1 >"$TMP/text5" 2>"$TMP/err5"
st=$?
check "batch with a bad line: status 0" test "$st" = 0
check "batch with a bad line: one message on stderr" test "$(wc -l <"$TMP/err5")" = 1
check "batch with a bad line: it names the file, the line and what" grep -q "^pmctop: settings file '$RC' line 2: unknown setting 'frobnicate'" "$TMP/err5"
check "batch with a bad line: the frames still come" grep -q "^    PID USER" "$TMP/text5"
HOME="$TMP/home" XDG_CONFIG_HOME= "$PMCTOP" -b --replay "$REC" -d 0 -n 1 >/dev/null 2>"$TMP/err6"
check "no settings file at all: no message" test ! -s "$TMP/err6"
done_testing
