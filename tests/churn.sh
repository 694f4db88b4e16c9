# Load: thousands of short-lived processes and threads while pmctop -b runs: no crash, no
# message spam, the open descriptors return to where they were, memory stays flat.
# The descriptors pmctop holds follow the processes it watches, so the test runs in a PID
# namespace of its own (or names its processes with -p) and compares pmctop's descriptors
# at two moments when it watches the same processes: the churn workload held before it starts
# and held again after it has finished, with no other process of the test alive.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive
SECS=${CHURN_SECONDS:-60}
RATE=${CHURN_RATE:-600}	# processes per second, and as many threads: 1200 tasks/s

# fds PID: pmctop's open descriptors, counted by the shell itself so no process comes and goes
fds() {
	set -- /proc/"$1"/fd/*
	FDS=$#
}
rss() { awk '/^VmRSS/ {print $2}' /proc/"$1"/status 2>/dev/null; }

nap 0.01	# creates the fifo nap reads, before the first count
"$WORKLOAD" churn "$RATE" "$SECS" hold >"$TMP/churned" &
w=$!
KILL_PIDS="$KILL_PIDS $w"
# until it says it holds: a SIGUSR1 before that would kill it
wait_until 30 grep -q held "$TMP/churned"
only=""
[ "$ISOLATED" = yes ] || only="-p $$,$w"
# shellcheck disable=SC2086
"$PMCTOP" -b -d 0.5 -o csv --no-cpus $only >"$TMP/out.csv" 2>"$TMP/err" &
p=$!
KILL_PIDS="$KILL_PIDS $p"
nap 2
fds $p
fd0=$FDS
kill -USR1 $w
nap $((SECS / 4))
rss1=$(rss $p)
nap $((SECS / 2))
rss2=$(rss $p)
# the workload prints its count when the churn is over, then waits to be killed
churned() { [ "$(grep -c . "$TMP/churned")" -ge 2 ]; }
wait_until $((SECS * 2)) churned
# four ticks with the same processes as at the start
nap 2
fds $p
fd1=$FDS
alive=no
kill -0 $p 2>/dev/null && alive=yes
kill -TERM $p
wait $p
st=$?
churned=$(grep -v held "$TMP/churned")
diag "${churned:-no} processes and as many threads in $SECS s; fds $fd0 -> $fd1; RSS ${rss1} KiB -> ${rss2} KiB"
check "pmctop survived the churn" test "$alive" = yes
check "and ended with status 0" test "$st" = 0
# starved of CPU the workload falls far short of its rate (75 processes/s beside stress-ng
# --cpu 2 on 2 CPUs); 10 processes and 10 threads a second over the run is still a churn
check "the churn really ran (${churned:-0} of $((RATE * SECS)) processes)" \
	test "${churned:-0}" -ge $((SECS * 10))
check "open descriptors back to the baseline ($fd0 -> $fd1)" within "$fd1" $((fd0 - 2)) $((fd0 + 2))
if [ -n "${PMCTOP_SANITIZERS:-}" ]; then
	# ASan keeps freed memory in quarantine; LeakSanitizer checks for leaks at the exit above
	skip "memory stays flat: not measurable under AddressSanitizer"
else
	check "memory stays flat (${rss1} -> ${rss2} KiB)" within "$rss2" 0 $((rss1 + rss1 / 4 + 1024))
fi
check "no message spam (at most 3 lines)" test "$(wc -l <"$TMP/err")" -le 3
sed 's/^/# stderr: /' "$TMP/err"
# frames kept coming: never more than 3 s (six ticks) between two frames, however loaded
cut -d, -f1 "$TMP/out.csv" | grep -v '^time$' | uniq >"$TMP/times"
gap=$(awk 'NR > 1 && $1 - prev > max { max = $1 - prev } { prev = $1 } END { print max + 0 }' "$TMP/times")
diag "$(wc -l <"$TMP/times") frames, the longest gap between two ${gap} s"
check "frames kept coming (longest gap ${gap} s)" within "$gap" 0 3
check "frames for the whole run" test "$(wc -l <"$TMP/times")" -ge "$SECS"
done_testing
