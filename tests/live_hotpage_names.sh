# Live: pages of mappings that come and go are named by the mapping they were sampled in (the
# ring's MMAP2 records), not looked up in /proc/PID/maps long after the mapping is gone: a heap
# grown and shrunk with sbrk and a 4 MiB file mapped, written and unmapped, in the proportions
# the workload touches them (2 pages of data.bin for each page of heap).
. "$top_srcdir/tests/lib.sh"
exclusive

mkdir -p "$TMP/dir"
background "$WORKLOAD" mappings 9 "$TMP/dir" >"$TMP/ready"
sleep 0.5
"$PMCTOP" -b --sample "$BG" -n 5 -d 1 -o json --top 256 >"$TMP/m.json" 2>"$TMP/m.err"
check "pmctop -b --sample exits 0" test $? = 0
python3 - "$TMP/m.json" <<'PY' >"$TMP/verdict"
import collections, json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
share = collections.Counter()
for f in frames[-2:]:
    for p in f["pages"]:
        m = p["mapping"]
        share["data.bin" if m.endswith("/data.bin") else m] += p["share"]
total = sum(share.values()) or 1
print("# shares of the top pages of the last two frames:", dict(share))
print("pages", "ok" if all(f["pages"] for f in frames[1:]) else "none")
print("unmapped %.1f" % (100 * share["[unmapped]"] / total))
print("named", "ok" if share["data.bin"] > 0 and share["[heap]"] > 0 else "no")
both = share["data.bin"] + share["[heap]"]
print("data_fraction %.2f" % (share["data.bin"] / both if both else 0))
print("period", frames[-1]["period"])
PY
sed 's/^/# /' "$TMP/verdict"
check "every frame after the first has pages" grep -qx "pages ok" "$TMP/verdict"
check "no page is [unmapped]" grep -qx "unmapped 0.0" "$TMP/verdict"
check "the pages are named data.bin and [heap]" grep -qx "named ok" "$TMP/verdict"
frac=$(sed -n 's/^data_fraction //p' "$TMP/verdict")
check "data.bin has about two thirds of them ($frac; 0.67 touched)" \
	awk -v f="$frac" 'BEGIN { exit !(f >= 0.5 && f <= 0.8) }'

# perf as an oracle: it names the same samples from the same records
if command -v perf >/dev/null && perf record -q -o /dev/null -e page-faults -c 1 true 2>/dev/null; then
	background "$WORKLOAD" mappings 4 "$TMP/dir" >/dev/null
	sleep 0.3
	timeout -s INT 1.5 perf record -q -d -e page-faults -c 1 -p "$BG" -o "$TMP/perf.data" \
		2>/dev/null
	perf report -i "$TMP/perf.data" --mem-mode --sort=dso_daddr --stdio 2>/dev/null |
		awk '$1 ~ /%$/ { sub("%", "", $1); print $2, $1 }' >"$TMP/perf.shares"
	sed 's/^/# perf: /' "$TMP/perf.shares"
	pd=$(awk '$1 == "data.bin" { print $2 }' "$TMP/perf.shares")
	check "perf report --mem-mode names two thirds data.bin too (${pd:-none} %)" \
		awk -v f="${pd:-0}" 'BEGIN { exit !(f >= 50 && f <= 80) }'
else
	skip "perf is not installed or cannot record here: no cross-check"
fi
done_testing
