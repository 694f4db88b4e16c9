# A real Prometheus scrapes pmctop --listen on loopback every second; its HTTP API gives a known
# workload's page-fault rate within 10 % of the rate the workload makes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/prometheus_lib.sh"
prom_need "a real Prometheus scrapes pmctop"
exclusive
RATE=2000
# A fresh machine under the rest of the suite can take tens of seconds before Prometheus scrapes
# at all; the workload outlives any wait (it is killed at the end), so the 10 s window of the
# rate never reaches past its end
DEADLINE=$(($(date +%s) + 100))

background "$WORKLOAD" faults $RATE 300
pmctop_listen -p "$BG" --export-processes 1 -d 0.2
check "pmctop --listen started ($ADDR)" test -n "$ADDR"

prom_start

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
check "the page-fault rate Prometheus computes (${rate:-none}) is within 10 % of $RATE" \
	within "${rate:-0}" $((RATE * 90 / 100)) $((RATE * 110 / 100))
check "so is the rate scaled by enabled over running (${scaled:-none})" \
	within "${scaled:-0}" $((RATE * 90 / 100)) $((RATE * 110 / 100))
if ! within "${rate:-0}" $((RATE * 90 / 100)) $((RATE * 110 / 100)); then
	diag "the samples behind it:"
	samples "${PF}[12s]" "$(date +%s)" | sed 's/^/# /'
	sed 's/^/# /' "$TMP/prometheus.log" | tail -20
	sed 's/^/# pmctop: /' "$TMP/pmctop.err" | tail -20
fi
done_testing
