# Names from outside on the screen, under tmux: a process's name and command line, a cgroup, a
# recorded -e event's title and a mapped file's name, each carrying an OSC title, an OSC 52
# clipboard write, C1 controls (U+009B as UTF-8 and a lone 0x9b, CSI on an 8-bit terminal) and
# a right-to-left override. Under a UTF-8 locale and under LC_ALL=C, every byte pmctop writes
# to the terminal is kept (pipe-pane): no escape sequence of the names reaches it, no byte
# >= 0x80 at all under C, the pane keeps its title and no paste buffer is made; the names show
# with '?' where they were unsafe.
. "$top_srcdir/tests/lib.sh"

REC="$TMP/hostile.rec"
# then U+00DB (0xc3 0x9b) and U+2321 (0x9b in KOI8-R): harmless in UTF-8, not under C
H='%1b]0;PWNED%07%1b]52;c;aGk=%07%9b%c2%9b%e2%80%ae%c3%9b%e2%8c%a1'
sed -e "s|^task 101 1 1000 alice S 4 5000 ok \(.*\) db-server /usr/bin/db-server%20--port%205432 |task 101 1 1000 alice S 4 5000 ok \1 db$H /usr/bin/db$H |" \
	-e "s|/user\.slice|/user$H.slice|g" \
	-e "s|^event 2 0 sw default ok context-switches$|event 2 0 sw user ok cs$H|" \
	"$top_srcdir/tests/data/cgroup.rec" >"$REC"
MAPREC="$TMP/map.rec"
sed "s|^map 7f0000200000 7f00003e0000 /usr/lib/x86_64-linux-gnu/libc.so.6$|map 7f0000200000 7f00003e0000 /lib/c$H|" \
	"$top_srcdir/tests/data/hw.rec" >"$MAPREC"
check "the recordings carry the hostile names" sh -c 'grep -q "^task 101 .* db%1b" "$1" && grep -q "^cgroup /user%1b" "$1" && grep -q "^event 2 0 sw user ok cs%1b" "$1" && grep -q "^map 7f0000200000 .*/c%1b" "$2"' _ "$REC" "$MAPREC"

. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-hostile
# a leak would be taken: OSC 52 from a pane makes a paste buffer
tmux set-option -g set-clipboard on
tmux select-pane -t "$S" -T clean
# wide enough for the whole names, tall enough for the hot pages under the memory meters
tmux resize-window -t "$S" -x 200 -y 32

# raw_clean FILE LOCALE: no ESC ] (OSC), no BEL, no C1 as UTF-8; under C no byte >= 0x80
cat >"$TMP/raw.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
bad = []
for seq in (b'\x1b]', b'\x07', b'\xc2\x9b', b'\xc2\x85', b'\xe2\x80\xae'):
    if seq in b:
        bad.append(repr(seq))
if sys.argv[2] == 'C':
    hi = sorted({c for c in b if c >= 0x80})
    if hi:
        bad.append('bytes >= 0x80: ' + ' '.join('%#x' % c for c in hi[:8]))
else:
    t = b.decode('utf-8', 'surrogateescape')
    lone = [c for c in t if 0xdc80 <= ord(c) <= 0xdcff]
    if lone:
        bad.append('bytes of invalid UTF-8: ' + ' '.join('%#x' % (ord(c) - 0xdc00) for c in lone[:8]))
if not b:
    bad.append('nothing was written')
if bad:
    sys.exit('%s: %s' % (sys.argv[1], '; '.join(bad)))
PY
untouched() {
	test "$(tmux display-message -p -t "$S" '#{pane_title}')" = clean &&
		test -z "$(tmux list-buffers)"
}

for loc in C.UTF-8 C; do
	: >"$TMP/raw.$loc"
	tmux pipe-pane -O -t "$S" "cat >>'$TMP/raw.$loc'"
	start "LC_ALL=$loc $PMCTOP --replay $REC -d 0"
	check "$loc: the process's name and command line, '?' where unsafe" \
		wait_for "^ *101 alice .* db?]0;PWNED??]52;c;aGk=??"
	check "$loc: the -e title, '?' where unsafe" wait_for "cs?]0;PWN"
	keys c
	check "$loc: c shows the command line, '?' where unsafe" \
		wait_for "/usr/bin/db?]0;PWNED??]52;c;aGk=??"
	keys c G
	check "$loc: the cgroup, '?' where unsafe" wait_for "/user?]0;PWNED??]52;c;aGk=??"
	if [ $loc = C ]; then
		check "$loc: every byte >= 0x80 of a name is one '?'" \
			wait_for "/user?]0;PWNED??]52;c;aGk=????????????.slice"
	else
		check "$loc: each unsafe character is one '?'" \
			wait_for "/user?]0;PWNED??]52;c;aGk=????Û⌡.slice"
	fi
	keys q
	wait_for "EXIT=0" >/dev/null
	# the drill-down's MAPPING column
	start "LC_ALL=$loc $PMCTOP --replay $MAPREC -d 0"
	wait_for "(end of recording)" >/dev/null
	keys / stream Enter Enter
	check "$loc: a mapped file's name, '?' where unsafe" wait_for "/lib/c?]0;PWNED??]52"
	keys Escape q
	wait_for "EXIT=0" >/dev/null
	tmux pipe-pane -t "$S"
	sleep 0.2
	check "$loc: no escape sequence, BEL or C1 of a name reached the terminal" \
		python3 "$TMP/raw.py" "$TMP/raw.$loc" $loc
	check "$loc: the pane's title is its own and no paste buffer was made" untouched
done
done_testing
