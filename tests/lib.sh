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

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# check DESCRIPTION COMMAND...: one TAP line from the command's status
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
skip() { n=$((n + 1)); echo "ok $n - $* # SKIP"; }
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
