#!/bin/busybox sh
# /init of the QEMU test bed's initramfs: run every pmctop case once, print the results on the
# console between markers, power off. The host side (tests/qemu.sh) asserts on them.
#
# Output: "@@@ BEGIN NAME" ... "@@@ END NAME STATUS" around each file or command output.
/bin/busybox --install -s /bin
export PATH=/bin TERM=vt100 TERMINFO=/usr/share/terminfo HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
dmesg -n 1
mkdir -p /root
cd /tmp || poweroff -f

# the loop count per call and calls per thread of the workload (5 instructions per iteration)
N=1000000
K=200
MODE=hw
grep -q 'pmctop.mode=nopmu' /proc/cmdline && MODE=nopmu
grep -q 'pmctop.mode=load' /proc/cmdline && MODE=load
grep -q 'pmctop.mode=numa' /proc/cmdline && MODE=numa

section() { echo "@@@ BEGIN $1"; }
endsection() { echo "@@@ END $1 $2"; }
# show NAME FILE: print FILE as section NAME
show() {
	section "$1"
	cat "$2"
	endsection "$1" 0
}

section info
echo "kernel $(uname -r)"
echo "mode $MODE"
echo "paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
echo "pmus $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
dmesg | grep -iE 'perfevents|pmu' | sed 's/^/dmesg /'
endsection info 0

# run NAME WL-ARGS -- PMCTOP-ARGS: start the workload held at its start line, attach pmctop,
# release the workload after pmctop has opened its counters, print everything
run() {
	name=$1
	shift
	wlargs=""
	while [ "$1" != "--" ]; do
		wlargs="$wlargs $1"
		shift
	done
	shift
	/wl $wlargs >"$name.wl" 2>&1 &
	wl=$!
	i=0
	while ! grep -qs ready "$name.wl" && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	/pmctop -b -p "$wl" --record "$name.rec" "$@" >"$name.out" 2>"$name.err" &
	pm=$!
	sleep 0.7
	kill -USR1 "$wl"
	wait "$pm"
	status=$?
	kill -TERM "$wl"
	wait "$wl"
	section "$name.args"
	echo "wl$wlargs"
	echo "pmctop -b -p $wl --record $name.rec $*"
	echo "status $status"
	endsection "$name.args" 0
	show "$name.wl" "$name.wl"
	show "$name.out" "$name.out"
	show "$name.err" "$name.err"
	show "$name.rec" "$name.rec"
}

# numa NAME NODE CPU: page faults on memory bound to NODE from CPU, sampled by pmctop; the
# nodes the kernel gives the pages in /proc/PID/numa_maps while it runs
numa() {
	name=$1
	/wl numa "$2" "$3" 6 >"$name.wl" 2>&1 &
	wl=$!
	i=0
	while ! grep -qs ready "$name.wl" && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	/pmctop -b --sample "$wl" -o json -d 0.5 -n 7 --top 64 >"$name.out" 2>"$name.err"
	status=$?
	cat "/proc/$wl/numa_maps" >"$name.maps" 2>&1
	kill -TERM "$wl"
	wait "$wl"
	section "$name.args"
	echo "wl numa $2 $3 6"
	echo "status $status"
	endsection "$name.args" 0
	show "$name.wl" "$name.wl"
	show "$name.out" "$name.out"
	show "$name.err" "$name.err"
	show "$name.maps" "$name.maps"
}

if [ "$MODE" = numa ]; then
	section nodes
	echo "online $(cat /sys/devices/system/node/online)"
	for d in /sys/devices/system/node/node[0-9]*; do
		echo "${d##*/} cpus $(cat "$d/cpulist")"
	done
	endsection nodes 0
	numa local 0 0
	numa remote 1 0
	numa remote2 0 1
	numa local2 1 1
elif [ "$MODE" = hw ]; then
	EV=r08,r11,r23,r24,r3c,r03,r04,r10
	# one thread with a known count; per-core rows; the recording replayed on the host
	run basic spin $N $K -- -d 0.5 -n 9 -e instructions
	# threads as rows, each counted on its own
	run threads threads 2 $N $((K / 2)) -- -H --no-cpus -d 0.5 -n 9 -e instructions
	# threads as rows next to per-core groups: a thread's set and its process's fit only alone
	run thrcpu threads 2 $N $((K / 2)) -- -H -d 0.5 -n 9 -e r08
	# threads created after pmctop attached
	run late late 2 $N $((K / 2)) -- -d 0.5 -n 9 -e instructions
	# more events than the 7 counters: the kernel multiplexes the task's groups
	run mux spin $N $K -- --no-cpus -d 0.5 -n 9 -e $EV
	# the same with per-CPU groups open: those go first, the task's groups of four never fit
	run starve spin $N $K -- -d 0.5 -n 9 -e $EV
	# modifiers are part of an event: kernel-mode and user-mode instructions of a user-mode
	# loop are two counters beside the built-in one (both modes)
	run modk spin $N $K -- --no-cpus -d 0.5 -n 9 -e instructions,instructions:k,instructions:u
	# processes counted by the BPF program at context switches, and the same per thread
	run bpf spin $N $K -- --bpf -d 0.5 -n 9 -e cycles,instructions
	run bpfref spin $N $K -- -d 0.5 -n 9 -e cycles,instructions
elif [ "$MODE" = load ]; then
	# the host is loaded (stress-ng beside QEMU). Rates: a spin that logs when it ran (its gaps)
	# and retires exactly 5 * 1000 + 8 user-mode instructions per chunk, 3.0e9 in all
	run rate timed 600000 1000 -- -d 0.5 -n 11 -e instructions:u
	# the same counted by per-task groups
	run rateperf timed 600000 1000 -- --task-counts=perf -d 0.5 -n 11 -e instructions:u
	# per-core BUSY%: a thread pinned to CPU 0, busy 20 ms of every 100 ms of the guest's clock,
	# over about the 9 s pmctop watches
	run duty duty 20 100 86 0 -- -d 1 -n 10
else
	run nopmu spin $N 20 -- -d 0.5 -n 4
fi
echo "@@@ DONE"
poweroff -f
