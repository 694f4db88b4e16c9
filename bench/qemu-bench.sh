#!/usr/bin/env bash
# Per-tick cost on a real PMU: pmctop, top, a perf-stat-like reader and perf stat in the QEMU arm64 guest.
#
#   bench/qemu-bench.sh [SUITE]      (or: make bench-qemu)
#
# Boots one arm64 kernel (SUITE: bookworm by default, or bullseye, trixie) of the QEMU test bed
# (tests/qemu/README) once, with bench/qemu_bench_init.sh as /init: populations of idle processes
# and threads, and for each the cost of one tick of every tool, measured in guest instructions
# (exact under -icount shift=0) and task-clock by bench/qemu_guest.c's runner. The table comes
# back on the console and is printed here. Not part of `make check`.
#
# Environment: POPS ("0 50 200 10x20": idle processes, or PROCSxTHREADS), A and B (the frames
# between which a tick is measured: 5 and 15), REPS (1), PERF (1: put Debian's perf for arm64 in
# the guest, fetched with its libraries under the test bed's private apt configuration; 0: not),
# PMCTOP_QEMU_CACHE, PMCTOP_QEMU_MIRROR, PMCTOP_QEMU_TIMEOUT (900), WORK (the build and console
# log, default bench/qemu.work in the current directory), REUSE=1 (keep the last cross build),
# PROFILE=POP (perf record pmctop's instructions in population POP; in $WORK/profile.txt).
set -u
export LC_ALL=C

SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
QDIR=$SRCDIR/tests/qemu
SUITE=${1:-bookworm}
CACHE=${PMCTOP_QEMU_CACHE:-${HOME:-/tmp}/.cache/pmctop-qemu}
WORK=${WORK:-$PWD/bench/qemu.work}
POPS=${POPS:-0 50 200 10x20}
A=${A:-5}
B=${B:-15}
REPS=${REPS:-1}
PROFILE=${PROFILE:-}
PERF=${PERF:-1}
export PMCTOP_QEMU_TIMEOUT=${PMCTOP_QEMU_TIMEOUT:-900}

say() { echo "qemu-bench: $*" >&2; }
die() { say "$*"; exit 1; }

case $SUITE in bullseye | bookworm | trixie) ;; *) die "unknown suite '$SUITE': give bullseye, bookworm or trixie" ;; esac
for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-readelf cpio dpkg-deb apt-get timeout gzip; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' is missing (Debian: qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross cpio)"
done
[ -x "$SRCDIR/configure" ] || die "no configure in '$SRCDIR' (autoreconf -fi)"
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd) || die "cannot create '$WORK'"

bash "$QDIR/fetch.sh" "$CACHE" || die "the test bed's downloads are not in '$CACHE' (tests/qemu/fetch.sh)"
[ -s "$CACHE/kernels/vmlinuz-$SUITE" ] || die "no kernel '$SUITE' in '$CACHE/kernels'"

R=$WORK/root
if [ -n "${REUSE:-}" ] && [ -x "$R/pmctop" ]; then
	say "REUSE: the pmctop of the last build in $WORK"
else
	say "cross-building pmctop (tests/qemu/build.sh)"
	bash "$QDIR/build.sh" "$SRCDIR" "$WORK" "$CACHE" || die "the test bed's build failed"
fi

