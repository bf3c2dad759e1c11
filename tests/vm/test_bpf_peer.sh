#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's BPF peer on a kernel with the open-coded task iterator:
# builds the benchmark programs for LABEL (benchmarks/programs, into
# BUILD/bpf-peer-LABEL, apart from the benchmark's own folder), then checks
# in one guest of LABEL that the open-coded and the classic iterator return
# the same processes and values, and what /proc shows (test_bpf_peer.py).
#
#   tests/vm/test_bpf_peer.sh BUILD LABEL
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: test_bpf_peer.sh BUILD LABEL" >&2; exit 2; }
build=$(cd "$1" && pwd -P) label=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/bpf-peer-$label
notes=$("$src/benchmarks/programs" --kernel "$label" --build "$build" --out "$out")
if [ -n "$notes" ]; then
	# A missing clang, bpftool or libbpf-dev (scripts/setup installs them),
	# or a kernel without the open-coded iterator: nothing to test is a failure.
	echo "test_bpf_peer: $notes" >&2
	exit 1
fi
exec "$src/scripts/vm-run" --build "$build" --kernel "$label" --timeout 400 -- \
	/usr/bin/python3 "$src/tests/vm/test_bpf_peer.py" "$out"
