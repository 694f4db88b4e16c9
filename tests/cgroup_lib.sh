# Helpers for the tests that make cgroups of their own: find the v2 hierarchy, make a fresh
# cgroup, run a workload in it, and remove it all at the end. Source after tests/lib.sh.

# CGMNT: where the cgroup v2 hierarchy is mounted (from mountinfo, as pmctop finds it)
CGMNT=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
CGROUPS_MADE=""

# cgroup_need: end the test as skipped, with the reason, when no cgroup of its own can be made
cgroup_need() {
	why=
	if [ -z "$CGMNT" ]; then
		why="no cgroup v2 hierarchy is mounted (no cgroup2 line in /proc/self/mountinfo)"
	elif [ "$(id -u)" != 0 ]; then
		why="making cgroups needs root"
	elif ! mkdir "$CGMNT/pmctop-probe.$$" 2>/dev/null; then
		why="cannot make a cgroup under $CGMNT"
	else
		rmdir "$CGMNT/pmctop-probe.$$"
	fi
	if [ -n "$why" ]; then
		skip_all "cgroup tests: $why"
	fi
}

# cgroup_new NAME: make the cgroup NAME (below the root) and remember it; sets CGPATH to its
# path below the hierarchy ("/NAME"), as pmctop and perf -G name it
cgroup_new() {
	mkdir "$CGMNT/$1" || return 1
	CGROUPS_MADE="$1 $CGROUPS_MADE"
	CGPATH="/$1"
}

# cgroup_bg NAME COMMAND...: start COMMAND in the cgroup NAME (it is there from its first
# instruction), remember it for cleanup, set $BG
cgroup_bg() {
	cg=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CGMNT/$cg" "$@" &
	BG=$!
	KILL_PIDS="$KILL_PIDS $BG"
}

# the workloads die first, then their cgroups go (a cgroup with tasks cannot be removed)
cgroup_cleanup() {
	for p in $KILL_PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	cgroup_removed() { [ ! -d "$CGMNT/$1" ] || rmdir "$CGMNT/$1" 2>/dev/null; }
	for cg in $CGROUPS_MADE; do
		# the last task's exit is seen a moment after its parent reaps it
		wait_until 1 cgroup_removed "$cg"
	done
	rm -rf "$TMP"
}
trap cgroup_cleanup EXIT
