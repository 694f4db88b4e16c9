# Live: a process that exits mid-run disappears without an error, and pmctop keeps going.
# pmctop watches every process here: the test runs in a PID namespace of its own.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

"$WORKLOAD" sleep 60 &
p=$!
KILL_PIDS="$KILL_PIDS $p"
if [ "$ISOLATED" = yes ]; then
	"$PMCTOP" -b -d 0.3 -o csv >"$TMP/e.csv" 2>"$TMP/e.err" &
else
	"$PMCTOP" -b -d 0.3 -o csv -p "$p,$$" >"$TMP/e.csv" 2>"$TMP/e.err" &
fi
pm=$!
KILL_PIDS="$KILL_PIDS $pm"
check "the process is listed while it lives" csv_wait_frame "$TMP/e.csv" "$p" yes
kill "$p"
wait "$p" 2>/dev/null
check "the process is gone from the frames after its exit" csv_wait_frame "$TMP/e.csv" "$p" no
check "pmctop is still running" kill -0 "$pm"
kill -TERM "$pm"
wait "$pm"
check "pmctop exits 0" test $? = 0
last=$(csv_frames "$TMP/e.csv" | tail -n 1)
check "the last frame does not list it" sh -c '! awk -F, -v t="$1" -v p="$2" '"'"'$1 == t && $3 == p'"'"' "$3" | grep -q .' _ "$last" "$p" "$TMP/e.csv"
check "no error on stderr" sh -c '! grep -v "no hardware PMU" "$1" | grep -q .' _ "$TMP/e.err"

# -p on a process that exits: its row goes, the table stays, nothing breaks
"$WORKLOAD" sleep 60 &
p=$!
KILL_PIDS="$KILL_PIDS $p"
"$PMCTOP" -b -p "$p" -d 0.3 -o csv >"$TMP/p.csv" 2>"$TMP/p.err" &
pm=$!
KILL_PIDS="$KILL_PIDS $pm"
check "-p: the process is listed while it lives" csv_wait_frame "$TMP/p.csv" "$p" yes
kill "$p"
wait "$p" 2>/dev/null
check "-p: the table is empty after the exit" csv_wait_frame "$TMP/p.csv" "$p" no
kill -TERM "$pm"
wait "$pm"
check "-p on an exiting process still exits 0" test $? = 0
last=$(csv_frames "$TMP/p.csv" | tail -n 1)
check "-p: the last frame has no process row" \
	sh -c '! awk -F, -v t="$1" '"'"'$1 == t && $2 == "process"'"'"' "$2" | grep -q .' _ "$last" "$TMP/p.csv"
check "-p: no error on stderr" sh -c '! grep -v "no hardware PMU" "$1" | grep -q .' _ "$TMP/p.err"
done_testing
