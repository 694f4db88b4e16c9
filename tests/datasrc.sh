# pmctop's decoding of PERF_SAMPLE_DATA_SRC against perf's, on a capture of a table of values.
# tests/make-datasrc-perf.py writes a perf.data whose samples carry data sources covering every
# field (op, level bits, snoop, lock, TLB, level number, remote, snoop extension, block, hops),
# tools/perf/tests/mem.c's cases and values like those the x86 drivers write; perf decodes it
# (perf script, perf report --mem-mode as perf mem report runs it), and each sample's fields and
# the level, load or store pmctop shows for its page must be what perf says.
. "$top_srcdir/tests/lib.sh"
DUMP=$top_builddir/tests/perfdata_dump
CHECK="python3 $top_srcdir/tests/datasrc_check.py"

python3 "$top_srcdir/tests/make-datasrc-perf.py" "$TMP/ds.data"
"$DUMP" "$TMP/ds.data" >"$TMP/ds.dump"
check "pmctop decodes every sample of the table" sh -c 'test "$(grep -c "^S" "$1")" -gt 500' \
	_ "$TMP/ds.dump"
for pid in $(awk '$1 == "S" {print $2}' "$TMP/ds.dump" | sort -u); do
	"$PMCTOP" -b -o json -d 0 --half-life 3600 --top 256 --replay "$TMP/ds.data" \
		--sample "$pid" >"$TMP/ds.$pid.json" 2>"$TMP/ds.err"
done
check "each process's pages in the replay" sh -c 'ls "$1"/ds.*.json | wc -l | grep -qx 3' _ "$TMP"

if ! command -v perf >/dev/null || ! perf version >/dev/null 2>&1; then
	skip_all "the comparison with perf: perf is not installed (apt install linux-perf)"
fi
diag "$(perf version)"
perf script -i "$TMP/ds.data" -F data_src,weight >"$TMP/ds.script" 2>"$TMP/perf.err"
perf report -i "$TMP/ds.data" --mem-mode --stdio -t '|' \
	--sort=local_weight,mem,snoop,tlb,lock,blocked -F local_weight,mem,snoop,tlb,lock,blocked \
	>"$TMP/ds.report" 2>>"$TMP/perf.err"
check "perf reads the capture" sh -c 'test "$(grep -c "|OP " "$1")" -gt 500' _ "$TMP/ds.script" ||
	sed 's/^/# /' "$TMP/perf.err"
check "each field of each data source as perf decodes it" sh -c \
	'$1 fields "$2" "$3" "$4" >&2' _ "$CHECK" "$TMP/ds.dump" "$TMP/ds.script" "$TMP/ds.report"
check "the level, load or store pmctop shows for each page is perf's, in pmctop's words" sh -c \
	'c=$1; shift; $c shown "$@" >&2' _ "$CHECK" "$TMP/ds.dump" "$TMP/ds.script" "$TMP/ds.report" \
	"$TMP"/ds.*.json
done_testing
