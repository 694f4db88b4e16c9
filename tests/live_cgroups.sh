# Live, per cgroup: a workload faulting at a known rate in a fresh cgroup is reported at that rate
# (within 10 % of perf stat -a -G on the same cgroup and of what the workload logged); cgroups that
# appear while watched get rows, one removed while watched disappears without an error; the
# descriptors they take are said, and cgroups beyond the budget are left out with a reason.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cgroup_lib.sh"

# Without a cgroup v2 hierarchy (a /proc fixture whose mountinfo has none), asking for cgroups is
# a runtime failure that names where pmctop looked; the screen's implicit cgroups are not.
mkdir -p "$TMP/proc/self"
cp -r "$top_srcdir/tests/data/proc/." "$TMP/proc/"
printf '22 1 0:21 / /sys rw - sysfs sysfs rw\n' >"$TMP/proc/self/mountinfo"
"$PMCTOP" -b -n 1 -d 0.1 --proc-root "$TMP/proc" --cgroups >"$TMP/none.out" 2>"$TMP/none.err"
check "--cgroups without a hierarchy exits 1" test $? = 1
check "and says there is none and where it looked" \
	grep -q "no cgroup v2 hierarchy is mounted (no cgroup2 line in '$TMP/proc/self/mountinfo')" "$TMP/none.err"
"$PMCTOP" -b -n 1 -d 0.1 --proc-root "$TMP/proc" >/dev/null 2>"$TMP/plain.err"
check "without cgroup options nothing is said of cgroups" sh -c '! grep -q cgroup "$1"' _ "$TMP/plain.err"
"$PMCTOP" -b --cgroup ../x >/dev/null 2>"$TMP/bad.err"
check "a cgroup path with '..' is refused with status 2" test $? = 2
check "naming it and what to give" grep -q "invalid cgroup path '../x' for --cgroup: give a path such as /system.slice" "$TMP/bad.err"
"$PMCTOP" -b --cgroup-depth 20 >/dev/null 2>"$TMP/bad.err"
check "a depth past 16 is refused with status 2" sh -c '[ $1 = 2 ] && grep -q "invalid depth .20. for --cgroup-depth: give 0 to 16" "$2"' _ $? "$TMP/bad.err"

cgroup_need
exclusive
RATE=2000
diag "cgroup v2 at $CGMNT"

cgroup_new "pmctop-test-cg.$$"
CG=$CGPATH
cgroup_bg "${CG#/}" "$WORKLOAD" faults $RATE 14 "$TMP/faults.log"
W=$BG
sleep 0.5
# perf stat and pmctop over the same 8 s
if command -v perf >/dev/null; then
	(
		s=$(date +%s.%N)
		perf stat -a -e page-faults -G "$CG" -e duration_time -x, -o "$TMP/perf.csv" \
			-- sleep 8 2>"$TMP/perf.err"
		st=$?
		echo "$s $(date +%s.%N) $st" >"$TMP/perf.time"
	) &
	PERF=$!
fi
# nine frames: the first at once, without counts (the oracle skips it), then eight intervals
"$PMCTOP" -b --cgroups --cgroup-depth 0 --cgroup "$CG" -d 1 -n 9 -o json >"$TMP/cg.json" 2>"$TMP/cg.err"
check "pmctop -b --cgroups exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/cg.err"
[ -n "${PERF:-}" ] && wait "$PERF"
check "the workload ran in the cgroup" grep -qx "0::$CG" "/proc/$W/cgroup"

oracle "$TMP/cg.json" "$TMP/faults.log" cgpf "$CG" >"$TMP/rates"
diag "per frame, time, reported and logged: $(tr '\n' ';' <"$TMP/rates")"
check "eight intervals with the cgroup's row" test "$(grep -vc missing "$TMP/rates")" = 8
# the first interval begins when the counters open: not compared
tail -n 7 "$TMP/rates" >"$TMP/compared"
while read -r t got want; do
	check "cgroup page-fault rate $got within 10 % of the $want/s the workload did" \
		agree "$got" "$want" 0.10 20
done <"$TMP/compared"
check "the workload really faulted (at least $((RATE / 10))/s in each compared frame)" \
	awk -v min=$((RATE / 10)) '$3 < min { exit 1 }' "$TMP/compared"

