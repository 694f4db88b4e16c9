#!/bin/sh
# Paired per-tick cost of two pmctop builds and top -b beside a busy population, in a PID
# namespace of its own (run as root):
#   unshare --pid --fork --mount-proc sh bench/paired-busy.sh OLD_PMCTOP NEW_PMCTOP
# Env: BUILD (the build directory with bench/waker and bench/runstat; default: this script's
# directory's parent), PROCS (2000) processes of THREADS (1) threads each waking every 100 ms,
# REPS (3) rounds of old, new and top in turn, FRAMES (60) frames a pmctop run, A and B (2 and
# 32: the frames measured, counted from the first one no longer "not attached yet"), SIM (6:
# PMCTOP_SIM_GROUPS, the hardware-like layout; empty for the build's own).
# Prints one line a run: "old|new|top TICK_US FIRST_MS CPU_US MAXRSS_KIB WALL_MS FRAMES STATUS
# [S]" (bench/runstat's), then the medians of the ticks and their ratios.
set -u
[ $# -eq 2 ] || {
	echo "usage: paired-busy.sh OLD_PMCTOP NEW_PMCTOP" >&2
	exit 2
}
# its processes are killed by name at the end: only inside a PID namespace of its own
[ $$ -eq 1 ] || {
	echo "paired-busy.sh: run it as: unshare --pid --fork --mount-proc sh $0 OLD NEW" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/..}
W=$build/bench/waker
RS=$build/bench/runstat
PROCS=${PROCS:-2000}
THREADS=${THREADS:-1}
REPS=${REPS:-3}
FRAMES=${FRAMES:-60}
A=${A:-2}
B=${B:-32}
SIM=${SIM-6}
for f in "$W" "$RS" "$1" "$2"; do
	[ -x "$f" ] || {
		echo "paired-busy.sh: $f is not there (make bench/waker bench/runstat)" >&2
		exit 2
	}
done
ulimit -n 20000 2>/dev/null
i=0
while [ $i -lt "$PROCS" ]; do
	"$W" "$THREADS" 100 3600 >/dev/null 2>&1 &
	i=$((i + 1))
done
sleep 10
out=$(mktemp)
r=0
while [ $r -lt "$REPS" ]; do
	for b in old new; do
		p=$1
		[ $b = new ] && p=$2
		printf '%s %s\n' $b "$("$RS" -f 'pmctop - ' -s 'not attached yet' -a "$A" -b "$B" \
			env ${SIM:+PMCTOP_SIM_GROUPS=$SIM} "$p" -b --no-cpus -d 0.1 -n "$FRAMES" | tr '\n' ' ')" |
			tee -a "$out"
	done
	printf 'top %s\n' "$("$RS" -f 'top - ' -a "$A" -b "$B" top -b -d 0.1 -n "$B" | tr '\n' ' ')" |
		tee -a "$out"
	r=$((r + 1))
done
pkill -x waker
# runs that failed (status not 0) or measured nothing (-1) are left out
awk '$2 >= 0 && $8 == 0 { t[$1] = t[$1] " " $2 }
	function med(s,   a, n, i, j, x) {
		n = split(s, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		o = med(t["old"]); n = med(t["new"]); p = med(t["top"])
		if (o <= 0 || n <= 0 || p <= 0) { print "too few runs measured"; exit 1 }
		printf "median us/tick: old %.0f, new %.0f, top %.0f; new/old %.2f, old/top %.2f, new/top %.2f\n", o, n, p, n / o, o / p, n / p
	}' "$out"
rm -f "$out"
