# Checks the include rules of doc/ARCHITECTURE: curses only in tui.c, libpfm4 only in
# events.c, <linux/perf_event.h> only in the collection files.
. "$top_srcdir/tests/lib.sh"
# Files are found anywhere under src/ and named by their base name, so the rules hold whatever
# directories the sources live in; an empty list fails rather than passing every rule.
cd "$top_srcdir/src" || exit 1
find . -name '*.[ch]' | sort >"$TMP/files"
check "the sources are found ($(wc -l <"$TMP/files") files)" test -s "$TMP/files"

only_in() {
	pattern=$1
	shift
	bad=$(tr '\n' '\0' <"$TMP/files" | xargs -0 grep -l "$pattern" -- | while read -r f; do
		keep=no
		for allowed in "$@"; do [ "${f##*/}" = "$allowed" ] && keep=yes; done
		[ $keep = no ] && echo "$f"
	done)
	[ -z "$bad" ] || { diag "$pattern included by: $bad"; return 1; }
}
check "curses is included only by tui.c" only_in '#include <n\?curses' tui.c tui.h
check "libpfm4 is included only by events.c" only_in '#include <perfmon/' events.c
check "linux/perf_event.h only in collection files" only_in '#include <linux/perf_event.h>' \
	events.h counters.h source_live.c counters.c events.c ring.c sampler.h sampler.c
check "every source file opens with a purpose comment" \
	sh -c 'while read -r f; do head -1 "$f" | grep -q "^/\* " || { echo "# $f"; exit 1; }; done <"$1"' _ "$TMP/files"
check "every .c includes config.h first" \
	sh -c 'grep "\.c$" "$1" | while read -r f; do grep -m1 "^#include" "$f" | grep -q "config.h" || { echo "# $f"; exit 1; }; done' _ "$TMP/files"
check "no numbered cleanup labels" \
	sh -c '! grep "\.c$" "$1" | tr "\n" "\0" | xargs -0 grep -nE "^(err|out|fail)[0-9]+:" --' _ "$TMP/files"
done_testing
