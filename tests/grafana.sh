# The Grafana board and the recording rules of contrib/, run by a real Prometheus engine (promtool's
# unit tests) on what pmctop --listen serves for each frame of two recordings, give pmctop's own
# numbers for the same frames (-b -o json): every panel query and every rule, within 1 %.
. "$top_srcdir/tests/lib.sh"
if ! command -v promtool >/dev/null; then
	skip_all "the board and rules against pmctop: promtool is not installed (apt-get install prometheus)"
fi
BOARD=$top_srcdir/contrib/grafana-pmctop.json
RULES=$top_srcdir/contrib/pmctop.rules.yml

if promtool check rules "$RULES" >"$TMP/check.out" 2>&1; then
	ok "promtool check rules accepts contrib/pmctop.rules.yml"
else
	sed 's/^/# /' "$TMP/check.out"
	not_ok "promtool check rules accepts contrib/pmctop.rules.yml"
fi

# tap: one TAP line per PASS or FAIL line of tests/grafana_check.py, its comments as they are
tap() {
	while IFS= read -r line; do
		case $line in
		PASS*) ok "${line#PASS	}" ;;
		FAIL*) not_ok "${line#FAIL	}" ;;
		*) echo "$line" ;;
		esac
	done
}
python3 "$top_srcdir/tests/grafana_check.py" lint "$BOARD" >"$TMP/lint.out" 2>&1 ||
	echo "FAIL	the board is JSON a Grafana can load" >>"$TMP/lint.out"
tap <"$TMP/lint.out"
mkdir "$TMP/promtool"
python3 "$top_srcdir/tests/grafana_check.py" run "$PMCTOP" "$BOARD" "$RULES" "$TMP/promtool" \
	"$top_srcdir/tests/data/hw.rec" "$top_srcdir/tests/data/grafana.rec" >"$TMP/run.out" 2>&1 ||
	echo "FAIL	the checks ran to their end" >>"$TMP/run.out"
tap <"$TMP/run.out"
done_testing
