# Live: pmctop -- CMD runs a command, shows it and its children, and ends with perf stat's
# summary of the whole run and the command's exit status. The frames list every process here:
# a PID namespace of its own.
. "$top_srcdir/tests/lib.sh"
isolate
exclusive

# summary_count FILE NAME: the count on the summary's line for event NAME (commas dropped)
summary_count() {
	awk -v e="$2" '$2 == e || $3 == e { gsub(",", "", $1); print $1; exit }' "$1"
}
# logged LOG: the last count a workload logged ("TIME COUNT" lines)
logged() { tail -n 1 "$1" | awk '{ print $2 }'; }

# exit statuses, as a shell gives them
"$PMCTOP" -b -d 0.2 -- sh -c 'exit 3' >"$TMP/exit3.out" 2>&1
check "the command's exit status is pmctop's ('exit 3' gives 3)" test $? = 3
check "the summary names the command" \
	grep -q "Performance counter stats for 'sh -c exit 3':" "$TMP/exit3.out"
"$PMCTOP" -b -d 0.2 -- false >/dev/null 2>&1
check "'-- false' exits 1" test $? = 1
"$PMCTOP" -b -d 0.2 -- true >/dev/null 2>&1
check "'-- true' exits 0" test $? = 0
"$PMCTOP" -b -d 0.2 -- sh -c 'kill -TERM $$' >"$TMP/killed.out" 2>&1
check "a command killed by SIGTERM gives 128+15" test $? = 143
check "the summary says the command was killed" grep -q "killed by signal 15" "$TMP/killed.out"
"$PMCTOP" -b -- pmctop-no-such-command >"$TMP/missing.out" 2>"$TMP/missing.err"
check "a command not in PATH exits 127" test $? = 127
check "and is named in the message" \
	grep -qx "pmctop: command 'pmctop-no-such-command' not found" "$TMP/missing.err"
check "and nothing was run: no frame, no summary" test ! -s "$TMP/missing.out"
printf 'echo hi\n' >"$TMP/noexec"
chmod 644 "$TMP/noexec"
"$PMCTOP" -b -- "$TMP/noexec" >/dev/null 2>"$TMP/noexec.err"
check "a file that cannot be executed exits 126" test $? = 126
check "and is named in the message" grep -q "cannot run '$TMP/noexec'" "$TMP/noexec.err"

# frames while it runs, then the summary of its whole run: its faults are the workload's own
# (it logs them) and the few hundred of starting a program, at most
"$PMCTOP" -b -d 0.2 -- "$WORKLOAD" faults 2000 1 "$TMP/faults.log" >"$TMP/faults.out" \
	2>"$TMP/faults.err"
check "the workload's run exits 0" test $? = 0
frames=$(grep -c '^pmctop - ' "$TMP/faults.out")
check "frames are printed while it runs (got $frames)" test "$frames" -ge 3
check "the frames list the workload" grep -q ' workload$' "$TMP/faults.out"
check "the summary follows the frames on standard output" \
	sh -c "tail -n 30 '$TMP/faults.out' | grep -q 'seconds time elapsed'"
want=$(logged "$TMP/faults.log")
got=$(summary_count "$TMP/faults.out" page-faults)
diag "page-faults: summary $got, the workload logged $want"
check "the summary's page-faults ($got) are the workload's $want, within 3 % and 300" \
	agree "$got" "$want" 0.03 300
check "and no fewer than it logged" test "${got:-0}" -ge "$want"
ms=$(awk '$3 == "task-clock" { gsub(",", "", $1); print $1; exit }' "$TMP/faults.out")
check "task-clock is there, in msec ($ms)" within "$ms" 0.01 2000
check "elapsed time covers the one-second run" \
	sh -c "awk '\$3 == \"time\" && \$4 == \"elapsed\" { exit !(\$1 >= 0.9) }' '$TMP/faults.out'"

# a child that ends before the command: its work is in the totals (inherited counters)
"$PMCTOP" -b -d 0.2 -- sh -c "'$WORKLOAD' faults 2000 1 '$TMP/child.log' & wait" \
	>"$TMP/child.out" 2>"$TMP/child.err"
check "the shell's run exits 0" test $? = 0
check "the frames follow the shell's child" grep -q ' workload$' "$TMP/child.out"
want=$(logged "$TMP/child.log")
got=$(summary_count "$TMP/child.out" page-faults)
diag "page-faults with the child: summary $got, the child logged $want"
check "the child's $want faults are in the summary's $got (within 3 % and 400)" \
	agree "$got" "$want" 0.03 400
check "and no fewer than it logged" test "${got:-0}" -ge "$want"

# CSV and JSON keep standard output to their records: the summary goes to standard error
"$PMCTOP" -b -d 0.2 -o json -- sh -c 'exit 0' >"$TMP/json.out" 2>"$TMP/json.err"
check "-o json: standard output is JSON Lines only" \
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/json.out"
check "-o json: the summary is on standard error" grep -q 'seconds time elapsed' "$TMP/json.err"

# a stop signal to pmctop is passed on to the command, which decides; then the summary
"$PMCTOP" -b -d 0.2 -- "$WORKLOAD" faults 100 60 "$TMP/long.log" >"$TMP/long.out" 2>&1 &
pm=$!
KILL_PIDS="$KILL_PIDS $pm"
wait_until 10 test -s "$TMP/long.log"
kill -TERM "$pm"
wait "$pm"
st=$?
check "SIGTERM to pmctop ends the command with it: 128+15 (got $st)" test "$st" = 143
check "and the summary is printed" grep -q 'seconds time elapsed' "$TMP/long.out"

done_testing
[ "$failed" = 0 ]
