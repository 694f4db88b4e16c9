# A real Prometheus scrapes pmctop --listen on loopback every second; its HTTP API gives a known
# workload's page-fault rate within 10 % of the rate the workload makes.
. "$top_srcdir/tests/lib.sh"
if ! command -v prometheus >/dev/null; then
	skip "a real Prometheus scrapes pmctop: prometheus is not installed (apt-get install prometheus)"
	done_testing
	exit 0
fi
exclusive
RATE=2000
DEADLINE=$(($(date +%s) + 55))	# the whole test stays under a minute

# query EXPR: the first value of an instant query to the Prometheus HTTP API, "" when none
query() {
	python3 - "$PROM" "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = 'http://%s/api/v1/query?%s' % (sys.argv[1], urllib.parse.urlencode({'query': sys.argv[2]}))
try:
    with urllib.request.urlopen(url, timeout=5) as r:
        res = json.load(r)['data']['result']
except Exception:
    res = []
print(res[0]['value'][1] if res else '')
EOF
}

background "$WORKLOAD" faults $RATE 50
"$PMCTOP" --listen 127.0.0.1:0 -p "$BG" --export-processes 1 -d 0.2 >"$TMP/pmctop.out" 2>"$TMP/pmctop.err" &
SERVER=$!
KILL_PIDS="$KILL_PIDS $SERVER"
ADDR=
while [ -z "$ADDR" ] && [ "$(date +%s)" -lt "$DEADLINE" ] && kill -0 "$SERVER" 2>/dev/null; do
	sleep 0.1
	ADDR=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "$TMP/pmctop.err")
done
check "pmctop --listen started ($ADDR)" test -n "$ADDR"

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

# wait for ten seconds of scrapes of the workload's series
PF="pmctop_process_event_count_total{event=\"page-faults\",pid=\"$BG\"}"
samples=
while [ "$(date +%s)" -lt "$DEADLINE" ]; do
	samples=$(query "count_over_time(${PF}[10s])")
	[ -n "$samples" ] && [ "${samples%%.*}" -ge 9 ] && break
	sleep 1
done
check "Prometheus scraped pmctop every second (${samples:-no} samples in 10 s)" \
	within "${samples:-0}" 8 12
check "the target is up" test "$(query 'up{job="pmctop"}')" = 1
rate=$(query "rate(${PF}[10s])")
SEL="{event=\"page-faults\",pid=\"$BG\"}[10s]"
scaled=$(query "rate(${PF}[10s]) * rate(pmctop_process_event_enabled_seconds_total$SEL) / rate(pmctop_process_event_running_seconds_total$SEL)")
diag "workload: $RATE faults/s; Prometheus: rate $rate, scaled $scaled"
check "the page-fault rate Prometheus computes is within 10 % of $RATE" \
	within "${rate:-0}" $((RATE * 90 / 100)) $((RATE * 110 / 100))
check "so is the rate scaled by enabled over running" \
	within "${scaled:-0}" $((RATE * 90 / 100)) $((RATE * 110 / 100))
[ -n "$rate" ] || sed 's/^/# /' "$TMP/prometheus.log" | tail -20
done_testing
