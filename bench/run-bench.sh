#!/bin/sh
# pmctop benchmarks (make bench): per-tick cost against top -b and top -H -b in a PID namespace of
# their own, checked against the targets of doc/performance.md; the cost to the watched processes;
# the sampling path; sampling against perf record; the cgroup agent. Numbers depend on the machine.
#
# Environment: SIZES ("0 500 2000 5000": idle processes), THREADS ("1 20 100": threads in each of
# 50 processes), BUSY ("40 100": threads in each of 50 processes, every one waking every 100 ms and
# touching memory: a busy server), PICK (only these tools, e.g. "pmctop-proc pmctop-hw"), BUSYP ("2000": processes of one such thread), REPS (5), TICKS (10 frames measured after frame A=2), DELAY (0.1 s), ONLY=ticks to stop after the table,
# ROUNDS (watched_cost round trips), NPROC/NCG/SECONDS_RUN for cgroup-bench.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/..}
PMCTOP=${PMCTOP:-$build/src/pmctop}
WORKLOAD=${WORKLOAD:-$build/tests/workload}
RUNSTAT=${RUNSTAT:-$build/bench/runstat}
WAKER=${WAKER:-$build/bench/waker}
SIZES=${SIZES-0 500 2000 5000}
THREADS=${THREADS-1 20 100}
BUSY=${BUSY-40 100}
BUSYP=${BUSYP-2000}
REPS=${REPS:-5}
A=${A:-2}
TICKS=${TICKS:-10}
B=$((A + TICKS))
DELAY=${DELAY:-0.1}
SIM=6

for f in "$PMCTOP" "$WORKLOAD" "$RUNSTAT" "$WAKER"; do
	[ -x "$f" ] || { echo "bench: $f is missing: run make bench (it builds it)"; exit 1; }
done
command -v top >/dev/null || { echo "bench: top is missing (Debian package procps)"; exit 1; }

# The population must be only what the bench makes: a PID namespace of its own with its own /proc.
if [ -z "${PMCTOP_BENCH_NS:-}" ]; then
	if unshare --pid --fork --mount-proc true 2>/dev/null; then
		PMCTOP_BENCH_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
	fi
	echo "bench: no PID namespace here (unshare --pid --fork --mount-proc needs root):"
	echo "       the machine's own processes are counted too"
fi

tmp=$(mktemp -d /tmp/pmctop-bench.XXXXXX) || exit 1
KIDS=""
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$KIDS" ] && kill $KIDS 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# What this pmctop supports: --bpf in its help, PMCTOP_SIM_GROUPS named in the binary.
HAVE_BPF=0
HAVE_SIM=0
HAVE_PERF=0
if "$PMCTOP" --help 2>/dev/null | grep -q -- '--bpf'; then
	if "$PMCTOP" -b --bpf --no-cpus -n 1 -d 0.01 >/dev/null 2>"$tmp/bpf.err"; then
		HAVE_BPF=1
	else
		BPF_WHY="pmctop --bpf failed here: $(head -n 1 "$tmp/bpf.err")"
	fi
else
	BPF_WHY="this pmctop has no --bpf"
fi
# --task-counts: the default counts from /proc without a PMU; pmctop-perf rows use per-task events
if "$PMCTOP" --help 2>/dev/null | grep -q -- '--task-counts'; then
	HAVE_PERF=1
fi
if grep -q PMCTOP_SIM_GROUPS "$PMCTOP" 2>/dev/null; then
	HAVE_SIM=1
fi

# Tools, by name: the command of M frames is "tool_cmd NAME M".
TOOLS="pmctop"
[ "$HAVE_PERF" = 1 ] && TOOLS="$TOOLS pmctop-perf"
[ "$HAVE_SIM" = 1 ] && TOOLS="$TOOLS pmctop-hw"
[ "$HAVE_BPF" = 1 ] && TOOLS="$TOOLS pmctop-bpf"
# pmctop as an ordinary user (no BPF, no ptrace of others: the bench's processes are its own)
HAVE_USER=0
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	HAVE_USER=1
	TOOLS="$TOOLS pmctop-user"
