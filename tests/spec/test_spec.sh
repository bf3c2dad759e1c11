#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the ABI spec and of what scripts/gen-abi generates from it.
#
#   tests/spec/test_spec.sh regenerate [SPEC]  generating from SPEC (default:
#                                              the spec) into a temporary
#                                              folder gives the checked-in
#                                              files, byte for byte
#   tests/spec/test_spec.sh schema [SPEC]      SPEC validates against the
#                                              kernel's genetlink-legacy
#                                              schema (linux-source-6.12)
#   tests/spec/test_spec.sh layouts [SPEC]     no struct of
#                                              docs/netlink/abi-v2-layouts.txt
#                                              changed but at its end
#   tests/spec/test_spec.sh compile [HEADER]   libtaskdiag/items_gen.h
#                                              compiles, its static asserts
#                                              holding, for x86-64 and i386
#                                              (against HEADER, default the
#                                              uapi header)
#   tests/spec/test_spec.sh ynl [SPEC]         the kernel's YNL library
#                                              (linux-source-6.12) decodes
#                                              structs that C code filled
#                                              through the uapi header as SPEC
#                                              says (tests/spec/ynl_decode.py)
#   tests/spec/test_spec.sh fields             docs/fields.md names every
#                                              item of libtaskdiag/items_gen.h
#                                              (group.field)
#   tests/spec/test_spec.sh mutations          each check above fails on a
#                                              copy changed in one way, and
#                                              the generator refuses specs
#                                              that break its rules
#
# Needs /usr/bin/python3 with PyYAML and jsonschema, cc, and linux-source-6.12
# (all installed by scripts/setup).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spec=$root/docs/netlink/task_diag.yaml
record=$root/docs/netlink/abi-v2-layouts.txt
gen=$root/scripts/gen-abi
PY=${PYTHON:-/usr/bin/python3}
CC=${CC:-cc}
generated=(include/uapi/linux/task_diag.h kernel/task_diag_policy.h libtaskdiag/items_gen.h)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

regenerate() {
	local s=${1:-$spec} out=$tmp/regen rc=0 f
	rm -rf "$out"
	"$PY" "$gen" --spec "$s" --out "$out" || return 2
	for f in "${generated[@]}"; do
		if ! diff -u "$root/$f" "$out/$f"; then
			echo "test_spec: $f is not what $(basename "$s") generates: run scripts/gen-abi"
			rc=1
		fi
	done
	[ "$rc" -ne 0 ] || echo "test_spec: ${#generated[@]} generated files up to date"
	return "$rc"
}

schema() {
	local tools
	tools=$("$here/kernel-netlink-tools.sh") || return 2
	"$PY" "$here/validate_schema.py" \
		"$tools/Documentation/netlink/genetlink-legacy.yaml" "${1:-$spec}"
}

ynl() {
	local tools
	tools=$("$here/kernel-netlink-tools.sh") || return 2
	"$PY" "$here/ynl_decode.py" "$tools" "${1:-$spec}" "$root/include/uapi" "$CC"
}

layouts() {
	"$PY" "$gen" --spec "${1:-$spec}" --check-layouts "$record"
}

# compile [HEADER]: items_gen.h's static asserts hold with the uapi header
# (or with HEADER in its place), as x86-64 and as i386 code.
compile() {
	local inc=$root/include/uapi m
	if [ -n "${1:-}" ]; then
		mkdir -p "$tmp/inc/linux"
		cp "$1" "$tmp/inc/linux/task_diag.h"
		inc=$tmp/inc
	fi
	printf '#include "items_gen.h"\nint td_gen_fields(void);\nint td_gen_fields(void)\n{\n\tint n = 0;\n#define TD_COUNT(...) n++;\n\tTD_GEN_FIELDS(TD_COUNT)\n\treturn n;\n}\n' \
		>"$tmp/items.c"
	for m in -m64 -m32; do
		# asm/types.h is the same for both (asm-generic/int-ll64.h).
		"$CC" "$m" -std=gnu11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
			-idirafter /usr/include/x86_64-linux-gnu -I "$inc" \
			-I "$root/libtaskdiag" "$tmp/items.c" || return 1
	done
	echo "test_spec: items_gen.h agrees with $(basename "${1:-task_diag.h}") for x86-64 and i386"
}

fails=0
ok() { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fails=$((fails + 1)); }

