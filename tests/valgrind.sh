# Batch mode under valgrind: no invalid access, no definite leak, live and replayed.
. "$top_srcdir/tests/lib.sh"

if [ -n "${PMCTOP_SANITIZERS:-}" ]; then
	# valgrind cannot run AddressSanitizer binaries; the plain build runs these checks
	skip "valgrind: this is the sanitizer build"
	done_testing
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	skip_all "valgrind is not installed (Debian package valgrind)"
fi
exclusive
# vg WANT NAME ARGS...: pmctop ARGS under valgrind exits WANT with nothing reported
vg() {
	want=$1
	name=$2
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --log-file="$TMP/vg-$name.log" "$PMCTOP" "$@" \
		>"$TMP/vg-$name.out" 2>"$TMP/vg-$name.err"
	st=$?
	if [ $st = 99 ] || [ -s "$TMP/vg-$name.log" ]; then
		sed 's/^/# /' "$TMP/vg-$name.log" | head -40
		return 1
	fi
	[ $st = "$want" ] || { diag "exit status $st"; sed 's/^/# /' "$TMP/vg-$name.err"; return 1; }
}
# The BPF backend (the default for root) is left to the sanitizer build, which runs every live
# test with it: valgrind does not know half of the bpf(2) commands libbpf makes (batch lookups,
# links), so it can neither check them nor mark what the kernel wrote as defined.
check "live batch frames under valgrind" vg 0 live -b -n 2 -d 0.5 -o json --task-counts=proc
check "threads as rows under valgrind" vg 0 threads -b -H -n 2 -d 0.5 -o csv --task-counts=proc
check "a replay under valgrind" vg 0 replay -b -d 0 --replay "$top_srcdir/tests/data/hw.rec" -o text
background "$WORKLOAD" hotpages 500 20 >/dev/null
sleep 0.3
check "sampling under valgrind" vg 0 sample -b --sample "$BG" -n 2 -d 0.5 --task-counts=proc
check "a bad recording under valgrind: status 2, nothing leaked" \
	vg 2 bad -b --replay "$top_srcdir/tests/data/proc/stat"
check "a bad option under valgrind: status 2, nothing leaked" vg 2 badopt -b -d -5
done_testing
