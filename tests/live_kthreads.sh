# Live: kernel threads are left out unless asked for; with --kernel-threads they are listed with
# their /proc columns and, as root (kernel mode may be counted), counted. Only kthreadd (pid 2)
# is watched: no other process is counted, so no PID namespace is needed (there would be none
# of the host's kernel threads in one). As nobody: tests/live_unprivileged.sh.
. "$top_srcdir/tests/lib.sh"
exclusive

if [ "$(id -u)" != 0 ]; then
	skip_all "needs root: kernel threads are counted where kernel mode may be"
fi
if [ "$(awk '{ print $2 }' /proc/2/stat 2>/dev/null)" != "(kthreadd)" ]; then
	skip "no kthreadd at pid 2 here (a PID namespace?)"
	done_testing
	exit 0
fi
"$PMCTOP" -b -p 2 -n 3 -d 0.3 -o csv >"$TMP/none.csv" 2>/dev/null
check "without --kernel-threads, kthreadd is not a row" \
	sh -c '! awk -F, '"'"'$2 == "process" && $3 == 2'"'"' "$1" | grep -q .' _ "$TMP/none.csv"
"$PMCTOP" -b -p 2 -n 3 -d 0.3 --kernel-threads -o csv >"$TMP/k.csv" 2>"$TMP/k.err"
st=$?
sed 's/^/# stderr: /' "$TMP/k.err"
sed 's/^/# /' "$TMP/k.csv"
rows() {
	f=$TMP/k.csv
	awk -F, -v st="$(csv_field "$f" state)" -v res="$(csv_field "$f" res)" \
		-v t="$(csv_field "$f" cputime)" -v cpu="$(csv_field "$f" cpu)" \
		-v cs="$(csv_field "$f" cs)" -v nc="$(csv_field "$f" not_counted)" \
		-v cmd="$(csv_field "$f" command)" '
		$2 == "process" && $3 == 2 { n++
			if ($cmd != "kthreadd" || $st !~ /^[SIR]$/ || $res != 0 || $t == "" || $nc != "") bad = 1
			# the first frame has no counts; the others have them, as for any process
			if ((n == 1) != ($cpu == "" && $cs == "")) bad = 1 }
		END { print n + 0, bad + 0 }' "$TMP/k.csv"
}
check "pmctop --kernel-threads exits 0" test "$st" = 0
check "as root, kthreadd is listed in every frame, counted, with S, TIME+ and no memory" \
	test "$(rows)" = "3 0"
done_testing
