#!/usr/bin/env bash
# Build the QEMU test bed's initramfs: a static arm64 pmctop, the guest workload, busybox.
# pmctop is built with --bpf (--enable-bpf: a build without it would fail here, not pass the
# guest's --bpf cases per thread): its program is compiled by this machine's clang for the bpf
# target, and libbpf, libelf and zlib are linked statically from the sysroot.
#
#   tests/qemu/build.sh SRCDIR WORKDIR [CACHE]
#
# SRCDIR is pmctop's source tree (configured in place or not: it is copied, and the copy is
# built out of tree in WORKDIR/build). CACHE holds what tests/qemu/fetch.sh fetched. Writes
# WORKDIR/initrd.gz. Exit status 0 done, 1 failed (the reason on standard error).
set -u
export LC_ALL=C

SRCDIR=$(cd "${1:?usage: build.sh SRCDIR WORKDIR [CACHE]}" && pwd) || exit 1
WORK=${2:?usage: build.sh SRCDIR WORKDIR [CACHE]}
CACHE=${3:-${PMCTOP_QEMU_CACHE:-${HOME:-/tmp}/.cache/pmctop-qemu}}
HOST=aarch64-linux-gnu
CC=${HOST}-gcc

die() { echo "build: $*" >&2; exit 1; }
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd) || die "cannot create '$WORK'"

# the target's libraries, unpacked from their packages: no multiarch installation on the host
rm -rf "$WORK/sysroot"
mkdir -p "$WORK/sysroot"
for p in libpfm4-dev libpfm4 libncurses-dev libncursesw6 libtinfo6 libbpf-dev libbpf1 libelf-dev \
	libelf1 zlib1g-dev; do
	dpkg -x "$CACHE/debs/$p.deb" "$WORK/sysroot" || die "cannot unpack '$p' from '$CACHE/debs'"
done

# a clean copy of the sources, so that an in-place configured tree does not stop a VPATH build
rm -rf "$WORK/src" "$WORK/build"
mkdir -p "$WORK/src" "$WORK/build"
[ -x "$SRCDIR/configure" ] || die "no configure in '$SRCDIR' (run autoreconf -fi there first)"
copy=""
for f in configure configure.ac Makefile.am Makefile.in aclocal.m4 config.h.in build-aux m4 src doc; do
	[ -e "$SRCDIR/$f" ] && copy="$copy $f"
done
# shellcheck disable=SC2086 # the list is of known plain names
(cd "$SRCDIR" && tar --exclude='*.o' --exclude='*.a' --exclude='*.skel.h' --exclude=.deps \
	--exclude=.dirstamp --exclude=src/pmctop -cf - $copy) | tar -C "$WORK/src" -xpf - ||
	die "cannot copy the sources from '$SRCDIR'"
(cd "$WORK/build" && ../src/configure -q --host=$HOST --with-sysroot="$WORK/sysroot" \
	--enable-static-binary --enable-bpf CFLAGS="-O2 -g0" >configure.out 2>&1) ||
	{ tail -20 "$WORK/build/configure.out" >&2; die "the cross configure failed (see $WORK/build/config.log)"; }
(cd "$WORK/build" && make -j2 src/pmctop >make.out 2>&1) ||
	{ tail -20 "$WORK/build/make.out" >&2; die "the cross build of pmctop failed"; }

# the initramfs
R=$WORK/root
rm -rf "$R"
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/root" "$R/usr/share/terminfo/v"
mkdir -p "$WORK/busybox"
dpkg -x "$CACHE/debs/busybox-static.deb" "$WORK/busybox" || die "cannot unpack busybox-static"
cp "$WORK/busybox/bin/busybox" "$R/bin/busybox" || die "no busybox in busybox-static"
vt100=""
for d in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
	[ -r "$d/v/vt100" ] && { vt100="$d/v/vt100"; break; }
done
[ -n "$vt100" ] || die "no vt100 terminfo entry on this machine (Debian: ncurses-base)"
cp "$vt100" "$R/usr/share/terminfo/v/vt100"
cp "$WORK/build/src/pmctop" "$R/pmctop"
$CC -static -O2 -pthread -Wall -Wextra -o "$R/wl" "$SRCDIR/tests/qemu/guest_workload.c" ||
	die "cannot build the guest workload"
cp "$SRCDIR/tests/qemu/guest_init.sh" "$R/init"
chmod 755 "$R/init" "$R/pmctop" "$R/wl" "$R/bin/busybox"
(cd "$R" && find . | sort | cpio -o -H newc --quiet | gzip -1 >"$WORK/initrd.gz") ||
	die "cannot write the initramfs"
exit 0
