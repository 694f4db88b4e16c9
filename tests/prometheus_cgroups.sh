# A real Prometheus scrapes pmctop --listen --cgroups every second: the page-fault rate of a
# workload in a fresh cgroup, as Prometheus sees it, is within 10 % of perf stat -a -G on the same
# cgroup over the same seconds.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cgroup_lib.sh"
. "$top_srcdir/tests/prometheus_lib.sh"
prom_need "a real Prometheus scrapes pmctop's cgroups"
cgroup_need
exclusive
RATE=2000
DEADLINE=$(($(date +%s) + 100)) # Prometheus may be slow to start on a busy machine

cgroup_new "pmctop-test-prom.$$"
CG=$CGPATH
cgroup_bg "${CG#/}" "$WORKLOAD" faults $RATE 300 # killed at the end
pmctop_listen --cgroups --cgroup-depth 0 --cgroup "$CG" -d 0.2
check "pmctop --listen --cgroups started ($ADDR)" test -n "$ADDR"

prom_start

PF="pmctop_cgroup_event_count_total{cgroup=\"$CG\",event=\"page-faults\"}"
got=
while [ "$(date +%s)" -lt "$DEADLINE" ]; do
	got=$(query "count_over_time(${PF}[5s])")
	[ -n "$got" ] && [ "${got%%.*}" -ge 4 ] && break
	sleep 1
done
check "Prometheus scrapes the cgroup's series (${got:-no} samples in 5 s)" within "${got:-0}" 3 7

# perf stat over 10 s; Prometheus's samples from the same seconds. perf's window is its own
# duration_time, ending when it exits (perf starts slowly under load, and ends at once)
perf stat -a -e page-faults -G "$CG" -e duration_time -x, -o "$TMP/perf.csv" \
	-- sleep 10 2>"$TMP/perf.err"
st=$?
t1=$(date +%s.%N)
sleep 1.5 # the scrape after t1
count=$(awk -F, '$3 ~ /^page-faults/ { print $1 }' "$TMP/perf.csv")
ns=$(awk -F, '$3 == "duration_time" { print $1 }' "$TMP/perf.csv")
t0=$(awk -v t="$t1" -v ns="${ns:-0}" 'BEGIN { printf "%.3f", t - ns / 1e9 }')
perf_rate=$(awk -v c="$count" -v ns="${ns:-0}" 'BEGIN { if (c ~ /^[0-9]+$/ && ns > 0) printf "%.2f", c / ns * 1e9 }')
samples "${PF}[15s]" "$(awk -v t="$t1" 'BEGIN { printf "%.3f", t + 1 }')" >"$TMP/samples"
# the first and last samples scraped between t0 and t1: their slope is what Prometheus saw
seen=$(awk -v s="$t0" -v e="$t1" '$1 >= s && $1 <= e { if (!n++) { t = $1; v = $2 } lt = $1; lv = $2 }
	END { if (n >= 2 && lt > t) printf "%.2f %d", (lv - v) / (lt - t), n }' "$TMP/samples")
diag "perf stat -a -G $CG: ${count:-?} faults in $(awk -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f", e - s }') s = ${perf_rate:-?}/s; Prometheus's samples in that window: ${seen:-none}"
check "perf stat -a -G counted the cgroup" test "$st" = 0 -a -n "$perf_rate"
check "Prometheus's cgroup page-fault rate (${seen%% *}/s) is within 10 % of perf stat's ${perf_rate:-?}/s" \
	agree "${seen%% *}" "${perf_rate:-0}" 0.10 20
prate=$(query "rate(${PF}[10s])" "$(awk -v t="$t1" 'BEGIN { printf "%.3f", t }')")
check "so is rate() over those 10 s (${prate:-none})" agree "${prate:-}" "${perf_rate:-0}" 0.10 20
SEL="{cgroup=\"$CG\",event=\"page-faults\"}[10s]"
run=$(query "rate(pmctop_cgroup_event_running_seconds_total$SEL) / rate(pmctop_cgroup_event_enabled_seconds_total$SEL)")
check "the counter ran all the time it was enabled (${run:-none})" within "${run:-0}" 0.999 1.001
check "the cgroups gauge says one cgroup" test "$(query 'pmctop_cgroups')" = 1
[ -n "$prate" ] || sed 's/^/# /' "$TMP/prometheus.log" | tail -20
done_testing
