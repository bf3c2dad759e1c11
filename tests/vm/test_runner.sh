#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM runner keeps its promises: a command's exit status comes back, the
# module is loaded and its family registered, and a guest kernel panic, a
# module that does not load and a time-out each fail with their own status
# and a message, quickly.
set -u
VM_RUN=("$@")
fails=0 n=0

check() {
	local name=$1 want=$2 got=$3
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $name: $got"
	else
		echo "FAIL $name: expected $want, got $got"
		fails=$((fails + 1))
	fi
}

"${VM_RUN[@]}" -- sh -c 'exit 3'
check "exit status propagates" 3 $?

out=$("${VM_RUN[@]}" -- sh -c 'genl-ctrl-list; grep -w task_diag /proc/modules')
rc=$?
check "genl-ctrl-list runs" 0 $rc
grep -q 'task_diag' <<<"$out" && grep -q '^task_diag ' <<<"$out"
check "task_diag family and module listed" 0 $?

"${VM_RUN[@]}" --no-module -- sh -c '! grep -qw task_diag /proc/modules && ! genl-ctrl-list | grep -q task_diag'
check "--no-module leaves the family out" 0 $?

start=$(date +%s)
"${VM_RUN[@]}" --no-module --timeout 300 -- sh -c 'echo c >/proc/sysrq-trigger; sleep 1000' 2>/dev/null
rc=$?
secs=$(($(date +%s) - start))
check "guest panic detected" 120 $rc
[ $secs -lt 120 ]
check "panic reported in ${secs}s, not at the time-out" 0 $?

bogus=$(mktemp "${TMPDIR:-/tmp}/bogus.XXXXXX.ko")
echo "not a module" >"$bogus"
"${VM_RUN[@]}" --module "$bogus" -- true 2>/dev/null
check "module load failure detected" 121 $?
rm -f "$bogus"

"${VM_RUN[@]}" --no-module --timeout 25 -- sleep 1000 2>/dev/null
check "time-out detected" 122 $?

"${VM_RUN[@]}" --user 65534 --no-module -- sh -c '[ "$(id -u)" = 65534 ]'
check "--user runs the command unprivileged" 0 $?

echo "vm_runner: $n checks, $fails failed"
[ $fails -eq 0 ]
