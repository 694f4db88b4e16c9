# Live: a process that did not run since the last tick is not read again (one task-clock group,
# no stat file), and nothing is lost: over a run, a mostly idle process of 200 threads counts
# the same page faults as with --read-all, which reads everything every tick, and as many as
# it made.
. "$top_srcdir/tests/lib.sh"
exclusive

background "$WORKLOAD" napper 200 "$TMP/napper.log"
NAP=$BG
wait_until 10 grep -qs ready "$TMP/napper.log"
# two readers of the same process over the same run: the default one and --read-all, each
# counting its syscalls; the faults start once both count the process (a count in a frame)
run() {
	# LeakSanitizer cannot run under ptrace: in a sanitizer build, strace makes it fail
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -c -e trace=pread64,read -o "$TMP/$1.strace" \
		"$PMCTOP" -b -p "$NAP" -d 0.25 -n 24 -o csv -e page-faults $2 >"$TMP/$1.csv" 2>"$TMP/$1.err"
	echo $? >"$TMP/$1.status"
}
run skip "" &
R1=$!
run all --read-all &
R2=$!
# counted, not only listed: the attach of 200 threads may take a few ticks on a loaded machine
shown() {
	awk -F, -v pid="$NAP" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "page-faults") c = i; next }
		c && $2 == "process" && $3 == pid && $c != "" { f = 1 } END { exit !f }' "$1"
}
both_shown() { shown "$TMP/skip.csv" && shown "$TMP/all.csv"; }
wait_until 30 both_shown
kill -USR1 "$NAP"
wait $R1 $R2
kill -TERM "$NAP"
check "pmctop exits 0" test "$(cat "$TMP/skip.status")" = 0
check "pmctop --read-all exits 0" test "$(cat "$TMP/all.status")" = 0
sed 's/^/# stderr: /' "$TMP/skip.err" "$TMP/all.err" | head -20
wait "$NAP" 2>/dev/null
made=$(awk '$1 == "faults" { print $2 }' "$TMP/napper.log")
# the page-faults column of the process rows: a count per frame; summed over the run
total() {
	awk -F, -v pid="$NAP" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "page-faults") c = i; next }
		$2 == "process" && $3 == pid { s += $c } END { printf "%d\n", s }' "$1"
}
skip=$(total "$TMP/skip.csv")
all=$(total "$TMP/all.csv")
diag "faults made $made; counted by the default reader $skip, by --read-all $all"
check "the workload made its 600 faults" test "$made" = 600
check "the default reader counted every fault the workload made (600, and a few of its own logging)" \
	within "$skip" 600 610
check "the default reader and --read-all counted the same faults over the run" test "$skip" = "$all"
frames() { awk -F, -v pid="$NAP" '$2 == "process" && $3 == pid' "$1" | wc -l; }
check "both show the process in every frame" sh -c "[ $(frames "$TMP/skip.csv") = 24 ] && [ $(frames "$TMP/all.csv") = 24 ]"
# the default reader re-read the stat file of the idle process far less: --read-all re-reads
# it in each of the 24 frames, the default reader only in the frames after a burst (the
# system-wide files, read by both each frame, cancel out)
calls() { awk '$NF == "pread64" { print $4 }' "$1"; }
diag "pread64 calls: default $(calls "$TMP/skip.strace"), --read-all $(calls "$TMP/all.strace")"
fewer() {
	a=$(calls "$TMP/skip.strace")
	b=$(calls "$TMP/all.strace")
	[ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -ge 8 ]
}
check "the default reader skips the stat file of the process while it is idle (8 preads fewer at least)" fewer
done_testing
