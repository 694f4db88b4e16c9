# The exporter end to end: pmctop --listen on loopback, on a replay and on live data; both formats,
# 404/405, the strict format checker, and a siege of idle connections and a slowloris client
# while the tick goes on.
. "$top_srcdir/tests/lib.sh"
CLIENT="python3 $top_srcdir/tests/exporter_client.py"
CHECKER="python3 $top_srcdir/tests/exposition_check.py"
REC="$top_srcdir/tests/data/hw.rec"
OM='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'

# serving_or_gone ERRFILE: the address the server logged is in $ADDR, or the server ($SERVER)
# has ended
serving_or_gone() {
	ADDR=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "$1")
	[ -n "$ADDR" ] || ! kill -0 "$SERVER" 2>/dev/null
}
# serve NAME ARGS...: start pmctop with ARGS in the background, wait for its address in $ADDR
serve() {
	name=$1
	shift
	"$PMCTOP" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	SERVER=$!
	KILL_PIDS="$KILL_PIDS $SERVER"
	ADDR=
	wait_until 10 serving_or_gone "$TMP/$name.err"
	[ -n "$ADDR" ] && return 0
	diag "pmctop $* did not start serving:"
	sed 's/^/# /' "$TMP/$name.err"
	return 1
}

# stop: SIGTERM ends the run with status 0
stop() {
	kill -TERM "$SERVER"
	wait "$SERVER"
}

# get NAME PATH [--accept A] [--method M]: the answer's "STATUS<TAB>TYPE<TAB>ALLOW", body in $TMP/NAME
get() {
	name=$1
	path=$2
	shift 2
	$CLIENT get "$ADDR" "$path" --out "$TMP/$name" "$@"
}

# --- a replay: deterministic values ---
if serve replay --listen 127.0.0.1:0 --replay "$REC" -d 0 --export-processes 2; then
	check "the address is on loopback" sh -c 'case "$1" in 127.0.0.1:*) ;; *) exit 1;; esac' _ "$ADDR"
	ans=$(get prom /metrics)
	check "GET /metrics is 200 in the 0.0.4 text ($ans)" \
		test "$ans" = "200	text/plain; version=0.0.4; charset=utf-8	"
	check "the 0.0.4 text passes the strict checker" $CHECKER prometheus "$TMP/prom"
	if command -v promtool >/dev/null; then
		check "promtool check metrics finds nothing to say" \
			sh -c 'promtool check metrics <"$1" >&2' _ "$TMP/prom"
	else
		skip "promtool check metrics: promtool is not installed"
	fi
	ans=$(get om /metrics --accept "$OM")
	check "Accept: application/openmetrics-text gets OpenMetrics ($ans)" \
		test "$ans" = "200	application/openmetrics-text; version=1.0.0; charset=utf-8	"
	check "OpenMetrics passes the strict checker" $CHECKER openmetrics "$TMP/om"
	check "the 0.0.4 text does not pass as OpenMetrics" sh -c '! $1 openmetrics "$2" 2>/dev/null' \
		_ "$CHECKER" "$TMP/prom"
	check "the replay's last counts are served" grep -qx \
		'pmctop_cpu_event_count_total{cpu="0",pmu="cpu",event="cycles"} 5600000000' "$TMP/prom"
	check "the top 2 processes by CPU, comm labelled" grep -q \
		'^pmctop_process_event_count_total{pid="202",comm="stream",pmu="cpu",event="cycles"} ' \
		"$TMP/prom"
	check "the end of a replay keeps serving its last snapshot" grep -qx 'pmctop_ticks_total 3' \
		"$TMP/prom"
	ans=$(get notfound /)
	check "GET / is 404 ($ans)" sh -c 'case "$1" in 404*) ;; *) exit 1;; esac' _ "$ans"
	ans=$(get post /metrics --method POST)
	check "POST /metrics is 405 with Allow ($ans)" test "$(echo "$ans" | cut -f1,3)" = "405	GET, HEAD"
	ans=$(get head /metrics --method HEAD)
	check "HEAD /metrics is 200 with no body" sh -c 'case "$1" in 200*) test ! -s "$2";; *) exit 1;; esac' \
		_ "$ans" "$TMP/head"
	check "headless: nothing on standard output" test ! -s "$TMP/replay.out"
	stop
	check "SIGTERM ends the exporter with status 0" test $? = 0
else
	not_ok "pmctop --listen on a replay"
fi

# -b --listen: frames on standard output as well
if serve batch -b --listen 0 --replay "$REC" -d 0; then
	sleep 0.3
	check "with -b the frames are printed too, the first at once" test "$(grep -c '^pmctop - ' "$TMP/batch.out")" = 3
	stop
else
	not_ok "pmctop -b --listen"
fi

# --- contrib/ ---
if command -v promtool >/dev/null; then
	check "contrib/pmctop.rules.yml passes promtool check rules" \
		sh -c 'promtool check rules "$1" >&2' _ "$top_srcdir/contrib/pmctop.rules.yml"
