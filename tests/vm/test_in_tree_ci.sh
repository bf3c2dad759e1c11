#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-tree kernel's run that CI can afford: scripts/in-tree-kernel builds
# Debian's linux-source-7.3 with this checkout's series applied
# (CONFIG_TASK_DIAG=y; cached, a changed series rebuilds its objects and the
# link only), after its patches pass checkpatch.pl --strict without an
# error; then one boot of it runs the correctness subset, with nothing
# loaded:
#   - the /proc comparisons, five scopes as root, two as nobody, and in new
#     pid and user namespaces;
#   - the permissions, at send and at read time, hidepid=, the hostile
#     namespaces and procfs mounts;
#   - the Landlock-sandboxed reader, which built in gets exactly what its
#     /proc gives it (the LSM hook is asked);
#   - the request filters, get-vma (quick) and the mem group (with swap on
#     zram: SwapPss exact).
# scripts/vm-guest fails the boot on any kernel warning, BUG or oops.
#
#   tests/vm/test_in_tree_ci.sh SRC BUILD PYTHON LIBTASKDIAG MEM_LIB VFORK_MAPS
set -uo pipefail
[ $# -eq 6 ] || { echo "usage: test_in_tree_ci.sh SRC BUILD PYTHON LIBTASKDIAG MEM_LIB VFORK_MAPS" >&2; exit 2; }
src=$1 build=$(cd "$2" && pwd -P) py=$3 lib=$4 memlib=$5 vfork=$6

start=$(date +%s)
# The series, checked by the tree's checkpatch.pl --strict (no ERROR).
kver=$("$src/scripts/in-tree-kernel" --series "$build/in-tree-series" --checkpatch) ||
	{ echo "FAIL: scripts/in-tree-kernel"; exit 1; }
echo "in-tree kernel $kver ready after $(($(date +%s) - start)) s"

t=$src/tests/vm
start=$(date +%s)
"$src/scripts/vm-run" --build "$build" --kernel in-tree --timeout 2400 -- \
	bash -c '
	py=$1 t=$2 lib=$3 memlib=$4 vfork=$5
	. "$t/parts.sh"
	grep -qw "^task_diag" /proc/modules && { echo "FAIL: a task_diag module is loaded"; exit 1; }
	part "compare with /proc, root, five scopes" \
		"$py" "$t/test_compare_proc.py" all_processes all_threads task threads children
	part "compare with /proc, nobody" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$py" "$t/test_compare_proc.py" all_processes all_threads
	part "compare with /proc, a pid namespace" \
		unshare --pid --fork --mount-proc "$py" "$t/test_compare_proc.py" all_processes all_threads
	part "compare with /proc, nobody in a user and pid namespace" \
		setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --pid --fork \
		--mount-proc "$py" "$t/test_compare_proc.py" all_processes all_threads
	part "permissions" "$py" "$t/test_permissions.py" "$vfork"
	part "read-time checks" "$py" "$t/test_read_time.py"
	part "Landlock-sandboxed reader" "$py" "$t/test_sandboxed.py" --lib "$lib"
	part "hidepid" "$py" "$t/test_hidepid.py" "$lib"
	part "hostile namespaces" "$py" "$t/test_hostile_ns.py"
	part "request filters, root" "$py" "$t/test_filters.py" "$lib"
	part "get-vma, quick" "$py" "$t/test_vma.py" --quick
	part "mem group" "$py" "$t/test_mem.py" --lib "$memlib"
	exit $fails' _ "$py" "$t" "$lib" "$memlib" "$vfork"
rc=$?
echo "in-tree guest: status $rc after $(($(date +%s) - start)) s"
exit $rc