fi
TOOLS="$TOOLS pmctop-proc pmctop-H top top-H"
# PICK="pmctop-user pmctop-hw": only those tools (and top -b, which the ratios need)
if [ -n "${PICK:-}" ]; then
	sel=""
	for t in $TOOLS; do
		case " $PICK top " in *" $t "*) sel="$sel $t" ;; esac
	done
	TOOLS=$sel
fi

# tool_run NAME: "TICK_US FIRST_MS CPU_US MAXRSS_KIB WALL_MS FRAMES STATUS SETTLED" of B frames
# (bench/runstat.c; pmctop's counted from frame SETTLED)
tool_run() {
	case $1 in
	pmctop*)
		# frames A and B from the first one whose status line no longer says "not attached
		# yet", in this run; the settle run's count guesses how long that takes, 20 more
		# shellcheck disable=SC2046 # a command line of known words
		"$RUNSTAT" -f 'pmctop - ' -s 'not attached yet' -a "$A" -b "$B" \
			$(pmctop_cmd "$1" "$((B + SKIP + 20))") ;;
	top) "$RUNSTAT" -f 'top - ' -a "$A" -b "$B" top -b -d "$DELAY" -n "$B" ;;
	top-H) "$RUNSTAT" -f 'top - ' -a "$A" -b "$B" top -H -b -d "$DELAY" -n "$B" ;;
	esac
}

# pmctop_cmd NAME FRAMES: the pmctop command line of tool NAME
pmctop_cmd() {
	case $1 in
	pmctop) echo "$PMCTOP -b --no-cpus -d $DELAY -n $2" ;;
	pmctop-hw) echo "env PMCTOP_SIM_GROUPS=$SIM $PMCTOP -b --no-cpus -d $DELAY -n $2" ;;
	pmctop-bpf) echo "$PMCTOP -b --bpf --no-cpus -d $DELAY -n $2" ;;
	pmctop-perf) echo "$PMCTOP -b --task-counts=perf --no-cpus -d $DELAY -n $2" ;;
	pmctop-proc) echo "$PMCTOP -b --task-counts=proc --no-cpus -d $DELAY -n $2" ;;
	pmctop-H) echo "$PMCTOP -b -H --no-cpus -d $DELAY -n $2" ;;
	pmctop-user) echo "setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all $PMCTOP -b --no-cpus -d $DELAY -n $2" ;;
	esac
}

# settle NAME: "FRAME NOTCOUNTED": the first frame in which no process waits for its counters
# (pmctop attaches across ticks, a share of each interval, busiest first), and what its next
# frame says is not counted ("0", or "N (reason)"); at most SETTLE_MAX (300) frames
settle() {
	# shellcheck disable=SC2046 # a command line of known words
	$(pmctop_cmd "$1" "${SETTLE_MAX:-300}") 2>/dev/null | awk '
		/^pmctop - / { f++ }
		/^(Tasks|Threads): / {
			if (!s && $0 !~ /not attached yet/) { s = f; next }
			if (s) {
				nc = "0"
				if (match($0, /, [0-9]+ not counted \(.*\)$/))
					nc = substr($0, RSTART + 2, RLENGTH - 2)
				sub(/ not counted/, "", nc)
				print s, nc
				exit
			}
		}
		END { if (!s) print f, "all frames: not attached yet" }'
}

