# Checks the include rules of doc/architecture.md: each layer includes only its own headers and
# those of the layers below it; curses only in the terminal file; libpfm4 only in the event
# encoder; the perf, BPF and libpfm4 headers only in kernel/.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir/src" || exit 1

# the layers and, for each, the layers it may include (besides itself)
below() {
	case $1 in
	util) echo "" ;;
	stream) echo "util" ;;
	kernel) echo "stream util" ;;
	collect) echo "kernel stream util" ;;
	model) echo "stream util" ;;
	view) echo "model stream util" ;;
	out) echo "view model stream util" ;;
	app) echo "out view model collect kernel stream util" ;;
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
# A C file without its comments (which name functions they do not call).
nocomment() {
	awk '{
		out = ""; line = $0
		while (length(line)) {
			if (inc) {
				i = index(line, "*/")
				if (!i) { line = ""; break }
				line = substr(line, i + 2); inc = 0
			} else {
				i = index(line, "/*")
				if (!i) { out = out line; break }
				out = out substr(line, 1, i - 1); line = substr(line, i + 2); inc = 1
			}
		}
		print out
	}' "$1"
}

# Print the loop tsort finds in the edges "from to" of file $1; fail when there is one.
acyclic() {
	loop=$(tsort "$1" 2>&1 >/dev/null) && return 0
	diag "a circle: $(echo "$loop" | grep -v 'contains a loop' | sed 's/^tsort: //' | tr '\n' ' ')"
	return 1
}

# The headers of a stage ($1: collect, view) that include each other: no header may come back
# to itself.
include_graph() {
	for h in "$1"/*.h; do
		for inc in $(sed -n "s/^#include \"\($1\/[a-z_]*\.h\)\"\$/\1/p" "$h"); do
			echo "$h $inc"
		done
	done >"$TMP/includes"
	acyclic "$TMP/includes"
}

# Which file of a stage ($1) calls which: each file's functions and objects defined for others
# (not static, at the start of a line), then, in every other file, the names it uses; at least
# $2 definitions, and the edges $3... that are sure to be there, for a sign the graph was built.
call_graph() {
	dir=$1 min=$2
	shift 2
	for f in "$dir"/*.c; do
		nocomment "$f" | grep -v '^static' |
			sed -n 's/^[a-z][a-z0-9_ ]*[ *]\([a-zA-Z_][a-zA-Z0-9_]*\)(.*/\1/p
				s/^const struct [a-z_]* \([A-Z_][A-Z0-9_]*\) = {$/\1/p' |
			sed "s|\$| $f|"
	done | sort -u >"$TMP/defs"
	[ "$(wc -l <"$TMP/defs")" -gt "$min" ] || { diag "too few definitions found"; return 1; }
	for f in "$dir"/*.c; do
		nocomment "$f" | grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u |
			awk -v f="$f" 'NR == FNR { def[$1] = $2; next }
				($1 in def) && def[$1] != f { print f, def[$1] }' "$TMP/defs" -
	done | sort -u >"$TMP/calls"
	for edge in "$@"; do
		grep -qx "$edge" "$TMP/calls" || { diag "the call graph misses $edge"; return 1; }
	done
	acyclic "$TMP/calls"
}

find . -name '*.[ch]' | sort >"$TMP/files"
# an empty or flattened tree fails here rather than passing every rule below on nothing
check "the sources are found in their layers ($(wc -l <"$TMP/files") files)" \
	test "$(grep -c '^\./[a-z]*/[a-z_]*\.[ch]$' "$TMP/files")" -gt 40
check "every source file lives in a layer directory" no_loose_files
check "each layer includes only its own headers and those below it" layer_includes
check "curses is included only by out/tui.c" only_in '#include <n\?curses' out/tui.c out/tui.h
check "libpfm4 is included only by kernel/events.c" only_in '#include <perfmon/' kernel/events.c
# The headers of the kernel's interfaces: <linux/perf_event.h> and the wrapper that stands in for
# it, <linux/bpf.h>, libbpf's <bpf/...> and the skeleton that includes them, libpfm4's <perfmon/...>.
KERNEL_HEADERS='^#[[:space:]]*include[[:space:]]*[<"]\(linux/perf_event\.h\|linux/bpf\.h\|bpf/\|perfmon/\|[a-z_/]*perf_compat\.h\|[a-z_/]*\.skel\.h\)'
# Files outside kernel/ that include one of them (file:line: the include).
kernel_headers_outside() {
	bad=$(grep -n "$KERNEL_HEADERS" -- */*.c */*.h | grep -v '^kernel/')
	[ -z "$bad" ] || { diag "outside kernel/: $(echo "$bad" | tr '\n' ' ')"; return 1; }
}
# the rule finds what it is meant to find
check "the kernel's headers are found in kernel/" \
	sh -c 'for f in kernel/pmu.c kernel/events.c kernel/bpfcount.c kernel/bpfcount.bpf.c kernel/sysops.h; do
		grep -q "$1" "$f" || { echo "# not found in $f"; exit 1; }; done' _ "$KERNEL_HEADERS"
check "the perf, BPF and libpfm4 headers are included only in kernel/" kernel_headers_outside
check "every source file opens with a purpose comment" \
	sh -c 'for f in */*.c */*.h; do head -1 "$f" | grep -q "^/\* " || { echo "# $f"; exit 1; }; done'
# a BPF program (*.bpf.c) is compiled for the bpf target, where there is no config.h
check "every .c includes config.h first (BPF programs aside)" \
	sh -c 'for f in */*.c; do case $f in *.bpf.c) continue ;; esac; grep -m1 "^#include" "$f" | grep -q "config.h" || { echo "# $f"; exit 1; }; done'
check "every .c includes its own header right after config.h" \
	sh -c 'for f in */*.c; do h=${f%.c}.h; [ -f "$h" ] || continue;
		grep "^#include" "$f" | sed -n 2p | grep -q "\"$h\"" || { echo "# $f"; exit 1; }; done'
check "no circle of includes between the headers of kernel/" include_graph kernel
# the -e encoder calls libpfm4's wrapper and the PMUs, the PMUs the CPU map, the map /proc
check "no circle of calls between the files of kernel/" call_graph kernel 60 \
	'kernel/evspec.c kernel/events.c' 'kernel/pmu.c kernel/cpumap.c' 'kernel/cpumap.c kernel/proc.c'
check "no circle of includes between the headers of collect/" include_graph collect
# the live source's glue calls the scan, the scan the backends through l->be, the backends the
# attach, idle, thread and policy files, and nothing calls back up
check "no circle of calls between the files of collect/" call_graph collect 100 \
	'collect/source_live.c collect/live_scan.c' 'collect/live_backend.c collect/live_be_tasks.c' \
	'collect/live_be_tasks.c collect/live_attach.c'
check "no circle of includes between the headers of view/" include_graph view
# ui.c and view.c call the screens, the screens the list, tags, keys and fields, never back up
check "no circle of calls between the files of view/" call_graph view 40 \
	'view/ui.c view/list.c' 'view/view.c view/tableview.c' 'view/input.c view/sigmenu.c'
check "no numbered cleanup labels" sh -c '! grep -nE "^(err|out|fail)[0-9]+:" -- */*.c'
done_testing
