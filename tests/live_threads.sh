# Live: two busy threads show about 200 % CPU; threads are summed into one process row.
. "$top_srcdir/tests/lib.sh"
exclusive

background "$WORKLOAD" spin 2 6
sleep 0.3
"$PMCTOP" -b -p "$BG" -d 1 -n 3 -o csv >"$TMP/t.csv" 2>/dev/null
col=$(head -1 "$TMP/t.csv" | tr ',' '\n' | grep -nx cpu | cut -d: -f1)
vals=$(awk -F, -v c="$col" -v p="$BG" '$2 == "process" && $3 == p { print $c }' "$TMP/t.csv")
thr=$(awk -F, -v p="$BG" '$2 == "process" && $3 == p { print $5 }' "$TMP/t.csv" | tail -1)
diag "%CPU per frame: $(echo $vals)"
check "three frames" test "$(echo "$vals" | wc -l)" = 3
check "the row counts all threads (THR 3)" test "$thr" = 3
for v in $(echo "$vals" | tail -n 2); do
	check "%CPU $v is about 200" within "$v" 170 210
done

kill "$BG" 2>/dev/null
wait "$BG" 2>/dev/null

# threads created after pmctop attached are counted by inheritance
late() {
	sh -c 'sleep 1; exec "$1" spin 2 3' _ "$WORKLOAD" &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.3
	"$PMCTOP" -b -p "$p" -d 1 -n 3 -o csv >"$TMP/late.csv" 2>/dev/null
	last=$(awk -F, -v c="$col" -v p="$p" '$2 == "process" && $3 == p { print $c }' "$TMP/late.csv" | tail -1)
	diag "after exec and thread creation: $last"
	within "$last" 170 210
}
check "threads created after attach are counted" late

# threads that exit keep their counts: the row drops to about 0, never below, no error
burst() {
	"$WORKLOAD" burst 2 1.5 3 &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.2
	"$PMCTOP" -b -p "$p" -d 1 -n 4 -o csv >"$TMP/burst.csv" 2>"$TMP/burst.err"
	vals=$(awk -F, -v c="$col" -v p="$p" '$2 == "process" && $3 == p { print $c }' "$TMP/burst.csv")
	diag "while threads spin, then after they exit: $(echo $vals)"
	first=$(echo "$vals" | head -1)
	last=$(echo "$vals" | tail -1)
	within "$first" 150 210 && within "$last" 0 5 && [ "$(echo "$vals" | wc -l)" = 4 ] &&
		! grep -v "no hardware PMU" "$TMP/burst.err" | grep -q .
}
check "threads that exit keep their counts and the row goes on" burst
# -H: each thread is counted on its own; the two spinning threads show about 100 % each
per_thread() {
	"$WORKLOAD" spin 2 4 &
	p=$!
	KILL_PIDS="$KILL_PIDS $p"
	sleep 0.2
	"$PMCTOP" -b -H -p "$p" -d 1 -n 2 -o csv >"$TMP/h.csv" 2>/dev/null
	hcol=$(head -1 "$TMP/h.csv" | tr ',' '\n' | grep -nx cpu | cut -d: -f1)
	last=$(cut -d, -f1 "$TMP/h.csv" | grep -v time | sort -u | tail -1)
	awk -F, -v c="$hcol" -v t="$last" '$1 == t && $2 == "thread" { print $3, $5, $c }' "$TMP/h.csv" >"$TMP/h.rows"
	sed 's/^/# tid pid %CPU: /' "$TMP/h.rows"
	[ "$(wc -l <"$TMP/h.rows")" = 3 ] || return 1
	[ "$(awk -v p="$p" '$2 == p' "$TMP/h.rows" | wc -l)" = 3 ] || return 1
	busy=$(awk '$3 >= 85 && $3 <= 105' "$TMP/h.rows" | wc -l)
	idle=$(awk '$3 < 5' "$TMP/h.rows" | wc -l)
	[ "$busy" = 2 ] && [ "$idle" = 1 ]
}
check "-H shows each thread with its own %CPU" per_thread
done_testing
