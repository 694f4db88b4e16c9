# Live: the hot pages' NUMA nodes and the remote share, measured. A workload binds its memory to
# one node (set_mempolicy) and faults its pages from a CPU of a node it chooses; pmctop must give
# every located page that node, the remote share the workload makes (0 % from the same node,
# 100 % from another), and agree with /proc/PID/numa_maps. On one node the pages are still
# asked where they live: node 0 and 0 % must come from samples that were located, not assumed.
. "$top_srcdir/tests/lib.sh"
exclusive

NODES=/sys/devices/system/node
if ! test -r $NODES/online; then
	# a kernel without NUMA: no node column, said once, never node 0
	background "$WORKLOAD" faults 1000 5
	sleep 0.3
	"$PMCTOP" -b --sample "$BG" -n 3 -d 1 --top 16 >"$TMP/t.txt" 2>"$TMP/t.err"
	check "pmctop -b --sample exits 0" test $? = 0
	check "no NODE column" sh -c "! grep -q ' NODE ' '$TMP/t.txt'"
	check "the notice says there are no nodes" grep -q "no NUMA nodes" "$TMP/t.err"
	done_testing
	exit 0
fi

# the nodes with CPUs, and the first CPU of each
first_cpu() { sed 's/[-,].*//' "$NODES/node$1/cpulist"; }
set --
for d in $NODES/node[0-9]*; do
	nd=${d##*node}
	test -s "$d/cpulist" && test "$(tr -d '\n' <"$d/cpulist")" != "" && set -- "$@" "$nd"
done
diag "nodes with CPUs: $*; online: $(cat $NODES/online)"
FIRST=$1
LAST=$FIRST
for nd in "$@"; do LAST=$nd; done

# run NODE CPU WANT: memory on NODE, faults from CPU; WANT is the remote share expected
run() {
	mem=$1 cpu=$2 want=$3 tag=$1-$2
	background "$WORKLOAD" numa "$mem" "$cpu" 1000 8
	sleep 0.5
	"$PMCTOP" -b --sample "$BG" -n 4 -d 1 -o json --top 64 >"$TMP/$tag.json" 2>"$TMP/$tag.err"
	check "pmctop -b --sample exits 0 (memory on node $mem, CPU $cpu)" test $? = 0
	# numa_maps while the workload still runs: the nodes its pages really are on
	cat "/proc/$BG/numa_maps" >"$TMP/$tag.maps" 2>/dev/null
	kill "$BG" 2>/dev/null
	sed 's/^/# stderr: /' "$TMP/$tag.err"
	python3 - "$TMP/$tag.json" "$mem" "$want" "$TMP/$tag.maps" <<'PY' >"$TMP/$tag.verdict"
import json, re, sys
frames = [json.loads(l) for l in open(sys.argv[1])][1:]
mem, want = int(sys.argv[2]), float(sys.argv[3])
located = frames[-1].get("located", 0) if frames else 0
pages = [p for f in frames for p in f["pages"]]
# the nodes numa_maps gives the mappings of the pages ("[anon START-END]": its line is START)
starts = {m.group(1).lstrip("0") for p in pages for m in [re.match(r"\[anon ([0-9a-f]+)-", p["mapping"])] if m}
real = {int(n) for line in open(sys.argv[4]) if line.split(" ")[0].lstrip("0") in starts
        for n in re.findall(r" N(\d+)=", line)}
nodes = {p["node"] for p in pages if "node" in p}
print("# located samples %d, pages %d (%d with a node), nodes %s, numa_maps nodes %s, remote %s"
      % (located, len(pages), sum("node" in p for p in pages), sorted(nodes), sorted(real),
         frames[-1].get("remote") if frames else None))
print("located", "ok" if located >= 100 else "few")
print("most", "ok" if pages and sum("node" in p for p in pages) >= 0.9 * len(pages) else "no")
print("node", "ok" if nodes == {mem} else "bad")
print("maps", "ok" if real == {mem} else "bad")
print("remote", "ok" if frames and all(abs(f.get("remote", -100) - want) <= 0.01 for f in frames)
      and all(abs(p.get("remote", -100) - want) <= 0.01 for p in pages if "remote" in p) else "bad")
PY
	grep "^#" "$TMP/$tag.verdict"
	check "samples were located ($tag)" grep -qx "located ok" "$TMP/$tag.verdict"
	check "nearly every page has a node ($tag)" grep -qx "most ok" "$TMP/$tag.verdict"
	check "every page is on node $mem, where it is bound ($tag)" grep -qx "node ok" "$TMP/$tag.verdict"
	check "the nodes agree with /proc/PID/numa_maps ($tag)" grep -qx "maps ok" "$TMP/$tag.verdict"
	check "the remote share is $want % per page and in all ($tag)" \
		grep -qx "remote ok" "$TMP/$tag.verdict"
}

run "$FIRST" "$(first_cpu "$FIRST")" 0
if [ "$#" -eq 1 ]; then
	check "one node: the notice says so" grep -q "numa: one node (node $FIRST)" "$TMP/$FIRST-$(first_cpu "$FIRST").err"
	# the text says the share was measured over located samples
	background "$WORKLOAD" numa "$FIRST" "$(first_cpu "$FIRST")" 1000 4
	sleep 0.3
	"$PMCTOP" -b --sample "$BG" -n 2 -d 1 --top 4 >"$TMP/t.txt" 2>/dev/null
	sed -n '/^NUMA:/p;/ NODE /p' "$TMP/t.txt" | sed 's/^/# /'
	check "the text gives the remote share of the located samples" \
		grep -Eq "^NUMA: remote 0.0% of [1-9][0-9]* samples" "$TMP/t.txt"
	check "the text has a NODE column" grep -q " NODE REMOTE% MAPPING" "$TMP/t.txt"
else
	run "$LAST" "$(first_cpu "$FIRST")" 100
	run "$FIRST" "$(first_cpu "$LAST")" 100
	run "$LAST" "$(first_cpu "$LAST")" 0
fi
done_testing
