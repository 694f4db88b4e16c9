# Live: in a PID namespace of its own, where the kernel's process events cannot be used, BPF's
# sums tell the new processes (each has an entry from its first switch), so /proc is listed far
# fewer times than there are ticks; still every process is shown once it ran (one that has not
# run since the program loaded too), gone ones (killed, reaped zombies) leave within a few ticks,
# a pid taken again shows its new process, and processes that start and end between two ticks
# leave no row.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

need_isolation
if ! command -v strace >/dev/null; then
	skip_all "strace is not installed: the /proc listings cannot be counted"
fi
"$PMCTOP" -b -n 1 -d 0.1 --bpf -p $$ -o csv >/dev/null 2>"$TMP/probe.err"
if grep -q -- "--bpf" "$TMP/probe.err"; then
	skip_all "BPF does not load here: $(grep -- '--bpf' "$TMP/probe.err" | head -n 1)"
fi

OUT=$TMP/out.csv
CMD=""
# frames N: the CSV has N frames or more
frames() { [ "$(csv_frames "$OUT" | wc -l)" -ge "$1" ]; }
# frame N: the time of the CSV's N-th frame
frame() { csv_frames "$OUT" | sed -n "${1}p"; }
# nframes: how many frames the CSV has
nframes() { csv_frames "$OUT" | wc -l; }
# command T PID: the command of PID's row in the frame of time T
command() { awk -F, -v t="$1" -v id="$2" -v c="$CMD" '$1 == t && $2 == "process" && $3 == id { print $c }' "$OUT"; }
# later K: wait for K frames more than now, and print the time of the K-th of them
later() {
	_f=$(nframes)
	wait_until 30 frames $((_f + $1)) || return 1
	frame $((_f + $1))
}
# absent T PID: PID has no row in the frame of time T
absent() { ! csv_listed "$OUT" "$1" "$2"; }
started() {
	pm=$(cat "/proc/$st/task/$st/children" 2>/dev/null | awk '{ print $1 }')
	[ -n "$pm" ] && frames 2
}

# one that sleeps through the program's load: no key until it runs, found by the first listing
"$WORKLOAD" sleep 120 &
old=$!
t0=$(date +%s)
ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=getdents64 -o "$TMP/strace" \
	"$PMCTOP" -b -d 0.2 --bpf -o csv >"$OUT" 2>"$TMP/err" &
st=$!
pm=""
wait_until 20 started
CMD=$(csv_field "$OUT" command)
check "pmctop started under strace" test -n "$pm"

# five made between ticks: each shown within two ticks of its start (its first switch)
pids=""
for _ in 1 2 3 4 5; do
	"$WORKLOAD" sleep 60 &
	pids="$pids $!"
done
t=$(later 3)
found=0
for p in $pids; do csv_listed "$OUT" "$t" "$p" && found=$((found + 1)); done
check "the 5 processes made between ticks are shown within 3 frames" test "$found" = 5
check "the process that slept through the load is shown" csv_listed "$OUT" "$t" "$old"

# twenty that start and end between two ticks (each reaped before the next): no row is left
short=""
for _ in $(seq 20); do
	"$WORKLOAD" sleep 0 &
	short="$short $!"
	wait $!
done
t=$(later 3)
ghosts=0
for p in $short; do
	csv_listed "$OUT" "$t" "$p" && [ ! -e "/proc/$p" ] && ghosts=$((ghosts + 1))
done
check "the 20 that started and ended between ticks leave no row" test "$ghosts" = 0

# killed and reaped: gone within three frames
# shellcheck disable=SC2086
kill $pids
# shellcheck disable=SC2086
wait $pids 2>/dev/null
t=$(later 3)
left=0
for p in $pids; do csv_listed "$OUT" "$t" "$p" && left=$((left + 1)); done
check "the 5 killed are gone within 3 frames" test "$left" = 0

# a zombie (its sums stop at its exit; reaping it makes no switch of it): gone once reaped
mkfifo "$TMP/reap"
python3 -c '
import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
print(pid, flush=True)
with open(sys.argv[1]) as f:
    f.readline()
