# Live: with few file descriptors pmctop keeps running, counts the busiest processes first and
# says how many it could not count.
. "$top_srcdir/tests/lib.sh"
exclusive

background "$WORKLOAD" spin 1 8
sleep 0.3
# 40 descriptors: the busy process and a handful of others fit, the rest do not
sh -c 'ulimit -n 40; exec "$@"' _ "$PMCTOP" -b -n 3 -d 0.5 -o csv --no-cpus >"$TMP/f.csv" 2>"$TMP/f.err"
st=$?
sed 's/^/# stderr: /' "$TMP/f.err"
field() { head -1 "$TMP/f.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
nc=$(field not_counted)
cpu=$(field cpu)
last=$(cut -d, -f1 "$TMP/f.csv" | grep -v time | sort -u | tail -1)
counted=$(awk -F, -v t="$last" -v nc="$nc" '$1 == t && $2 == "process" && $nc == ""' "$TMP/f.csv" | wc -l)
uncounted=$(awk -F, -v t="$last" -v nc="$nc" '$1 == t && $2 == "process" && $nc == "out of file descriptors"' "$TMP/f.csv" | wc -l)
busy=$(awk -F, -v t="$last" -v p="$BG" -v c="$cpu" '$1 == t && $3 == p {print $c}' "$TMP/f.csv")
diag "counted $counted, not counted $uncounted; the busy process: ${busy:-missing} %CPU"
check "pmctop keeps running and exits 0" test "$st" = 0
check "three frames" test "$(cut -d, -f1 "$TMP/f.csv" | grep -v time | sort -u | wc -l)" = 3
check "it says it ran out of descriptors, once" test "$(grep -c 'out of file descriptors' "$TMP/f.err")" = 1
check "some processes are counted" test "$counted" -ge 1
check "the others are listed as not counted" test "$uncounted" -ge 1
check "the busiest process is among the counted (${busy:-no} %CPU)" within "${busy:-0}" 80 110
done_testing