# population: SIZE idle processes ("p N"), 50 processes of N idle threads ("t N"), 50 processes
# of N threads each waking every 100 ms ("b N"), N processes of one such thread ("w N"); the busy
# ones run as nobody, so that pmctop-user may count them
populate() {
	i=0
	as=""
	[ "$HAVE_USER" = 1 ] && as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	case $1 in
	b)
		while [ "$i" -lt 50 ]; do
			$as "$WAKER" "$2" 100 3600 &
			KIDS="$KIDS $!"
			i=$((i + 1))
		done
		;;
	w)
		while [ "$i" -lt "$2" ]; do
			$as "$WAKER" 1 100 3600 &
			KIDS="$KIDS $!"
			i=$((i + 1))
		done
		;;
	p)
		while [ "$i" -lt "$2" ]; do
			sleep 3600 &
			KIDS="$KIDS $!"
			i=$((i + 1))
		done
		;;
	t)
		while [ "$i" -lt 50 ]; do
			"$WORKLOAD" idle "$2" 3600 &
			KIDS="$KIDS $!"
			i=$((i + 1))
		done
		;;
	esac
	# wait until every thread is there and the forks have settled
	case $1 in p | w) want=$2 ;; *) want=$((50 * $2)) ;; esac
	t=0
	while [ "$t" -lt 100 ]; do
		have=$(ls /proc/[0-9]*/task 2>/dev/null | grep -c '^[0-9]')
		[ "$have" -ge "$want" ] && break
		sleep 0.2
		t=$((t + 1))
	done
	sleep 1
}

depopulate() {
	# shellcheck disable=SC2086
	[ -n "$KIDS" ] && kill $KIDS 2>/dev/null
	wait 2>/dev/null
	KIDS=""
}

# stats FILE: "min median" of the numbers in FILE, one a line
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (!NR) { print "- -"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f %.3f\n", v[1], m }'
}

# med FILE: the median alone
med() { stats "$1" | awk '{ print $2 }'; }

echo "== per-tick CPU time against top, in a PID namespace with only the bench's processes"
echo "   per tick: CPU time (schedstat, ns) of the running tool between the headers of frames $A and $B,"
echo "   over $TICKS; every $DELAY s; $REPS repetitions interleaved; pmctop with --no-cpus (top has no"
echo "   per-core counters); pmctop-hw: PMCTOP_SIM_GROUPS=$SIM, the default software set opened as $SIM"
echo "   groups per thread as on a real PMU; first frame: wall time from exec to the first frame's"
echo "   header; RSS: peak resident set of the run; pmctop's frames are counted from the first"
echo "   one whose status line no longer says \"not attached yet\", in the same run (it attaches"
echo "   across ticks; at $DELAY s, 40 ms a tick)"
echo "   $(uname -r), $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
	"ulimit -n $(ulimit -Sn) soft $(ulimit -Hn) hard, $(date -u '+%Y-%m-%d %H:%M UTC')"
[ "$HAVE_SIM" = 1 ] || echo "   pmctop-hw rows skipped: this pmctop does not know PMCTOP_SIM_GROUPS (hardware-like layout)"
[ "$HAVE_BPF" = 1 ] || echo "   pmctop-bpf rows skipped: $BPF_WHY"
echo
printf '%-12s %-11s %19s %10s %19s %8s %12s\n' "population" "tool" "ms/tick min median" "x top -b" \
	"first frame min med" "RSS MiB" "not counted"

configs=""
for n in $SIZES; do configs="$configs p:$n"; done
for n in $THREADS; do configs="$configs t:$n"; done
for n in $BUSY; do configs="$configs b:$n"; done
for n in $BUSYP; do configs="$configs w:$n"; done

