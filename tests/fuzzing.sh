# Builds the libFuzzer harnesses of tests/fuzz with clang and runs each for a bounded time.
# A crash fails the test; its input is kept in tests/fuzz-crashes/ of the build tree, to be
# added to tests/fuzz/corpus/NAME/ as a regression input once fixed.
. "$top_srcdir/tests/lib.sh"
SECONDS_EACH=${FUZZ_SECONDS:-10}
HARNESSES="ring perfdata proc recording options events http elfsym elfslice rcfile"

if ! command -v clang >/dev/null; then
	# libFuzzer comes with clang: the README's install line and CI install it
	for h in $HARNESSES; do skip "fuzz_$h: clang is not installed"; done
	done_testing
	exit 0
fi
# fuzzing keeps a core busy: keep it apart from the tests that measure CPU time
exclusive
src=$top_srcdir/src
# the sources wherever they are under src/, and every directory of headers
# (not the BPF program, which is built for the bpf target; its skeleton is in the build tree)
objs=$(find "$src" -name '*.c' ! -name main.c ! -name '*.bpf.c' | sort)
incs=$(find "$src" -name '*.h' -exec dirname {} + | sort -u | sed 's/^/-I/')
incs="$incs -I$top_builddir/src"
libs="$(pkg-config --libs ncursesw) -lpfm -lm"
if grep -q '^#define PMCTOP_BPF 1' "$top_builddir/config.h"; then
	libs="$libs $(pkg-config --libs libbpf)"
fi
crashes=$top_builddir/tests/fuzz-crashes
for h in $HARNESSES; do
	bin=$TMP/fuzz_$h
	if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -I"$top_builddir" -I"$src" $incs $(pkg-config --cflags ncursesw) \
		-o "$bin" "$top_srcdir/tests/fuzz/fuzz_$h.c" $objs $libs 2>"$TMP/build-$h.log"; then
		sed 's/^/# /' "$TMP/build-$h.log" | head -20
		not_ok "fuzz_$h builds with clang -fsanitize=fuzzer (install libclang-rt-dev)"
		continue
	fi
	mkdir -p "$TMP/corpus-$h" "$crashes"
	if "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/$h-" "$TMP/corpus-$h" "$top_srcdir/tests/fuzz/corpus/$h" \
		>"$TMP/run-$h.log" 2>&1; then
		ok "fuzz_$h: $(grep -o 'Done [0-9]* runs' "$TMP/run-$h.log") in ${SECONDS_EACH} s, no crash"
	else
		grep -m 20 -e ERROR -e SUMMARY -e '#[0-9]' "$TMP/run-$h.log" | sed 's/^/# /'
		not_ok "fuzz_$h found a crash: input kept in $crashes"
	fi
done
done_testing