# --- perf for arm64: Debian's linux-perf of bookworm and the libraries it links, unpacked ---
# apt_private ARGS...: apt-get/apt-cache for bookworm arm64 with a configuration of its own (as
# tests/qemu/fetch.sh does: the host's apt state is not touched)
apt_private() {
	local dir=$CACHE/apt-perf
	"$@" -q -o Dir::Etc::SourceList="$dir/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::State::status="$dir/status" \
		-o APT::Architecture=arm64 -o APT::Architectures=arm64 \
		-o Acquire::Languages=none -o APT::Sandbox::User=root
}
# fetch_perf: the .debs of linux-perf and of every library package it depends on, into
# $CACHE/perf (once: a second run needs no network)
fetch_perf() {
	local dir=$CACHE/apt-perf mirror want
	[ -s "$CACHE/perf/done" ] && return 0
	mirror=${PMCTOP_QEMU_MIRROR:-$(grep -rhoE '(https?|ftp)://[^ ]*/debian/?( |$)' /etc/apt/sources.list \
		/etc/apt/sources.list.d/ 2>/dev/null | head -1 | tr -d ' ' | sed 's,/$,,')}
	[ -n "$mirror" ] || { say "perf: no Debian mirror (set PMCTOP_QEMU_MIRROR)"; return 1; }
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/etc" "$CACHE/perf"
	: >"$dir/status"
	echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
		>"$dir/etc/sources.list"
	apt_private apt-get update >/dev/null || return 1
	# the library packages of the closure (the programs, interpreters and data are not needed:
	# perf only has to load its shared libraries)
	want=$(apt_private apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances linux-perf | grep '^[a-z]' | sort -u |
		grep -E '^(lib|zlib1g$|linux-perf$)' | grep -vE -- '-(stdlib|minimal|common|data)$')
	[ -n "$want" ] || return 1
	# shellcheck disable=SC2086 # package names
	(cd "$CACHE/perf" && apt_private apt-get download $want >/dev/null) || return 1
	echo "$want" >"$CACHE/perf/done"
	rm -rf "$dir"
}
# add_perf: perf, the dynamic loader and the libraries perf needs (by DT_NEEDED) into $R
add_perf() {
	local pr=$WORK/perfroot todo lib f seen=" "
	rm -rf "$pr"
	mkdir -p "$pr"
	for f in "$CACHE"/perf/*.deb; do
		dpkg -x "$f" "$pr" || return 1
	done
	[ -x "$pr/usr/bin/perf" ] || return 1
	mkdir -p "$R/usr/bin" "$R/lib/aarch64-linux-gnu" "$R/usr/lib/aarch64-linux-gnu"
	cp "$pr/usr/bin/perf" "$R/usr/bin/perf" || return 1
	cp -L "$pr/lib/ld-linux-aarch64.so.1" "$R/lib/ld-linux-aarch64.so.1" || return 1
	todo=$(aarch64-linux-gnu-readelf -d "$pr/usr/bin/perf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # library names, split on purpose
		set -- $todo
		lib=$1
		shift
		todo="$*"
		case $seen in *" $lib "*) continue ;; esac
		seen="$seen$lib "
		f=""
		for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
			[ -e "$pr/$d/$lib" ] && { f=$d/$lib; break; }
		done
		[ -n "$f" ] || { say "perf: library '$lib' is not in the packages"; return 1; }
		cp -L "$pr/$f" "$R/$f" || return 1
		todo="$todo $(aarch64-linux-gnu-readelf -d "$pr/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
	done
	say "perf: $(echo "$seen" | wc -w) libraries"
}
if [ "$PERF" = 1 ]; then
	if fetch_perf && add_perf; then
		:
	else
		say "perf could not be put in the guest: the perf-stat rows are left out"
		rm -f "$R/usr/bin/perf"
	fi
fi

# --- the bench's initramfs: the test bed's root, the guest program, the bench init ---
aarch64-linux-gnu-gcc -static -O2 -pthread -Wall -Wextra -o "$R/qemu_guest" "$SRCDIR/bench/qemu_guest.c" ||
	die "cannot build bench/qemu_guest.c"
cp "$SRCDIR/bench/qemu_bench_init.sh" "$R/init" && chmod 755 "$R/init" "$R/qemu_guest" || die "cannot write /init"
printf 'POPS="%s" A=%s B=%s REPS=%s PROFILE="%s"\n' "$POPS" "$A" "$B" "$REPS" "${PROFILE:-}" >"$R/bench.conf"
(cd "$R" && find . | sort | cpio -o -H newc --quiet | gzip -1 >"$WORK/initrd-bench.gz") ||
	die "cannot write the initramfs"

say "booting $SUITE ($(cat "$CACHE/kernels/vmlinuz-$SUITE.package" 2>/dev/null)); the console log goes to $WORK/$SUITE-bench.log"
t0=$(date +%s)
bash "$QDIR/boot.sh" "$CACHE/kernels/vmlinuz-$SUITE" "$WORK/initrd-bench.gz" "$WORK/$SUITE-bench.log" hw
status=$?
say "boot and bench: $(($(date +%s) - t0)) s, QEMU status $status"

# section NAME: the lines between "@@@ BEGIN NAME" and "@@@ END NAME" of the console log
section() {
	awk -v n="$1" '$1 == "@@@" && $2 == "BEGIN" && $3 == n { f = 1; next }
		$1 == "@@@" && $2 == "END" && $3 == n { f = 0 } f' "$WORK/$SUITE-bench.log"
}
section info
echo
section raw >"$WORK/raw.txt"
section tasks
echo
section profile >"$WORK/profile.txt"
section results >"$WORK/results.txt"
# the table: the lowest of the reps; ratios of instructions per tick to the reader's and top's;
# field 8 is the share of the frames the runner's instructions counter was on the PMU
awk '
	$7 != 0 || $3 < 0 { bad[$1 " " $2] = 1 }
	{
		k = $1 " " $2
		if (!(k in ins) || $3 < ins[k]) { ins[k] = $3; tc[k] = $4; ss[k] = $5; pmu[k] = $8 }
		if (!($1 in seen)) { seen[$1] = 1; np++; pops[np] = $1 }
		if (!($2 in tseen)) { tseen[$2] = 1; nt++; tools[nt] = $2 }
	}
	function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
	END {
		print "| population | tool | instructions/tick | task-clock us/tick | schedstat us/tick | x reader | x top |"
		print "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= np; i++) {
			p = pops[i]
			if (p == "0") name = "0 procs"
			else if (p ~ /x/) name = p " thr"
			else name = p " procs"
			for (j = 1; j <= nt; j++) {
				k = p " " tools[j]
				if (!(k in ins)) continue
				# * : the runner instructions counter shared the PMU with the tool own
				# counters on itself for part of the frames, so its value is scaled
				printf "| %s | %s%s | %.0f%s | %.1f | %.1f | %s | %s |\n", name, tools[j],
					(k in bad) ? " (failed)" : "", ins[k], pmu[k] != "" && pmu[k] < 99.95 ? sprintf(" * (%.0f %%)", pmu[k]) : "",
					tc[k], ss[k],
					ratio(ins[k], ins[p " reader"]), ratio(ins[k], ins[p " top"])
				name = ""
			}
		}
	}' "$WORK/results.txt" | tee "$WORK/table.md"
grep -q '^@@@ DONE' "$WORK/$SUITE-bench.log" && [ "$status" = 0 ] && [ -s "$WORK/results.txt" ] ||
	die "the guest did not finish (QEMU status $status): see $WORK/$SUITE-bench.log"
