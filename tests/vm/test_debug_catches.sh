#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's run catches what it exists for. Two broken copies of the
# module are built on the side against the debug kernel (scripts/debug-kernel)
# and each one dumps every task in a debug guest:
#   sleep  - a sleeping call (msleep) inside base.c's rcu_read_lock() section;
#   leak   - the dump loop of main.c no longer puts the task reference it took
#            (the run kills 50 processes after the dump).
# Each run must fail with the kernel verdict (scripts/vm-run's status 120)
# and name the fault: "sleeping function called from invalid context" (or
# RCU's own report of a sleep in its read side) for the first, a kmemleak
# report of a task for the second. The unmodified module, in the same
# kind of run, must pass: otherwise the verdict would fail anything.
#
#   tests/vm/test_debug_catches.sh SRC BUILD KDIR PYTHON
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: test_debug_catches.sh SRC BUILD KDIR PYTHON" >&2; exit 2; }
src=$1 build=$(cd "$2" && pwd -P) kdir=$3 py=$4
work=$build/debug-catches
rm -rf "$work"
mkdir -p "$work"
fail=0

# mutate NAME [FILE OLD NEW [PREFIX]]: a copy of kernel/ with OLD replaced
# by NEW in FILE (and PREFIX put before its first line), built against the
# debug kernel; without FILE, an unmodified copy.
mutate() {
	local name=$1 d=$work/$1
	mkdir -p "$d"
	cp "$src"/kernel/*.c "$src"/kernel/*.h "$src"/kernel/Kbuild "$src"/kernel/probe "$d/"
	if [ $# -gt 1 ]; then
		"$py" - "$d/$2" "$3" "$4" "${5:-}" <<'EOF' || return 1
import sys
path, old, new, prefix = sys.argv[1:5]
s = open(path).read()
if s.count(old) != 1:
    sys.exit("%s: %r found %d times, not once" % (path, old, s.count(old)))
open(path, "w").write(prefix + s.replace(old, new))
EOF
	fi
	make -s -C "$kdir" M="$d" TD_INCLUDE="$src/include" modules >"$d/build.log" 2>&1 ||
		{ cat "$d/build.log"; return 1; }
}

# run MODULE NAME: as root, 50 sleeping processes are started, one full dump
# of every task with every group is made (tdnl.py), and the 50 are killed
# and reaped: a reference the module did not put keeps their task structs
# alive with nothing left pointing at them (a few, reaped last, may still
# be named by stale words on a stack kmemleak scans: hence 50).
run() {
	"$src/scripts/vm-run" --build "$build" --kernel debug --timeout 900 --module "$1" -- \
		bash -c 'p=(); for i in $(seq 50); do sleep 1000 & p+=($!); done
			"$0" "$1" >/dev/null || exit
			kill "${p[@]}"; wait' "$py" "$src/tests/vm/tdnl.py" >"$work/$2.out" 2>&1
}

expect() {
	local name=$1 want=$2 rc
	run "$work/$name/task_diag.ko" "$name"
	rc=$?
	if [ $rc -ne 120 ] || ! grep -qE "$want" "$work/$name.out"; then
		echo "FAIL $name: vm-run exited $rc; expected 120 and a report matching '$want'"
		tail -n 40 "$work/$name.out"
		fail=1
	else
		echo "ok $name: caught ($(grep -m1 -oE "$want" "$work/$name.out"))"
	fi
}

mutate good || fail=1
mutate sleep base.c $'\trcu_read_lock();\n\ttracer = ptrace_parent(task);' \
	$'\trcu_read_lock();\n\tmsleep(1);\n\ttracer = ptrace_parent(task);' \
	$'#include <linux/delay.h>\n' || fail=1
mutate leak main.c $'NLM_F_MULTI);\n\t\tput_task_struct(task);' $'NLM_F_MULTI);' || fail=1
[ $fail -eq 0 ] || exit 1

run "$work/good/task_diag.ko" good
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL good: the unmodified module's run exited $rc"
	tail -n 40 "$work/good.out"
	exit 1
fi
echo "ok good: the unmodified module passes the same run"
# The guest's console shows a report that panics it (panic_on_warn) from
# its panic line on: the warning's own text is below the console's log
# level, the function that warned is in the trace.
expect sleep 'sleeping function called from invalid context|Voluntary context switch within RCU|suspicious RCU usage|RIP: 0010:rcu_note_context_switch'
expect leak 'kmemleak found leaks'
exit $fail
