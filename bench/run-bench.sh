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

# wall_ms COMMAND...: wall-clock milliseconds
wall_ms() {
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	echo $((($(date +%s%N) - s) / 1000000))
}

# rss_kb COMMAND...: peak resident set size in KiB
rss_kb() {
	/usr/bin/time -f '%M' -o /tmp/pmctop-bench.$$ "$@" >/dev/null 2>&1
	tail -n 1 /tmp/pmctop-bench.$$
	rm -f /tmp/pmctop-bench.$$
}

echo "== per-tick CPU time, pmctop -b against top -b, after start-up"
echo "   (CPU of $((2 * TICKS)) frames minus CPU of $TICKS frames, over $TICKS; every $DELAY s)"
printf '%-7s %-15s %-12s %-6s %-14s %-12s %s\n' "extra" "pmctop ms/tick" "top ms/tick" "ratio" \
	"first frame ms" "peak RSS KiB" "pmctop start-up ms CPU"
for n in ${SIZES:-0 500 2000}; do
	spawn_idle "$n"
	sleep 1
	p1=$(cpu_ms "$PMCTOP" -b -n "$TICKS" -d "$DELAY" --no-cpus)
	p2=$(cpu_ms "$PMCTOP" -b -n $((2 * TICKS)) -d "$DELAY" --no-cpus)
	t1=$(cpu_ms top -b -n "$TICKS" -d "$DELAY")
	t2=$(cpu_ms top -b -n $((2 * TICKS)) -d "$DELAY")
	first=$(wall_ms "$PMCTOP" -b -n 1 -d 0.01 --no-cpus)
	rss=$(rss_kb "$PMCTOP" -b -n 3 -d "$DELAY" --no-cpus)
	awk -v n="$n" -v p1="$p1" -v p2="$p2" -v t1="$t1" -v t2="$t2" -v k="$TICKS" \
		-v first="$first" -v rss="$rss" 'BEGIN {
		p = (p2 - p1) / k; t = (t2 - t1) / k
		printf "%-7d %-15.2f %-12.2f %-6.2f %-14d %-12d %d\n", n, p, t, (t > 0 ? p / t : 0),
			first, rss, p1 - p * k }'
	pkill -P $$ sleep 2>/dev/null
	wait 2>/dev/null
done

echo
echo "== threads: 50 extra processes of T idle threads each"
printf '%-9s %-15s %-12s %s\n' "threads" "pmctop ms/tick" "top ms/tick" "ratio"
for t in ${THREADS:-1 20 40}; do
	i=0
	while [ $i -lt 50 ]; do
		"$WORKLOAD" idle "$t" 3600 &
		i=$((i + 1))
	done
	sleep 1
	p1=$(cpu_ms "$PMCTOP" -b -n "$TICKS" -d "$DELAY" --no-cpus)
	p2=$(cpu_ms "$PMCTOP" -b -n $((2 * TICKS)) -d "$DELAY" --no-cpus)
	t1=$(cpu_ms top -b -n "$TICKS" -d "$DELAY")
	t2=$(cpu_ms top -b -n $((2 * TICKS)) -d "$DELAY")
	awk -v n=$((50 * t)) -v p1="$p1" -v p2="$p2" -v t1="$t1" -v t2="$t2" -v k="$TICKS" 'BEGIN {
		p = (p2 - p1) / k; t = (t2 - t1) / k
		printf "%-9d %-15.2f %-12.2f %.2f\n", n, p, t, (t > 0 ? p / t : 0) }'
	pkill -P $$ -f "workload idle" 2>/dev/null
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

echo
sh "$here/cgroup-bench.sh"
