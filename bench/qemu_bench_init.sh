#!/bin/busybox sh
# /init of bench/qemu-bench.sh's initramfs: per-tick cost of pmctop, top, a perf-stat-like reader
# and perf stat on a real PMU, in guest instructions; the results between "@@@ BEGIN results"
# and "@@@ END results" on the console, then power off.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin TERM=vt100 TERMINFO=/usr/share/terminfo HOME=/root
export LD_LIBRARY_PATH=/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
dmesg -n 1
mkdir -p /root
cd /tmp || poweroff -f
ulimit -n 65536 2>/dev/null

# the settings qemu-bench.sh wrote: POPS, A, B, REPS
POPS="0 50 200 10x20" A=5 B=15 REPS=1 PROFILE=""
[ -r /bench.conf ] && . /bench.conf
N=$((B + 5))

echo "@@@ BEGIN info"
echo "kernel $(uname -r)"
echo "pmus $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
dmesg | grep -iE 'perfevents' | sed 's/^/dmesg /'
echo "frames $A..$B, reps $REPS, populations $POPS"
PERF=""
if [ -x /usr/bin/perf ] && /usr/bin/perf --version >/tmp/perf.v 2>&1; then
	PERF=/usr/bin/perf
	echo "perf $(cat /tmp/perf.v)"
	$PERF stat -e cycles,instructions true 2>&1 | grep -E 'cycles|instructions|rror' | sed 's/^/perf stat: /'
else
	echo "perf: not in this initramfs or does not run: $(head -2 /tmp/perf.v 2>/dev/null)"
fi
# busybox top takes whole seconds with -d in some builds: probe 0.1
TOPD=0.1
top -b -n 1 -d 0.1 >/dev/null 2>&1 || TOPD=1
echo "top: busybox top -b -d $TOPD"
echo "@@@ END info"

# userpids: the processes (not kernel threads: those have no exe) into /tmp/pids, one a line;
# in this shell, with no command substitution, so that no short-lived subshell is listed
userpids() {
	for p in /proc/[0-9]*; do
		[ -e "$p/exe" ] && echo "${p#/proc/}"
	done >/tmp/pids
}

# measure POP TOOL HEADER COMMAND...: REPS runs of the command under the runner; one line each
# "POP TOOL INSN/TICK TASKCLOCK_US/TICK SCHEDSTAT_US/TICK FRAMES STATUS"
measure() {
	pop=$1 tool=$2 hdr=$3
	shift 3
	r=1
	while [ "$r" -le "$REPS" ]; do
		res=$(/qemu_guest run -f "$hdr" -a "$A" -b "$B" -o "/tmp/out.$tool" -e "/tmp/err.$tool" "$@" 2>/tmp/run.err)
		echo "$pop $tool $res" >>/tmp/raw
		echo "$pop $tool $res $(head -c 200 /tmp/run.err | tr '\n' ' ')"
		case $res in *" 0") ;; *) echo "  $tool's errors: $(head -c 600 "/tmp/err.$tool" | tr '\n' ' ')" ;; esac
		r=$((r + 1))
	done
	# pmctop: the Tasks line of frame A (everything must be attached by then)
	case $tool in pmctop*)
		awk -v a="$A" '/^pmctop - /{ f++ } f == a && /^Tasks/ { print; exit }' "/tmp/out.$tool" |
			sed "s/^/$pop $tool frame $A: /" >>/tmp/tasks ;;
	esac
	# the first frame of each tool, for a look
	case $pop in 10x20) ;; *) return ;; esac
	echo "@@@ BEGIN frame.$tool"
	head -30 "/tmp/out.$tool"
	echo "@@@ END frame.$tool"
}

: >/tmp/raw
: >/tmp/tasks
echo "@@@ BEGIN raw"
for pop in $POPS; do
	case $pop in
	0) procs=0 threads=1 ;;
	*x*) procs=${pop%x*} threads=${pop#*x} ;;
	*) procs=$pop threads=1 ;;
	esac
	popid=""
	if [ "$procs" -gt 0 ]; then
		/qemu_guest pop "$procs" "$threads" >/tmp/pop.out 2>&1 &
		popid=$!
		i=0
		while ! grep -qs ready /tmp/pop.out && [ $i -lt 200 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	measure "$pop" pmctop "pmctop - " /pmctop -b -d 0.1 --no-cpus -n $N
	measure "$pop" pmctop-hwtop1 "pmctop - " /pmctop -b -d 0.1 --no-cpus -n $N --hw-top 1
	measure "$pop" pmctop-readall "pmctop - " /pmctop -b -d 0.1 --no-cpus -n $N --read-all
	measure "$pop" top "Mem:" top -b -d $TOPD -n $N
	# where pmctop's instructions go (PROFILE=POP): sampled by perf over 40 ticks
	if [ "$pop" = "$PROFILE" ] && [ -n "$PERF" ]; then
		$PERF record -q -e instructions -c 10000 -o /tmp/prof.data -- /pmctop -b -d 0.1 --no-cpus -n 40 \
			>/dev/null 2>/tmp/prof.err
		echo "@@@ BEGIN profile"
		echo "pmctop -b -d 0.1 --no-cpus -n 40, population $pop, one sample per 10000 instructions"
		$PERF report -q -i /tmp/prof.data --stdio --sort dso,sym 2>&1 | grep -v '^$' | head -70
		$PERF report -q -i /tmp/prof.data --stdio --sort dso 2>&1 | grep -v '^$' | head -10
		head -5 /tmp/prof.err
		# system calls per tick: a run of 42 frames less one of 12, over 30
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
		sc=""
		for c in openat read pread64 close getdents64 newfstatat clock_gettime lseek fcntl ioctl ppoll write; do
			sc="$sc,syscalls:sys_enter_$c"
		done
		for v in default hw-top read-all; do
			case $v in default) opt="" ;; hw-top) opt="--hw-top 1" ;; *) opt="--$v" ;; esac
			for n in 12 42; do
				# shellcheck disable=SC2086 # opt is empty or options
				$PERF stat -x, -e "instructions:u,instructions:k,raw_syscalls:sys_enter$sc" -o /tmp/sc.$n \
					-- /pmctop -b -d 0.1 --no-cpus -n $n $opt >/dev/null 2>&1
			done
			echo "pmctop $opt: per tick ((42 frames - 12 frames) / 30; instructions scaled when shared):"
			awk -F, 'FNR == 1 { f++ } $3 ~ /sys_enter|instructions/ { if (f == 1) a[$3] = $1; else printf "  %s %.1f\n", $3, ($1 - a[$3]) / 30 }' \
				/tmp/sc.12 /tmp/sc.42
		done
		echo "@@@ END profile"
	fi
	userpids
	# shellcheck disable=SC2046 # one argument per pid
	measure "$pop" reader "interval " /qemu_guest reader -I 100 $(cat /tmp/pids)
	[ -n "$PERF" ] && measure "$pop" perf-stat " task-clock" $PERF stat -I 100 --log-fd 1 -p "$(paste -s -d, /tmp/pids)"
	if [ -n "$popid" ]; then
		kill -TERM "$popid"
		wait "$popid"
	fi
done
echo "@@@ END raw"

echo "@@@ BEGIN tasks"
cat /tmp/tasks
echo "@@@ END tasks"

# the raw lines again, alone: "POP TOOL INSN/TICK TASKCLOCK_US SCHEDSTAT_US FRAMES STATUS"
# (qemu-bench.sh makes the table of them)
echo "@@@ BEGIN results"
cat /tmp/raw
echo "@@@ END results"
echo "@@@ DONE"
poweroff -f
