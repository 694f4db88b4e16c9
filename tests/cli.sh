# The command line: help, version, event listing, and every bad input gets a message and exit 2.
. "$top_srcdir/tests/lib.sh"

# expect STATUS PATTERN ARGS...: pmctop exits STATUS and its stderr matches PATTERN
expect() {
	want=$1
	pattern=$2
	shift 2
	"$PMCTOP" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" != "$want" ]; then
		diag "pmctop $*: status $got, wanted $want"
		sed 's/^/# /' "$TMP/err"
		return 1
	fi
	grep -q -- "$pattern" "$TMP/err" || { diag "stderr lacks '$pattern':"; sed 's/^/# /' "$TMP/err"; return 1; }
	[ "$(wc -l <"$TMP/err")" -le 3 ] || { diag "message longer than 3 lines"; return 1; }
}

check "--help prints usage and exits 0" sh -c '"$PMCTOP" --help | grep -q "^Usage: pmctop"'
check "--version prints the version" sh -c '"$PMCTOP" --version | grep -q "^pmctop [0-9]"'
check "unknown option" expect 2 "unknown option '--frobnicate'" --frobnicate
check "negative delay" expect 2 "invalid delay '-1'" -b -d -1
check "zero delay outside replay" expect 2 "invalid delay '0'" -b -d 0
check "bad frame count" expect 2 "invalid frame count 'many'" -b -n many
check "bad pid list" expect 2 "invalid pid in '1,x'" -b -p 1,x
check "pid that does not exist" expect 2 "no process with pid '4000000'" -b -p 4000000
check "user that does not exist" expect 2 "no such user 'no-such-user-xyz'" -b -u no-such-user-xyz
check "unknown output format" expect 2 "unknown output format 'yaml'" -b -o yaml
check "unknown sort column" expect 2 "unknown sort column 'speed'" -b -n 1 -s speed
check "unknown event with suggestions" expect 2 "unknown event 'cylces'; did you mean 'cycles'" -b -e cylces
check "bad event modifier" expect 2 "invalid event 'cycles:zz'" -b -e cycles:zz
check "a PMU/TERMS/ event of a PMU that does not exist" expect 2 "unknown event 'nopmu/event=0x76/': a PMU/TERMS/ event names a PMU of /sys/bus/event_source/devices" -b -e nopmu/event=0x76/
check "a PMU/TERMS/ event with a term the PMU does not know" expect 2 "unknown event 'software/event=1/'" -b -e software/event=1/
check "a PMU/TERMS/ event with a value that is not a number" expect 2 "invalid event 'software//x/'" -b -e software//x/
check "no terminal without -b" expect 2 "standard output is not a terminal: use -b" -n 1
check "missing recording" expect 2 "cannot open the recording '$TMP/none.rec'" -b --replay "$TMP/none.rec"
printf 'garbage\n' >"$TMP/bad.rec"
check "malformed recording names file and line" expect 2 "$TMP/bad.rec:1: expected 'pmctop-recording 1'" -b --replay "$TMP/bad.rec"
check "a pid beyond what Linux can give is refused, not wrapped" expect 2 "invalid pid '4294967297' for --sample" -b --sample 4294967297
check "a pid list entry beyond the pid range is refused" expect 2 "invalid pid in '4294967297'" -b -p 4294967297
cp "$top_srcdir/tests/data/hw.rec" "$TMP/keep.rec"
ln -s "$TMP/keep.rec" "$TMP/link.rec"
ln "$TMP/keep.rec" "$TMP/hard.rec"
for spelling in "$TMP/keep.rec" "$TMP/./keep.rec" "$TMP/link.rec" "$TMP/hard.rec"; do
	check "--record onto the replayed file as '$spelling' is refused" \
		expect 2 "is the recording being replayed" -b -d 0 --replay "$TMP/keep.rec" --record "$spelling"
