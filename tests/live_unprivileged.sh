# Live: as an unprivileged user pmctop starts, counts what it may and explains the rest. Per-task
# events (--task-counts=perf) count the user's own processes only; counted from /proc (the
# default without a PMU, BPF not being permitted, which is said) every process is, with no perf
# permission at all.
. "$top_srcdir/tests/lib.sh"
exclusive

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	# the switch to nobody needs root; CI and the developers' machines run as root
	skip "needs root to drop to nobody"
	done_testing
	exit 0
fi
cp "$PMCTOP" "$TMP/pmctop"
chmod 755 "$TMP" "$TMP/pmctop"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -n 2 -d 0.5 -o csv \
	--task-counts=perf >"$TMP/u.csv" 2>"$TMP/u.err"
st=$?
sed 's/^/# stderr: /' "$TMP/u.err"
check "pmctop starts and exits 0 as nobody" test $st = 0
# pmctop's own process counts, so paranoid ($paranoid) is not what refuses root's: the kernel
# wants ptrace access to another user's process (perf_check_permission), which no sysctl gives
check "the permission message says other users' processes need ptrace access" \
	sh -c 'grep -q "other users'"'"' processes cannot be counted (pid [0-9]* of uid 0" "$1" &&
		grep -q "needs ptrace access to it" "$1"' _ "$TMP/u.err"
check "the message gives the ways out that help" \
	sh -c 'grep -q "run pmctop as that user or as root" "$1" && grep -q "setcap cap_perfmon" "$1"' _ "$TMP/u.err"
# (the sysctl is still advised where it helps: cpu-migrations, per-core counters)
check "and no perf_event_paranoid sysctl for the processes, which cannot help there" \
	sh -c '! grep "processes cannot be counted" "$1" | grep -q "perf_event_paranoid is\|sysctl"' \
	_ "$TMP/u.err"
# columns by name: the software-only header has fewer of them
nc=$(csv_field "$TMP/u.csv" not_counted)
cmd=$(csv_field "$TMP/u.csv" command)
cpu=$(csv_field "$TMP/u.csv" cpu)
me=$(awk -F, -v nc="$nc" -v cmd="$cmd" -v cpu="$cpu" \
	'$2 == "process" && $cmd == "pmctop" && $nc == "" && $cpu != "" {print $3}' "$TMP/u.csv" | head -1)
check "its own process is counted" test -n "$me"
check "root's processes are listed as not counted (permission denied)" \
	sh -c 'awk -F, -v nc="$2" '"'"'$2 == "process" && $4 == "root" && $nc == "permission denied"'"'"' "$1" | grep -q .' _ "$TMP/u.csv" "$nc"

# counting root's workload as nobody with per-task events: the message names it and its owner
cp "$WORKLOAD" "$TMP/workload"
chmod 755 "$TMP/workload"
"$TMP/workload" sleep 30 &
rootwl=$!
KILL_PIDS="$KILL_PIDS $rootwl"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -p "$rootwl" -n 2 -d 0.3 \
	-o csv --task-counts=perf >"$TMP/r.csv" 2>"$TMP/r.err"
st=$?
kill "$rootwl" 2>/dev/null
sed 's/^/# root workload stderr: /' "$TMP/r.err"
check "counting root's workload as nobody: exits 0" test $st = 0
check "its row is not counted: permission denied" \
	sh -c 'awk -F, -v nc="$2" -v pid="$3" '"'"'$2 == "process" && $3 == pid && $nc == "permission denied"'"'"' "$1" | grep -q .' \
	_ "$TMP/r.csv" "$(csv_field "$TMP/r.csv" not_counted)" "$rootwl"
check "the message names the workload, its owner and ptrace access" \
	sh -c 'grep -q "pid $2 of uid 0): counting another user'"'"'s process needs ptrace access" "$1"' \
	_ "$TMP/r.err" "$rootwl"
check "and gives no perf_event_paranoid advice for it, which cannot help" \
	sh -c '! grep "processes cannot be counted" "$1" | grep -q "perf_event_paranoid is\|sysctl"' \
	_ "$TMP/r.err"

# sampling root's process as nobody: the kernel wants ptrace access to it, which no paranoid
# level gives; the message says so, and does not send the user to the sysctl
sleep 30 &
rootpid=$!
KILL_PIDS="$KILL_PIDS $rootpid"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b --sample "$rootpid" \
	-n 2 -d 0.3 >/dev/null 2>"$TMP/s.err"
st=$?
kill "$rootpid" 2>/dev/null
sed 's/^/# sample stderr: /' "$TMP/s.err"
check "sampling root's process as nobody fails" test $st != 0
check "the message says the process is another user's and ptrace access is needed" \
	sh -c 'grep -q "pid $2 belongs to uid 0" "$1" && grep -q "needs ptrace access" "$1" &&
		grep -q "setcap cap_perfmon+ep" "$1"' _ "$TMP/s.err" "$rootpid"
check "and gives no perf_event_paranoid advice, which cannot help" \
	sh -c '! grep -q "sysctl kernel.perf_event_paranoid" "$1"' _ "$TMP/s.err"

