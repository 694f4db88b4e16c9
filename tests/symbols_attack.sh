# Live, end to end: a hostile user attacks root's symbolizer. A workload running as nobody maps
# files it owns and runs code in them: ELFs with huge, overlapping or missing section headers and
# names past their tables, and sound ELFs it then swaps under pmctop: one renamed away for a
# symbolic link to a root-only ELF (in a directory whose name is longer than 95 bytes), one
# unlinked for a FIFO of the same name, one unlinked and replaced by another ELF. Root's pmctop
# samples it (pmctop --sample PID, the drill-down on the screen) and names the instructions that
# touched each page. Under strace, it must neither hang, crash, open the link, the FIFO or any
# of those paths (the files are read through /proc/PID/map_files), read past a file's end, nor
# grow its memory, and it must name each instruction by its own file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tui_lib.sh"
exclusive

if [ "$(uname -m)" != x86_64 ]; then
	skip_all "the workload runs x86-64 code out of the files it maps"
fi
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! command -v strace >/dev/null ||
	! id nobody >/dev/null 2>&1; then
	skip "needs root, setpriv, strace and the user nobody"
	done_testing
	exit 0
fi
ELF="python3 $top_srcdir/tests/make-hostile-elf.py"
AS_NOBODY="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"

chmod 755 "$TMP"
D=$TMP/attack
L=$D/$(printf 'x%.0s' $(seq 1 100))
mkdir -p "$L" "$TMP/rootonly"
chmod 700 "$TMP/rootonly"
$ELF good secret_fn "$TMP/rootonly/secret.so"
chmod 600 "$TMP/rootonly/secret.so"
for k in huge overlap shnum names; do $ELF $k ${k}_fn "$D/$k.so"; done
$ELF good good_fn "$D/good.so"
$ELF good mapped_fn "$L/swap.so"
$ELF good fifo_fn "$D/fifo.so"
$ELF good orig_fn "$D/replaced.so"
$ELF good impostor_fn "$D/impostor.so"
chown -R nobody "$D"
SIZE=$(stat -c %s "$D/good.so")

mkfifo "$TMP/go"
exec 8<>"$TMP/go"
background $AS_NOBODY "$WORKLOAD" execmap 120 "$D/good.so" "$D/huge.so" "$D/overlap.so" \
	"$D/shnum.so" "$D/names.so" "$L/swap.so" "$D/fifo.so" "$D/replaced.so" \
	<"$TMP/go" >"$TMP/ready"
W=$BG

TUI_WAIT=150
tui_session attack
# wide enough for the long directory's name beside an instruction
tmux resize-window -t "$S" -x 300 -y 24 2>/dev/null || tmux set-option -t "$S" -g default-size 300x24
# (LeakSanitizer, in a sanitizer build, cannot run under ptrace)
start "ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -o $TMP/trace -e trace=open,openat,openat2,pread64 $PMCTOP --sample $W"
check "pmctop's drill-down opens on the workload" wait_for "Samples: page faults"
pane=$(tmux display -p -t "$S" '#{pane_pid}')
tracer=$(pgrep -P "$pane" | head -1)
top=$(pgrep -P "$tracer" | head -1)
hwm0=$(awk '/^VmHWM:/ {print $2}' "/proc/$top/status" 2>/dev/null)
# map now that pmctop follows the process: the ring's records name the files as mapped
echo go >&8
i=0
while ! grep -q ready "$TMP/ready" && [ $i -lt 100 ]; do
	nap 0.1
	i=$((i + 1))
done
check "the workload, as nobody, mapped its eight files" grep -q ready "$TMP/ready"
$AS_NOBODY sh -c '
	cd "$1" && mv swap.so swap.old && ln -s "$3/rootonly/secret.so" swap.so &&
	cd "$2" && rm fifo.so && mkfifo fifo.so && rm replaced.so && cp impostor.so replaced.so
' _ "$L" "$D" "$TMP"
check "the swaps are made: a link, a FIFO, another file" sh -c \
	'test -L "$1/swap.so" && test -p "$2/fifo.so" && cmp -s "$2/impostor.so" "$2/replaced.so"' \
	_ "$L" "$D"

