#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The correctness tests of one kernel in one boot, run in the guest by
# scripts/vm-run with the module loaded: vm_kernel_parts (the default
# kernel), vm_kernel_parts_7.2, ... A TCG boot costs 10 to 20 s, and
# sixteen of them per kernel made up a fifth of the suite's time. Each part
# is one test script with its arguments; the unprivileged ones run as
# nobody (65534), as vm-run --user runs them. With --lifetime, the module's
# leak check and unload cycles close the boot (the other kernels'
# vm_leak_and_unload_under_load); the default kernel's, with five times the
# cycles, keep a boot of their own.
#
# A part that fails fails the run, and scripts/vm-guest fails it on any
# kernel warning, BUG or oops, whichever part caused it. One part again,
# alone: scripts/vm-run --kernel LABEL -- PYTHON tests/vm/test_NAME.py ...
#
#   tests/vm/test_kernel_parts.sh PYTHON LIBTASKDIAG VFORK_MAPS VMA_LIB MEM_LIB
#           CHURN DUMPS CACHE [--tdps TDPS --tdtop TDTOP --static MEM_STATIC]
#           [--lifetime KO CYCLES]
# MEM_LIB "-": no quick get-vma and no mem part (the main kernels run those
# tests whole, in boots of their own: vm_vma, vm_mem_7.3); VMA_LIB serves
# fuse_stall too. DUMPS 0: no churn part.
set -uo pipefail
usage() {
	echo "usage: test_kernel_parts.sh PYTHON LIBTASKDIAG VFORK_MAPS VMA_LIB MEM_LIB CHURN" \
		"DUMPS CACHE [--tdps TDPS --tdtop TDTOP --static MEM_STATIC]" \
		"[--lifetime KO CYCLES]" >&2
	exit 2
}
[ $# -ge 8 ] || usage
py=$1 lib=$2 vfork=$3 vmalib=$4 memlib=$5 churn=$6 dumps=$7 cache=$8
shift 8
tdps="" tdtop="" static="" ko="" cycles=""
while [ $# -gt 0 ]; do
	case $1 in
	--tdps) [ $# -ge 2 ] || usage; tdps=$2; shift 2 ;;
	--tdtop) [ $# -ge 2 ] || usage; tdtop=$2; shift 2 ;;
	--static) [ $# -ge 2 ] || usage; static=$2; shift 2 ;;
	--lifetime) [ $# -ge 3 ] || usage; ko=$2 cycles=$3; shift 3 ;;
	*) usage ;;
	esac
done
hidepid_tools=() mem_tdps=()
if [ -n "$tdps" ] && [ -n "$tdtop" ] && [ -n "$static" ]; then
	hidepid_tools=(--tdps "$tdps" --tdtop "$tdtop")
	mem_tdps=(--tdps "$tdps" --static "$static")
elif [ -n "$tdps$tdtop$static" ]; then
	usage
fi
t=$(cd "$(dirname "$0")" && pwd)
. "$t/parts.sh"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
scopes=(all_processes all_threads task threads children)

part "compare_proc_root" "$py" "$t/test_compare_proc.py" "${scopes[@]}"
part "compare_proc_user" nobody "$py" "$t/test_compare_proc.py" "${scopes[@]}"
part "compare_proc_pidns_root" \
	unshare --pid --fork --mount-proc "$py" "$t/test_compare_proc.py" all_processes all_threads
part "compare_proc_userns_user" \
	nobody unshare --user --map-root-user --pid --fork --mount-proc \
	"$py" "$t/test_compare_proc.py" all_processes all_threads
part "bad_requests_root" "$py" "$t/test_bad_requests.py"
part "bad_requests_user" nobody "$py" "$t/test_bad_requests.py"
part "filters_root" "$py" "$t/test_filters.py" "$lib"
part "filters_user" nobody "$py" "$t/test_filters.py" "$lib"
part "permissions" "$py" "$t/test_permissions.py" "$vfork"
part "read_time_checks" "$py" "$t/test_read_time.py"
part "sandboxed" "$py" "$t/test_sandboxed.py" --lib "$lib"
part "hostile_ns" "$py" "$t/test_hostile_ns.py"
part "hidepid" "$py" "$t/test_hidepid.py" "$lib" "${hidepid_tools[@]}"
# Their names, VmFlags and file_user_path() differ by kernel; PROCMAP_QUERY
# is the address query's second oracle from 6.11. The 65,000-VMA process
# and the library's dump run on the main kernels (vm_vma).
[ "$memlib" = - ] || part "vma, quick" "$py" "$t/test_vma.py" --quick --lib-query "$vmalib"
[ "$memlib" = - ] || part "mem" "$py" "$t/test_mem.py" --lib "$memlib" "${mem_tdps[@]}"
part "fuse_stall" timeout 400 "$py" "$t/test_fuse_stall.py" --cache "$cache" --vma-lib "$vmalib"
[ "$dumps" = 0 ] || part "churn, $dumps dumps" "$py" "$t/test_churn.py" "$churn" "$dumps"
# Last: it unloads the module the parts above use, and loads it again.
[ -z "$ko" ] || part "leak and unload under load, $cycles cycles" \
	"$py" "$t/test_lifetime.py" "$ko" "$cycles"
echo "parts failed: $fails"
exit $((fails > 0))