# pmctop's mean rate over its frames against perf stat's over the same 8 s
mean=$(python3 - "$TMP/cg.json" "$CG" <<'EOF'
import json, sys
n = t = 0.0
for line in open(sys.argv[1]):
    f = json.loads(line)
    for c in f["cgroups"]:
        if c["cgroup"] == sys.argv[2] and c.get("pf") is not None:
            n += c["pf"] * f["interval"]
            t += f["interval"]
print("%.2f" % (n / t) if t else "")
EOF
)
if [ -n "${PERF:-}" ] && read -r s e st <"$TMP/perf.time" && [ "$st" = 0 ]; then
	# perf's own window: duration_time, not the wall time around it (perf starts slowly under load)
	count=$(awk -F, '$3 ~ /^page-faults/ { print $1 }' "$TMP/perf.csv")
	ns=$(awk -F, '$3 == "duration_time" { print $1 }' "$TMP/perf.csv")
	perf_rate=$(awk -v c="$count" -v ns="$ns" 'BEGIN { if (c ~ /^[0-9]+$/ && ns > 0) printf "%.2f", c / ns * 1e9 }')
	diag "perf stat -a -G $CG: $count faults in $ns ns = $perf_rate/s; pmctop's mean: $mean/s"
	check "pmctop's cgroup rate $mean/s within 10 % of perf stat -a -G's $perf_rate/s" \
		agree "$mean" "$perf_rate" 0.10 20
elif [ -n "${PERF:-}" ]; then
	sed 's/^/# perf: /' "$TMP/perf.err"
	not_ok "perf stat -a -G $CG ran"
else
	skip "the rate against perf stat -a -G: perf is not installed (Debian package linux-perf)"
fi
fds=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["cgroup_fds"])' "$TMP/cg.json")
check "the descriptors the cgroup takes ($fds) are said on stderr" \
	grep -q "counting 1 cgroup takes $fds file descriptors (CPUs x events x cgroups)" "$TMP/cg.err"
check "one per CPU and event: $fds is a multiple of the $(nproc) online CPUs" \
	sh -c '[ "$1" -gt 0 ] && [ $(($1 % $2)) = 0 ]' _ "$fds" "$(nproc)"

# Cgroups come and go while pmctop watches the top level of the hierarchy.
cgroup_new "pmctop-test-gone.$$"
GONE=$CGPATH
"$PMCTOP" -b --cgroups -d 0.3 -o csv >"$TMP/rm.csv" 2>"$TMP/rm.err" &
pm=$!
KILL_PIDS="$KILL_PIDS $pm"
check "a cgroup is listed while it exists" csv_wait_frame "$TMP/rm.csv" "$GONE" yes cgroup
cgroup_new "pmctop-test-new.$$"
NEW=$CGPATH
check "a cgroup made while pmctop runs gets a row" csv_wait_frame "$TMP/rm.csv" "$NEW" yes cgroup
rmdir "$CGMNT$GONE"
check "a cgroup removed while watched disappears from the frames" csv_wait_frame "$TMP/rm.csv" "$GONE" no cgroup
check "the workload's cgroup is still listed" csv_wait_frame "$TMP/rm.csv" "$CG" yes cgroup
check "pmctop is still running" kill -0 "$pm"
kill -TERM "$pm"
wait "$pm"
check "pmctop exits 0" test $? = 0
sed 's/^/# stderr: /' "$TMP/rm.err"
check "no error on stderr about the removed cgroup" sh -c '! grep -q "$1" "$2"' _ "$GONE" "$TMP/rm.err"
check "no row of the removed cgroup says it was not counted" \
	sh -c '! awk -F, -v c="$1" '"'"'$2 == "cgroup" && $NF == c && $(NF - 3) != ""'"'"' "$2" | grep -q .' _ "$GONE" "$TMP/rm.csv"

# The budget: with few descriptors, some cgroups are left out, and pmctop says why.
for i in 1 2 3 4; do cgroup_new "pmctop-test-fd$i.$$"; done
(ulimit -n 48 && exec "$PMCTOP" -b --cgroups --cgroup-depth 0 \
	--cgroup "/pmctop-test-fd1.$$" --cgroup "/pmctop-test-fd2.$$" --cgroup "/pmctop-test-fd3.$$" \
	--cgroup "/pmctop-test-fd4.$$" -n 1 -d 0.2 -o json >"$TMP/fd.json" 2>"$TMP/fd.err")
check "out of descriptors: pmctop still exits 0" test $? = 0
python3 - "$TMP/fd.json" >"$TMP/fd.rows" <<'EOF'
import json, sys
f = json.loads(open(sys.argv[1]).readline())
for c in f["cgroups"]:
    print(c["cgroup"], c.get("not_counted", "counted").replace(" ", "_"), f["cgroup_fds"])
EOF
sed 's/^/# /' "$TMP/fd.rows"
check "with 'ulimit -n 48' some of the four cgroups are counted" grep -q " counted " "$TMP/fd.rows"
check "and the others are not, for want of descriptors" grep -q "out_of_file_descriptors" "$TMP/fd.rows"
check "the four are all listed" test "$(wc -l <"$TMP/fd.rows")" = 4
check "pmctop says cgroups are not counted and what to do" \
	grep -q "cgroups* .*not counted; raise 'ulimit -n'" "$TMP/fd.err"
done_testing
