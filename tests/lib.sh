# Shared helpers for pmctop's end-to-end tests: TAP output and a scratch directory.
n=0
failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pmctop-test.XXXXXX")
KILL_PIDS=""
cleanup() {
	for p in $KILL_PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
# the settings file of the one running the tests is not read: each test has its own (empty)
XDG_CONFIG_HOME="$TMP/config"
export XDG_CONFIG_HOME

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# check DESCRIPTION COMMAND...: one TAP line from the command's status
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
skip() { n=$((n + 1)); echo "ok $n - $* # SKIP"; }
# skip_all REASON: the whole test skipped for REASON, and ended
skip_all() {
	skip "$1"
	done_testing
	exit 0
}
diag() { echo "# $*"; }
done_testing() { echo "1..$n"; }
# background WORKLOAD ARGS...: start it, remember it for cleanup, set $BG
background() {
	"$@" &
	BG=$!
	KILL_PIDS="$KILL_PIDS $BG"
}
# within VALUE LOW HIGH: LOW <= VALUE <= HIGH (decimals allowed)
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'
}
# exclusive: live tests measure CPU time and rates, so they run one at a time even under
# make -j; the lock is released when the test exits
exclusive() {
	exec 9>"${top_builddir:-.}/tests/.live-lock"
	flock 9
}
# agree REPORTED EXPECTED REL ABS: |REPORTED - EXPECTED| <= REL * EXPECTED + ABS
agree() {
	awk -v r="$1" -v e="$2" -v rel="$3" -v abs="$4" \
		'BEGIN { d = r - e; if (d < 0) d = -d; exit !(r != "" && r != "missing" && d <= rel * e + abs) }'
}
# oracle FRAMES.json LOG WHAT [PID]: "TIME REPORTED EXPECTED" per frame (see tests/oracle.py)
oracle() {
	python3 "$top_srcdir/tests/oracle.py" "$@"
}
# pmctop_mode: the event mode pmctop reports on this machine (the "mode" of a JSON frame)
pmctop_mode() {
	"$PMCTOP" -b -n 1 -d 0.2 -o json -p $$ 2>/dev/null |
		python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["mode"])'
}
# nap SECONDS: sleep without starting a process (a read that times out on a fifo nobody writes),
# so a test that counts processes sees none come and go
nap() {
	[ -p "$TMP/.nap" ] || mkfifo "$TMP/.nap"
	read -r -t "$1" _ <>"$TMP/.nap"
	return 0
}
# wait_until SECONDS COMMAND...: run COMMAND (a shell function too) every 0.1 s until it
# succeeds, for SECONDS at most (one decimal allowed); 1 if it never did. The time is counted in
# polls, not read from a clock, so a loaded machine that polls late waits the longer. The polls
# nap: they start no process of their own (COMMAND may).
wait_until() {
	local _wu_tries _wu_frac
	case $1 in
	*.*)
		_wu_frac=${1#*.}
		_wu_tries=$((${1%%.*}0 + ${_wu_frac%"${_wu_frac#?}"}))
		;;
	*) _wu_tries=$(($1 * 10)) ;;
	esac
	shift
	while :; do
		"$@" && return 0
		[ "$_wu_tries" -gt 0 ] || return 1
		_wu_tries=$((_wu_tries - 1))
		nap 0.1
	done
}
# traced_child PID NAME: the child of strace PID named NAME (not a child strace forks first to
# probe the kernel) into $TRACED; 1 while it has none
traced_child() {
	for _tc in $(cat "/proc/$1/task/$1/children" 2>/dev/null); do
		[ "$(cat "/proc/$_tc/comm" 2>/dev/null)" = "$2" ] && TRACED=$_tc && return 0
	done
	return 1
}
# switch_sums FILE PID: of process PID in a batch JSON run, its context switches summed over
# the frames, the frames they were estimated in, the frames it ran in, whether its last frame
# is plain (1), and its frames with them n/a after its first (a count lost to the sums)
switch_sums() {
	python3 - "$1" "$2" <<'PY'
import json, sys
pid = int(sys.argv[2])
total = est = ran = na = seen = 0
last_plain = 0
for line in open(sys.argv[1]):
    f = json.loads(line)
    for p in f.get("processes", []):
        if p["pid"] != pid:
            continue
        v = p.get("events", {}).get("context-switches")
        e = "context-switches" in p.get("estimated", [])
        seen += 1
        na += v is None and seen > 1
        if v:
            total += v
            ran += 1
        if e:
            est += 1
        last_plain = 0 if e else 1
print(round(total), est, ran, last_plain, na)
PY
}
# isolate: run the rest of the test in a PID namespace of its own with its own /proc, so pmctop,
# which watches every process it can see, sees only this test's processes and none of the
# other tests running beside it. Sets ISOLATED=yes there. Where a PID namespace is not
# permitted, ISOLATED=no: the test must then restrict pmctop to its own pids with -p.
isolate() {
	if [ "${PMCTOP_TEST_PIDNS:-}" = 1 ]; then
		ISOLATED=yes
		diag "in a PID namespace of its own: pmctop sees only this test's processes"
		return 0
	fi
	if unshare --pid --fork --mount-proc true 2>/dev/null; then
		shell=$(readlink /proc/$$/exe)
		rm -rf "$TMP"
		trap - EXIT
		PMCTOP_TEST_PIDNS=1 exec unshare --pid --fork --mount-proc "$shell" "$0" "$@"
	fi
	ISOLATED=no
	diag "no PID namespace here (unshare --pid --fork --mount-proc failed): pmctop is restricted to this test's pids with -p"
}

# Rows of batch CSV output (-o csv) as it grows. csv_frames FILE: the distinct frame times, in
# order. csv_listed FILE TIME ID [KIND]: a row of KIND (process; cgroup: ID is its path, the
# last field) is in that frame. csv_wait_frame FILE ID yes|no [KIND]: until the newest complete
# frame (the one before the newest) lists ID (yes) or not (no); 30 s at most.
# proc_listings FILE: the listings of /proc itself in an `strace -y -e trace=getdents64` log (the
# getdents64 calls that reached its end, returning 0)
proc_listings() { grep -c 'getdents64([0-9]*</proc>,.*) = 0$' "$1"; }
csv_frames() { cut -d, -f1 "$1" | grep -v '^time$' | uniq; }
# csv_field FILE NAME: the number of column NAME in the CSV's header line
csv_field() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
csv_listed() {
	awk -F, -v t="$2" -v id="$3" -v k="${4:-process}" '
		$1 == t && $2 == k && (k == "cgroup" ? $NF : $3) == id { f = 1 } END { exit !f }' "$1"
}
csv_frame_is() {
	t=$(csv_frames "$1" | tail -n 2 | head -n 1)
	[ -n "$t" ] && [ "$(csv_frames "$1" | wc -l)" -ge 2 ] || return 1
	if csv_listed "$1" "$t" "$2" "${4:-process}"; then
		[ "$3" = yes ]
	else
		[ "$3" = no ]
	fi
}
csv_wait_frame() { wait_until 30 csv_frame_is "$@"; }
# need_isolation: the whole test skipped where isolate found no PID namespace of its own
need_isolation() {
	[ "$ISOLATED" = yes ] || skip_all "no PID namespace here (unshare --pid --fork --mount-proc failed)"
}
# need_task_counters EVENT: the whole test skipped where pmctop cannot open EVENT per task
need_task_counters() {
	"$PMCTOP" -b -n 1 -d 0.1 -p $$ --task-counts=perf -e "$1" >/dev/null 2>&1 ||
		skip_all "per-task software counters cannot be opened here"
}