else
	skip "promtool check rules: promtool is not installed"
fi
check "contrib/grafana-pmctop.json is JSON" python3 -m json.tool "$top_srcdir/contrib/grafana-pmctop.json" /dev/null

# --- the command line ---
check "a bad --listen address is a usage error" \
	sh -c '"$1" --listen ::1:80 >/dev/null 2>"$2"; test $? = 2 && grep -q "invalid address" "$2"' \
	_ "$PMCTOP" "$TMP/bad.err"
check "--export-processes needs --listen" \
	sh -c '"$1" -b --export-processes 3 >/dev/null 2>"$2"; test $? = 2 && grep -q "needs" "$2"' \
	_ "$PMCTOP" "$TMP/bad2.err"
if serve busy --listen 0 --replay "$REC"; then
	check "a port in use is said, status 1" \
		sh -c '"$1" --listen "$2" --replay "$3" >/dev/null 2>"$4"; test $? = 1 &&
			grep -q "cannot listen on" "$4"' _ "$PMCTOP" "$ADDR" "$REC" "$TMP/busy2.err"
	stop
fi

# --- IPv6 loopback, where the machine has it ---
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
	if serve v6 --listen '[::1]:0' --replay "$REC" -d 0; then
		ans=$(get v6 /metrics)
		check "[::1]:PORT serves over IPv6 ($ADDR)" sh -c 'case "$1" in 200*) ;; *) exit 1;; esac' _ "$ans"
		stop
	else
		not_ok "pmctop --listen [::1]:0"
	fi
else
	skip "IPv6 loopback: ::1 cannot be bound here"
fi

# --- live data, under siege: the tick goes on ---
exclusive
if serve live --listen 127.0.0.1:0 -d 0.2; then
	get live1 /metrics >/dev/null
	check "live metrics pass the strict checker" $CHECKER prometheus "$TMP/live1"
	check "live: software events counted per CPU" \
		grep -q '^pmctop_cpu_event_count_total{cpu="0",pmu="software",event="page-faults"} ' \
		"$TMP/live1"
	rss0=$(sed -n 's/^process_resident_memory_bytes //p' "$TMP/live1")
	# counters come and go with the machine's processes: count the sockets alone
	socks0=$(ls -l "/proc/$SERVER/fd" | grep -c 'socket:')
	$CLIENT siege "$ADDR" 200 8 >"$TMP/siege" 2>&1
	sed 's/^/# /' "$TMP/siege"
	check "every scrape during the siege was answered" \
		sh -c 'test "$(grep -c "^scrape 200 " "$1")" -ge 6 && ! grep -q "^scrape [^2]" "$1"' _ "$TMP/siege"
	check "each scrape saw more ticks than the one before" \
		awk '/^scrape/ { if (n++ && $3 <= last) exit 1; last = $3 } END { exit n < 2 }' "$TMP/siege"
	slow=$(sed -n 's/^slowloris closed //p' "$TMP/siege")
	check "the slowloris client was closed by its deadline (after ${slow:-never} s)" \
		within "${slow:-99}" 4 9
	check "pmctop survived the siege" kill -0 "$SERVER"
	sleep 1.2	# past the linger of the last answers
	get live2 /metrics >/dev/null
	rss1=$(sed -n 's/^process_resident_memory_bytes //p' "$TMP/live2")
	socks1=$(ls -l "/proc/$SERVER/fd" | grep -c 'socket:')
	diag "rss $rss0 -> $rss1 bytes, sockets $socks0 -> $socks1"
	if [ -n "${PMCTOP_SANITIZERS:-}" ]; then
		# AddressSanitizer keeps freed memory in quarantine: RSS says nothing there, and its
		# leak checker looks at what is left when pmctop exits instead
		skip "memory did not grow: not measurable under AddressSanitizer's quarantine"
	else
		check "memory did not grow by more than 4 MiB" within "$rss1" 0 $((rss0 + 4194304))
	fi
	check "no connection was left open" test "$socks1" -le "$socks0"
	stop
	check "the live exporter ends with status 0" test $? = 0
else
	not_ok "pmctop --listen on live data"
fi
# --- an address others can reach: said on stderr, loopback is not ---
if serve wide --listen 0.0.0.0:0 --replay "$REC" -d 0; then
	check "--listen 0.0.0.0 warns that names go to the network" grep -q \
		"^pmctop: listening on 0.0.0.0:[0-9]*, which serves process and cgroup names to the network; use 127.0.0.1 to keep it local$" \
		"$TMP/wide.err"
	stop
fi
if serve narrow --listen 127.0.0.1:0 --replay "$REC" -d 0; then
	check "--listen 127.0.0.1 does not warn" sh -c '! grep -q "to the network" "$1"' _ "$TMP/narrow.err"
	stop
fi
done_testing