done
check "the replayed recording is intact" cmp "$TMP/keep.rec" "$top_srcdir/tests/data/hw.rec"
check "--record - is refused, with the reason" expect 2 "'--record -' is not supported" -b -n 1 --record -
check "and creates no file named '-'" sh -c 'cd "$1" && "$PMCTOP" -b -n 1 --record - 2>/dev/null; test ! -e ./-' _ "$TMP"
check "-e with --replay" expect 2 "'-e' cannot be used with '--replay'" -b -e cycles --replay "$top_srcdir/tests/data/hw.rec"

check "unknown sample source" expect 2 "unknown sample source 'magic': use auto, pebs, ibs or faults" -b --sample-source magic
check "unknown page size" expect 2 "unknown page size '3m': use 4k or 2m" -b --page-size 3m
check "bad half-life" expect 2 "invalid half-life '0'" -b --half-life 0
check "bad page count" expect 2 "invalid page count '0' for --top" -b --top 0
check "bad sample period" expect 2 "invalid sample period '-5'" -b --sample-period -5
check "bad --sample pid" expect 2 "invalid pid 'abc' for --sample" -b --sample abc
check "stray argument" expect 2 "unexpected argument 'extra'" -b extra
check "option without its value" expect 2 "option '-d' needs a value" -b -d

# /proc read from a fixture tree: names, users and kernel threads come from it
# (two frames: a run of one frame only prints a counted one, see below)
"$PMCTOP" -b -c --proc-root "$top_srcdir/tests/data/proc" -n 2 -d 0.1 >"$TMP/fx.txt" 2>/dev/null
check "--proc-root: processes come from the fixture tree" grep -q "^ *1 root .* /sbin/init splash$" "$TMP/fx.txt"
check "--proc-root: kernel threads are not listed" sh -c '! grep -q kthreadd "$1"' _ "$TMP/fx.txt"
# the first frame comes at once: S, RES (pages of stat in KiB), %MEM (of the fixture's MemTotal)
# and TIME+ (utime + stime) from the tree, the counters empty, never 0
pagekib=$(($(getconf PAGESIZE) / 1024))
check "--proc-root: S, RES, %MEM and TIME+ come from the fixture's stat and meminfo" \
	grep -Eq "^ +42 [^ ]+ +2 R +$((100 * pagekib)) +0\.0 +0:00\.03 +- +- +- +- prog --flag with space$" "$TMP/fx.txt"
"$PMCTOP" -b --kernel-threads --proc-root "$top_srcdir/tests/data/proc" -n 1 -d 0.1 >"$TMP/fxk.txt" 2>/dev/null
check "--kernel-threads: the fixture's kernel thread is listed" grep -Eq "^ +2 root +1 S +0 +0\.0 +0:00\.00 .* kthreadd$" "$TMP/fxk.txt"
check "--per-user with -H is refused" expect 2 "'--per-user' sums processes: it cannot be used with '-H'" -b --per-user -H
check "--bpf with -H is taken (thread rows are counted by BPF too)" expect 0 "" -b --bpf -H -n 1 -d 0.1
check "--bpf with --replay is refused" expect 2 "'--bpf' is a way of counting live: it cannot be used with '--replay'" -b --bpf --replay "$top_srcdir/tests/data/sw.rec"
check "a bad --task-counts value is named" expect 2 "invalid value 'sometimes' for --task-counts: give auto, bpf, proc or perf" -b --task-counts sometimes
check "--task-counts=proc with --bpf is refused" expect 2 "give one" -b --task-counts=proc --bpf
check "--task-counts=perf with --bpf is refused" expect 2 "'--bpf' is '--task-counts=bpf'" -b --task-counts=perf --bpf
check "--task-counts=proc with an event /proc does not keep names it" expect 2 "--task-counts=proc cannot count 'cpu-clock'.*use --task-counts=perf" -b -n 1 --task-counts=proc -e cpu-clock
check "--task-counts=proc with an event of one mode names it" expect 2 "--task-counts=proc cannot count 'page-faults:u': /proc counts user and kernel mode together.*use --task-counts=perf" -b -n 1 --task-counts=proc -e page-faults:u
check "--proc-root: a missing directory is named" expect 2 "cannot open '$TMP/nowhere'" -b --proc-root "$TMP/nowhere" -n 1

