# --columns in batch mode: the columns named, in that order, the off-by-default ones (NI, VIRT,
# SHR, P) with real values; a bad list is refused with the bad name and the good ones, status 2.
. "$top_srcdir/tests/lib.sh"

REC="$top_srcdir/tests/data/hw.rec"
# titles TEXTFILE: the table's title line of the last frame
titles() {
	grep '^ *PID \| PID ' "$1" | tail -1
}
# in_order LINE TITLE...: each title a word of LINE, each after the one before
in_order() {
	line=$1
	shift
	echo "$line" | awk -v want="$*" '{
		n = split(want, w, " "); at = 0
		for (i = 1; i <= n; i++) {
			f = 0
			for (j = at + 1; j <= NF; j++) if ($j == w[i]) { f = j; break }
			if (!f) exit 1
			at = f
		}
	}'
}

"$PMCTOP" -b --replay "$REC" -n 2 --columns cpu,user,pid >"$TMP/a.txt" 2>"$TMP/a.err"
check "a valid list: exit 0" test $? = 0
t=$(titles "$TMP/a.txt")
diag "titles: $t"
check "the columns come in the order given, COMMAND last" in_order "$t" %CPU USER PID COMMAND
check "the columns not named are not shown" \
	sh -c '! echo "$1" | grep -qw "RES\|TIME+\|THR\|CPI\|IPC"' _ "$t"

"$PMCTOP" -b --replay "$REC" -n 1 >"$TMP/d.txt" 2>/dev/null
t=$(titles "$TMP/d.txt")
check "by default NI, VIRT, SHR and P are off" \
	sh -c '! echo "$1" | grep -qw "NI\|VIRT\|SHR\|P"' _ "$t"

# the four off by default, by title and by key, with values of a live process
"$WORKLOAD" sleep 30 &
wl=$!
KILL_PIDS="$KILL_PIDS $wl"
renice -n 7 -p "$wl" >/dev/null
for list in "P,SHR,VIRT,NI,PID" "lastcpu,shr,virt,nice,pid"; do
	"$PMCTOP" -b -p "$wl" -n 1 -d 0.2 --columns "$list" >"$TMP/l.txt" 2>"$TMP/l.err"
	st=$?
	t=$(titles "$TMP/l.txt")
	row=$(awk -v pid="$wl" '$5 == pid' "$TMP/l.txt" | tail -1)
	diag "--columns $list: '$t' / '$row'"
	check "--columns $list: exit 0" test $st = 0
	check "--columns $list: P SHR VIRT NI PID COMMAND in that order" \
		in_order "$t" P SHR VIRT NI PID COMMAND
	ncpu=$(getconf _NPROCESSORS_CONF)
	virt_kib=$(awk '/^VmSize:/ { print $2 }' /proc/"$wl"/status)
	check "--columns $list: the values are the process's (P a CPU, NI 7, VIRT its VmSize, SHR a size)" \
		sh -c 'echo "$1" | awk -v n="$2" -v v="$3" '"'"'{ exit !($1 ~ /^[0-9]+$/ && $1 < n && $4 == 7 && $3 == v && $2 ~ /^[0-9]+$/ && $6 == "workload") }'"'"'' \
		_ "$row" "$ncpu" "$virt_kib"
done
kill "$wl" 2>/dev/null

# expect_bad LIST PATTERN: refused with status 2, the message matching PATTERN
expect_bad() {
	"$PMCTOP" -b --replay "$REC" -n 1 --columns "$1" >"$TMP/b.out" 2>"$TMP/b.err"
	st=$?
	sed 's/^/# /' "$TMP/b.err"
	[ $st = 2 ] && grep -q -- "$2" "$TMP/b.err" && ! [ -s "$TMP/b.out" ]
}
keys="use pid, user, threads, state, nice, virt, res, shr, mem, cputime, lastcpu, cpu,.*, command"
check "an unknown name: refused, named, the valid ones listed" \
	expect_bad "pid,bogus" "unknown column 'bogus' for --columns: $keys"
check "a name given twice (key and title): refused, named" \
	expect_bad "pid,cpu,PID" "column 'PID' is given twice in --columns: name each once"
check "an empty list: refused, the valid ones listed" \
	expect_bad "" "'--columns' needs at least one column: $keys"
check "a list of commas only: refused" expect_bad ", ," "'--columns' needs at least one column"
done_testing
