# perf.data as a replay source, checked against perf script on captures made elsewhere and here.
. "$top_srcdir/tests/lib.sh"
DATA=$top_srcdir/tests/data/perf
DUMP=$top_builddir/tests/perfdata_dump
CHECK="python3 $top_srcdir/tests/perfdata_check.py"

zcat "$DATA/skx-ldlat-weight_struct.data.gz" >"$TMP/skx-ldlat.data"

# what needs no perf: the files are told by their magic, bad ones say where
for f in "$TMP/skx-ldlat.data" "$DATA/snb-cycles-3.8.data" "$DATA/skx-cycles-pipe-6.12.data"; do
	check "$(basename "$f"): replayed to its end, status 0" \
		sh -c '"$PMCTOP" -b -o json -d 0 --replay "$1" >/dev/null 2>"$2/err"' _ "$f" "$TMP"
done
check "the pipe format is read from standard input" sh -c \
	'cat "$1" | "$PMCTOP" -b -o json -d 0 --replay - | grep -q "\"command\":\"echo\""' \
	_ "$DATA/skx-cycles-pipe-6.12.data"
head -c 9000 "$DATA/snb-cycles-3.8.data" >"$TMP/cut.data"
"$PMCTOP" -b -d 0 --replay "$TMP/cut.data" >/dev/null 2>"$TMP/cut.err"
check "a truncated file: exit 2, the offset and what is wrong" sh -c \
	'test $1 = 2 && grep -q "offset 40: the data section .* truncated" "$2"' _ $? "$TMP/cut.err"
"$PMCTOP" -b -d 0 --replay "$DATA/zero-size-sample-pipe-3.2.data" >/dev/null 2>"$TMP/zero.err"
check "a record of size 0: exit 2 naming its offset" sh -c \
	'test $1 = 2 && grep -q "offset 49104: a record of type 9 says it is 0 bytes long" "$2"' \
	_ $? "$TMP/zero.err"
printf 'PERFILE2\150\0\0\0\0\0\0\0' >"$TMP/short.data"
"$PMCTOP" -b -d 0 --replay "$TMP/short.data" >/dev/null 2>"$TMP/short.err"
check "a header cut short: exit 2" sh -c 'test $1 = 2 && grep -q "offset 0: .*too short" "$2"' \
	_ $? "$TMP/short.err"

if ! command -v perf >/dev/null || ! perf version >/dev/null 2>&1; then
	skip_all "the comparison with perf script: perf is not installed (apt install linux-perf)"
fi

# sample for sample: pid, tid, time, ip, address, as perf script prints them
for f in "$TMP/skx-ldlat.data" "$DATA/snb-cycles-3.8.data" "$DATA/skx-cycles-pipe-6.12.data"; do
	b=$(basename "$f")
	"$DUMP" "$f" >"$TMP/$b.dump"
	perf script -i "$f" -F pid,tid,time,ip,addr >"$TMP/$b.script" 2>/dev/null ||
		perf script -i "$f" -F pid,tid,time,ip >"$TMP/$b.script" 2>/dev/null
	check "$b: every sample as perf script decodes it" \
		sh -c '$1 samples "$2" "$3" >&2' _ "$CHECK" "$TMP/$b.dump" "$TMP/$b.script"
done
# Skylake-SP load latency: address, latency and each field of the data source
perf script -i "$TMP/skx-ldlat.data" -F pid,tid,time,addr,data_src,weight \
	>"$TMP/skx-ldlat.mem" 2>/dev/null
check "Skylake-SP load-latency samples: latency, op, level, snoop, TLB, lock as perf says" \
	sh -c '$1 mem "$2" "$3" >&2' _ "$CHECK" "$TMP/skx-ldlat.data.dump" "$TMP/skx-ldlat.mem"
