#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The packages, installed the way users install them, on a Debian 12 system
# that has never seen task_diag: a debootstrap (minbase) of bookworm with the
# guest kernel's headers, cached, under a throwaway overlay.
#
#  1. `apt-get install ./*.deb` pulls dkms (and the compiler) from the
#     mirror, and DKMS builds and installs task_diag.ko for the guest kernel.
#  2. docs/example.c builds against libtaskdiag-dev with pkg-config.
#  3. The guest (scripts/vm-run) loads the module from that system as
#     modules-load.d would at boot and runs task_diag_all, tdps and the
#     Python binding (python3-taskdiag, with the python3 it pulls in) there:
#     every running process is listed (tests/packaging/guest_install.sh).
#  4. `apt-get purge` of the four packages leaves nothing of them behind:
#     none of the files they listed, no /usr/src/task-diag-*, no DKMS state,
#     no task_diag.ko in any /lib/modules/*/updates/dkms, nothing named after
#     task_diag anywhere in what changed on the system.
#
#   test_install.sh BUILD_DIR PACKAGES_DIR [KVER]
#
# Needs root (mounts, chroot) and the Debian mirror apt is configured with.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"
. "$here/chroot.sh"

build=$(cd "$1" && pwd -P)
debs=$2
kver=${3:-$(td_kver)} || td_die "no guest kernel version: run scripts/setup"
version=$("$TD_SRC/packaging/version")
PKGS=(task-diag-dkms libtaskdiag0 libtaskdiag-dev task-diag-tools python3-taskdiag)

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (mounts, chroot)"; exit 77; }
command -v debootstrap >/dev/null || "$TD_SRC/scripts/package" --deps
for p in "${PKGS[@]}"; do
	ls "$debs/${p}_${version}_"*.deb >/dev/null 2>&1 ||
		fail "no ${p}_${version} package in $debs: run scripts/package"
done

t0=$SECONDS
base=$(td_chroot_base "$kver") && [ -n "$base" ] || fail "no clean bookworm system"
work=$build/packaging-test/install
trap 'td_chroot_down "$work"' EXIT
td_chroot_up "$base" "$work"
root=$work/root
log=$work/apt.log
echo "clean system: $base (+ overlay $work/upper), $((SECONDS - t0)) s"

# 1. Install, as a user would, from the package files.
mkdir -p "$root/root/debs"
for p in "${PKGS[@]}"; do
	cp "$debs/${p}_${version}_"*.deb "$root/root/debs/"
done
t1=$SECONDS
if ! td_in_chroot "$work" sh -ec '
	apt-get update -q
	cd /root/debs && apt-get install -y -q ./*.deb' >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	fail "apt-get install ./*.deb (log: $log)"
fi
echo "apt-get install ./*.deb: $((SECONDS - t1)) s"
# What the DKMS package's postinst printed.
awk '/^Setting up task-diag-dkms/ { on = 1; print; next } on && /^(Setting up|Processing triggers)/ { on = 0 } on' "$log"
for p in "${PKGS[@]}"; do
	v=$(td_in_chroot "$work" dpkg-query -W -f='${db:Status-Status} ${Version}' "$p")
	[ "$v" = "installed $version" ] || fail "$p: '$v', not 'installed $version'"
	td_in_chroot "$work" dpkg -L "$p" >"$work/$p.list"
done
status=$(td_in_chroot "$work" dkms status task-diag)
echo "dkms status: $status"
grep -q "^task-diag/$version, $kver, x86_64: installed" <<<"$status" ||
	fail "DKMS did not build and install task-diag/$version for $kver"
kos=("$root/lib/modules/$kver/updates/dkms/"task_diag.ko*)
ko=${kos[0]}
[ -e "$ko" ] || fail "no task_diag.ko in /lib/modules/$kver/updates/dkms"
vermagic=$(td_in_chroot "$work" modinfo -F vermagic "/${ko#"$root"/}")
grep -q "^$kver " <<<"$vermagic" || fail "the DKMS-built module is for '$vermagic', not $kver"
parms=$(td_in_chroot "$work" modinfo -F parm "/${ko#"$root"/}")
grep -q '^ptrace_cap_only:' <<<"$parms" || fail "modinfo does not document ptrace_cap_only"

# 2. The -dev package is enough to build against the library.
cp "$TD_SRC/docs/example.c" "$root/tmp/td-example.c"
if ! td_in_chroot "$work" sh -ec '
	apt-get install -y -q --no-install-recommends pkgconf
	cc -Wall -Wextra -Werror /tmp/td-example.c -o /tmp/td-example $(pkg-config --cflags --libs taskdiag)
	' >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	fail "docs/example.c does not build against libtaskdiag-dev"
fi
echo "docs/example.c builds with pkg-config --cflags --libs taskdiag"

# 3. The guest: load the module from the installed system, run the tools.
td_chroot_sys_down "$work"
t2=$SECONDS
rc=0
"$TD_SRC/scripts/vm-run" --build "$build" --no-module -- \
	bash "$here/guest_install.sh" "$root" >"$work/guest.log" 2>&1 || rc=$?
cat "$work/guest.log"
[ $rc -eq 0 ] && grep -q '^GUEST-INSTALL-OK$' "$work/guest.log" || fail "guest run (exit $rc)"
echo "guest: $((SECONDS - t2)) s"
td_chroot_sys_up "$work"

# 4. Remove everything, then look for anything left.
rm -rf "$root/root/debs" "$root/tmp/td-example" "$root/tmp/td-example.c"
t3=$SECONDS
if ! td_in_chroot "$work" apt-get purge -y -q "${PKGS[@]}" >>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	fail "apt-get purge"
fi
echo "apt-get purge: $((SECONDS - t3)) s"
left=()
for p in "${PKGS[@]}"; do
	while read -r f; do
		[ -e "$root$f" ] || [ -L "$root$f" ] || continue
		[ -d "$root$f" ] && [ ! -L "$root$f" ] && continue # shared folders (/usr/lib...)
		left+=("$f ($p)")
	done <"$work/$p.list"
	known=$(td_in_chroot "$work" dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[ -z "$known" ] || left+=("dpkg still knows $p ($known)")
done
for d in "$root"/usr/src/task-diag-* "$root"/var/lib/dkms/task-diag "$root"/lib/modules/*/updates/dkms/task_diag.ko*; do
	[ -e "$d" ] && left+=("${d#"$root"}")
done
grep -l task_diag "$root"/lib/modules/*/modules.dep 2>/dev/null && left+=("task_diag in modules.dep")
# Whatever changed on the system (the overlay's upper layer) and is named
# after us. dpkg and apt's logs mention us inside, by design; names count.
while read -r f; do
	left+=("${f#"$work/upper"}")
done < <(find "$work/upper" \( -iname '*task?diag*' -o -iname '*taskdiag*' \) -print)
if [ ${#left[@]} -gt 0 ]; then
	printf '  left behind: %s\n' "${left[@]}" >&2
	fail "removal left files behind"
fi
trap - EXIT
td_chroot_rm "$work"
rmdir "$build/packaging-test" 2>/dev/null || true
echo "PASS: installed with apt-get into a clean bookworm, DKMS built task_diag.ko for $kver," \
	"the guest loaded it and the tools and python3-taskdiag listed every process; purge left nothing" \
	"($((SECONDS - t0)) s)"
