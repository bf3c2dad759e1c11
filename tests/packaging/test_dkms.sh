#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS, as a user runs it, on the host -- build only, never loaded here:
# lay out the source tree as the task-diag-dkms package installs it
# (packaging/dkms-source), then `dkms add`, `dkms build -k KVER` against
# the Debian headers of KVER (a 6.1 or 6.12 kernel) and `dkms install -k
# KVER` into a scratch module tree (never the host's /lib/modules), `dkms
# uninstall`, `dkms remove`, all with private DKMS trees. For a 7.x kernel
# (trixie-backports), as a Debian 13 user runs it: every dkms, modinfo and
# depmod step runs inside the trixie build root (scripts/trixie-root run),
# with trixie's own dkms (installed there the first time: scripts/trixie-root
# ensure dkms), the headers at /usr/src/linux-headers-KVER as the root sees
# them and the test's work folder bind-mounted at its own path. Check the
# module's modinfo (version magic, the documented ptrace_cap_only parameter,
# the genl family alias). Then boot that kernel in the guest (on the host:
# scripts/vm-run) with the DKMS-built task_diag.ko loaded: the family is
# listed by the controller and answers a dump of every process. And DKMS
# refuses a kernel outside BUILD_EXCLUSIVE_KERNEL.
#
#   test_dkms.sh BUILD_DIR [KVER]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"

build=$(cd "$1" && pwd -P)
kver=${2:-$(td_kver)} || td_die "no guest kernel version: run scripts/setup"
kdir=/usr/src/linux-headers-$kver
version=$("$TD_SRC/packaging/version")
# The trixie build root for a 7.x kernel (empty: DKMS runs on the host).
troot=
if td_kernel_in_root "$kver"; then
	troot=$("$TD_SRC/scripts/trixie-root" path)
fi

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

if [ -z "$troot" ]; then
	command -v dkms >/dev/null || "$TD_SRC/scripts/package" --deps
else
	"$TD_SRC/scripts/trixie-root" ensure dkms || fail "could not install dkms in the trixie root $troot"
fi
[ -f "$troot$kdir/Makefile" ] || fail "no kernel headers at $troot$kdir: run scripts/setup"
[ "$kver" != "$(uname -r)" ] || fail "refusing to build for the running host kernel $kver"

work=$build/packaging-test/dkms-$kver
rm -rf "$work"
mkdir -p "$work/src" "$work/tree" "$work/root/lib/modules/$kver" "$work/keys"
# Private trees, and a private signing key (dkms signs what it builds), so
# nothing outside $work is written.
dk=(--sourcetree "$work/src" --dkmstree "$work/tree" --installtree "$work/root/lib/modules")
export mok_signing_key=$work/keys/mok.key mok_certificate=$work/keys/mok.pub

# CMD where DKMS runs: on the host, or (7.x) inside the trixie root, which
# sees only $work of the host's files (at its own path) and no environment
# but the signing key's.
dk_run() {
	if [ -n "$troot" ]; then
		"$TD_SRC/scripts/trixie-root" run --bind "$work" -- \
			env mok_signing_key="$mok_signing_key" mok_certificate="$mok_certificate" "$@"
	else
		"$@"
	fi
}
[ -z "$troot" ] || echo "DKMS in the trixie root $troot: $(dk_run dkms --version)"

t0=$SECONDS
"$TD_SRC/packaging/dkms-source" "$work/src/task-diag-$version"
grep -qx "PACKAGE_VERSION=\"$version\"" "$work/src/task-diag-$version/dkms.conf" ||
	fail "dkms.conf does not carry version $version"

dk_run dkms add -m task-diag -v "$version" "${dk[@]}" >"$work/dkms.log" 2>&1 ||
	{ cat "$work/dkms.log"; fail "dkms add"; }
dk_run dkms build -m task-diag -v "$version" -k "$kver" --kernelsourcedir "$kdir" "${dk[@]}" \
	>>"$work/dkms.log" 2>&1 || {
	cat "$work/dkms.log"
	cat "$work/tree/task-diag/$version/build/make.log" 2>/dev/null | tail -n 40
	fail "dkms build -k $kver"
}
ko=$(find "$work/tree/task-diag/$version/$kver" -name 'task_diag.ko*' | head -n1)
[ -n "$ko" ] || { cat "$work/dkms.log"; fail "dkms build made no task_diag.ko"; }
echo "dkms build: $ko ($((SECONDS - t0)) s)"

# No warning from the build (Kbuild at the default warning level).
if grep -E 'warning:|error:' "$work/tree/task-diag/$version/$kver/"*/log/make.log; then
	fail "the DKMS build printed warnings"
fi

