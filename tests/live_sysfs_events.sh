# Live: an -e event spelled as the kernel's sysfs names it (PMU/TERMS/) is encoded from the PMU's
# own format and events files and counted for real, per CPU and per process. The x86 msr PMU's
# time-stamp counter (msr/tsc/) counts in a VM without a hardware PMU, at a constant rate.
. "$top_srcdir/tests/lib.sh"
exclusive
MSR=/sys/bus/event_source/devices/msr
if [ ! -r "$MSR/events/tsc" ]; then
	skip_all "no msr PMU with a tsc event under $MSR (not x86, or the msr PMU is not built)"
fi

background "$WORKLOAD" spin 1 6 "$TMP/spin.log"
sleep 0.3
"$PMCTOP" -b -p "$BG" -d 0.5 -n 6 -o csv -e msr/tsc/ >"$TMP/tsc.csv" 2>"$TMP/tsc.err"
check "pmctop -b -e msr/tsc/ exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/tsc.err"
col() { head -1 "$TMP/tsc.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
T=$(col msr/tsc/)
C=$(col cpu)
check "the CSV has an msr/tsc/ column" test -n "$T"
# per CPU, after the first frame: the counter ticks at the same rate on every CPU, busy or idle
awk -F, -v t="$T" '$2 == "cpu" && $3 != "all" && NR > 1 { print $1, $3, $t }' "$TMP/tsc.csv" |
	awk 'NR > 2' >"$TMP/percpu"
diag "per CPU (time cpu tsc): $(tr '\n' ';' <"$TMP/percpu")"
same_rate() {
	awk '{ v[NR] = $3; if ($3 + 0 <= 0) bad = 1 } END {
		if (NR < 4 || bad) exit 1
		for (i = 2; i <= NR; i++) { r = v[i] / v[1]; if (r < 0.9 || r > 1.1) exit 1 } }' "$TMP/percpu"
}
check "every CPU counted the TSC, at one rate (within 10 %)" same_rate
# the busy process: its TSC count over a frame is its share of the frame's TSC ticks, which
# is its %CPU (both from the same counters' enabled time, not from /proc)
awk -F, -v t="$T" -v c="$C" -v pid="$BG" '$2 == "cpu" && $3 == "0" { cpu[$1] = $t }
	$2 == "process" && $3 == pid { print $1, $c, $t }' "$TMP/tsc.csv" | tail -n 4 >"$TMP/proc"
awk -F, -v t="$T" '$2 == "cpu" && $3 == "0" { print $1, $t }' "$TMP/tsc.csv" >"$TMP/cpu0"
diag "process frames (time %CPU tsc): $(tr '\n' ';' <"$TMP/proc")"
share_ok() {
	join "$TMP/proc" "$TMP/cpu0" | awk '{ n++; if ($2 < 20) next; busy++
		share = $3 / $4 * 100; d = share - $2; if (d < 0) d = -d
		if (d > 0.15 * $2 + 3) bad = 1 } END { exit bad || !busy || n < 3 }'
}
check "the spinning process's TSC count is its %CPU share of a CPU's (within 15 %)" share_ok
done_testing
