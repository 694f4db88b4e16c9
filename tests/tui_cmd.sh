# The screen with -- CMD: it shows the command's processes while it runs, and the summary of
# its run follows the screen, on the terminal, with the command's exit status; q before the end
# ends the command too, and Ctrl-C reaches it. Only the command's tree is listed; a PID
# namespace keeps it apart anyway.
. "$top_srcdir/tests/lib.sh"
isolate "$@"
. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-cmd

# the command ends by itself: the screen goes and the summary is left on the terminal
start "$PMCTOP -d 0.3 -- sh -c \"'$WORKLOAD' faults 500 2 '$TMP/run.log' & wait\""
check "the screen lists the shell's child" wait_for " workload *$"
check "the summary follows the screen when the command ends" \
	wait_for "seconds time elapsed" 100
check "with the whole run's page-faults" wait_for "page-faults"
check "and the command's exit status" wait_for "EXIT=0"

# q before the command ends: the command is sent SIGTERM, the summary still comes
start "$PMCTOP -d 0.3 -- '$WORKLOAD' faults 100 60 '$TMP/q.log'"
check "the screen lists the command" wait_for " workload *$"
keys q
check "q: the command was ended by SIGTERM" wait_for "by signal 15 (Terminated)"
check "q: pmctop exits as the shell would, 128+15" wait_for "EXIT=143"

# Ctrl-C on the terminal reaches the command (its process group): it ends, the summary comes
start "$PMCTOP -b -o csv -d 0.3 -- '$WORKLOAD' faults 100 60 '$TMP/c.log' >'$TMP/c.csv'"
wait_until 10 test -s "$TMP/c.log"
keys C-c
check "Ctrl-C: the command was interrupted, and the summary says so" \
	wait_for "by signal 2 (Interrupt)"
check "Ctrl-C: pmctop exits as the shell would, 128+2" wait_for "EXIT=130"

done_testing
[ "$failed" = 0 ]
