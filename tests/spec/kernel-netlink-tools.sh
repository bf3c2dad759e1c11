#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the folder that holds the kernel's own netlink tooling, unpacked
# from Debian's linux-source-6.12 (installed by scripts/setup):
#
#   DIR/Documentation/netlink/genetlink-legacy.yaml   the spec schema
#   DIR/tools/net/ynl/cli.py                          the YNL client
#
# Only those two folders are unpacked, once per package version, into
# $TASK_DIAG_CACHE (default ~/.cache/task_diag); concurrent callers wait
# for each other. Exit 1 with a message if the package is missing.
set -euo pipefail

tarball=/usr/src/linux-source-6.12.tar.xz
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || ver=
if [ -z "$ver" ] || [ ! -r "$tarball" ]; then
	echo "kernel-netlink-tools: linux-source-6.12 is not installed: run scripts/setup" >&2
	exit 1
fi
cache=${TASK_DIAG_CACHE:-$HOME/.cache/task_diag}
dir=$cache/linux-source-6.12-netlink-$ver
mkdir -p "$cache"
exec 9>"$dir.lock"
flock 9
if [ ! -f "$dir/.done" ]; then
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 \
		--wildcards 'linux-source-6.12/Documentation/netlink/*' \
		'linux-source-6.12/tools/net/ynl/*' ||
		{ echo "kernel-netlink-tools: cannot unpack $tarball" >&2; exit 1; }
	touch "$dir.tmp/.done"
	mv "$dir.tmp" "$dir"
fi
for f in Documentation/netlink/genetlink-legacy.yaml tools/net/ynl/cli.py; do
	[ -f "$dir/$f" ] || { echo "kernel-netlink-tools: $dir/$f is missing" >&2; exit 1; }
done
echo "$dir"