# every page, selected in turn on the paused pane, names the instructions that touched it; until
# all eight files were seen, a few passes a while apart
wait_for "instructions that touched it most" >/dev/null
for pass in 1 2 3 4 5 6; do
	keys z Home
	wait_for " 1 of [0-9]* pages" >/dev/null
	for p in 1 2 3 4 5 6 7 8; do
		nap 0.2
		screen >>"$TMP/screens"
		keys Down
		wait_for " $((p + 1)) of [0-9]* pages" 30 >/dev/null || break
	done
	keys z
	sed -n '/instructions that touched/,/^Esc/p' "$TMP/screens" | grep '%  *0x' |
		sed 's/^ *//' | sort -u -k3 >"$TMP/ips"
	[ "$(wc -l <"$TMP/ips")" -ge 8 ] && [ "$pass" -ge 2 ] && break
	nap 1
done
sed 's/^/# /' "$TMP/ips"
hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$top/status" 2>/dev/null)
check "pmctop is still running and drawing" wait_for "Samples: page faults"
if [ -n "${PMCTOP_SANITIZERS:-}" ]; then
	# AddressSanitizer keeps freed memory in quarantine: the peak says nothing there
	skip "its peak memory: not measurable under AddressSanitizer"
else
	check "its peak memory grew by less than 32 MiB (${hwm0:-?} to ${hwm:-?} KiB)" \
		awk -v a="${hwm0:-0}" -v b="${hwm:-999999}" 'BEGIN { exit !(a > 0 && b - a < 32768) }'
fi
keys Escape
wait_for "EnterDrill" >/dev/null
keys q
check "q quits pmctop with status 0: no crash, no hang" wait_for "EXIT=0"

check "a sound ELF is named by its symbol" grep -q "good_fn+0x0 (good.so)" "$TMP/ips"
check "the file swapped for a link to a root-only ELF: its own symbol, never the secret" sh -c '
	grep -q "mapped_fn+0x0 (\(swap.so\|swap.old\|x*\.\.\.\))" "$1" && ! grep -q secret_fn "$1"' _ "$TMP/ips"
check "the file replaced by a FIFO: its own symbol" grep -q "fifo_fn+0x0 (fifo.so\( (deleted)\)\?)" "$TMP/ips"
check "the file replaced by another ELF: its own symbol, never the impostor's" sh -c '
	grep -q "orig_fn+0x0 (replaced.so\( (deleted)\)\?)" "$1" && ! grep -q impostor_fn "$1"' _ "$TMP/ips"
for k in huge overlap shnum names; do
	check "$k.so: named by its file, one sane line" sh -c '
		grep -E "^[0-9.]+% +0x[0-9a-f]+ +(${2}_fn\+0x0 \($2\.so\)|$2\.so\+0x1000)( \(.*\))?$" "$1" |
			grep -q .' _ "$TMP/ips" "$k"
done
check "no line names anything else" sh -c '! grep -v -E \
	"\((good|fifo|replaced|huge|overlap|shnum|names)\.so( \(deleted\))?\)$|\((swap\.(so|old)|x+\.\.\.)\)$|(huge|overlap|shnum|names)\.so\+0x1000( \(.*\))?$" "$1"' \
	_ "$TMP/ips"

# what pmctop opened and read, as strace saw it
grep -oE '^[0-9]+ +(open|openat|openat2)\([^"]*"[^"]*"' "$TMP/trace" | grep -F "$D" >"$TMP/opens"
sed 's/^/# open: /' "$TMP/opens" | head -5
check "no file of the attacker's was opened by its path: not the link, not the FIFO" \
	test ! -s "$TMP/opens"
check "the root-only ELF was never opened" sh -c '! grep -q "rootonly" "$1"' _ "$TMP/trace"
check "the mapped files were read through /proc/PID/map_files" \
	grep -q "map_files/" "$TMP/trace"
python3 - "$TMP/trace" "$D" "$SIZE" >"$TMP/reads" <<'PY'
import re, sys
trace, d, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = bad = 0
for line in open(trace):
    m = re.search(r'pread64\(\d+<([^>]*)>, .*, (\d+), (\d+)\) = (-?\d+)', line)
    if not m or not m.group(1).startswith(d):
        continue
    n += 1
    count, off = int(m.group(2)), int(m.group(3))
    if off + count > size:
        bad += 1
        print("# past the end: " + line.strip())
print("reads %d past %d" % (n, bad))
PY
sed -n '/^#/p' "$TMP/reads" | head -5
r=$(sed -n 's/^reads //p' "$TMP/reads")
check "every read of a mapped file lies within it ($r)" sh -c \
	'set -- $1; test "$1" -gt 0 && test "$3" = 0' _ "$r"
done_testing
