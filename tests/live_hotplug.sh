# Live: a CPU that goes offline and comes back is dropped, then counted again with new events.
# Taking a CPU offline disturbs everyone on the host, so this runs only where the machine is the
# suite's own: in CI (CI=true) or when asked with PMCTOP_TEST_HOTPLUG=1.
. "$top_srcdir/tests/lib.sh"
ONLINE=/sys/devices/system/cpu/cpu1/online

if [ "${CI:-}" != true ] && [ "${PMCTOP_TEST_HOTPLUG:-}" != 1 ]; then
	skip_all "CPU hotplug takes CPU 1 offline: only with CI=true or PMCTOP_TEST_HOTPLUG=1, never on a shared host by default"
fi
if [ "$(id -u)" != 0 ] || [ ! -w "$ONLINE" ]; then
	skip "CPU hotplug needs root and a writable $ONLINE"
	done_testing
	exit 0
fi
exclusive
# tests that bind an event to CPU 1 hold this lock shared while they run
exec 8>"${top_builddir:-.}/tests/.hotplug-lock"
flock 8
trap 'echo 1 >"$ONLINE" 2>/dev/null; cleanup' EXIT

"$PMCTOP" -b -d 0.3 -n 12 -o csv >"$TMP/h.csv" 2>"$TMP/h.err" &
p=$!
sleep 1
echo 0 >"$ONLINE"
sleep 1
echo 1 >"$ONLINE"
wait $p
st=$?
sed 's/^/# stderr: /' "$TMP/h.err"
frames() { awk -F, -v c="$1" '$2 == "cpu" && $3 == c {print $1}' "$TMP/h.csv" | sort -u | wc -l; }
all=$(cut -d, -f1 "$TMP/h.csv" | grep -v time | sort -u | wc -l)
cs=$(head -1 "$TMP/h.csv" | tr ',' '\n' | grep -nx cs | cut -d: -f1)
last=$(cut -d, -f1 "$TMP/h.csv" | grep -v time | sort -u | tail -1)
back=$(awk -F, -v t="$last" -v c="$cs" '$1 == t && $2 == "cpu" && $3 == "1" {print $c}' "$TMP/h.csv")
diag "frames $all, with CPU 0: $(frames 0), with CPU 1: $(frames 1); CPU 1 at the end: ${back:-missing} cs/s"
check "pmctop went on and exited 0" test "$st" = 0
check "all twelve frames" test "$all" = 12
check "CPU 1 was missing while offline" test "$(frames 1)" -lt "$(frames 0)"
check "it said the CPU went offline" grep -q "CPU 1 went offline" "$TMP/h.err"
check "and that it counts it again" grep -q "CPU 1 is online: counting it again" "$TMP/h.err"
check "CPU 1 is counted again at the end" test -n "$back"
done_testing
