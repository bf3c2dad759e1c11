#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's run that CI can afford: every lock and reference path of
# the module taken once, in one boot of the debug kernel (KASAN, lockdep,
# PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST, kmemleak, UBSAN;
# scripts/debug-kernel builds it, or finds it in its cache). A debug boot
# costs about 2.5 min of TCG before the command runs and after it (boot,
# kmemleak scans), so the parts share one:
#   - the /proc comparison in the five scopes as root, two rounds (a dump
#     and a do of the task scope; every group: the RCU walk, the task, pid,
#     credential and mm references, task_lock, the siglock,
#     exec_update_lock, the mmap lock of cmdline, statm and the mem page
#     walk), and all_processes as nobody (the permission exits);
#   - the bad requests as root (the error exits after references are taken);
#   - the request filters (the cgroup lookups and their references,
#     hidepid=noaccess, the sampling API);
#   - get-vma's quick run (the mmap lock, file references, the name cache,
#     the address query);
#   - the mem group's fixture (THP, hugetlb, shmem, swap-less COW pages);
#   - the hostile namespaces (a reader's own user, mount and pid namespaces);
#   - the build-id parse of 50 crafted ELF files whose note lies past the
#     parse budget;
#   - a dump for its sender only (the EPERM exits of other readers, the
#     held procfs path, a remount, get-vma's exec check) and a do that
#     gives a long mem walk up (the deadline, mmput_async());
#   - the module unloaded and loaded again while dumps run.
# The checkers are the oracle: scripts/vm-guest fails the boot (status 120)
# on any of their reports and on a kmemleak report of the module or of what
# it holds, after the last part. scripts/test --debug-kernel runs each of
# these, and the rest, in a boot of its own.
#
#   tests/vm/test_debug_ci.sh SRC BUILD PYTHON LIBTASKDIAG MEM_LIB
set -uo pipefail
[ $# -eq 5 ] || { echo "usage: test_debug_ci.sh SRC BUILD PYTHON LIBTASKDIAG MEM_LIB" >&2; exit 2; }
src=$1 build=$(cd "$2" && pwd -P) py=$3 lib=$4 memlib=$5
. "$src/scripts/lib.sh"
work=$build/debug-ci
rm -rf "$work"
mkdir -p "$work/kernel"

start=$(date +%s)
kver=$("$src/scripts/debug-kernel") || { echo "FAIL: scripts/debug-kernel"; exit 1; }
kdir=$(td_kdir debug) || { echo "FAIL: no build tree for the debug kernel"; exit 1; }
echo "debug kernel $kver ready after $(($(date +%s) - start)) s"
# The module as CMake builds it for the other kernels, warnings as errors.
cp "$src"/kernel/*.c "$src"/kernel/*.h "$src"/kernel/Kbuild "$src"/kernel/probe "$work/kernel/"
make -s -C "$kdir" M="$work/kernel" TD_INCLUDE="$src/include" W=1 KCFLAGS=-Werror modules \
	>"$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: the module does not build"; exit 1; }
ko=$work/kernel/task_diag.ko

t=$src/tests/vm
start=$(date +%s)
"$src/scripts/vm-run" --build "$build" --kernel debug --module "$ko" --timeout 3000 -- \
	bash -c '
	py=$1 t=$2 lib=$3 memlib=$4 ko=$5
	. "$t/parts.sh"
	part "compare with /proc, root, five scopes, two rounds" \
		"$py" "$t/test_compare_proc.py" --rounds 2 all_processes all_threads task threads children
	part "compare with /proc, nobody" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$py" "$t/test_compare_proc.py" all_processes
	part "bad requests, root" "$py" "$t/test_bad_requests.py"
	part "request filters, root" "$py" "$t/test_filters.py" "$lib"
	part "get-vma, quick" "$py" "$t/test_vma.py" --quick
	part "mem group" "$py" "$t/test_mem.py" --lib "$memlib"
	part "hostile namespaces" "$py" "$t/test_hostile_ns.py"
	part "build-id budget, 50 crafted files" "$py" "$t/test_kernel_bounds.py" a=50
	part "a dump for its sender only" "$py" "$t/test_read_time.py"
	part "a do gives a long mem walk up" "$py" "$t/test_kernel_bounds.py" c
	part "unload under load, 3 cycles" "$py" "$t/test_lifetime.py" "$ko" 3 1000
	exit $fails' _ "$py" "$t" "$lib" "$memlib" "$ko"
rc=$?
echo "debug guest: status $rc after $(($(date +%s) - start)) s"
exit $rc
