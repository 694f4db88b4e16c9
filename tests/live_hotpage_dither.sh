# Live: a steered sample period does not lock onto a regular access pattern. A stream writes one
# byte per 4 KiB page of an array, pass after pass (every write a fault): with a fixed period
# that divides the pages per pass, only every P-th page would ever be sampled. The period is
# dithered, so every residue of the page number is sampled alike, and a hot 16-page window
# has all its pages at about equal weights.
# Checked against the undithered sampler (sampler_dither returning the mean): the period steered
# to 2 sampled every other page (residues mod 2: 0.000 1.000, half the pages) and the window's
# weights went 1322 42 42 1322...; checks 2, 3 and 6 failed there and pass here beside
# stress-ng --cpu 2.
. "$top_srcdir/tests/lib.sh"
exclusive

# 8190 pages (divisible by 2, 3, 5, 6, 7, 9, 10) at a rate the period is steered up from 1 for
background "$WORKLOAD" stream 9 8190 6000 >"$TMP/base"
sleep 0.5
"$PMCTOP" -b --sample "$BG" -n 7 -d 1 -o json --top 5 --record "$TMP/s.rec" >"$TMP/s.json" \
	2>"$TMP/s.err"
check "pmctop -b --sample exits 0" test $? = 0
python3 - "$TMP/s.rec" "$TMP/base" "$TMP/s.json" <<'PY' >"$TMP/verdict"
import json, sys
base = int(open(sys.argv[2]).read().split()[0], 16)
frames = [json.loads(l) for l in open(sys.argv[3])]
npages = 8190
w, seen, tick = {}, set(), 0
for line in open(sys.argv[1]):
    t = line.split()
    if t[0] == "tick":
        tick += 1
    # from the third frame on: the period has been steered by then
    if t[0] != "sample" or tick < 3:
        continue
    page = (int(t[3], 16) - base) // 4096
    if 0 <= page < npages:
        period = int(t[8]) if len(t) > 8 else 1
        w[page] = w.get(page, 0) + period
        seen.add(page)
total = sum(w.values()) or 1
print("period", min(f["period"] for f in frames[2:]))
print("samples", len(seen))
print("# sampled %d of %d pages" % (len(seen), npages))
worst = 0
for m in range(2, 8):
    share = [0.0] * m
    for page, x in w.items():
        share[page % m] += x / total
    dev = max(abs(s * m - 1) for s in share)
    print("# residues mod %d: %s" % (m, " ".join("%.3f" % s for s in share)))
    worst = max(worst, dev)
print("worst %.2f" % worst)
print("coverage %.2f" % (len(seen) / npages))
PY
sed 's/^/# /' "$TMP/verdict"
period=$(sed -n 's/^period //p' "$TMP/verdict")
if [ "${period:-1}" -gt 1 ]; then
	worst=$(sed -n 's/^worst //p' "$TMP/verdict")
	check "each residue of the page number mod 2-7 has its share within 35 % ($worst)" \
		awk -v d="$worst" 'BEGIN { exit !(d <= 0.35) }'
	cov=$(sed -n 's/^coverage //p' "$TMP/verdict")
	check "most pages of the array are sampled, not every P-th ($cov)" \
		awk -v c="$cov" 'BEGIN { exit !(c >= 0.6) }'
else
	skip "the period stayed 1 (the workload ran too slowly here): nothing to dither"
fi

# a hot window: passes of 48 pages (divisible by 2, 3, 4, 6, 8, 12, 16); its first 16 pages
background "$WORKLOAD" stream 7 48 8000 >"$TMP/base2"
sleep 0.5
"$PMCTOP" -b --sample "$BG" -n 6 -d 1 -o json --top 64 >"$TMP/w.json" 2>/dev/null
check "pmctop -b --sample exits 0 on the window" test $? = 0
python3 - "$TMP/w.json" "$TMP/base2" <<'PY' >"$TMP/wverdict"
import json, sys
base = int(open(sys.argv[2]).read().split()[0], 16)
f = [json.loads(l) for l in open(sys.argv[1])][-1]
w = {}
for p in f["pages"]:
    i = (int(p["page"], 16) - base) // 4096
    if 0 <= i < 16:
        w[i] = p["weight"]
mean = sum(w.values()) / 16
print("# period %s; weights of pages 0-15: %s" % (f["period"], " ".join("%.0f" % w.get(i, 0) for i in range(16))))
print("period", f["period"])
print("present", len(w))
print("band", "ok" if len(w) == 16 and all(0.5 * mean <= x <= 1.5 * mean for x in w.values()) else "no")
PY
sed 's/^/# /' "$TMP/wverdict"
if [ "$(sed -n 's/^period //p' "$TMP/wverdict")" -gt 1 ]; then
	check "all 16 pages of the window are sampled" grep -qx "present 16" "$TMP/wverdict"
	check "each within half to one and a half times their mean weight" grep -qx "band ok" "$TMP/wverdict"
else
	skip "the period stayed 1 on the window: nothing to dither"
fi
done_testing
