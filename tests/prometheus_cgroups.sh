# A real Prometheus scrapes pmctop --listen --cgroups every second: the page-fault rate of a
# workload in a fresh cgroup, as Prometheus sees it, is within 10 % of perf stat -a -G on the same
# cgroup over the same seconds.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cgroup_lib.sh"
if ! command -v prometheus >/dev/null; then
	skip "a real Prometheus scrapes pmctop's cgroups: prometheus is not installed (apt-get install prometheus)"
	done_testing
	exit 0
fi
cgroup_need
exclusive
RATE=2000
DEADLINE=$(($(date +%s) + 55)) # the whole test stays under a minute

# query EXPR [TIME]: the first value of an instant query to the Prometheus HTTP API, "" when none
query() {
	python3 - "$PROM" "$1" "${2:-}" <<'EOF'
import json, sys, urllib.parse, urllib.request
q = {'query': sys.argv[2]}
if sys.argv[3]:
    q['time'] = sys.argv[3]
url = 'http://%s/api/v1/query?%s' % (sys.argv[1], urllib.parse.urlencode(q))
try:
    with urllib.request.urlopen(url, timeout=5) as r:
        res = json.load(r)['data']['result']
except Exception:
    res = []
print(res[0]['value'][1] if res else '')
EOF
}

# samples EXPR TIME: the raw samples of a range selector at TIME, "TIMESTAMP VALUE" per line
samples() {
	python3 - "$PROM" "$1" "$2" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = 'http://%s/api/v1/query?%s' % (sys.argv[1], urllib.parse.urlencode({'query': sys.argv[2], 'time': sys.argv[3]}))
try:
    with urllib.request.urlopen(url, timeout=5) as r:
        res = json.load(r)['data']['result']
except Exception:
    res = []
for t, v in (res[0]['values'] if res else []):
    print(t, v)
EOF
}

cgroup_new "pmctop-test-prom.$$"
CG=$CGPATH
cgroup_bg "${CG#/}" "$WORKLOAD" faults $RATE 50
"$PMCTOP" --listen 127.0.0.1:0 --cgroups --cgroup-depth 0 --cgroup "$CG" -d 0.2 \
	>"$TMP/pmctop.out" 2>"$TMP/pmctop.err" &
SERVER=$!
KILL_PIDS="$KILL_PIDS $SERVER"
ADDR=
while [ -z "$ADDR" ] && [ "$(date +%s)" -lt "$DEADLINE" ] && kill -0 "$SERVER" 2>/dev/null; do
	sleep 0.1
	ADDR=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "$TMP/pmctop.err")
done
check "pmctop --listen --cgroups started ($ADDR)" test -n "$ADDR"

PROM=127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: pmctop
    scrape_interval: 1s
    scrape_timeout: 1s
    static_configs:
      - targets: ['$ADDR']
EOF
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="$PROM" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
KILL_PIDS="$KILL_PIDS $!"

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
