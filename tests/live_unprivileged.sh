# Live: as an unprivileged user pmctop starts, counts what it may and explains the rest.
. "$top_srcdir/tests/lib.sh"
exclusive

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	# the switch to nobody needs root; CI and the developers' machines run as root
	skip "needs root to drop to nobody"
	done_testing
	exit 0
fi
cp "$PMCTOP" "$TMP/pmctop"
chmod 755 "$TMP" "$TMP/pmctop"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmctop" -b -n 2 -d 0.5 -o csv \
	>"$TMP/u.csv" 2>"$TMP/u.err"
st=$?
sed 's/^/# stderr: /' "$TMP/u.err"
check "pmctop starts and exits 0 as nobody" test $st = 0
check "the permission message names perf_event_paranoid=$paranoid" \
	grep -q "kernel.perf_event_paranoid is $paranoid" "$TMP/u.err"
check "the message gives the three ways out" \
	sh -c 'grep -q "run pmctop as root" "$1" && grep -q "sysctl kernel.perf_event_paranoid=" "$1" && grep -q "setcap cap_perfmon" "$1"' _ "$TMP/u.err"
# columns by name: the software-only header has fewer of them
field() { head -1 "$TMP/u.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
nc=$(field not_counted)
cmd=$(field command)
cpu=$(field cpu)
me=$(awk -F, -v nc="$nc" -v cmd="$cmd" -v cpu="$cpu" \
	'$2 == "process" && $cmd == "pmctop" && $nc == "" && $cpu != "" {print $3}' "$TMP/u.csv" | head -1)
check "its own process is counted" test -n "$me"
check "root's processes are listed as not counted (permission denied)" \
	sh -c 'awk -F, -v nc="$2" '"'"'$2 == "process" && $4 == "root" && $nc == "permission denied"'"'"' "$1" | grep -q .' _ "$TMP/u.csv" "$nc"
done_testing