# expect RC WORD NAME CMD...: CMD exits RC and, if WORD is not empty, says WORD.
expect() {
	local want=$1 word=$2 name=$3 out rc=0
	shift 3
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$name: expected exit $want, got $rc"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/     /'
	elif [ -n "$word" ] && ! grep -q -- "$word" <<<"$out"; then
		bad "$name: exit $rc but the output does not mention '$word'"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/     /'
	else
		ok "$name: exit $rc${word:+ ($(grep -m1 -- "$word" <<<"$out"))}"
	fi
}

# mutant NAME: the spec changed by tests/spec/mutate.py NAME
mutant() {
	"$PY" "$here/mutate.py" "$spec" "$tmp/$1.yaml" "$1" && echo "$tmp/$1.yaml"
}

mutations() {
	local m f
	expect 0 "" "unmodified: regenerate" regenerate
	expect 0 "" "unmodified: schema" schema
	expect 0 "" "unmodified: layouts" layouts
	expect 0 "" "unmodified: compile" compile
	expect 0 "" "unmodified: ynl" ynl

	# A released struct changed before its version-0 end: the layouts
	# check fails naming the struct; the spec is otherwise valid.
	for m in move:base resize:cred retype:base insert:io remove:statm \
		use-reserved:base append-bump-ver0:base; do
		f=$(mutant "${m%%:*}") || { bad "mutation ${m%%:*} failed"; continue; }
		expect 1 "struct ${m#*:}" "layouts: ${m%%:*}" layouts "$f"
	done
	# ... but a member appended at the end is fine.
	f=$(mutant append) && expect 0 "" "layouts: append at the end" layouts "$f"

	# The generator's own rules: exit 2 and a message naming the rule.
	for m in "misaligned:not aligned" "size-not-8:multiple of 8" \
		"wrong-bit-doc:its doc says" "unknown-unit:unknown unit" \
		"enum-order:must list the fields" "no-unit:Unit: ...' sentence" \
		"show-all:OR of the entries" "mask-not-first:first member"; do
		f=$(mutant "${m%%:*}") || { bad "mutation ${m%%:*} failed"; continue; }
		expect 2 "${m#*:}" "gen-abi refuses: ${m%%:*}" "$PY" "$gen" --spec "$f" --out "$tmp/x"
	done

	# A changed spec no longer generates the checked-in files.
	f=$(mutant doc-change) && expect 1 "task_diag.h" "regenerate: doc changed" regenerate "$f"
	f=$(mutant append) && expect 1 "items_gen.h" "regenerate: field appended" regenerate "$f"

	# YNL, reading a spec that swaps two members, decodes the header's
	# structs wrongly.
	f=$(mutant move) && expect 1 "ppid decodes as" "ynl: ppid and pgid swapped in the spec" ynl "$f"

	# The kernel's schema refuses what it does not know.
	f=$(mutant schema-unknown-key) &&
		expect 1 "Additional properties" "schema: unknown member key" schema "$f"

	# items_gen.h's static asserts catch a header that disagrees with it.
	sed 's/^\t__u32\tppid;/\t__u64\tppid;/' "$root/include/uapi/linux/task_diag.h" >"$tmp/hdr.h"
	if cmp -s "$tmp/hdr.h" "$root/include/uapi/linux/task_diag.h"; then
		bad "the ppid sed changed nothing"
	else
		expect 1 "layout of task_diag_base" "compile: ppid made u64 in the header" compile "$tmp/hdr.h"
	fi

	if [ "$fails" -ne 0 ]; then
		echo "test_spec: $fails failure(s)"
		return 1
	fi
	echo "test_spec: all mutations caught"
}

fields() {
	"$PY" - "$root/libtaskdiag/items_gen.h" "$root/docs/fields.md" <<'PYEOF'
import re, sys
items = re.findall(r"X\((\w+), (\w+), TASKDIAG_ITEM_\w+,", open(sys.argv[1]).read())
doc = open(sys.argv[2]).read()
missing = ["%s.%s" % i for i in items if "`%s.%s`" % i not in doc]
if not items or missing:
    print("FAIL: docs/fields.md does not name %s" % (", ".join(missing) or "any item"))
    sys.exit(1)
print("ok: docs/fields.md names all %d items" % len(items))
PYEOF
}

case "${1:-}" in
regenerate | schema | layouts | compile | ynl | fields | mutations) "$@" ;;
*) sed -n '4,32p' "$0" >&2; exit 2 ;;
esac