os.waitpid(pid, 0)
time.sleep(60)
' "$TMP/reap" >"$TMP/zombie" &
zp=$!
wait_until 10 test -s "$TMP/zombie"
z=$(cat "$TMP/zombie")
zshown() { csv_listed "$OUT" "$(frame $(($(nframes) - 1)))" "$z"; }
wait_until 10 zshown
check "the zombie is shown" zshown
echo reap >"$TMP/reap"
t=$(later 3)
check "the zombie is gone within 3 frames of being reaped" absent "$t" "$z"
kill "$zp"
wait "$zp" 2>/dev/null

# a pid taken again: the new process is shown under it, the old one no longer
"$WORKLOAD" named pkaaa 60 &
a=$!
t=$(later 2)
check "the first owner of the pid is shown" test "$(command "$t" "$a")" = pkaaa
kill "$a"
wait "$a" 2>/dev/null
if echo $((a - 1)) >/proc/sys/kernel/ns_last_pid 2>/dev/null; then
	"$WORKLOAD" named pkbbb 60 &
	b=$!
	if [ "$b" = "$a" ]; then
		t=$(later 3)
		check "the pid taken again shows its new process within 3 frames" \
			test "$(command "$t" "$a")" = pkbbb
	else
		skip "the pid was not taken again ($b, not $a): another process came first"
	fi
	kill "$b"
	wait "$b" 2>/dev/null
else
	skip "ns_last_pid is not writable: a pid cannot be made to be taken again"
fi

kill "$old"
wait "$old" 2>/dev/null
[ -n "$pm" ] && kill -TERM "$pm"
wait "$st"
secs=$(($(date +%s) - t0 + 1))
nf=$(nframes)
# listings of /proc itself
nl=$(proc_listings "$TMP/strace")
diag "$nf frames in ${secs} s, $nl listings of /proc"
# the first tick and every 10 s (late ticks of a loaded machine make fewer frames a listing)
check "/proc is listed far fewer times than there are frames" \
	test "$nl" -ge 1 -a "$nl" -le $((2 + secs / 10)) -a "$nl" -lt $((nf / 4))
check "no error on stderr" sh -c '! grep -v "no hardware PMU" "$1" | grep -q .' _ "$TMP/err"

# processes of a PID namespace below this one: the program keys their switches by that
# namespace's pids, so the keys miss them. One there when pmctop starts is found by the first
# listing, and from then on /proc is listed each tick: one made later is shown, and one that
# ends is gone, within 3 frames.
# nested_pid UNSHARE: the pid, in this namespace, of the process unshare forked
nested_pid() { awk '{ print $1 }' "/proc/$1/task/$1/children" 2>/dev/null; }
unshare --pid --fork "$WORKLOAD" sleep 120 &
u1=$!
wait_until 20 sh -c 'test -n "$(awk "{ print \$1 }" /proc/$1/task/$1/children)"' _ "$u1"
n1=$(nested_pid "$u1")
OUT=$TMP/nested.csv
ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=getdents64 -o "$TMP/strace2" \
	"$PMCTOP" -b -d 0.2 --bpf -o csv >"$OUT" 2>"$TMP/err2" &
st=$!
pm=""
wait_until 20 started
t=$(later 1)
check "a process of a nested PID namespace is shown" csv_listed "$OUT" "$t" "$n1"
unshare --pid --fork "$WORKLOAD" sleep 120 &
u2=$!
wait_until 20 sh -c 'test -n "$(awk "{ print \$1 }" /proc/$1/task/$1/children)"' _ "$u2"
n2=$(nested_pid "$u2")
t=$(later 3)
check "one made later in another is shown within 3 frames" csv_listed "$OUT" "$t" "$n2"
kill -KILL "$n1"
wait "$u1" 2>/dev/null
t=$(later 3)
check "one that ended is gone within 3 frames" absent "$t" "$n1"
kill -KILL "$n2"
wait "$u2" 2>/dev/null
[ -n "$pm" ] && kill -TERM "$pm"
wait "$st"
nf=$(nframes)
nl=$(proc_listings "$TMP/strace2")
diag "nested: $nf frames, $nl listings of /proc"
check "with a nested namespace /proc is listed each tick ($nl of $nf frames)" \
	test "$nl" -ge $((nf - 1))
done_testing
