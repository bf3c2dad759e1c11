# SPDX-License-Identifier: GPL-2.0
# Helpers for the package install test: a clean Debian 12 system that has
# never seen task_diag, as a throwaway overlay over a cached debootstrap.
# Source it after scripts/lib.sh; do not run it.
#
#   td_chroot_base KVER     -> prints the cached base folder (made on first use:
#                              debootstrap minbase bookworm + linux-headers-KVER)
#   td_chroot_up BASE DIR   -> DIR/root: writable overlay over BASE (changes go to
#                              DIR/upper), with /proc, /sys, /dev, /dev/pts mounted
#   td_chroot_sys_down DIR  -> unmount all but the overlay (before the guest
#                              mounts its own /proc, /sys, /dev there)
#   td_chroot_sys_up DIR    -> mount them again
#   td_chroot_down DIR      -> unmount everything under DIR
#   td_chroot_rm DIR        -> unmount everything under DIR, then remove it
#   td_in_chroot DIR CMD... -> run CMD inside DIR/root

# The Debian mirror apt is configured with here (the chroot gets the same
# sources, so it sees the same kernel headers).
td_mirror() {
	local m
	m=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
		2>/dev/null | grep -oE 'https?://[^ ]+' | sed -n 1p || true)
	echo "${m:-http://deb.debian.org/debian}"
}

td_chroot_base() {
	local kver=$1 base="$TD_CACHE/chroot/bookworm-$1" tmp
	if [ -f "$base/.td-complete" ]; then
		echo "$base"
		return 0
	fi
	command -v debootstrap >/dev/null || td_die "debootstrap missing (scripts/package --deps installs it)"
	tmp="$base.tmp"
	td_chroot_rm "$tmp"
	mkdir -p "$tmp"
	td_log "debootstrap bookworm (minbase) from $(td_mirror) into $tmp"
	debootstrap --variant=minbase bookworm "$tmp" "$(td_mirror)" >"$tmp.log" 2>&1 || {
		tail -n 30 "$tmp.log" >&2
		td_die "debootstrap failed (log: $tmp.log)"
	}
	# The same suites as the host (the kernel headers come from -security).
	rm -f "$tmp/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/*.sources "$tmp/etc/apt/sources.list.d/" 2>/dev/null
	[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$tmp/etc/apt/sources.list"
	# The kernel headers of the guest's kernel, as on a machine running it.
	_td_chroot_mounts "$tmp" || td_die "mounting /proc, /sys, /dev in $tmp failed"
	td_log "installing linux-headers-$kver into the base"
	if ! chroot "$tmp" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -ec "
		apt-get update -q
		apt-get install -y -q --no-install-recommends linux-headers-$kver
		apt-get clean" >>"$tmp.log" 2>&1; then
		td_chroot_down "$tmp"
		tail -n 30 "$tmp.log" >&2
		td_die "could not install linux-headers-$kver in the base (log: $tmp.log)"
	fi
	td_chroot_down "$tmp"
	rm -f "$tmp/etc/resolv.conf"
	touch "$tmp/.td-complete"
	rm -rf "$base"
	mv "$tmp" "$base"
	mv "$tmp.log" "$base.log"
	echo "$base"
}

_td_chroot_mounts() {
	local r=$1
	cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
	mount -t proc proc "$r/proc" &&
		mount -t sysfs sysfs "$r/sys" &&
		mount --bind /dev "$r/dev" &&
		mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts"
}

td_chroot_up() {
	local base=$1 dir=$2
	td_chroot_rm "$dir"
	mkdir -p "$dir/upper" "$dir/work" "$dir/root"
	mount -t overlay overlay -o "lowerdir=$base,upperdir=$dir/upper,workdir=$dir/work" \
		"$dir/root" || td_die "overlay mount on $dir/root failed"
	td_chroot_sys_up "$dir"
}

td_chroot_sys_up() {
	local dir=$1
	_td_chroot_mounts "$dir/root" || td_die "mounting /proc, /sys, /dev in $dir/root failed"
	# Downloaded packages survive between runs (apt-get install of the
	# dependencies would otherwise fetch them every time).
	mkdir -p "$TD_CACHE/chroot/archives/partial"
	mount --bind "$TD_CACHE/chroot/archives" "$dir/root/var/cache/apt/archives" ||
		td_die "bind mount of the package cache failed"
}

td_chroot_sys_down() {
	local dir=$1
	td_chroot_down "$dir/root/proc"
	td_chroot_down "$dir/root/sys"
	td_chroot_down "$dir/root/dev"
	td_chroot_down "$dir/root/var/cache/apt/archives"
}

td_chroot_down() {
	local dir=$1 m
	[ -d "$dir" ] || return 0
	dir=$(cd "$dir" && pwd -P)
	# Deepest first.
	for m in $(_td_mounts_under "$dir"); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}

_td_mounts_under() {
	findmnt -rn -o TARGET | awk -v d="$1" '$0 == d || index($0, d "/") == 1' | sort -r
}

td_chroot_rm() {
	local dir=$1
	[ -e "$dir" ] || return 0
	td_chroot_down "$dir"
	# Never remove through a mount (/dev, /proc, the package cache).
	[ -z "$(_td_mounts_under "$(cd "$dir" && pwd -P)")" ] ||
		td_die "cannot unmount everything under $dir; not removing it"
	rm -rf --one-file-system "$dir"
}

td_in_chroot() {
	local dir=$1
	shift
	chroot "$dir/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