info=$(dk_run modinfo "$ko")
echo "$info" | grep -v -E '^(signature|sig_|[[:space:]])'
[ "$(awk '$1 == "vermagic:" { print $2 }' <<<"$info")" = "$kver" ] || fail "vermagic is not $kver"
echo "$info" | grep -qE '^parm: +ptrace_cap_only:[^ ].*\(bool\)$' ||
	fail "modinfo does not document the ptrace_cap_only parameter"
echo "$info" | grep -qE '^parm: +nnp_cap_only:[^ ].*\(bool\)$' ||
	fail "modinfo does not document the nnp_cap_only parameter"
# No autoload by family name: any user's CTRL_CMD_GETFAMILY would load the
# module, and registering a family takes genetlink's cb_lock for writing.
if echo "$info" | grep -qE '^alias: +net-pf-16-proto-16-family-task_diag$'; then
	fail "a genetlink family alias: any user could load the module"
fi
echo "$info" | grep -qE '^license: +GPL$' || fail "licence is not GPL"

dk_run dkms install -m task-diag -v "$version" -k "$kver" --no-depmod "${dk[@]}" \
	>>"$work/dkms.log" 2>&1 || { cat "$work/dkms.log"; fail "dkms install -k $kver"; }
installed=$work/root/lib/modules/$kver/updates/dkms
ls "$installed"/task_diag.ko* >/dev/null 2>&1 || fail "dkms install put nothing in $installed"
dk_run depmod -b "$work/root" "$kver" 2>>"$work/dkms.log" || fail "depmod"
grep -q 'updates/dkms/task_diag.ko' "$work/root/lib/modules/$kver/modules.dep" ||
	fail "task_diag.ko is not in modules.dep"
st=$(dk_run dkms status -m task-diag -v "$version" "${dk[@]}")
echo "dkms status: $st"
grep -q "task-diag/$version, $kver, .*: installed" <<<"$st" || fail "dkms status does not say installed"

# The guest loads the DKMS-built module (vm-run refuses to start without it).
guest=$work/guest.log
"$TD_SRC/scripts/vm-run" --build "$build" --kernel "$kver" --module "$ko" -- sh -c '
	set -e
	grep -q "^task_diag " /proc/modules
	genl-ctrl-list | grep -w task_diag
	/usr/bin/python3 "$1" all_processes | tail -n 1
	' sh "$TD_SRC/tests/vm/tdnl.py" >"$guest" 2>&1 || { cat "$guest"; fail "guest run"; }
cat "$guest"
grep -qE 'task_diag' "$guest" || fail "genl-ctrl-list does not list task_diag"
n=$(sed -n 's/^\([0-9][0-9]*\) tasks (scope all_processes)$/\1/p' "$guest")
[ -n "$n" ] && [ "$n" -gt 3 ] || fail "the dump did not list the guest's processes"

# A kernel the module is not tested on (same headers, another release
# name): DKMS skips it, with its "excluded" status, and builds nothing.
# In the trixie root: the next series, not tested yet.
other=6.5.0-99-amd64
[ -z "$troot" ] || other=7.4.1+deb13-amd64
rc=0
dk_run dkms build -m task-diag -v "$version" -k "$other" --kernelsourcedir "$kdir" "${dk[@]}" \
	>"$work/excluded.log" 2>&1 || rc=$?
[ "$rc" -eq 77 ] || { cat "$work/excluded.log"; fail "dkms build -k $other: status $rc, not 77 (excluded)"; }
grep -q "BUILD_EXCLUSIVE" "$work/excluded.log" || { cat "$work/excluded.log"; fail "DKMS gave no BUILD_EXCLUSIVE reason"; }
[ -z "$(find "$work/tree/task-diag/$version" -path "*$other*" -name 'task_diag.ko*')" ] ||
	fail "DKMS built a module for the excluded $other"
echo "dkms build -k $other: excluded, as it should be"

dk_run dkms uninstall -m task-diag -v "$version" -k "$kver" --no-depmod "${dk[@]}" \
	>>"$work/dkms.log" 2>&1 || { cat "$work/dkms.log"; fail "dkms uninstall"; }
! ls "$installed"/task_diag.ko* >/dev/null 2>&1 || fail "dkms uninstall left the module"
dk_run dkms remove -m task-diag -v "$version" --all "${dk[@]}" >>"$work/dkms.log" 2>&1 ||
	{ cat "$work/dkms.log"; fail "dkms remove"; }
[ ! -e "$work/tree/task-diag/$version" ] || fail "dkms remove left $work/tree/task-diag/$version"

rm -rf "$work"
rmdir "$build/packaging-test" 2>/dev/null || true
# The empty mount point that scripts/trixie-root run made in the root.
if [ -n "$troot" ]; then
	rmdir "$troot$work" 2>/dev/null || true
	rmdir "$troot$build/packaging-test" 2>/dev/null || true
fi
echo "PASS: DKMS add/build/install/uninstall/remove for $kver; the DKMS-built module loads" \
	"in the guest and dumps $n processes ($((SECONDS - t0)) s)"
