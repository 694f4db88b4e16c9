# Shared by the tests in which a real Prometheus scrapes pmctop --listen on loopback; source it
# after tests/lib.sh. They set DEADLINE (seconds since the epoch) before starting anything.

# prom_need WHAT: skip the test, saying WHAT it would check, where Prometheus is not installed
prom_need() {
	if ! command -v prometheus >/dev/null; then
		skip_all "$1: prometheus is not installed (apt-get install prometheus)"
	fi
}

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

# pmctop_listen ARGS...: pmctop --listen on a free loopback port with ARGS, in the background
# ($SERVER); $ADDR is where it serves (host:port), empty when it did not say so by DEADLINE
pmctop_listen() {
	"$PMCTOP" --listen 127.0.0.1:0 "$@" >"$TMP/pmctop.out" 2>"$TMP/pmctop.err" &
	SERVER=$!
	KILL_PIDS="$KILL_PIDS $SERVER"
	ADDR=
	while [ -z "$ADDR" ] && [ "$(date +%s)" -lt "$DEADLINE" ] && kill -0 "$SERVER" 2>/dev/null; do
		sleep 0.1
		ADDR=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "$TMP/pmctop.err")
	done
}

# prom_start: a Prometheus of the test's own that scrapes $ADDR every second; its API at $PROM
prom_start() {
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
}
