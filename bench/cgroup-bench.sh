#!/bin/sh
# The cost of pmctop as an always-on cgroup agent: 2000 idle processes in 50 cgroups, pmctop
# --listen --cgroups ticking every second and scraped every 15 s, and pmctop -b --cgroups; CPU %
# of one core after start-up and peak RSS. Needs root and a cgroup v2 hierarchy (it makes its
# cgroups and removes them). Numbers depend on the machine; nothing here is a pass/fail test.
set -u
here=$(dirname "$0")
build=${BUILD:-$here/..}
PMCTOP=${PMCTOP:-$build/src/pmctop}
NPROC=${NPROC:-2000}
NCG=${NCG:-50}
SECONDS_RUN=${SECONDS_RUN:-60}
SCRAPE=${SCRAPE:-15}

CGMNT=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
if [ -z "$CGMNT" ] || [ "$(id -u)" != 0 ]; then
	echo "cgroup agent benchmark skipped: it needs root and a cgroup v2 hierarchy"
	exit 0
fi
TOP="pmctop-bench.$$"
mkdir "$CGMNT/$TOP" || exit 1
PIDS=""
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$PIDS" ] && kill $PIDS 2>/dev/null
	wait 2>/dev/null
	sleep 0.5
	for i in $(seq "$NCG"); do rmdir "$CGMNT/$TOP/cg$i" 2>/dev/null; done
	rmdir "$CGMNT/$TOP" 2>/dev/null
}
trap cleanup EXIT INT TERM

# NPROC idle processes, spread over NCG cgroups under $TOP
for i in $(seq "$NCG"); do mkdir "$CGMNT/$TOP/cg$i"; done
i=0
while [ "$i" -lt "$NPROC" ]; do
	sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 3600' sh "$CGMNT/$TOP/cg$((i % NCG + 1))" &
	PIDS="$PIDS $!"
	i=$((i + 1))
done
sleep 2
echo "$(cat "$CGMNT/$TOP"/cg*/cgroup.procs | wc -l) idle processes in $NCG cgroups of $CGMNT/$TOP"

# cpu_ticks PID: user + system clock ticks of the process
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# measure PID NAME: CPU % over SECONDS_RUN after 5 s of start-up, peak RSS, descriptors
measure() {
	pid=$1
	sleep 5
	c0=$(cpu_ticks "$pid")
	t0=$(date +%s.%N)
	addr=$2
	end=$(($(date +%s) + SECONDS_RUN))
	while [ "$(date +%s)" -lt "$end" ]; do
		[ -n "$addr" ] && curl -s -o /dev/null "http://$addr/metrics"
		sleep "$SCRAPE"
	done
	c1=$(cpu_ticks "$pid")
	t1=$(date +%s.%N)
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
	fds=$(ls "/proc/$pid/fd" | wc -l)
	awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$hz" -v hwm="$hwm" -v fds="$fds" \
		-v name="$3" 'BEGIN {
		printf "%-34s %6.3f %% of a core  %6.1f ms/tick  peak RSS %5.1f MiB  %d fds\n",
			name, 100 * (c1 - c0) / hz / (t1 - t0), 1000 * (c1 - c0) / hz / (t1 - t0),
			hwm / 1024, fds }'
}

echo "== pmctop as a cgroup agent, 1 s tick, over ${SECONDS_RUN} s after 5 s of start-up"
"$PMCTOP" --listen 127.0.0.1:0 --cgroups --cgroup-depth 2 -d 1 2>"/tmp/pmctop-bench.$$" &
pm=$!
sleep 1
addr=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "/tmp/pmctop-bench.$$")
series=$(curl -s "http://$addr/metrics" | grep -c "^pmctop_cgroup_event_count_total")
measure "$pm" "$addr" "--listen --cgroups, scraped every ${SCRAPE} s"
kill "$pm"
wait "$pm" 2>/dev/null
echo "   ($series cgroup count series; $(grep -o 'counting [0-9]* cgroups takes [0-9]* file descriptors' "/tmp/pmctop-bench.$$"))"
rm -f "/tmp/pmctop-bench.$$"

"$PMCTOP" -b --cgroups --cgroup-depth 2 -d 1 -o json >/dev/null 2>&1 &
pm=$!
measure "$pm" "" "-b --cgroups -o json"
kill "$pm"
wait "$pm" 2>/dev/null

# the same machine counted per process, for comparison
"$PMCTOP" --listen 127.0.0.1:0 -d 1 2>"/tmp/pmctop-bench.$$" &
pm=$!
sleep 1
addr=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "/tmp/pmctop-bench.$$")
measure "$pm" "$addr" "--listen per process (no --cgroups)"
kill "$pm"
wait "$pm" 2>/dev/null
rm -f "/tmp/pmctop-bench.$$"