check "--list-events lists software events" sh -c '"$PMCTOP" --list-events | grep -qi "TASK-CLOCK"'
check "--list-events PATTERN filters" sh -c '"$PMCTOP" --list-events page-faults | grep -qi "PAGE-FAULTS" && ! "$PMCTOP" --list-events page-faults | grep -qi "TASK-CLOCK"'
check "a cgroup filter that does not exist is refused, naming where it looked" expect 2 "no cgroup '/pmctop-no-such-cgroup' for --cgroup-filter: '.*/pmctop-no-such-cgroup' is not a directory of the cgroup v2 hierarchy mounted on" -b -n 1 -d 0.1 --cgroup-filter /pmctop-no-such-cgroup
check "a cgroup filter that exists is taken" sh -c '"$PMCTOP" -b -n 1 -d 0.1 -p $$ --cgroup-filter / >/dev/null 2>&1'
check "a replay has no live cgroups to check the filter against" sh -c '"$PMCTOP" -b -n 1 -d 0 --replay "$top_srcdir/tests/data/cgroup.rec" --cgroup-filter /pmctop-no-such-cgroup >/dev/null 2>&1'
check "--config with a file that is not there is refused" expect 2 "cannot read the settings file '$TMP/no-such-rc' of --config" -b -n 1 --config "$TMP/no-such-rc"
check "the default settings file may be missing, silently" sh -c '"$PMCTOP" -b -n 1 -d 0.1 -p $$ >/dev/null 2>"$1"; test $? = 0 && ! grep -qi "settings" "$1"' _ "$TMP/norc.err"
check "a user that exists and runs nothing here is fine" sh -c '"$PMCTOP" -b -n 1 -d 0.1 -u nobody >/dev/null 2>&1'
check "--list-events with no match exits 1" sh -c '! "$PMCTOP" --list-events zzzznothing 2>/dev/null'

# -n 1: the one frame printed is a counted one (a short interval is taken before it), sorted by
# %CPU, highest first (the default order), in every format
"$WORKLOAD" spin 1 60 &
SPIN=$!
KILL_PIDS="$KILL_PIDS $SPIN"
"$WORKLOAD" sleep 60 &
SLEEPER=$!
KILL_PIDS="$KILL_PIDS $SLEEPER"
# text: the %CPU column of every process row is a number, in descending order
one_text() {
	"$PMCTOP" -b -n 1 -p "$SPIN,$SLEEPER,$$" >"$TMP/one.txt" 2>/dev/null || return 1
	awk '
		/^ *PID / { for (i = 1; i <= NF; i++) if ($i == "%CPU") c = i; next }
		c && NF >= c { rows++; v = $c
			if (v !~ /^[0-9.]+$/) { print "# not a number: " $0; bad = 1 }
			else if (rows > 1 && v + 0 > last + 0) { print "# not descending: " $0; bad = 1 }
			last = v }
		END { exit bad || rows != 3 }' "$TMP/one.txt" || { sed 's/^/# /' "$TMP/one.txt"; return 1; }
}
check "-n 1 (text): every %CPU is counted, highest first" one_text
one_csv() {
	"$PMCTOP" -b -n 1 -o csv -p "$SPIN,$SLEEPER,$$" >"$TMP/one.csv" 2>/dev/null || return 1
	c=$(csv_field "$TMP/one.csv" cpu)
	awk -F, -v c="$c" -v spin="$SPIN" '
		$2 == "process" { rows++; v = $c
			if (v !~ /^[0-9.]+$/) { print "# not a number: " $0; bad = 1 }
			else if (rows > 1 && v + 0 > last + 0) { print "# not descending: " $0; bad = 1 }
			if ($3 == spin && v + 0 <= 0) { print "# the spinner shows no CPU: " $0; bad = 1 }
			last = v }
		END { exit bad || rows != 3 }' "$TMP/one.csv" || { sed 's/^/# /' "$TMP/one.csv"; return 1; }
}
check "-n 1 (csv): every %CPU is counted, highest first, the spinner's above 0" one_csv
one_json() {
	"$PMCTOP" -b -n 1 -o json -p "$SPIN,$SLEEPER,$$" >"$TMP/one.json" 2>/dev/null || return 1
	python3 - "$TMP/one.json" "$SPIN" <<'PY' || { sed 's/^/# /' "$TMP/one.json"; return 1; }
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 1, "%d frames" % len(frames)
procs = frames[0]["processes"]
cpu = [p["cpu"] for p in procs]
assert len(procs) == 3 and all(isinstance(v, (int, float)) for v in cpu), cpu
assert cpu == sorted(cpu, reverse=True), cpu
assert [p["cpu"] for p in procs if p["pid"] == int(sys.argv[2])][0] > 0, cpu
PY
}
check "-n 1 (json): one frame, every %CPU counted, highest first" one_json
kill "$SPIN" "$SLEEPER" 2>/dev/null

