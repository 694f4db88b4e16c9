# The README's quick start: two commands, the first of which works as root without sudo (most
# containers have none) and as a user with it; CI installs what it installs.
. "$top_srcdir/tests/lib.sh"

README=$top_srcdir/README
# the indented lines of the Quick start section, one per command
sed -n '/^Quick start$/,/^Where pmctop was tested/p' "$README" | sed -n 's/^    //p' >"$TMP/commands"
check "the quick start is two commands" test "$(wc -l <"$TMP/commands")" = 2
check "the second runs the test suite" test "$(sed -n 2p "$TMP/commands")" = "make check"
first=$(sed -n 1p "$TMP/commands")

# stubs: every program the first command runs logs its name and arguments, and does nothing
mkdir -p "$TMP/bin" "$TMP/src-tree/src"
for prog in apt-get autoreconf make; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/log"\n' "$prog" "$TMP" >"$TMP/bin/$prog"
done
printf '#!/bin/sh\necho "configure $*" >>"%s/log"\n' "$TMP" >"$TMP/src-tree/configure"
printf '#!/bin/sh\necho "pmctop $*" >>"%s/log"\n' "$TMP" >"$TMP/src-tree/src/pmctop"
chmod +x "$TMP/bin/"* "$TMP/src-tree/configure" "$TMP/src-tree/src/pmctop"
# id -u answers the uid asked for; sudo, where there is one, logs and runs the rest
mkdir -p "$TMP/sudo"
printf '#!/bin/sh\necho "sudo $*" >>"%s/log"\n"$@"\n' "$TMP" >"$TMP/sudo/sudo"
chmod +x "$TMP/sudo/sudo"
# run_first UID PATH: the first command in the stub tree as uid UID with PATH; its log
run_first() {
	printf '#!/bin/sh\n[ "$1" = -u ] && echo %s\n' "$1" >"$TMP/bin/id"
	chmod +x "$TMP/bin/id"
	: >"$TMP/log"
	(cd "$TMP/src-tree" && PATH=$2 /bin/sh -c "$first") >"$TMP/out" 2>&1
}

as_root() {
	# no sudo on PATH: a bare sudo would fail with "sudo: not found"
	run_first 0 "$TMP/bin" || { sed 's/^/# /' "$TMP/out"; return 1; }
	! grep -q sudo "$TMP/log" "$TMP/out" || { sed 's/^/# /' "$TMP/log" "$TMP/out"; return 1; }
	grep -q '^apt-get install -y build-essential' "$TMP/log" && grep -q '^make *$' "$TMP/log" &&
		grep -q '^pmctop *$' "$TMP/log" || { sed 's/^/# /' "$TMP/log"; return 1; }
}
check "as root with no sudo installed, the first command installs, builds and starts pmctop" as_root
as_user() {
	run_first 1000 "$TMP/sudo:$TMP/bin" || { sed 's/^/# /' "$TMP/out"; return 1; }
	grep -q '^sudo apt-get install -y build-essential' "$TMP/log" &&
		grep -q '^sudo ./src/pmctop *$' "$TMP/log" &&
		! grep -q '^sudo make' "$TMP/log" || { sed 's/^/# /' "$TMP/log"; return 1; }
}
check "as a user, it installs and starts pmctop through sudo, and builds without it" as_user

# CI (.ci/run, as root) installs at least every package the README's command installs
ci_has_readme_packages() {
	printf '%s\n' "$first" | tr ' ' '\n' | awk '/^install$/ { on = 1; next } on && /^[a-z0-9][a-z0-9.+-]*$/ { print } /&&/ { on = 0 }' |
		sort -u >"$TMP/readme.pkgs"
	sed -n '/apt-get install/,/>\/dev\/null/p' "$top_srcdir/.ci/run" | tr ' \t\\' '\n\n\n' |
		grep -E '^[a-z0-9][a-z0-9.+-]*$' | sort -u >"$TMP/ci.pkgs"
	[ -s "$TMP/readme.pkgs" ] || return 1
	missing=$(comm -23 "$TMP/readme.pkgs" "$TMP/ci.pkgs")
	[ -z "$missing" ] || { diag "not installed by .ci/run: $missing"; return 1; }
}
check "CI installs every package the README installs" ci_has_readme_packages
done_testing
