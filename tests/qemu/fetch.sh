#!/usr/bin/env bash
# Fetch, into a cache, the arm64 kernels, busybox and sysroot packages the QEMU test bed boots.
#
#   tests/qemu/fetch.sh [CACHE]
#
# CACHE defaults to $PMCTOP_QEMU_CACHE, else $HOME/.cache/pmctop-qemu. Everything is fetched with
# `apt-get download` under a private apt configuration (the host's sources, lists and cache are
# never touched) from the Debian mirror the host's apt uses, or $PMCTOP_QEMU_MIRROR. Once the
# cache is complete a second run does not touch the network.
#
# Exit status: 0 done; 77 the mirror could not be reached or none is configured (the reason is
# on standard error); 1 anything else.
set -u
export LC_ALL=C

CACHE=${1:-${PMCTOP_QEMU_CACHE:-${HOME:-/tmp}/.cache/pmctop-qemu}}
# the kernel generations booted: suite and the kernel series expected there
SUITES="bullseye bookworm trixie"
# the suite the sysroot and busybox come from: Debian 12, whose cross toolchain matches
SYSROOT_SUITE=bookworm
# libbpf and what its static library needs (libelf, zlib): --bpf's loader, linked into pmctop
SYSROOT_PKGS="libpfm4-dev libpfm4 libncurses-dev libncursesw6 libtinfo6 libbpf-dev libbpf1
	libelf-dev libelf1 zlib1g-dev"

say() { echo "fetch: $*" >&2; }
die() { say "$*"; exit 1; }
unreachable() { say "$*"; exit 77; }

mkdir -p "$CACHE/debs" "$CACHE/kernels" || die "cannot create the cache '$CACHE'"

# complete: every file a boot needs is in the cache already
complete() {
	local s p
	for s in $SUITES; do
		[ -s "$CACHE/kernels/vmlinuz-$s" ] || return 1
	done
	for p in busybox-static $SYSROOT_PKGS; do
		[ -s "$CACHE/debs/$p.deb" ] || return 1
	done
}
if complete; then
	exit 0
fi

# mirror: the first Debian archive URI of the host's apt sources (one-line or deb822 format), a
# snapshot.debian.org archive included
mirror() {
	local f
	if [ -n "${PMCTOP_QEMU_MIRROR:-}" ]; then
		echo "$PMCTOP_QEMU_MIRROR"
		return
	fi
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		case $f in
		*.sources)
			awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f" ;;
		*)
			# deb [options] URI suite components
			awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++;
				if ($2 ~ /^\[/) i++; print $i }' "$f" ;;
		esac
	done | grep -E '^(https?|ftp)://[^ ]*/debian(/[0-9]{8}T[0-9]{6}Z)?/?$' | head -1 | sed 's,/$,,'
}
MIRROR=$(mirror)
[ -n "$MIRROR" ] ||
	unreachable "no Debian archive (a URI ending in /debian) in the host's apt sources; set PMCTOP_QEMU_MIRROR"
say "mirror $MIRROR, cache $CACHE"

KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$KEYRING" ] || die "'$KEYRING' is missing: install the package debian-archive-keyring"

# apt_private SUITE ARGS...: apt-get with a configuration of its own for SUITE, arm64 only
apt_private() {
	local suite=$1 dir="$CACHE/apt/$1"
	shift
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/etc"
	: >"$dir/status"
	echo "deb [arch=arm64 signed-by=$KEYRING] $MIRROR $suite main" >"$dir/etc/sources.list"
	"$@" -q -o Dir::Etc::SourceList="$dir/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::State::status="$dir/status" \
		-o APT::Architecture=arm64 -o APT::Architectures=arm64 \
		-o Acquire::Languages=none -o APT::Sandbox::User=root
}

# update SUITE: fetch the suite's package lists once per run
update() {
	local out
	out=$(apt_private "$1" apt-get update 2>&1)
	if [ $? != 0 ] || echo "$out" | grep -qE '^(W|E): (Failed to fetch|Some index files failed)'; then
		echo "$out" | sed 's/^/  /' >&2
		if echo "$out" | grep -qiE 'Could not resolve|Could not connect|Connection failed|timed out|Temporary failure|Network is unreachable|No route'; then
			unreachable "the mirror $MIRROR cannot be reached"
		fi
		die "apt-get update of '$1' failed"
	fi
	: >"$CACHE/apt/$1/updated"
}

# download SUITE PKG DEST: apt-get download PKG into the file DEST
download() {
	local suite=$1 pkg=$2 dest=$3 tmp
	tmp=$(mktemp -d "$CACHE/dl.XXXXXX") || die "cannot create a temporary directory"
	if ! (cd "$tmp" && apt_private "$suite" apt-get download "$pkg" >/dev/null); then
		rm -rf "$tmp"
		die "apt-get download '$pkg' from '$suite' failed"
	fi
	mv "$tmp"/*.deb "$dest" && rmdir "$tmp" || die "no .deb for '$pkg'"
}

for s in $SUITES; do
	[ -s "$CACHE/kernels/vmlinuz-$s" ] && continue
	update "$s"
	# the meta package depends on the image of the current ABI, e.g. linux-image-6.1.0-37-cloud-arm64
	image=$(apt_private "$s" apt-cache depends linux-image-cloud-arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-cloud-arm64\)$/\1/p' | head -1)
	[ -n "$image" ] || die "'$s' has no linux-image-cloud-arm64 depending on a kernel image"
	say "$s: $image"
	download "$s" "$image" "$CACHE/debs/$image.deb"
	tmp=$(mktemp -d "$CACHE/ex.XXXXXX")
	dpkg-deb --fsys-tarfile "$CACHE/debs/$image.deb" | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*' ||
		die "no /boot/vmlinuz-* in $image"
	mv "$tmp"/boot/vmlinuz-* "$CACHE/kernels/vmlinuz-$s" && rm -rf "$tmp"
	echo "$image" >"$CACHE/kernels/vmlinuz-$s.package"
	# the image is the only thing needed from the package
	rm -f "$CACHE/debs/$image.deb"
done

need=""
for p in busybox-static $SYSROOT_PKGS; do
	[ -s "$CACHE/debs/$p.deb" ] || need="$need $p"
done
if [ -n "$need" ]; then
	[ -f "$CACHE/apt/$SYSROOT_SUITE/updated" ] || update "$SYSROOT_SUITE"
	for p in $need; do
		say "$SYSROOT_SUITE: $p"
		download "$SYSROOT_SUITE" "$p" "$CACHE/debs/$p.deb"
	done
fi
complete || die "the cache is incomplete after fetching"
# the package lists are only needed to resolve names; drop them once everything is here
rm -rf "$CACHE/apt"
exit 0
