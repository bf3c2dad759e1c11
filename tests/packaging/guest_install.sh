#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of test_install.sh (run by scripts/vm-run --no-module, as root):
# ROOT is the clean Debian system into which the packages were installed on
# the host and DKMS built the module for this kernel. Load it the way the
# system would at boot (modprobe of every module named in the package's
# modules-load.d file), then run the installed tools and python3-taskdiag
# inside ROOT: they must list every process, through the module.
#
#   guest_install.sh ROOT
set -uo pipefail
root=$1
kver=$(uname -r)

cleanup() {
	umount "$root/dev/pts" "$root/dev" "$root/sys" "$root/proc" 2>/dev/null
}
fail() {
	echo "FAIL (guest): $*"
	cleanup
	exit 1
}
inroot() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
# Pids in /proc before and after a listing: those in both were alive
# throughout and must be in it.
proc_pids() {
	ls /proc | grep -E '^[0-9]+$' | sort -u
}
check_listing() { # NAME FILE-WITH-PIDS BEFORE
	local after missing
	after=$(proc_pids)
	missing=$(comm -12 <(echo "$3") <(echo "$after") | comm -23 - <(sort -u "$2"))
	[ -z "$missing" ] || fail "$1 did not list running processes: $(echo $missing)"
	echo "$1: $(wc -l <"$2") processes listed, every running one"
}

mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" &&
	mount --bind /dev "$root/dev" && mount --bind /dev/pts "$root/dev/pts" ||
	fail "mounting /proc, /sys, /dev in $root"

! grep -q '^task_diag ' /proc/modules || fail "task_diag is loaded before the test loads it"
conf=$root/usr/lib/modules-load.d/task_diag.conf
[ -f "$conf" ] || fail "no $conf"
mods=$(sed -e 's/[#;].*//' "$conf" | tr -s ' \t' '\n' | grep -v '^$')
[ -n "$mods" ] || fail "$conf names no module"
echo "modules-load.d: $mods"
# shellcheck disable=SC2086
inroot modprobe -a $mods || fail "modprobe $mods (inside the installed system)"
grep -q '^task_diag ' /proc/modules || fail "task_diag is not loaded"
file=$(inroot modinfo -F filename task_diag)
[[ $file == /lib/modules/$kver/updates/dkms/task_diag.ko* ]] ||
	fail "modprobe did not take the DKMS-built module but '$file'"
genl-ctrl-list | grep -w task_diag || fail "the task_diag family is not registered"

tmp=$(mktemp -d)
if [ -x "$root/usr/bin/task_diag_all" ]; then
	before=$(proc_pids)
	inroot task_diag_all --backend netlink --csv -o pid >"$tmp/tda.csv" ||
		fail "task_diag_all --backend netlink (exit $?)"
	# CSV lines end in CRLF (RFC 4180).
	tr -d '\r' <"$tmp/tda.csv" | grep -E '^[0-9]+$' >"$tmp/tda" || fail "task_diag_all printed no pid"
	check_listing task_diag_all "$tmp/tda" "$before"
	inroot task_diag_all --backend netlink -s all -q || fail "task_diag_all -s all -q"
	inroot task_diag_all --version
else
	fail "task_diag_all is not in task-diag-tools"
fi
if [ -x "$root/usr/bin/tdps" ]; then
	before=$(proc_pids)
	inroot tdps -e --backend netlink -o pid= >"$tmp/tdps.out" || fail "tdps -e --backend netlink (exit $?)"
	tr -d ' ' <"$tmp/tdps.out" | grep -E '^[0-9]+$' >"$tmp/tdps" || fail "tdps printed no pid"
	check_listing tdps "$tmp/tdps" "$before"
	inroot tdps -e --backend netlink | head -n 5
else
	fail "tdps is not in task-diag-tools"
fi
# python3-taskdiag, with the system's own python3: through the module.
before=$(proc_pids)
inroot python3 -c '
import taskdiag
assert taskdiag.backend() == "netlink", taskdiag.backend()
for p in taskdiag.process_iter(["pid"], backend="netlink"):
    print(p.pid)
' >"$tmp/py" || fail "python3 -c 'import taskdiag' and process_iter (exit $?)"
check_listing python3-taskdiag "$tmp/py" "$before"
inroot python3 -c 'import taskdiag; print("taskdiag", taskdiag.__version__, taskdiag.__file__)' ||
	fail "taskdiag.__version__"
# The documented example, built on the host against libtaskdiag-dev.
if [ -x "$root/tmp/td-example" ]; then
	inroot /tmp/td-example >"$tmp/example" || fail "the example built against libtaskdiag-dev"
	echo "example: $(wc -l <"$tmp/example") lines"
fi
rm -rf "$tmp"

rmmod task_diag || fail "rmmod task_diag"
cleanup
echo "GUEST-INSTALL-OK"
