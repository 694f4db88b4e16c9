# Names processes give themselves never reach the reader's terminal raw: no escape sequence,
# no bell, no bidi override and no forged row in text, CSV or JSON.
. "$top_srcdir/tests/lib.sh"

# comm: an OSC title sequence ended by BEL, then a right-to-left override (15 bytes)
COMM=$(printf '\033]0;x\007\342\200\256ab')
# argv[0]: an OSC 52 clipboard write, a newline that would start a forged row, a CSI clear
ARGV0=$(printf 'evil\033]52;c;aGk=\007\n    1 root  99.0 forged\033[2J')
(exec -a "$ARGV0" "$WORKLOAD" named "$COMM" 30) &
BG=$!
KILL_PIDS="$KILL_PIDS $BG"
# wait until the workload has named itself
i=0
while [ $i -lt 50 ] && ! grep -q ']0;x' "/proc/$BG/comm" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done

raw_bytes() { LC_ALL=C grep -c "$(printf '[\033\007\302\205]')" "$1"; }
for fmt in text csv json; do
	for c in "" -c; do
		"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o "$fmt" $c >"$TMP/out" 2>"$TMP/err"
		check "$fmt${c:+ $c}: exits 0" test $? = 0
		check "$fmt${c:+ $c}: no escape, bell or C1 control byte" test "$(raw_bytes "$TMP/out")" = 0
		check "$fmt${c:+ $c}: no bidi override" sh -c '! LC_ALL=C grep -q "$(printf "\342\200\256")" "$1"' _ "$TMP/out"
		check "$fmt${c:+ $c}: no forged row" sh -c '! grep -q "^ *1 root" "$1"' _ "$TMP/out"
	done
done
"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o text -c >"$TMP/text"
sed 's/^/# /' "$TMP/text" | cat -v | tail -n 2
check "text shows the command line as ps would, '?' for what is unsafe" \
	grep -q "evil?]52;c;aGk=? *1 root  99.0 forged?\[2J named ?]0;x??ab 30" "$TMP/text"
"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o text >"$TMP/text"
check "text shows the name as ps would, '?' for what is unsafe" grep -q " ?]0;x??ab$" "$TMP/text"
"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o csv >"$TMP/csv"
check "CSV: one header and the process's row" \
	test "$(grep -c ',process,' "$TMP/csv"),$(grep -c '^time,' "$TMP/csv")" = "1,1"
"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o json >"$TMP/json"
check "JSON: escaped, and the name comes back whole when parsed" python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read())
p = [p for p in o["processes"] if p["pid"] == int(sys.argv[2])][0]
assert p["command"] == "\x1b]0;x\x07\u202eab", repr(p["command"])
assert p["cmdline"].startswith("evil\x1b]52;c;aGk=\x07"), repr(p["cmdline"])
' "$TMP/json" "$BG"
done_testing
