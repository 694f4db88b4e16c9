# A process exits and its pid goes to a newcomer while the screen still names it: in a signal
# question, a tag, a drill-down, a nice value. In a PID namespace of its own the next pid can be
# set (ns_last_pid, as CRIU does), so the newcomer takes the very pid, every time, no luck needed.
. "$top_srcdir/tests/lib.sh"
isolate "$@"

if [ "$ISOLATED" != yes ] || ! [ -w /proc/sys/kernel/ns_last_pid ]; then
	skip_all "needs a PID namespace of its own and a writable ns_last_pid (root)"
fi

. "$top_srcdir/tests/tui_lib.sh"
tui_session pmctop-pidreuse
quit() {
	keys q
	wait_for "EXIT=" >/dev/null
}

# victim: a sleeper whose pid the newcomer will take ($V)
victim() {
	sleep 1001 &
	V=$!
}
# reuse: the victim exits, is reaped, and a newcomer (sleep 1002) is given its pid ($NEW)
reuse() {
	kill -KILL "$V"
	wait "$V" 2>/dev/null
	for _ in 1 2 3 4 5; do
		echo $((V - 1)) >/proc/sys/kernel/ns_last_pid
		sleep 1002 &
		NEW=$!
		[ "$NEW" = "$V" ] && return 0
		kill "$NEW"
		wait "$NEW" 2>/dev/null
	done
	diag "the newcomer got pid $NEW, not $V"
	return 1
}
# alive PID: the process is there and not dead (a zombie)
alive() {
	st=$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}
newcomer_done() {
	kill "$NEW" 2>/dev/null
	wait "$NEW" 2>/dev/null
}

# ---- the question is open when the pid changes hands; the next frame sees it ----
victim
start "$PMCTOP -d 0.5"
keys '\' 1001 Enter
check "the victim is listed" wait_for "^ *$V .* sleep"
keys k Enter
check "the question names the victim" wait_for "send SIGTERM (15) to pid $V (sleep)? y: send"
check "its pid goes to a newcomer" reuse
check "the question says the victim exited" wait_for "process $V exited: nothing will be sent"
keys y
check "y sends nothing" wait_for "nothing sent: process $V exited"
check "the newcomer lives" alive "$NEW"
quit
newcomer_done

# ---- paused, so no frame tells: the act itself checks through a pidfd ----
victim
start "$PMCTOP -d 0.5"
keys '\' 1001 Enter
wait_for "^ *$V .* sleep" >/dev/null
keys z
check "paused" wait_for "PAUSED"
keys k Enter
wait_for "send SIGTERM (15) to pid $V (sleep)? y: send" >/dev/null
check "its pid goes to a newcomer (paused)" reuse
keys y
check "y: the victim exited, nothing sent" wait_for "cannot send SIGTERM to pid $V: process $V exited"
check "the newcomer lives after y" alive "$NEW"
keys F8
check "F8: the victim exited, no nice value changed" wait_for "cannot raise the nice value of pid $V: process $V exited"
check "the newcomer's nice value is untouched" test "$(awk '{ print $19 }' /proc/"$NEW"/stat)" = 0
quit
newcomer_done

# ---- two tagged processes, one replaced meanwhile (paused): only the other gets it ----
victim
sleep 1003 &
BY=$!
start "$PMCTOP -d 0.5"
keys '\' 1001 Enter
wait_for "^ *$V .* sleep" >/dev/null
keys Space Escape '\' 1003 Enter
wait_for "^ *$BY .* sleep" >/dev/null
keys Space Escape z
wait_for "PAUSED" >/dev/null
keys k Enter
check "the question names 2 tagged processes" wait_for "send SIGTERM (15) to 2 tagged processes"
check "one tagged pid goes to a newcomer" reuse
keys y
check "the other got it; the victim's pid was left alone" \
	wait_for "sent SIGTERM to 1 of 2 processes; pid $V: process $V exited"
wait "$BY"
check "the other tagged process ended by SIGTERM" test $? = 143
check "the newcomer lives after the tagged signal" alive "$NEW"
quit
newcomer_done

# ---- a tag is dropped, not carried over to the newcomer ----
victim
start "$PMCTOP -d 0.5"
keys '\' 1001 Enter
wait_for "^ *$V .* sleep" >/dev/null
keys Space Escape
check "its pid goes to a newcomer (tagged)" reuse
check "the tag is dropped, saying so" wait_for "process $V exited: its tag is dropped"
quit
newcomer_done

# ---- the drill-down closes rather than switch to the newcomer ----
victim
start "$PMCTOP -d 0.5"
keys '\' 1001 Enter
wait_for "^ *$V .* sleep" >/dev/null
keys Enter
check "the drill-down shows the victim" wait_for "PID $V sleep"
check "its pid goes to a newcomer (drilled)" reuse
check "the drill-down closes, saying so" wait_for "process $V exited: its drill-down is closed"
check "the newcomer lives after the drill-down" alive "$NEW"
quit
newcomer_done

done_testing
[ "$failed" = 0 ]
