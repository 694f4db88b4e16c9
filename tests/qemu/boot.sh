#!/usr/bin/env bash
# Boot one arm64 kernel with the test bed's initramfs under QEMU and keep its console output.
#
#   tests/qemu/boot.sh KERNEL INITRD LOG [hw|nopmu|load|numa]
#
# hw: -cpu max with its PMU (armv8_pmuv3, 7 counters) and -icount shift=0, so instructions are
# counted exactly and cycles equal instructions; one CPU, so the counts are the guest's alone.
# nopmu: -cpu max,pmu=off, the software-only path. load: as hw, but the guest runs the cases
# meant for a loaded host (tests/qemu.sh loads it). numa: two NUMA nodes of one CPU each. The
# guest powers off when done; a timeout ($PMCTOP_QEMU_TIMEOUT seconds, default 300) stops a
# guest that hangs. Exit status: QEMU's, 124 on timeout.
set -u
KERNEL=${1:?usage: boot.sh KERNEL INITRD LOG [hw|nopmu|load|numa]}
INITRD=${2:?usage: boot.sh KERNEL INITRD LOG [hw|nopmu|load|numa]}
LOG=${3:?usage: boot.sh KERNEL INITRD LOG [hw|nopmu|load|numa]}
MODE=${4:-hw}

case $MODE in
hw) cpu="max,pauth-impdef=on" extra="" ;;
nopmu) cpu="max,pauth-impdef=on,pmu=off" extra="pmctop.mode=nopmu" ;;
load) cpu="max,pauth-impdef=on" extra="pmctop.mode=load" ;;
numa) cpu="max,pauth-impdef=on" extra="pmctop.mode=numa" ;;
*) echo "boot: unknown mode '$MODE'" >&2; exit 2 ;;
esac
# numa: two nodes of one CPU and 512 MiB each; no icount (two CPUs), nothing is counted exactly
machine="-smp 1 -m 1024 -accel tcg -icount shift=0"
if [ "$MODE" = numa ]; then
	machine="-smp 2 -m 1024 -accel tcg,thread=multi
		-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M
		-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1"
fi
# shellcheck disable=SC2086 # $machine is a list of options
timeout -k 10 "${PMCTOP_QEMU_TIMEOUT:-300}" qemu-system-aarch64 -machine virt -cpu "$cpu" \
	$machine -nographic -no-reboot -monitor none \
	-serial stdio -nic none -kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyAMA0 rdinit=/init panic=-1 quiet $extra" </dev/null 2>&1 |
	tr -d '\r' >"$LOG"
exit "${PIPESTATUS[0]}"
