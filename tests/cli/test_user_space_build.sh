#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The README's cmake line on a host that has no guest kernel's headers (no
# scripts/setup): a default kernel label no headers exist for stands in for
# them. With the default TASK_DIAG_BUILD_MODULE (AUTO) the configuration
# succeeds with a warning that says how to build the module, configures no
# kernel target and no guest test, and tdps builds and lists this shell as
# ps does; with TASK_DIAG_BUILD_MODULE=ON the same configuration fails.
#
#   test_user_space_build.sh CMAKE SOURCE_DIR
set -eu
cmake=$1
src=$2
label=0.0 # a kernel series no headers exist for

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/td_userspace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$cmake" -S "$src" -B "$tmp/b" -DTASK_DIAG_KERNELS="$label" >"$tmp/conf.log" 2>&1 ||
	{ cat "$tmp/conf.log" >&2; fail "cmake without guest kernels (AUTO) failed"; }
# (CMake wraps a warning's lines: read it as one line)
flat=$(tr -s ' \n' '  ' <"$tmp/conf.log")
case $flat in
*"not task_diag.ko: no kernel version for $label: run scripts/setup $label"*"DKMS (docs/install.md)"*) ;;
*) cat "$tmp/conf.log" >&2; fail "no warning that says how to build the module (scripts/setup, DKMS)" ;;
esac
! "$cmake" --build "$tmp/b" --target help | grep -q task_diag_ko ||
	fail "a kernel target was configured"
n=$(cd "$tmp/b" && ctest -N | grep -c ' vm_' || true)
[ "$n" -eq 0 ] || fail "$n guest tests configured without a module"
"$cmake" --build "$tmp/b" --target tdps -j2 >"$tmp/build.log" 2>&1 ||
	{ tail -n 30 "$tmp/build.log" >&2; fail "tdps did not build"; }
want=$(ps -o pid=,comm= -p $$)
got=$("$tmp/b/tools/tdps" --quiet-fallback -o pid=,comm= -p $$) || fail "tdps -p $$ (exit $?)"
[ "$got" = "$want" ] || fail "tdps -o pid=,comm= -p $$: '$got', ps: '$want'"

if "$cmake" -S "$src" -B "$tmp/on" -DTASK_DIAG_KERNELS="$label" -DTASK_DIAG_BUILD_MODULE=ON \
	>"$tmp/on.log" 2>&1; then
	fail "TASK_DIAG_BUILD_MODULE=ON without a kernel's headers configured"
fi
grep -q "no kernel version for $label" "$tmp/on.log" || { cat "$tmp/on.log" >&2; fail "ON: no reason given"; }
echo "PASS: user space without guest kernels (a warning naming scripts/setup and DKMS, no" \
	"kernel target, no guest test; tdps -p \$\$ as ps); ON without them fails"
