# Checks the include rules of doc/ARCHITECTURE: curses only in tui.c, libpfm4 only in
# events.c, <linux/perf_event.h> only in the collection files.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir/src" || exit 1

only_in() {
	pattern=$1
	shift
	bad=$(grep -l "$pattern" -- *.c *.h | while read -r f; do
		keep=no
		for allowed in "$@"; do [ "$f" = "$allowed" ] && keep=yes; done
		[ $keep = no ] && echo "$f"
	done)
	[ -z "$bad" ] || { diag "$pattern included by: $bad"; return 1; }
}
check "curses is included only by tui.c" only_in '#include <n\?curses' tui.c tui.h
check "libpfm4 is included only by events.c" only_in '#include <perfmon/' events.c
check "linux/perf_event.h only in collection files" only_in '#include <linux/perf_event.h>' \
	events.h counters.h source_live.c counters.c events.c ring.c sampler.h sampler.c
check "every source file opens with a purpose comment" \
	sh -c 'for f in *.c *.h; do head -1 "$f" | grep -q "^/\* " || { echo "# $f"; exit 1; }; done'
check "every .c includes config.h first" \
	sh -c 'for f in *.c; do grep -m1 "^#include" "$f" | grep -q "config.h" || { echo "# $f"; exit 1; }; done'
check "no numbered cleanup labels" sh -c '! grep -nE "^(err|out|fail)[0-9]+:" -- *.c'
done_testing
