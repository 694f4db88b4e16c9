# Where --record writes: never through another user's link in /tmp, never into a FIFO, a private
# file (mode 0600), and a bounded size, rotated into files that each replay alone.
. "$top_srcdir/tests/lib.sh"
REC="$top_srcdir/tests/data/hw.rec"
umask 022
# record FILE [OPTION...]: record a full-speed replay of hw.rec to FILE, stderr to $TMP/err
record() {
	f=$1
	shift
	timeout 20 "$PMCTOP" -b -d 0 --replay "$REC" --record "$f" "$@" >/dev/null 2>"$TMP/err"
}

mkdir -m 1777 "$TMP/shared"
printf 'root:secret\n' >"$TMP/rootfile"
chmod 640 "$TMP/rootfile"
if [ "$(id -u)" = 0 ]; then
	# another user's link in a sticky directory that every user writes in, to root's file
	ln -s "$TMP/rootfile" "$TMP/shared/x.rec"
	chown -h nobody "$TMP/shared/x.rec"
	record "$TMP/shared/x.rec"
	st=$?
	check "another user's link in a sticky directory: refused, status 1" test "$st" = 1
	check "the message names the file and why, and what to do" grep -q "^pmctop: cannot create the recording '$TMP/shared/x.rec': it is a symbolic link of uid [0-9]* in the directory '$TMP/shared' that every user may write in, and pmctop follows no other user's link there; record to a regular file of your own" "$TMP/err"
	check "the file it points to is as it was" sh -c 'test "$(cat "$1")" = root:secret && test "$(stat -c %a "$1")" = 640' _ "$TMP/rootfile"
	# another user's file there: its owner could read every command line recorded
	: >"$TMP/shared/y.rec"
	chown nobody "$TMP/shared/y.rec"
	chmod 666 "$TMP/shared/y.rec"
	record "$TMP/shared/y.rec"
	st=$?
	check "another user's file in a sticky directory: refused" sh -c 'test "$1" = 1 && test ! -s "$2" && grep -q "its owner could read what is written" "$3"' _ "$st" "$TMP/shared/y.rec" "$TMP/err"
else
	skip "links of another user need root to make"
fi
# one's own link there is followed, as the kernel does
ln -s "$TMP/mine.rec" "$TMP/shared/own.rec"
record "$TMP/shared/own.rec"
check "one's own link in a sticky directory is followed" sh -c 'test "$1" = 0 && head -1 "$2" | grep -qx "pmctop-recording 1"' _ "$?" "$TMP/mine.rec"

mkfifo "$TMP/shared/fifo"
record "$TMP/shared/fifo"
st=$?
check "a FIFO: refused at once (no wait for a reader), status 1" test "$st" = 1
check "a FIFO: the message says it is no regular file" grep -q "^pmctop: cannot create the recording '$TMP/shared/fifo': it is not a regular file" "$TMP/err"
ln -s fifo "$TMP/shared/fifo-link"
record "$TMP/shared/fifo-link"
check "a FIFO behind one's own link: refused at once too" sh -c 'test "$1" = 1 && grep -q "is not a regular file" "$2"' _ "$?" "$TMP/err"

record "$TMP/new.rec"
check "a new recording is made with mode 0600 (it holds every command line)" sh -c 'test "$1" = 0 && test "$(stat -c %a "$2")" = 600' _ "$?" "$TMP/new.rec"
: >"$TMP/old.rec"
chmod 644 "$TMP/old.rec"
record "$TMP/old.rec"
check "an existing file of one's own is truncated and made 0600" sh -c 'test "$1" = 0 && test "$(stat -c %a "$2")" = 600 && cmp -s "$2" "$3"' _ "$?" "$TMP/old.rec" "$TMP/new.rec"

# the bound: hw.rec's three ticks are 13 to 20 KiB each, 41 KiB in all
record "$TMP/rot.rec" --record-size 10K
check "--record-size: the run goes on, status 0, no message" sh -c 'test "$1" = 0 && test ! -s "$2"' _ "$?" "$TMP/err"
check "--record-size: FILE and FILE.1, both 0600, no FILE.2" sh -c 'test "$(stat -c %a "$1" "$1.1")" = "600
600" && test ! -e "$1.2"' _ "$TMP/rot.rec"
check "the last two files keep hw.rec's three ticks: two, then one" \
	test "$(grep -c '^tick ' "$TMP/rot.rec.1") $(grep -c '^tick ' "$TMP/rot.rec")" = "2 1"
for f in "$TMP/rot.rec" "$TMP/rot.rec.1"; do
	check "$(basename "$f") starts with the header" sh -c 'head -1 "$1" | grep -qx "pmctop-recording 1" && grep -q "^event 0 " "$1"' _ "$f"
	check "$(basename "$f") carries the sampled process's mappings" grep -q "^map 55d0c0000000 55d0c0002000 /home/bob/stream$" "$f"
	"$PMCTOP" -b -d 0 --replay "$f" >"$TMP/out" 2>&1
	check "$(basename "$f") replays alone" sh -c 'test "$1" = 0 && grep -q "^pmctop - " "$2"' _ "$?" "$TMP/out"
done
# rotation through one's own link: the file it names rotates, beside itself; the link stays
mkdir "$TMP/data"
ln -s "$TMP/data/lnk.rec" "$TMP/lnk.rec"
record "$TMP/lnk.rec" --record-size 10K
check "--record-size through one's own link: status 0, no message" sh -c 'test "$1" = 0 && test ! -s "$2"' _ "$?" "$TMP/err"
check "the link is still a link, to the newest file" sh -c 'test -L "$1" && test "$(grep -c "^tick " "$1")" = 1' _ "$TMP/lnk.rec"
check "the file it names was rotated beside itself; the link was not renamed" sh -c 'test -f "$1.1" && test ! -e "$2.1" && test ! -L "$2.1"' _ "$TMP/data/lnk.rec" "$TMP/lnk.rec"

# a hard link to a file elsewhere (root's, where protected_hardlinks is off): never emptied
printf 'root:secret\n' >"$TMP/data/shadow"
ln "$TMP/data/shadow" "$TMP/hard.rec"
record "$TMP/hard.rec"
st=$?
check "a file with another hard link: refused, status 1, saying why" sh -c 'test "$1" = 1 && grep -q "^pmctop: cannot create the recording .*: it has 2 hard links, and pmctop empties no file that has another name" "$2"' _ "$st" "$TMP/err"
check "the file it is linked to is as it was" test "$(cat "$TMP/data/shadow")" = root:secret

record "$TMP/whole.rec" --record-size 0
check "--record-size 0: no bound, one file" sh -c 'test "$1" = 0 && test ! -e "$2.1" && cmp -s "$2" "$3"' _ "$?" "$TMP/whole.rec" "$TMP/new.rec"
record "$TMP/bad.rec" --record-size 10Q
st=$?
check "a bad --record-size: usage error, status 2, saying what to give" sh -c 'test "$1" = 2 && grep -q "^pmctop: invalid recording size .10Q.: give bytes from 1K to 1024G with an optional K, M or G" "$2"' _ "$st" "$TMP/err"
"$PMCTOP" -b -d 0 --replay "$REC" --record-size 10K >/dev/null 2>"$TMP/err"
st=$?
check "--record-size without --record: usage error, status 2, saying why" sh -c 'test "$1" = 2 && grep -q "^pmctop: .--record-size. bounds a recording: it needs .--record FILE.$" "$2"' _ "$st" "$TMP/err"
done_testing
