# Live: a process that starts between two frames shows, in its first frame, the CPU it used
# since it started (its /proc CPU time), above 0, never 0.0 from counters attached at that read.
. "$top_srcdir/tests/lib.sh"
exclusive

mkfifo "$TMP/out"
"$PMCTOP" -b -d 1 -o csv >"$TMP/out" 2>"$TMP/err" &
PM=$!
KILL_PIDS="$KILL_PIDS $PM"
# The watcher: reads pmctop's frames line by line; right after a counted frame has begun (its
# first row, CPU 0, with a %CPU) it starts a busy child, which lives until it is found; then it
# waits for the first frame that lists the child. A frame's rows come out together. The fields
# are split by the shell itself: a process or two per row would leave the watcher frames behind
# pmctop on a busy machine, and pmctop, blocked on the full FIFO, would miss a short child.
child=
last=
found=
frames=0
exec 3<"$TMP/out"
while IFS= read -r -t 60 line <&3; do
	echo "$line" >>"$TMP/frames.csv"
	set -f
	oldifs=$IFS
	IFS=,
	# shellcheck disable=SC2086
	set -- $line
	IFS=$oldifs
	set +f
	case $line in time,*)
		cpuf=0
		i=0
		for name in "$@"; do
			i=$((i + 1))
			[ "$name" = cpu ] && cpuf=$i
		done
		continue ;;
	esac
	t=$1
	kind=$2
	id=$3
	if [ "$kind" = cpu ] && [ "$id" = 0 ]; then
		frames=$((frames + 1))
		# a bound: the child shows within a few frames, or the test ends
		[ $frames -le 30 ] || break
		eval "cpu=\${$cpuf}"
	fi
	if [ -z "$child" ] && [ "$kind" = cpu ] && [ "$id" = 0 ] && [ -n "$cpu" ]; then
		"$WORKLOAD" spin 1 60 &
		child=$!
		KILL_PIDS="$KILL_PIDS $child"
		started=$t
		continue
	fi
	if [ -n "$child" ] && [ "$kind" = process ] && [ "$id" = "$child" ]; then
		found=$line
		break
	fi
done
exec 3<&-
kill "$PM" 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
diag "child $child started after the frame of $started; its first row: $found"
check "the child started after a counted frame is listed in a later frame" test -n "$found"
cpu=$(echo "$found" | cut -d, -f"$cpuf")
check "its first frame's %CPU is a number above 0 ($cpu), not empty and not 0.0" \
	awk -v v="$cpu" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v + 0 > 0) }'
first=${found%%,*}
check "that frame is the one after the frame it started behind" \
	awk -v a="$started" -v b="$first" 'BEGIN { exit !(b > a) }'
[ -n "$found" ] || sed 's/^/# /' "$TMP/err"
done_testing
