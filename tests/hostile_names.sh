# Names from outside never reach the reader's terminal raw: no escape sequence, no bell, no C1
# control, no bidi override and no forged row. Each path is fed one: a process's name and command
# line, a mapped file's name (--sample's MAPPING), a recording's -e title and a bad line of it
# (stderr), /metrics; in text, CSV and JSON; under a UTF-8 locale and under LC_ALL=C, where any
# byte >= 0x80 (0x9b is CSI on an 8-bit terminal) is unsafe.
. "$top_srcdir/tests/lib.sh"

# comm: an OSC title sequence ended by BEL, then a right-to-left override (15 bytes)
COMM=$(printf '\033]0;x\007\342\200\256ab')
# argv[0]: an OSC 52 clipboard write, a newline that would start a forged row, a CSI clear
ARGV0=$(printf 'evil\033]52;c;aGk=\007\n    1 root  99.0 forged\033[2J')
# it lives until the test ends (KILL_PIDS): beside a loaded CPU the checks before /metrics take
# well over a minute
(exec -a "$ARGV0" "$WORKLOAD" named "$COMM" 3600) &
BG=$!
NAMED=$BG
KILL_PIDS="$KILL_PIDS $BG"
# wait until the workload has named itself
wait_until 5 grep -qs ']0;x' "/proc/$BG/comm"

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
LC_ALL=C.UTF-8 "$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o text -c >"$TMP/text"
sed 's/^/# /' "$TMP/text" | cat -v | tail -n 2
check "text shows the command line as ps would, '?' for what is unsafe" \
	grep -q "evil?]52;c;aGk=? *1 root  99.0 forged?\[2J named ?]0;x??ab 3600" "$TMP/text"
LC_ALL=C.UTF-8 "$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o text >"$TMP/text"
check "text shows the name as ps would, '?' for what is unsafe" grep -q " ?]0;x??ab$" "$TMP/text"
"$PMCTOP" -b -n 1 -d 0.3 -p "$BG" -o text >"$TMP/text"
check "text under C: every byte >= 0x80 as '?' too" grep -q " ?]0;x????ab$" "$TMP/text"
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

# clean FILE [c]: no ESC, BEL or C1; under C (second argument) no byte >= 0x80 at all; else UTF-8
# that is valid and holds no U+0080-U+009F and no bidi control
cat >"$TMP/clean.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
bad = [c for c in (0x1b, 0x07) if c in b]
if len(sys.argv) > 2:
    bad += sorted({c for c in b if c >= 0x80})[:4]
else:
    t = b.decode('utf-8', 'surrogateescape')
    bad += [ord(c) for c in t if 0xdc80 <= ord(c) <= 0xdcff or 0x80 <= ord(c) <= 0x9f
            or ord(c) in (0x61c, 0x200e, 0x200f) or 0x202a <= ord(c) <= 0x202e
            or 0x2066 <= ord(c) <= 0x2069][:4]
if bad:
    sys.exit('%s: unsafe %s' % (sys.argv[1], ' '.join('%#x' % c for c in bad)))
PY
clean() { python3 "$TMP/clean.py" "$@"; }
UTF8=C.UTF-8

# --- a mapped file's name: --sample's MAPPING column, in each format and locale ---
MAPDIR="$TMP/maps"
mkdir -p "$MAPDIR"
# an OSC title ended by BEL, a screen clear, an OSC 52 clipboard write; U+009B as UTF-8, a lone
# 0x9b, and U+00DB (0xc3 0x9b), harmless in UTF-8 but a CSI byte on an 8-bit terminal
MAPNAME=$(printf 'm\033]0;title\007\033[2J\033]52;c;aGk=\007\302\233\233\303\233end')
WORKLOAD_MAPFILE="$MAPDIR/$MAPNAME" background "$WORKLOAD" hotpages 3000 20 >/dev/null
MAPPED=$BG
wait_until 5 grep -qs "$MAPDIR" "/proc/$MAPPED/maps"
for loc in $UTF8 C; do
	for fmt in text csv json; do
		LC_ALL=$loc "$PMCTOP" -b --sample "$MAPPED" --sample-source faults -n 2 -d 0.5 \
			-o "$fmt" >"$TMP/map.$fmt" 2>"$TMP/map.err"
		check "--sample $fmt, $loc: exits 0" test $? = 0
		check "--sample $fmt, $loc: the file is in the MAPPING column" grep -q 'title' "$TMP/map.$fmt"
		check "--sample $fmt, $loc: no escape, bell or C1 byte" clean "$TMP/map.$fmt" \
			$([ $loc = C ] && echo c)
	done
	check "--sample text, $loc: the name as ps would show it" \
		grep -q "m?]0;title??\[2J?]52;c;aGk=?$([ $loc = C ] && echo '?????' || echo '??Û')end" \
		"$TMP/map.text"
