# Shared helpers of the screen tests under tmux; source it after tests/lib.sh (and
# tests/cgroup_lib.sh where used). A tmux server of the test's own (in $TMP) runs a clean
# bash on an 80x24 window; the test types commands into it and reads the screen back.

# tui_session NAME [CLEANUP]: start session NAME (as $S), or fail the test where tmux is
# missing. TUI_ENV adds variables to the shell's clean environment (TZ=UTC). At exit the
# server goes, then CLEANUP runs (default cleanup, lib.sh's).
tui_session() {
	if ! command -v tmux >/dev/null; then
		not_ok "tmux is needed for the screen tests (Debian package tmux)"
		done_testing
		exit 1
	fi
	export TMUX_TMPDIR="$TMP"
	S=$1
	TUI_CLEANUP=${2:-cleanup}
	tmux -f /dev/null new-session -d -s "$S" -x 80 -y 24 "env -i TERM=screen-256color LANG=C.UTF-8 ${TUI_ENV:+$TUI_ENV }PATH=$PATH HOME=$TMP PS1='$ ' bash --norc --noprofile" || exit 1
	trap tui_cleanup EXIT
}
tui_cleanup() {
	tmux kill-server 2>/dev/null
	"$TUI_CLEANUP"
}

screen() { tmux capture-pane -p -t "$S"; }
keys() { tmux send-keys -t "$S" "$@"; }
screen_shows() { screen | grep -q -- "$1"; }
# wait_for PATTERN [TENTHS]: until the screen shows PATTERN (default TUI_WAIT tenths, 5 s)
wait_for() {
	_tenths=${2:-${TUI_WAIT:-50}}
	wait_until "$((_tenths / 10)).$((_tenths % 10))" screen_shows "$1" && return 0
	diag "screen lacks '$1':"
	screen | sed 's/^/# |/'
	return 1
}
# start COMMAND...: run it in the shell, which prints EXIT=status when it ends
start() { keys "clear; $* ; echo EXIT=\$?" Enter; }