for c in $configs; do
	kind=${c%%:*}
	n=${c#*:}
	case $kind in
	p) label="$n procs" ;;
	t) label="50x$n thr" ;;
	b) label="50x$n busy" ;;
	w) label="$n busy" ;;
	esac
	populate "$kind" "$n"
	for t in $TOOLS; do
		: >"$tmp/$t.tick"
		: >"$tmp/$t.first"
		: >"$tmp/$t.rss"
		# pmctop's measured frames start once every process is attached
		case $t in
		pmctop*)
			settle "$t" >"$tmp/$t.settle"
			read -r sf _ <"$tmp/$t.settle"
			echo "$sf" >"$tmp/$t.skip"
			;;
		esac
	done
	rep=0
	while [ "$rep" -lt "$REPS" ]; do
		for t in $TOOLS; do
			SKIP=0
			[ -f "$tmp/$t.skip" ] && SKIP=$(cat "$tmp/$t.skip")
			r=$(tool_run "$t")
			# shellcheck disable=SC2086
			set -- $r
			if [ "$1" = -1.0 ] || [ "$7" != 0 ]; then
				echo "   $label $t: $6 frames (counted from frame ${8:-0}, -1: none clear)," \
					"exit status $7: run left out"
				continue
			fi
			echo "$1" | awk '{ printf "%.3f\n", $1 / 1000 }' >>"$tmp/$t.tick"
			echo "$2" >>"$tmp/$t.first"
			echo "$4" | awk '{ printf "%.2f\n", $1 / 1024 }' >>"$tmp/$t.rss"
		done
		rep=$((rep + 1))
	done
	topmed=$(med "$tmp/top.tick")
	tophmed=-
	[ -f "$tmp/top-H.tick" ] && tophmed=$(med "$tmp/top-H.tick")
	for t in $TOOLS; do
		nc="-"
		case $t in
		pmctop*)
			# the rows left uncounted, and why, once the attach is done (with this shell's limits)
			read -r _ nc <"$tmp/$t.settle"
			[ -n "$nc" ] || nc=0
			;;
		esac
		set -- $(stats "$tmp/$t.tick")
		# thread rows against top's thread rows, everything else against top -b
		ref=$topmed
		[ "$t" = pmctop-H ] && ref=$tophmed
		ratio=$(awk -v p="$2" -v t="$ref" 'BEGIN { if (t > 0) printf "%.2f", p / t; else print "-" }')
		printf '%-12s %-11s %9s %9s %10s %9s %9s %8s %12s\n' "$label" "$t" "$1" "$2" "$ratio" \
			$(stats "$tmp/$t.first") "$(med "$tmp/$t.rss")" "$nc"
		echo "$c $t $2 $ratio $(med "$tmp/$t.first") $(med "$tmp/$t.rss") ${nc%% *}" >>"$tmp/results"
	done
	depopulate
done

# check NAME CONFIG TOOL FIELD OP LIMIT: one target against the results table
# (fields: 3 ms/tick median, 4 ratio to top -b, 5 first frame ms, 6 RSS MiB, 7 not counted)
check() {
	line=$(awk -v c="$2" -v t="$3" '$1 == c && $2 == t' "$tmp/results" 2>/dev/null)
	if [ -z "$line" ]; then
		printf '  %-62s NOT MEASURED (%s %s not in this run)\n' "$1" "$2" "$3"
		return
	fi
	echo "$line" | awk -v name="$1" -v f="$4" -v op="$5" -v lim="$6" '{
		v = $f; ok = op == "<=" ? v + 0 <= lim : op == "<" ? v + 0 < lim : v + 0 == lim
		# no ratio: the tool it is against (top -H -b) was not in this run
		if (v == "-") printf "  %-62s NOT MEASURED (no ratio: its top not in this run)\n", name
		else printf "  %-62s %s (%s)\n", name, ok ? "MET" : "NOT MET", v }'
}

echo
echo "== targets (medians)"
for t in pmctop pmctop-hw; do
	case $t in pmctop) lay="default set" ;; *) lay="hardware-like layout" ;; esac
	[ "$t" = pmctop-hw ] && [ "$HAVE_SIM" = 0 ] && { echo "  $lay: skipped, not supported by this pmctop"; continue; }
	check "$lay: per tick <= 0.5x top -b, 2000 idle processes" p:2000 "$t" 4 "<=" 0.5
	check "$lay: per tick <= 1.0x top -b, 5000 threads in 50 processes" t:100 "$t" 4 "<=" 1.0
	check "$lay: first frame < 150 ms, 500 processes" p:500 "$t" 5 "<" 150
	check "$lay: first frame < 1000 ms, 5000 threads" t:100 "$t" 5 "<" 1000
	check "$lay: RSS < 32 MiB, 5000 threads" t:100 "$t" 6 "<" 32
	check "$lay: none uncounted, 5000 threads, ulimit -n hard $(ulimit -Hn)" t:100 "$t" 7 "==" 0
done
if [ "$HAVE_BPF" = 1 ]; then
	check "--bpf: per tick <= 0.5x top -b, 5000 threads" t:100 pmctop-bpf 4 "<=" 0.5
else
	echo "  --bpf: skipped, $BPF_WHY"
