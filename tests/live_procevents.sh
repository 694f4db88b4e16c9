# Live: new processes come from the kernel's process events instead of a listing of /proc every
# tick, where the kernel sends them (root, the initial PID namespace); elsewhere /proc is listed
# every tick. Either way, processes made between two ticks are found, processes ended between two
# ticks are dropped, and processes that start and end between two ticks leave no row.
. "$top_srcdir/tests/lib.sh"

# started DIR: pmctop, strace's child ($st), is known in $pm, and DIR/out.csv has two frames
started() {
	pm=$(cat "/proc/$st/task/$st/children" 2>/dev/null | awk '{ print $1 }')
	[ -n "$pm" ] && [ "$(csv_frames "$1/out.csv" | wc -l)" -ge 2 ]
}
# framed CSV N: CSV has N frames or more
framed() { [ "$(csv_frames "$1" | wc -l)" -ge "$2" ]; }
# scenario DIR [OPTION]: pmctop under strace (getdents64 and sendto; LeakSanitizer cannot run
# under ptrace) while five processes are made, found, ended and dropped, and twenty start and end
# between two ticks; DIR/result says what was seen
scenario() {
	d=$1
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=getdents64,sendto -o "$d/strace" \
		"$PMCTOP" -b -d 0.2 ${2:-} -o csv >"$d/out.csv" 2>"$d/err" &
	st=$!
	pm=""
	wait_until 10 started "$d"
	pids=""
	for _ in 1 2 3 4 5; do
		"$WORKLOAD" sleep 60 &
		pids="$pids $!"
	done
	found=0
	for p in $pids; do csv_wait_frame "$d/out.csv" "$p" yes && found=$((found + 1)); done
	# twenty that end at once (each reaped before the next starts), then three frames later
	# none is a row: a fork and an exit told between two ticks leave nothing behind
	short=""
	for _ in $(seq 20); do
		"$WORKLOAD" sleep 0 &
		short="$short $!"
		wait $!
	done
	f0=$(csv_frames "$d/out.csv" | wc -l)
	wait_until 30 framed "$d/out.csv" $((f0 + 3))
	t=$(csv_frames "$d/out.csv" | tail -n 2 | head -n 1)
	ghosts=0
	# a pid taken again by another process since (a busy machine) is no ghost
	for p in $short; do
		csv_listed "$d/out.csv" "$t" "$p" && [ ! -e "/proc/$p" ] && ghosts=$((ghosts + 1))
	done
	[ "$(csv_frames "$d/out.csv" | wc -l)" -ge $((f0 + 3)) ] || ghosts=timeout
	# shellcheck disable=SC2086
	kill $pids
	wait $pids 2>/dev/null
	gone=0
	for p in $pids; do csv_wait_frame "$d/out.csv" "$p" no && gone=$((gone + 1)); done
	[ -n "$pm" ] && kill -TERM "$pm"
	wait "$st"
	echo "$found $gone $(csv_frames "$d/out.csv" | wc -l) $ghosts" >"$d/result"
}

if [ "${1:-}" = scenario ]; then
	scenario "$2" "${3:-}"
	exit 0
fi

exclusive
if ! command -v strace >/dev/null; then
	skip_all "strace is not installed: the /proc listings cannot be counted"
fi

# listings DIR: listings of /proc itself
listings() { proc_listings "$1/strace"; }
# requests DIR OP: pmctop's requests to the kernel's process events with that op (1 LISTEN,
# 2 IGNORE): strace shows the cn_msg's bytes, the last eight being its length (4) and the op
requests() { grep -F "sendto(" "$1/strace" | grep -F -c "\\x04\\x00\\x00\\x00\\x0$2\\x00\\x00\\x00\"]"; }
# nspid_depth: how many PID namespaces this shell is below the initial one, plus one
nspid_depth() { awk '/^NSpid:/ { print NF - 1 }' /proc/self/status; }

# 1. In a PID namespace of its own the events cannot be used (they carry the initial
#    namespace's pids and are not sent to other namespaces): /proc is listed every tick where
#    nothing else tells the new processes (per-task events; BPF's keys do: live_pidkeys.sh).
shell=$(readlink /proc/$$/exe)
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	mkdir "$TMP/ns"
	unshare --pid --fork --mount-proc "$shell" "$0" scenario "$TMP/ns" --task-counts=perf
	set -- $(cat "$TMP/ns/result" 2>/dev/null)
	check "PID namespace: the 5 processes made between ticks are found" test "${1:-0}" = 5
	check "PID namespace: the 5 processes ended between ticks are dropped" test "${2:-0}" = 5
	check "PID namespace: the 20 that started and ended between ticks leave no row" test "${4:-x}" = 0
	l=$(listings "$TMP/ns")
	diag "PID namespace: $3 frames, $l listings of /proc"
	check "PID namespace: the fallback lists /proc every tick" test "$l" -ge "${3:-1}"
else
	skip "no PID namespace here (unshare --pid --fork --mount-proc failed)"
fi

# 2. Where the events come (root, the initial PID namespace): the same processes found and
#    dropped as with the listing (PMCTOP_NO_PROC_EVENTS=1, per-task events: BPF's keys would
#    spare it too), with fewer listings of /proc.
if [ "$(id -u)" != 0 ] || [ "$(nspid_depth)" != 1 ]; then
	skip_all "process events need root in the initial PID namespace"
fi
mkdir "$TMP/ev" "$TMP/list"
"$shell" "$0" scenario "$TMP/ev"
PMCTOP_NO_PROC_EVENTS=1 "$shell" "$0" scenario "$TMP/list" --task-counts=perf
set -- $(cat "$TMP/ev/result" 2>/dev/null)
ef=$3
check "events: the 5 processes made between ticks are found" test "${1:-0}" = 5
check "events: the 5 processes ended between ticks are dropped" test "${2:-0}" = 5
check "events: the 20 that started and ended between ticks leave no row" test "${4:-x}" = 0
set -- $(cat "$TMP/list/result" 2>/dev/null)
check "listing: the same 5 found and 5 dropped" test "${1:-0} ${2:-0}" = "5 5"
check "listing: the 20 that started and ended between ticks leave no row" test "${4:-x}" = 0
le=$(listings "$TMP/ev")
ll=$(listings "$TMP/list")
diag "events: $ef frames, $le listings of /proc; listing: $3 frames, $ll listings"
check "listing: /proc is listed every tick" test "$ll" -ge "${3:-1}"
if grep -q 'PROC_EVENTS=y' "/boot/config-$(uname -r)" 2>/dev/null || [ "$le" -lt "$ef" ]; then
	# every tick until a forked process is seen in a listing (the 5 made once 2 frames are
	# out), then every 10 s (50 frames)
	check "events: /proc is listed far less than every tick" \
		test "$le" -le "$((4 + ef / 50))" -a "$le" -lt "$ef"
else
	skip "this kernel sends no process events (CONFIG_PROC_EVENTS): /proc is listed every tick"
fi
# the kernel counts listeners machine-wide until each sends IGNORE: one LISTEN, one IGNORE
check "events: pmctop asked for the events once" test "$(requests "$TMP/ev" 1)" = 1
check "events: pmctop asked the kernel to stop sending them on exit" test "$(requests "$TMP/ev" 2)" = 1
check "listing: pmctop asked for no events" test "$(requests "$TMP/list" 1)" = 0
check "no error on stderr" sh -c '! grep -v "no hardware PMU" "$1/err" "$2/err" | grep -q .' _ "$TMP/ev" "$TMP/list"
done_testing
