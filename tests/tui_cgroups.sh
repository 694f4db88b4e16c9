# The cgroup view on the screen, under tmux: --cgroups opens it, Enter shows a cgroup's processes,
# Esc comes back, G switches; on a recording, and live on a workload in a cgroup of its own.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cgroup_lib.sh"
REC="$top_srcdir/tests/data/cgroup.rec"

. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-cgtest cgroup_cleanup

start "$PMCTOP --replay $REC -d 0 --cgroups"
check "--cgroups opens the cgroup view" wait_for "^Cgroups: 4 shown (end of recording), 1 not counted (e: log), 48 fds"
check "its columns: processes, counters, path" wait_for "^PROCS   %CPU    PF/s   CS/s MIG/s CGROUP"
check "busiest first" wait_for "^    2  120.0    3000    900    20 /system.slice"
check "a cgroup not counted says why" wait_for "/web.slice \[not counted: out of file descripto"
check "the footer of the view" wait_for "EnterProcs GTasks"
keys Down Enter
check "Enter: the processes of the selected cgroup" wait_for "cgroup '/system.slice/db.service'"
check "with their cgroups" wait_for "db-server"
check "and only those" sh -c '! tmux capture-pane -p -t '$S' | grep -q " logd$"'
keys Escape
check "Esc: back to the cgroup view" wait_for "^Cgroups: 4 shown"
keys G
check "G: the processes" wait_for "^Tasks: 4 shown"
# at 80 columns S, RES, %MEM and TIME+ leave CGROUP (the lowest priority) to sideways scrolling
check "at 80 columns CGROUP is off to the right" wait_for "^ *PID USER .* COMMAND *>\$"
keys Right Right Right Right Right Right
check "Right brings the CGROUP column into view" wait_for " CGROUP *COMMAND"
keys Left Left Left Left Left Left
tmux resize-window -t $S -x 120 -y 24
check "the process table has a CGROUP column" wait_for "^ *PID USER .* CGROUP *COMMAND"
tmux resize-window -t $S -x 80 -y 24
keys G
check "G again: the cgroups" wait_for "^Cgroups: 4 shown"
# Tab goes through the data screens: the processes, a drill-down while one is open, the cgroups
keys Tab
check "Tab: the processes" wait_for "^Tasks: 4 shown"
keys Tab
check "Tab: the cgroups again, no drill-down being open" wait_for "^Cgroups: 4 shown"
keys BTab Enter
check "Enter opens a drill-down" wait_for "^Process: [0-9]*, its hot pages"
keys Tab
check "Tab from the drill-down: the cgroups" wait_for "^Cgroups: 4 shown"
keys Tab Tab
check "Tab, Tab: back to the drill-down left open" wait_for "^Process: [0-9]*, its hot pages"
keys Escape Tab
check "Esc closes it: Tab goes to the cgroups" wait_for "^Cgroups: 4 shown"
# help is a page over a screen, not one of the cycle: Tab leaves it where it is
keys h
wait_for "EscBack" >/dev/null
keys Tab Escape
check "Tab in help stays in help (Esc then goes back to the cgroups)" wait_for "EnterProcs GTasks"
keys q
check "q exits with status 0" wait_for "EXIT=0"
start "$PMCTOP --replay $top_srcdir/tests/data/hw.rec -d 0 --cgroups"
check "a recording without cgroups says so" wait_for "this recording has no cgroup rows"
keys q
wait_for "EXIT=0" >/dev/null

# Live: a workload in a cgroup of its own
if [ -z "$CGMNT" ] || [ "$(id -u)" != 0 ]; then
	skip_all "live cgroup view: it needs root and a cgroup v2 hierarchy"
fi
exclusive
cgroup_new "pmctop-test-tui.$$"
CG=$CGPATH
cgroup_bg "${CG#/}" "$WORKLOAD" faults 2000 30
W=$BG
keys "clear" Enter
tmux resize-window -t $S -x 120 -y 40
start "$PMCTOP --cgroups -d 0.5"
check "live: the cgroup view lists the workload's cgroup" wait_for " $CG\$" 100
# the cgroup's row shows its faults: about 2000/s (the workload's rate), at least some
rate_at_least_200() {
	v=$(screen | awk -v c="$CG" '$NF == c { print $3 }')
	[ -n "$v" ] && awk -v v="$v" 'BEGIN { exit !(v + 0 >= 200) }'
}
rate_shown() {
	if wait_until 10 rate_at_least_200; then
		diag "PF/s on screen: $v"
		return 0
	fi
	screen | sed 's/^/# |/'
	return 1
}
check "live: the cgroup's row counts its faults" rate_shown
# select the workload's cgroup: search by its name, then Enter
keys / "pmctop-test-tui" Enter Enter
check "live: Enter shows the cgroup's processes, the workload among them" wait_for "^ *$W .*tui\.$$ "
keys Escape
check "live: Esc goes back" wait_for "^Cgroups: "
keys q
check "live: q exits with status 0" wait_for "EXIT=0"
done_testing
