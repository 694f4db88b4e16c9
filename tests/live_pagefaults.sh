# Live: a workload that faults at a known rate is reported within 10 %, and perf agrees.
. "$top_srcdir/tests/lib.sh"
exclusive
RATE=2000

background "$WORKLOAD" faults $RATE 8
sleep 0.5
"$PMCTOP" -b -p "$BG" -d 1 -n 4 -o csv >"$TMP/pf.csv" 2>"$TMP/pf.err"
check "pmctop -b -p exits 0" test $? = 0
# the pf column of the workload's rows; the first frame may include start-up faults
col=$(head -1 "$TMP/pf.csv" | tr ',' '\n' | grep -nx pf | cut -d: -f1)
rates=$(awk -F, -v c="$col" -v p="$BG" '$2 == "process" && $3 == p { print $c }' "$TMP/pf.csv" | tail -n 3)
diag "expected $RATE/s, reported: $(echo $rates)"
check "three frames for the workload" test "$(echo "$rates" | wc -l)" = 3
for r in $rates; do
	check "page-fault rate $r within 10 % of $RATE" within "$r" $((RATE * 90 / 100)) $((RATE * 110 / 100))
done
check "software-only mode said once on stderr" test "$(grep -c 'no hardware PMU' "$TMP/pf.err")" = 1
check "no hardware column in software mode" sh -c '! head -1 "$1" | grep -q ",ipc,"' _ "$TMP/pf.csv"
done_testing
