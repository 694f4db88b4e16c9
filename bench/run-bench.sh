#!/bin/sh
# Per-tick CPU cost of pmctop -b against top -b, with N extra idle processes (make bench).
# Usage: bench/run-bench.sh [N...]   (default: 0 500 2000)
set -u
PMCTOP=${PMCTOP:-$(dirname "$0")/../src/pmctop}
TICKS=${TICKS:-20}
DELAY=${DELAY:-0.1}

# cpu_ms COMMAND...: user+system CPU milliseconds the command used
cpu_ms() {
	/usr/bin/env time -f '%U %S' -o /tmp/pmctop-bench.$$ "$@" >/dev/null 2>&1
	awk '{ printf "%d", ($1 + $2) * 1000 }' /tmp/pmctop-bench.$$
	rm -f /tmp/pmctop-bench.$$
}

spawn_idle() {
	i=0
	while [ "$i" -lt "$1" ]; do
		sleep 3600 &
		i=$((i + 1))
	done
}

command -v /usr/bin/time >/dev/null || { echo "bench needs /usr/bin/time (Debian package time)"; exit 1; }
printf '%-10s %-14s %-14s %s\n' "extra" "pmctop ms/tick" "top ms/tick" "ratio"
for n in ${@:-0 500 2000}; do
	spawn_idle "$n"
	sleep 1
	p=$(cpu_ms "$PMCTOP" -b -n "$TICKS" -d "$DELAY" --no-cpus)
	t=$(cpu_ms top -b -n "$TICKS" -d "$DELAY")
	awk -v n="$n" -v p="$p" -v t="$t" -v k="$TICKS" 'BEGIN {
		printf "%-10d %-14.2f %-14.2f %.2f\n", n, p / k, t / k, (t > 0 ? p / t : 0) }'
	pkill -P $$ sleep 2>/dev/null
	wait 2>/dev/null
done