fi
# the busy server: every thread wakes every 100 ms, so no process is idle in any tick
for c in b:40 b:100 w:2000; do
	case $c in b:*) what="50x${c#b:} busy threads" ;; *) what="${c#w:} busy processes" ;; esac
	check "default backend: per tick <= 0.5x top -b, $what" "$c" pmctop 4 "<=" 0.5
	[ "$HAVE_USER" = 1 ] && check "as nobody: per tick <= 1.0x top -b, $what" "$c" pmctop-user 4 "<=" 1.0
	check "-H: per tick <= 0.5x top -H -b, $what" "$c" pmctop-H 4 "<=" 0.5
	[ "$HAVE_SIM" = 1 ] && check "hardware-like per-task layout: per tick <= 1.0x top -b, $what" "$c" pmctop-hw 4 "<=" 1.0
done

# growth: the slope of the median per-tick cost between the smallest and largest population
echo
echo "== how the cost grows (median ms/tick; slopes between the smallest and largest population)"
awk '
	{ split($1, c, ":"); n = c[1] == "p" ? c[2] : 50 * c[2]; k = c[1] SUBSEP $2
	  if (c[1] == "b" || c[1] == "w") next
	  if (!(k in lo) || n < lon[k]) { lo[k] = $3; lon[k] = n }
	  if (!(k in hi) || n > hin[k]) { hi[k] = $3; hin[k] = n } }
	END { for (k in lo) { split(k, p, SUBSEP)
		if (hin[k] > lon[k])
			printf "  %-10s per %-7s %7.2f us/tick (%d to %d)\n", p[2],
				p[1] == "p" ? "process" : "thread",
				1000 * (hi[k] - lo[k]) / (hin[k] - lon[k]), lon[k], hin[k] } }' \
	"$tmp/results" | sort

[ "${ONLY:-}" = ticks ] && exit 0

echo
echo "== cost to the watched processes (bench/watched_cost, interleaved runs)"
"$build/bench/watched_cost" ${ROUNDS:+--rounds "$ROUNDS"} -- "$PMCTOP" -b -d 0.5 --no-cpus
if [ "$HAVE_PERF" = 1 ]; then
	"$build/bench/watched_cost" ${ROUNDS:+--rounds "$ROUNDS"} -- "$PMCTOP" -b --task-counts=perf \
		-d 0.5 --no-cpus
fi
if [ "$HAVE_BPF" = 1 ]; then
	"$build/bench/watched_cost" ${ROUNDS:+--rounds "$ROUNDS"} -- "$PMCTOP" -b --bpf -d 0.5 --no-cpus
fi

echo
echo "== what a layout of per-task counters adds to a clone and a context switch (bench/event_cost,"
echo "   the process counting itself with inherit, one CPU; none, task-clock, the default set, 6 groups of it)"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
for _ in 1 2 3; do
	for l in "none 0" "1 1" "1,2,3,4 1" "1,2,3,4 6"; do
		# shellcheck disable=SC2086
		$pin "$build/bench/event_cost" $l
	done
done

echo
echo "== ring drain and hot-page histogram on synthetic records (one core)"
"$build/bench/ring_bench"

echo
echo "== sampling a faulting process for 5 s: pmctop -b --sample against perf record -d"
"$WORKLOAD" hotpages 20000 12 >/dev/null &
w=$!
KIDS=$w
sleep 0.5
p=$("$RUNSTAT" "$PMCTOP" -b --sample "$w" -n 5 -d 1 | awk '{ printf "%.0f", $3 / 1000 }')
if command -v perf >/dev/null; then
	f=$("$RUNSTAT" timeout -s INT 5 perf record -q -e page-faults -c 1 -d -p "$w" -o "$tmp/perf.data" |
		awk '{ printf "%.0f", $3 / 1000 }')
else
	f="(perf not installed)"
fi
depopulate
echo "20000 faults/s: pmctop ${p} ms CPU, perf record ${f} ms CPU"

echo
SECONDS_RUN=${SECONDS_RUN:-30} sh "$here/cgroup-bench.sh"
