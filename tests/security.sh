# What pmctop never does: open sockets, run programs, or write files it was not asked to.
. "$top_srcdir/tests/lib.sh"

if ! command -v strace >/dev/null; then
	skip_all "strace is not installed (Debian package strace)"
fi
cd "$TMP" || exit 1
trace() {
	strace -f -qq -o "$TMP/trace" -e trace=socket,connect,bind,execve,execveat,fork,vfork,clone,clone3,openat,creat,unlink,unlinkat,rename,renameat2 "$@" >/dev/null 2>&1
}
trace "$PMCTOP" -b -n 2 -d 0.3 -o json
# the checks below look for what is absent: first make sure the trace saw pmctop at work
check "the trace shows pmctop reading /proc" grep -q 'openat(.*"/proc' "$TMP/trace"
# the C library's user-name lookups may ask nscd over a local socket, as for ps and top; the
# kernel's process events come over a netlink socket to the kernel (as root), no network
check "no network socket is opened" \
	sh -c '! grep -E "^[0-9]+ +socket\(" "$1" | grep -v "socket(AF_UNIX" |
		grep -v "socket(AF_NETLINK, .*, NETLINK_CONNECTOR)"' _ "$TMP/trace"
check "no connection but the C library's to nscd, and the kernel's process events" \
	sh -c '! grep -E "^[0-9]+ +(connect|bind)\(" "$1" | grep -v "/var/run/nscd/socket" |
		grep -v "bind([0-9]*, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=0x000001}"' _ "$TMP/trace"
check "no program is run (one execve: pmctop itself)" test "$(grep -cE '^[0-9]+ +execve' "$TMP/trace")" = 1
# a fork is a clone without CLONE_VM (the sanitizers' leak checker clones a helper with it)
check "no process is forked" \
	sh -c '! grep -E "^[0-9]+ +(fork|vfork|clone|clone3)\(" "$1" | grep -v "CLONE_VM"' _ "$TMP/trace"
check "no thread is started: one poll loop" \
	sh -c '! grep -E "^[0-9]+ +(clone|clone3)\(" "$1" | grep "CLONE_THREAD"' _ "$TMP/trace"
check "nothing is opened for writing or created" \
	sh -c '! grep -E "O_WRONLY|O_RDWR|O_CREAT|^[0-9]+ +(creat|unlink|rename)" "$1"' _ "$TMP/trace"
trace "$PMCTOP" -b -n 1 -d 0.3 --record "$TMP/asked.rec"
check "--record writes the one file it was given" \
	sh -c 'test "$(grep -E "O_WRONLY|O_CREAT" "$1" | grep -c .)" = 1 && grep -E "O_WRONLY|O_CREAT" "$1" | grep -q "asked.rec"' _ "$TMP/trace"
done_testing
