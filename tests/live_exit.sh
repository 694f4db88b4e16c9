# Live: a process that exits mid-run disappears without an error, and pmctop keeps going.
. "$top_srcdir/tests/lib.sh"
exclusive

"$WORKLOAD" sleep 1.3 &
p=$!
"$PMCTOP" -b -d 0.5 -n 6 -o csv >"$TMP/e.csv" 2>"$TMP/e.err"
st=$?
wait $p
check "pmctop exits 0" test $st = 0
frames=$(cut -d, -f1 "$TMP/e.csv" | grep -v time | sort -u | wc -l)
check "all six frames printed" test "$frames" = 6
first=$(awk -F, -v p="$p" '$2 == "process" && $3 == p' "$TMP/e.csv" | head -1)
check "the process is listed while it lives" test -n "$first"
lastframe=$(cut -d, -f1 "$TMP/e.csv" | grep -v time | sort -u | tail -1)
check "the process is gone from the last frame" sh -c '! grep "^$1,process,$2," "$3"' _ "$lastframe" "$p" "$TMP/e.csv"
check "no error on stderr" sh -c '! grep -v "no hardware PMU" "$1" | grep -q .' _ "$TMP/e.err"

# -p on a process that exits: the table empties, nothing breaks
"$WORKLOAD" sleep 0.6 &
p=$!
"$PMCTOP" -b -p "$p" -d 0.4 -n 4 >"$TMP/p.txt" 2>"$TMP/p.err"
check "-p on an exiting process still exits 0" test $? = 0
check "-p table is empty after the exit" sh -c 'tail -n 3 "$1" | grep -q "^ *PID "' _ "$TMP/p.txt"
wait
done_testing
