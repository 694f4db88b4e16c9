# Live: per-core rows add up to the total row, and the total agrees with the kernel's own counts.
. "$top_srcdir/tests/lib.sh"
exclusive

background "$WORKLOAD" faults 3000 6
# the kernel's counts over a window that holds pmctop's intervals whole: from before it starts
ctxta=$(awk '/^ctxt/ {print $2}' /proc/stat)
pfa=$(awk '/^pgfault/ {print $2}' /proc/vmstat)
"$PMCTOP" -b -d 1 -n 5 -o json -p "$BG" >"$TMP/c.json" 2>/dev/null &
pm=$!
# and from its first frame on, a window that starts after its first read (the frame is written,
# and seen here, a moment after it: 0.3 s beside stress-ng, 900 faults of the workload); its
# start-up (seconds for a sanitizer build on a loaded machine) is in neither
i=0
while [ $i -lt 1200 ] && ! [ -s "$TMP/c.json" ] && kill -0 $pm 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
ctxt0=$(awk '/^ctxt/ {print $2}' /proc/stat)
pf0=$(awk '/^pgfault/ {print $2}' /proc/vmstat)
wait $pm
ctxt1=$(awk '/^ctxt/ {print $2}' /proc/stat)
pf1=$(awk '/^pgfault/ {print $2}' /proc/vmstat)

python3 - "$TMP/c.json" $((ctxt1 - ctxt0)) $((pf1 - pf0)) $((ctxt1 - ctxta)) $((pf1 - pfa)) \
	<<'PY' >"$TMP/sums"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
# the first frame comes at once with no interval: its CPU rows have no values at all
first = frames.pop(0)
bad = 0 if first["interval"] is None and all(
    c[k] is None for c in first["cpus"] for k in ("busy", "cs", "pf", "mig")) else 100
cs_total = pf_total = secs = 0.0
for f in frames:
    cores = [c for c in f["cpus"] if c["cpu"] != "all"]
    tot = [c for c in f["cpus"] if c["cpu"] == "all"][0]
    for key in ("cs", "pf", "mig"):
        s = sum(c[key] for c in cores)
        if abs(s - tot[key]) > 0.01 * max(1, tot[key]) + 0.2:
            bad += 1
    cs_total += tot["cs"] * f["interval"]
    pf_total += tot["pf"] * f["interval"]
    secs += f["interval"]
print(len(frames), bad, int(cs_total), int(pf_total), int(sys.argv[2]), int(sys.argv[3]), secs,
      int(sys.argv[4]), int(sys.argv[5]))
PY
read -r nframes bad cs pf kcs kpf secs wcs wpf <"$TMP/sums"
diag "frames $nframes over $secs s; context switches pmctop $cs, /proc/stat $kcs from the first frame, $wcs from before the start; faults pmctop $pf, /proc/vmstat $kpf and $wpf"
check "four intervals with per-core rows after the first frame" test "$nframes" = 4
check "per-core rows add up to the total row, and the first frame has none" test "$bad" = 0
# at most what the kernel counted from before pmctop started to after it ended; at least most of
# what it counted from the first frame seen to after the end (which takes in the exit)
check "total context switches agree with /proc/stat ($cs: $kcs to $wcs)" \
	within "$cs" $((kcs * 60 / 100)) $((wcs * 105 / 100))
check "total page faults agree with /proc/vmstat ($pf: $kpf to $wpf)" \
	within "$pf" $((kpf * 60 / 100)) $((wpf * 105 / 100))
done_testing