# from /proc: root's processes are counted too (their %CPU and CS/s columns have values)
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -n 2 -d 0.5 -o csv \
	>"$TMP/p.csv" 2>"$TMP/p.err"
st=$?
sed 's/^/# proc stderr: /' "$TMP/p.err"
check "from /proc as nobody: exits 0" test $st = 0
# the default asks BPF first: as nobody it is not permitted, said once, with the way instead
check "as nobody the default says once that BPF is not permitted, and counts from /proc" \
	test "$(grep -c 'BPF: not permitted (needs CAP_BPF and CAP_PERFMON, or root); task counts from /proc instead' "$TMP/p.err")" = 1
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -n 1 -d 0.2 -o json \
	>"$TMP/p.json" 2>/dev/null
check "as nobody the mode line says the task counts come from /proc" \
	grep -q 'task counts from /proc (no per-task events)' "$TMP/p.json"
pcs=$(csv_field "$TMP/p.csv" cs)
check "from /proc as nobody: no process is 'permission denied'" \
	sh -c '! grep -q "permission denied" "$1"' _ "$TMP/p.csv"
check "from /proc as nobody: root's processes have counts in the second frame" \
	sh -c 'awk -F, -v c="$2" -v t="$(cut -d, -f1 "$1" | grep -v time | uniq | tail -1)" '"'"'$1 == t && $2 == "process" && $4 == "root" && $c != ""'"'"' "$1" | grep -q .' _ "$TMP/p.csv" "$pcs"

# context switches as nobody: perf counts none without kernel mode, /proc has the kernel's own
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/workload" pingpong 800 8 >/dev/null &
wl=$!
sleep 1
# switches of every thread of the workload (threads that live throughout)
switches() {
	cat /proc/"$wl"/task/*/status 2>/dev/null |
		awk '/^(non)?voluntary_ctxt_switches:/ { s += $2 } END { print s + 0 }'
}
t0=$(date +%s.%N); s0=$(switches)
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -p "$wl" -n 8 -d 0.5 -o csv \
	--task-counts=perf >"$TMP/cs.csv" 2>"$TMP/cs.err"
st=$?
t1=$(date +%s.%N); s1=$(switches)
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null
sed 's/^/# stderr: /' "$TMP/cs.err"
truth=$(awk -v a="$s0" -v b="$s1" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f", (b - a) / (t1 - t0) }')
csf=$(csv_field "$TMP/u.csv" cs)
migf=$(csv_field "$TMP/u.csv" mig)
# every interval after the first (the first frame, at once, has no counts; the first interval
# starts at the attach)
vals=$(awk -F, -v c="$csf" -v pid="$wl" '$2 == "process" && $3 == pid { if (n++ >= 2) print $c }' "$TMP/cs.csv")
diag "CS/s per frame: $(echo $vals); /proc says $truth/s"
check "pmctop -p runs as nobody on a workload of nobody's" test $st = 0
check "CS/s is never 0 or empty for a process switching about $truth times a second" \
	sh -c '[ -n "$1" ] && ! echo "$1" | grep -qxE "0(\.0*)?|"' _ "$vals"
mean=$(echo "$vals" | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n }')
check "CS/s ($mean) is within 10 % of what /proc/PID/task/*/status says ($truth)" \
	awk -v m="$mean" -v t="$truth" 'BEGIN { d = m - t; if (d < 0) d = -d; exit !(t > 0 && d <= 0.1 * t) }'
check "MIG/s is empty (cannot be counted in user mode), never 0" \
	sh -c '! awk -F, -v c="$1" '"'"'$2 == "process" && $c != ""'"'"' "$2" | grep -q .' _ "$migf" "$TMP/cs.csv"
check "the reason is said: context switches from /proc, no migrations" \
	grep -q "context switches are read from /proc" "$TMP/cs.err"

# kernel threads as nobody: listed with their /proc columns, not counted (user mode alone would
# count a meaningless 0), and the log says why
kt=$(awk '$1 == "PPid:" { print $2 }' /proc/2/status 2>/dev/null)
if [ "$(awk '{ print $2 }' /proc/2/stat 2>/dev/null)" = "(kthreadd)" ]; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -p 2 -n 2 -d 0.3 \
		--kernel-threads --task-counts=perf -o csv >"$TMP/k.csv" 2>"$TMP/k.err"
	sed 's/^/# stderr: /' "$TMP/k.err"
	check "kernel threads as nobody: kthreadd is listed, not counted (not permitted)" \
		sh -c 'test "$(awk -F, -v nc="$2" -v cmd="$3" '"'"'$2 == "process" && $3 == 2 && $cmd == "kthreadd" && $nc == "not permitted"'"'"' "$1" | wc -l)" = 2' \
		_ "$TMP/k.csv" "$(csv_field "$TMP/u.csv" not_counted)" "$(csv_field "$TMP/u.csv" command)"
	check "the log says why kernel threads are not counted" \
		grep -q "kernel threads are listed but not counted: they run in kernel mode only" "$TMP/k.err"
else
	skip "no kthreadd at pid 2 here (pid ${kt:-?}): kernel threads as nobody not tested"
fi
done_testing
