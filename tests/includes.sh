# Checks the include rules of doc/architecture.md: each layer includes only its own headers and
# those of the layers below it; curses only in the terminal file; libpfm4 only in the event
# encoder; <linux/perf_event.h> only in collection files.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir/src" || exit 1

# the layers and, for each, the layers it may include (besides itself)
below() {
	case $1 in
	util) echo "" ;;
	stream) echo "util" ;;
	collect) echo "stream util" ;;
	model) echo "stream util" ;;
	view) echo "model stream util" ;;
	out) echo "view model stream util" ;;
	app) echo "out view model collect stream util" ;;
	*) return 1 ;;
	esac
}

layer_includes() {
	bad=0
	for dir in */; do
		layer=${dir%/}
		allowed="$layer $(below "$layer")" || { diag "src/$layer is not a known layer"; bad=1; continue; }
		for f in "$layer"/*.c "$layer"/*.h; do
			for inc in $(sed -n 's/^#include "\([a-z_]*\)\/[^"]*"$/\1/p' "$f"); do
				case " $allowed " in
				*" $inc "*) ;;
				*) diag "src/$f includes a header of $inc/, which is not below $layer/"; bad=1 ;;
				esac
			done
		done
	done
	return $bad
}

no_loose_files() {
	loose=$(ls -- *.c *.h 2>/dev/null)
	[ -z "$loose" ] || { diag "files outside the layer directories: $loose"; return 1; }
}

only_in() {
	pattern=$1
	shift
	bad=$(grep -l "$pattern" -- */*.c */*.h | while read -r f; do
		keep=no
		for allowed in "$@"; do [ "${f#./}" = "$allowed" ] && keep=yes; done
		[ $keep = no ] && echo "$f"
	done)
	[ -z "$bad" ] || { diag "$pattern included by: $bad"; return 1; }
}
find . -name '*.[ch]' | sort >"$TMP/files"
# an empty or flattened tree fails here rather than passing every rule below on nothing
check "the sources are found in their layers ($(wc -l <"$TMP/files") files)" \
	test "$(grep -c '^\./[a-z]*/[a-z_]*\.[ch]$' "$TMP/files")" -gt 40
check "every source file lives in a layer directory" no_loose_files
check "each layer includes only its own headers and those below it" layer_includes
check "curses is included only by out/tui.c" only_in '#include <n\?curses' out/tui.c out/tui.h
check "libpfm4 is included only by collect/events.c" only_in '#include <perfmon/' collect/events.c
check "linux/perf_event.h only in collection files" only_in '#include <linux/perf_event.h>' \
	$(cd "$top_srcdir/src" && ls collect/*.c collect/*.h)
check "every source file opens with a purpose comment" \
	sh -c 'for f in */*.c */*.h; do head -1 "$f" | grep -q "^/\* " || { echo "# $f"; exit 1; }; done'
# a BPF program (*.bpf.c) is compiled for the bpf target, where there is no config.h
check "every .c includes config.h first (BPF programs aside)" \
	sh -c 'for f in */*.c; do case $f in *.bpf.c) continue ;; esac; grep -m1 "^#include" "$f" | grep -q "config.h" || { echo "# $f"; exit 1; }; done'
check "every .c includes its own header right after config.h" \
	sh -c 'for f in */*.c; do h=${f%.c}.h; [ -f "$h" ] || continue;
		grep "^#include" "$f" | sed -n 2p | grep -q "\"$h\"" || { echo "# $f"; exit 1; }; done'
check "no numbered cleanup labels" sh -c '! grep -nE "^(err|out|fail)[0-9]+:" -- */*.c'
done_testing