# perf's vocabulary: tracepoints, the software events libpfm4 lacks, the precise modifiers
# events_agree CSV PID COLUMN RATE: in every counted frame of PID, the event COLUMN (a count in
# the interval) agrees with the rate column RATE (per second) times the interval, within a
# quarter and 10; and it counted something
events_agree() {
	awk -F, -v pid="$2" -v e="$(csv_field "$1" "$3")" -v r="$(csv_field "$1" "$4")" '
		$2 == "process" && $3 == pid {
			if (last != "" && $e != "") {
				want = $r * ($1 - last); d = $e - want; if (d < 0) d = -d
				frames++; total += $e
				if (d > 0.25 * want + 10) { print "# " $e " against " want ": " $0; bad = 1 }
			}
			last = $1
		}
		END { if (!frames || total <= 0) print "# no counted frame, or nothing counted"
		      exit bad || !frames || total <= 0 }' "$1" || { sed 's/^/# /' "$1"; return 1; }
}
tracepoint() {
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
		[ -r /sys/kernel/debug/tracing/events/sched/sched_switch/id ] || return 2
	"$WORKLOAD" pingpong 200 30 &
	pp=$!
	KILL_PIDS="$KILL_PIDS $pp"
	"$PMCTOP" -b -n 4 -d 0.5 -o csv -p "$pp" -e sched:sched_switch >"$TMP/tp.csv" 2>"$TMP/tp.err"
	st=$?
	kill "$pp" 2>/dev/null
	[ $st = 0 ] || { sed 's/^/# /' "$TMP/tp.err"; return 1; }
	# sched_switch fires once for every switch away from a task: the context switches
	events_agree "$TMP/tp.csv" "$pp" sched:sched_switch cs
}
tracepoint
case $? in
0) ok "-e sched:sched_switch counts a process's switches (as its context-switches)" ;;
2) skip "-e sched:sched_switch: tracefs is not readable here" ;;
*) not_ok "-e sched:sched_switch counts a process's switches (as its context-switches)" ;;
esac
check "-e alignment-faults,emulation-faults are taken, with a column each" sh -c '
	"$PMCTOP" -b -n 1 -d 0.1 -o csv -p $$ -e alignment-faults,emulation-faults >"$1" 2>/dev/null &&
		head -1 "$1" | grep -q ",alignment-faults,emulation-faults,"' _ "$TMP/af.csv"
