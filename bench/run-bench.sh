#!/bin/sh
# pmctop benchmarks (make bench): per-tick cost against top, the sampling path, and sampling
# cost against perf record. Numbers depend on the machine; nothing here is a pass/fail test.
set -u
here=$(dirname "$0")
build=${BUILD:-$here/..}
PMCTOP=${PMCTOP:-$build/src/pmctop}
WORKLOAD=${WORKLOAD:-$build/tests/workload}
TICKS=${TICKS:-20}
DELAY=${DELAY:-0.1}

command -v /usr/bin/time >/dev/null || { echo "bench needs /usr/bin/time (Debian package time)"; exit 1; }

# cpu_ms COMMAND...: user+system CPU milliseconds the command used
cpu_ms() {
	/usr/bin/time -f '%U %S' -o /tmp/pmctop-bench.$$ "$@" >/dev/null 2>&1
	# the last line: a failing command adds a status line before it
	tail -n 1 /tmp/pmctop-bench.$$ | awk '{ printf "%d", ($1 + $2) * 1000 }'
	rm -f /tmp/pmctop-bench.$$
}

spawn_idle() {
	i=0
	while [ "$i" -lt "$1" ]; do
		sleep 3600 &
		i=$((i + 1))
	done
}

echo "== per-tick CPU time, pmctop -b against top -b ($TICKS frames every $DELAY s)"
printf '%-10s %-14s %-14s %s\n' "extra" "pmctop ms/tick" "top ms/tick" "ratio"
for n in ${SIZES:-0 500 2000}; do
	spawn_idle "$n"
	sleep 1
	p=$(cpu_ms "$PMCTOP" -b -n "$TICKS" -d "$DELAY" --no-cpus)
	t=$(cpu_ms top -b -n "$TICKS" -d "$DELAY")
	awk -v n="$n" -v p="$p" -v t="$t" -v k="$TICKS" 'BEGIN {
		printf "%-10d %-14.2f %-14.2f %.2f\n", n, p / k, t / k, (t > 0 ? p / t : 0) }'
	pkill -P $$ sleep 2>/dev/null
	wait 2>/dev/null
done

echo
echo "== ring drain and hot-page histogram on synthetic records (one core)"
"$build/bench/ring_bench"

echo
echo "== sampling a faulting process for 5 s: pmctop -b --sample against perf record -d"
"$WORKLOAD" hotpages 20000 12 >/dev/null &
w=$!
sleep 0.5
p=$(cpu_ms "$PMCTOP" -b --sample "$w" -n 5 -d 1)
if command -v perf >/dev/null; then
	f=$(cpu_ms timeout -s INT 5 perf record -q -e page-faults -c 1 -d -p "$w" -o /tmp/pmctop-bench.data)
	rm -f /tmp/pmctop-bench.data
else
	f="(perf not installed)"
fi
kill "$w" 2>/dev/null
wait 2>/dev/null
echo "20000 faults/s: pmctop ${p} ms CPU, perf record ${f} ms CPU"
