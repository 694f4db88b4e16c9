# The systemd unit of pmctop --listen: systemd-analyze verifies it, it runs without root on the
# capabilities it lists, and its sandbox leaves what pmctop needs.
. "$top_srcdir/tests/lib.sh"

UNIT=$top_builddir/contrib/pmctop-exporter.service
check "make built the unit, ExecStart naming the installed pmctop" \
	grep -Eq '^ExecStart=/[^@ ]*/pmctop --listen 127\.0\.0\.1:10185$' "$UNIT"
# the value of KEY in the unit (its last assignment)
unit_get() { sed -n "s/^$1=//p" "$UNIT" | tail -1; }

if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze verify: not installed (Debian: apt-get install systemd)"
else
	# ExecStart must name a binary that exists: the one under test; no man page installed yet
	sed "s|^ExecStart=[^ ]*|ExecStart=$PMCTOP|" "$UNIT" >"$TMP/pmctop-exporter.service"
	verify() {
		systemd-analyze verify --man=no "$TMP/pmctop-exporter.service" >"$TMP/verify" 2>&1 &&
			[ ! -s "$TMP/verify" ] || { sed 's/^/# /' "$TMP/verify"; return 1; }
	}
	check "systemd-analyze verify finds nothing to say" verify
	# systemd's own exposure score (0 best, 10 worst): "OK" below 4
	security() {
		systemd-analyze security --offline=yes "$TMP/pmctop-exporter.service" >"$TMP/sec" 2>&1
		score=$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p' "$TMP/sec")
		diag "exposure level $score"
		[ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s < 4) }'
	}
	if systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
		check "systemd-analyze security rates its exposure OK (below 4)" security
	else
		skip "systemd-analyze security --offline: this systemd is older than 250"
	fi
fi

# no root; only the capabilities it names, as ambient and bounding sets alike
check "it runs as a dynamic user, not root" test "$(unit_get DynamicUser)" = yes
check "its capabilities are CAP_PERFMON alone (no samples served, no --bpf)" \
	test "$(unit_get AmbientCapabilities)" = CAP_PERFMON
check "the bounding set is the same" test "$(unit_get CapabilityBoundingSet)" = CAP_PERFMON
check "perf_event_open is let through the system call filter" \
	sh -c 'grep -q "^SystemCallFilter=@system-service.* perf_event_open" "$1"' _ "$UNIT"
check "/proc shows every process to it (no ProtectProc, ProcSubset=pid or PrivateUsers)" \
	sh -c '! grep -Eq "^(ProtectProc=(invisible|noaccess|ptraceable)|ProcSubset=pid|PrivateUsers=yes)" "$1"' _ "$UNIT"
check "netlink (process events) and the listening socket's families are allowed" \
	sh -c 'for f in AF_INET AF_INET6 AF_UNIX AF_NETLINK; do grep "^RestrictAddressFamilies=" "$1" | grep -qw $f || exit 1; done' _ "$UNIT"

# what those capabilities give is enough: as nobody with the unit's capabilities and nothing
# else, pmctop counts every process and every CPU, with no permission message
caps=$(unit_get AmbientCapabilities | tr 'A-Z' 'a-z' | sed 's/cap_//g; s/ /,+/g')
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "the unit's capabilities suffice: needs root and setpriv to drop to nobody"
else
	cp "$PMCTOP" "$TMP/pmctop"
	chmod 755 "$TMP" "$TMP/pmctop"
	enough() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all,+"$caps" \
			--ambient-caps=-all,+"$caps" --bounding-set=-all,+"$caps" \
			"$TMP/pmctop" -b -n 2 -d 0.3 -o csv --task-counts=perf -p 1,$$ \
			>"$TMP/caps.csv" 2>"$TMP/caps.err" || { sed 's/^/# /' "$TMP/caps.err"; return 1; }
		# neither a paranoid nor a permission message, and root's processes are counted
		! grep -Eqi "paranoid|permission|not permitted" "$TMP/caps.err" "$TMP/caps.csv" || {
			sed 's/^/# /' "$TMP/caps.err"; return 1; }
		cpu=$(csv_field "$TMP/caps.csv" cpu)
		pf=$(csv_field "$TMP/caps.csv" pf)
		awk -F, -v c="$cpu" -v pf="$pf" '$2 == "process" && $3 == 1 && $c != "" { p = 1 }
			$2 == "cpu" && $3 == "all" && $pf != "" { a = 1 }
			END { exit !(p && a) }' "$TMP/caps.csv" || { sed 's/^/# /' "$TMP/caps.csv"; return 1; }
	}
	check "as nobody with only CAP_PERFMON, root's processes and every CPU are counted" enough
fi
done_testing