# the NUMA topology of the capture (a two-socket Skylake-SP): each CPU's node as perf prints it
perf report -i "$TMP/skx-ldlat.data" --header-only -I >"$TMP/skx.header" 2>/dev/null
check "Skylake-SP: the CPUs' nodes as perf report -I prints them" \
	sh -c '$1 numa "$2" "$3" >&2' _ "$CHECK" "$TMP/skx-ldlat.data.dump" "$TMP/skx.header"

# a capture made here: page faults with their addresses
if perf record -q -e page-faults -c 1 -d -o "$TMP/pf.data" -- \
	"$WORKLOAD" hotpages 200 2 >/dev/null 2>"$TMP/rec.err"; then
	pid=$(perf script -i "$TMP/pf.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn |
		awk 'NR == 1 {print $2}')
	"$DUMP" "$TMP/pf.data" >"$TMP/pf.dump"
	perf script -i "$TMP/pf.data" -F pid,tid,time,ip,addr >"$TMP/pf.script" 2>/dev/null
	check "a page-fault capture made here: every sample as perf script decodes it" \
		sh -c '$1 samples "$2" "$3" >&2' _ "$CHECK" "$TMP/pf.dump" "$TMP/pf.script"
	"$PMCTOP" -b -o json -d 0 --half-life 3600 --top 256 --replay "$TMP/pf.data" \
		--sample "$pid" >"$TMP/pf.json" 2>"$TMP/pf.err"
	check "its hot pages: each page's samples equal perf script's count of it" \
		sh -c '$1 pages "$2" "$3" "$4" >&2' _ "$CHECK" "$TMP/pf.json" "$TMP/pf.script" "$pid"
	check "its pages are named by the capture's mappings" \
		grep -q '"mapping":"/memfd:pmctop-hot' "$TMP/pf.json"
	"$PMCTOP" -b -o json -d 0 --replay "$TMP/pf.data" >"$TMP/procs.json" 2>&1
	check "its process is in the table, named by the capture's COMM, with its samples" sh -c '
		grep -q "{\"pid\":$1,.*\"command\":\"workload\"" "$2"' _ "$pid" "$TMP/procs.json"
	# this machine's topology, CPUs and memory blocks, as perf prints it; most page faults
	# have no physical address (0): their pages get no node, never node 0; the few that have
	# one are put on the node perf's memory map gives it
	perf record -q -e page-faults -c 1 -d --phys-data --sample-cpu -o "$TMP/phys.data" -- \
		"$WORKLOAD" hotpages 200 1 >/dev/null 2>&1
	"$DUMP" "$TMP/phys.data" >"$TMP/phys.dump"
	perf report -i "$TMP/phys.data" --header-only -I >"$TMP/phys.header" 2>/dev/null
	check "a capture made here: CPU nodes and memory blocks as perf report -I prints them" \
		sh -c '$1 numa "$2" "$3" >&2' _ "$CHECK" "$TMP/phys.dump" "$TMP/phys.header"
	pid=$(perf script -i "$TMP/phys.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn |
		awk 'NR == 1 {print $2}')
	"$PMCTOP" -b -o json -d 0 --half-life 3600 --top 256 --replay "$TMP/phys.data" \
		--sample "$pid" >"$TMP/phys.json" 2>&1
	perf script -i "$TMP/phys.data" -F pid,addr,phys_addr >"$TMP/phys.script" 2>/dev/null
	check "each page's node from its samples' physical addresses, as perf's memory map says" \
		sh -c '$1 nodes "$2" "$3" "$4" "$5" >&2' _ "$CHECK" "$TMP/phys.json" \
		"$TMP/phys.script" "$TMP/phys.header" "$pid"
	perf record -q -e page-faults -c 1 -d -o - -- "$WORKLOAD" hotpages 200 1 2>/dev/null |
		"$PMCTOP" -b -o json -d 0 --replay - >"$TMP/pipe.json" 2>"$TMP/pipe.err"
	check "perf record -o - piped into --replay -" grep -q '"command":"workload"' "$TMP/pipe.json"
else
	sed 's/^/# /' "$TMP/rec.err"
	skip "a capture made here: perf record -e page-faults failed"
fi
done_testing
