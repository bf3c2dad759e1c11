#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove that tests/spec/check_spec.py can fail: it must pass on the real
# header and spec, and fail (exit 1, naming the culprit) on copies mutated in
# one way each. Each mutation is checked to have changed the file, so a
# pattern that stops matching fails this test instead of passing it.
#
#   tests/spec/test_check_spec.sh
#
# Needs /usr/bin/python3 and PyYAML (Debian package python3-yaml); fails
# only if PyYAML is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
checker=$here/check_spec.py
spec=$root/docs/netlink/task_diag.yaml
header=$root/include/uapi/linux/task_diag.h

PY=${PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import yaml' 2>/dev/null; then
	echo "FAIL: $PY cannot import yaml: run scripts/setup (python3-yaml)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fails=$((fails + 1)); }

# expect_pass NAME SPEC HEADER
expect_pass() {
	local out rc=0
	out=$("$PY" "$checker" "$2" "$3" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$1: exit 0 ($out)"
	else
		bad "$1: expected exit 0, got $rc"
		printf '%s\n' "$out" | sed 's/^/     /'
	fi
}

# expect_fail NAME SPEC HEADER WORD: exit 1 and a mismatch line naming WORD
expect_fail() {
	local out rc=0
	out=$("$PY" "$checker" "$2" "$3" 2>&1) || rc=$?
	if [ "$rc" -ne 1 ]; then
		bad "$1: expected exit 1, got $rc"
		printf '%s\n' "$out" | sed 's/^/     /'
	elif ! grep -q -- "$4" <<<"$out"; then
		bad "$1: exit 1 but no mismatch line mentions $4"
		printf '%s\n' "$out" | sed 's/^/     /'
	else
		ok "$1: exit 1 ($(grep -m1 -- "$4" <<<"$out"))"
	fi
}

# mutate SRC DST SED-SCRIPT: copy SRC to DST through sed, insist on a change
mutate() {
	sed -e "$3" "$1" >"$2"
	if cmp -s "$1" "$2"; then
		bad "mutation '$3' did not change $(basename "$1")"
		return 1
	fi
}

expect_pass "unmodified header and spec" "$spec" "$header"

# 1. Renumber one attribute (the last of its enum, so only it moves).
if mutate "$header" "$tmp/renumber.h" \
	's/^\(\s*TASK_DIAG_A_CRED_CAP_AMBIENT\),/\1 = 20,/'; then
	expect_fail "renumbered CRED_CAP_AMBIENT" "$spec" "$tmp/renumber.h" \
		TASK_DIAG_A_CRED_CAP_AMBIENT
fi

# 2. Delete one attribute.
if mutate "$header" "$tmp/delete.h" \
	'/TASK_DIAG_A_STATUS_SECCOMP_FILTERS,/d'; then
	expect_fail "deleted STATUS_SECCOMP_FILTERS" "$spec" "$tmp/delete.h" \
		TASK_DIAG_A_STATUS_SECCOMP_FILTERS
fi

# 3. Change a type comment.
if mutate "$header" "$tmp/type.h" \
	's|\(TASK_DIAG_A_BASE_TPGID,\s*/\*\) s32|\1 u32|'; then
	expect_fail "retyped BASE_TPGID s32 -> u32" "$spec" "$tmp/type.h" tpgid
fi

# 4. Swap two attributes (same count, same values, different order).
if mutate "$header" "$tmp/swap.h" \
	's/IO_SYSCR,/IO_XXXX,/; s/IO_SYSCW,/IO_SYSCR,/; s/IO_XXXX,/IO_SYSCW,/'; then
	expect_fail "swapped IO_SYSCR and IO_SYSCW" "$spec" "$tmp/swap.h" \
		TASK_DIAG_A_IO_SYSC
fi

# 5. Spec side: drop the unit sentence of one doc.
if mutate "$spec" "$tmp/nounit.yaml" \
	'/Resident memory (anonymous/,/Unit: bytes\./s/Unit: bytes\./(no unit)/'; then
	expect_fail "spec doc without unit" "$tmp/nounit.yaml" "$header" resident
fi

# 6. Spec side: change the family version.
if mutate "$spec" "$tmp/version.yaml" 's/^version: 1$/version: 2/'; then
	expect_fail "spec version 2" "$tmp/version.yaml" "$header" version
fi

if [ "$fails" -ne 0 ]; then
	echo "test_check_spec: $fails failure(s)"
	exit 1
fi
echo "test_check_spec: all checks passed"