# page-faults:p: perf takes it here (the kernel ignores precise_ip for a software event); pmctop
# takes what perf takes, and counts what page-faults counts
precise_sw() {
	if command -v perf >/dev/null; then
		perf stat -e page-faults:p true >/dev/null 2>&1
		perf_st=$?
	else
		perf_st=0
		diag "perf is not installed: page-faults:p is taken as perf 6.1 takes it on Linux 6.18"
	fi
	"$WORKLOAD" faults 2000 30 &
	fl=$!
	KILL_PIDS="$KILL_PIDS $fl"
	"$PMCTOP" -b -n 4 -d 0.5 -o csv -p "$fl" -e page-faults:p >"$TMP/p.csv" 2>"$TMP/p.err"
	st=$?
	kill "$fl" 2>/dev/null
	if [ "$perf_st" != 0 ]; then
		# perf refuses it: so does pmctop, naming the event
		[ $st = 2 ] && grep -q "page-faults:p" "$TMP/p.err"
		return
	fi
	[ $st = 0 ] || { sed 's/^/# /' "$TMP/p.err"; return 1; }
	events_agree "$TMP/p.csv" "$fl" page-faults:p pf
}
check "-e page-faults:p behaves as perf does: taken and counted as page-faults" precise_sw
check "-e page-faults:pppp is refused as perf refuses it" expect 2 "invalid event 'page-faults:pppp'" -b -e page-faults:pppp
list_once() {
	"$PMCTOP" --list-events >"$TMP/list.txt" 2>&1 || return 1
	dups=$(grep -v '^$' "$TMP/list.txt" | sort | uniq -d)
	names=$(grep '^  ' "$TMP/list.txt" | awk '{ print tolower($1); if ($2 == "OR") print tolower($3) }' |
		sed 's/^[a-z0-9_]*:://' | sort | uniq -d)
	[ -z "$dups$names" ] || { diag "listed twice: $dups $names"; return 1; }
	# one event, one line: page faults are not listed again as libpfm4's PERF_COUNT_SW_PAGE_FAULTS
	pf=$(awk 'tolower($1) ~ /page.faults$/' "$TMP/list.txt" | wc -l)
	[ "$pf" = 1 ] || { diag "page faults listed $pf times"; return 1; }
	# perf's sections, each event under one of them
	grep -q '^Hardware events:$' "$TMP/list.txt" && grep -q '^Software events:$' "$TMP/list.txt" &&
		grep -q '^Hardware cache events:$' "$TMP/list.txt" &&
		grep -q '^  alignment-faults ' "$TMP/list.txt"
}
check "--list-events lists each event once, under perf's headings" list_once
check "--list-events PATTERN lists the tracepoints that match" sh -c '
	[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] || exit 0
	"$PMCTOP" --list-events sched_switch | grep -q "^  sched:sched_switch "'

# "| head": the reader leaves, pmctop ends quietly with status 0
sigpipe() {
	# one process watched: what else runs on the machine (its descriptors) is not the matter here
	( "$PMCTOP" -b -d 0.1 -p $$ 2>"$TMP/pipe.err"; echo $? >"$TMP/pipe.status" ) | head -1 >/dev/null
	# only the start-up notice may be there: no write error
	[ "$(cat "$TMP/pipe.status")" = 0 ] && ! grep -v "no hardware PMU" "$TMP/pipe.err" | grep -q . || {
		diag "status $(cat "$TMP/pipe.status")"; sed 's/^/# /' "$TMP/pipe.err"; return 1; }
}
check "SIGPIPE ends batch mode quietly with status 0" sigpipe

# SIGTERM between frames: the frames so far are complete and the status is 0
sigterm() {
	"$PMCTOP" -b -d 0.2 -o json -p $$ >"$TMP/term.out" 2>/dev/null &
	p=$!
	# after a frame at least, however loaded the machine: then between frames or in one
	wait_until 20 test -s "$TMP/term.out"
	sleep 0.3
	kill -TERM $p
	wait $p
	st=$?
	[ $st = 0 ] && [ "$(tail -c 1 "$TMP/term.out" | od -An -c | tr -d ' ')" = '\n' ]
}
check "SIGTERM ends batch mode cleanly" sigterm
done_testing