done
check "--sample json: the name comes back whole when parsed" python3 -c '
import json, sys
maps = [p["mapping"] for l in open(sys.argv[1]) for p in json.loads(l)["pages"]]
assert any(m.endswith("m\x1b]0;title\x07\x1b[2J\x1b]52;c;aGk=\x07\x9b\ufffd\xdbend") for m in maps), maps
' "$TMP/map.json"

# --- a recording: an -e event's title, and a bad line quoted on stderr ---
sed 's/^event 2 0 sw default ok context-switches$/event 2 0 sw user ok x%1b]0;pwn%07%c2%9b%9b%1b[2J/' \
	"$top_srcdir/tests/data/cgroup.rec" >"$TMP/title.rec"
for loc in $UTF8 C; do
	for fmt in text csv json; do
		LC_ALL=$loc "$PMCTOP" -b --replay "$TMP/title.rec" -d 0 -o "$fmt" >"$TMP/rec.$fmt" 2>&1
		check "recording's -e title, $fmt, $loc: exits 0" test $? = 0
		check "recording's -e title, $fmt, $loc: shown" grep -q 'pwn' "$TMP/rec.$fmt"
		check "recording's -e title, $fmt, $loc: no escape, bell or C1 byte" \
			clean "$TMP/rec.$fmt" $([ $loc = C ] && echo c)
	done
	printf 'pmctop-recording 1\nbogus\033]0;pwn\007\302\233\233\033[2J\n' >"$TMP/bad.rec"
	LC_ALL=$loc "$PMCTOP" -b --replay "$TMP/bad.rec" -d 0 >"$TMP/bad.out" 2>"$TMP/bad.err"
	check "a bad recording line, $loc: fails" test $? != 0
	check "a bad recording line, $loc: quoted on stderr" grep -q 'bogus?]0;pwn?' "$TMP/bad.err"
	check "a bad recording line, $loc: no escape, bell or C1 byte on stderr" \
		clean "$TMP/bad.err" $([ $loc = C ] && echo c)
	LC_ALL=$loc "$PMCTOP" -b --replay "$TMP/$(printf 'no\033]0;such\007')" >/dev/null 2>"$TMP/bad.err"
	check "a recording's name in an error, $loc: no escape or bell on stderr" \
		clean "$TMP/bad.err" $([ $loc = C ] && echo c)
done

# --- /metrics: the process's name as a label value ---
check "the named process still lives" kill -0 "$NAMED"
"$PMCTOP" --listen 127.0.0.1:0 -p "$NAMED" --export-processes 5 -d 0.3 >/dev/null 2>"$TMP/x.err" &
SERVER=$!
KILL_PIDS="$KILL_PIDS $SERVER"
ADDR=
serving() {
	ADDR=$(sed -n 's|^pmctop: serving metrics on http://\(.*\)/metrics$|\1|p' "$TMP/x.err")
	[ -n "$ADDR" ]
}
wait_until 60 serving
scraped() {
	python3 "$top_srcdir/tests/exporter_client.py" get "$ADDR" /metrics --out "$TMP/metrics" \
		>/dev/null 2>&1
	grep -qs 'comm=' "$TMP/metrics"
}
wait_until 60 scraped
kill -TERM "$SERVER"
wait "$SERVER"
check "/metrics: the process is there" grep -q 'ab"' "$TMP/metrics"
check "/metrics: no escape, bell or C1 byte" clean "$TMP/metrics"
check "/metrics: the name written reversibly" grep -qF 'comm="\\x1b]0;x\\x07\\xe2\\x80\\xaeab"' "$TMP/metrics"
check "/metrics: passes the strict checker" \
	python3 "$top_srcdir/tests/exposition_check.py" prometheus "$TMP/metrics"
done_testing
