# A terminal that cannot show the screen is refused with the way out, before curses writes a byte:
# TERM=dumb (no cursor addressing), a TERM terminfo does not know, no TERM at all.
. "$top_srcdir/tests/lib.sh"

if ! command -v script >/dev/null; then
	not_ok "script (util-linux) is needed to give pmctop a terminal"
	done_testing
	exit 1
fi

# on_tty TERM-SETTING: run pmctop on a pseudo-terminal of its own with that environment;
# what it wrote lands in $TMP/tty, its status in $TMP/rc. A screen it wrongly starts ends
# after 5 s, so a failure is a failed check, never a hang.
on_tty() {
	rm -f "$TMP/rc"
	env "$@" script -qec "timeout --foreground -k 2 5 '$PMCTOP' --replay '$top_srcdir/tests/data/sw.rec'; echo \$? >'$TMP/rc'" \
		/dev/null </dev/null >"$TMP/tty" 2>&1
	tr -d '\r' <"$TMP/tty" >"$TMP/tty.txt"
}
# refused MESSAGE: pmctop exited 2 saying MESSAGE, and wrote no escape sequence (the terminal
# is left as it was)
refused() {
	[ "$(cat "$TMP/rc" 2>/dev/null)" = 2 ] || { diag "status $(cat "$TMP/rc" 2>/dev/null), wanted 2"; sed 's/^/# |/' "$TMP/tty.txt"; return 1; }
	grep -qF -- "$1" "$TMP/tty.txt" || { diag "lacks '$1':"; sed 's/^/# |/' "$TMP/tty.txt"; return 1; }
	! grep -q "$(printf '\033')" "$TMP/tty" || { diag "escape sequences were written"; return 1; }
}

on_tty TERM=dumb
check "TERM=dumb is refused with exit 2 and the way out" refused \
	"pmctop: the terminal 'dumb' cannot show the screen (no cursor addressing); use a terminal that can, or pmctop -b for batch frames"
on_tty TERM=nosuchterm
check "a TERM terminfo does not know is refused, saying so" refused \
	"pmctop: the terminal 'nosuchterm' is unknown to terminfo; set TERM to a type it knows (e.g. xterm-256color), or use pmctop -b for batch frames"
on_tty -u TERM
check "no TERM at all is refused, saying so" refused "pmctop: TERM is not set"
rm -f "$TMP/rc"
TERM=dumb script -qec "'$PMCTOP' -b -n 1 --replay '$top_srcdir/tests/data/sw.rec' >'$TMP/batch'; echo \$? >'$TMP/rc'" /dev/null </dev/null >/dev/null 2>&1
check "pmctop -b, the way out, works on TERM=dumb" sh -c '[ "$(cat "$1/rc")" = 0 ] && grep -q "PID" "$1/batch"' sh "$TMP"

done_testing
