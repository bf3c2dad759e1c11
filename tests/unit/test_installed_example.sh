#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The installed package, as a user gets it: install this build tree into a
# temporary prefix, build docs/example.c against it twice -- with the
# compiler and pkg-config alone, and as a CMake project using
# find_package(taskdiag) -- and run both with the installed library. On a
# host without the task_diag module they use the procfs backend; either way
# the listing must hold the example's own process (its pid, its comm).
#
#   test_installed_example.sh CMAKE BUILD_DIR EXAMPLE_C SANITIZE(0|1)
#
# Hermetic: everything lives in one mktemp folder, removed on exit.
set -eu

cmake=$1
build=$2
example=$3
sanitize=$4

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/td_installed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$tmp/prefix

# A library built with ASan needs its runtime in the program too.
san=
[ "$sanitize" = 1 ] && san="-fsanitize=address,undefined"

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "cmake --install"; }

pc=$(find "$prefix" -name taskdiag.pc -path '*/pkgconfig/*' | head -n1)
[ -n "$pc" ] || fail "no taskdiag.pc under $prefix"
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
case $pcdir in
"$prefix"/lib/pkgconfig | "$prefix"/lib/*-linux-gnu/pkgconfig | "$prefix"/lib64/pkgconfig) ;;
*) fail "taskdiag.pc installed in an unexpected folder: $pcdir" ;;
esac
[ -e "$libdir/libtaskdiag.so" ] || fail "no libtaskdiag.so beside the .pc ($libdir)"
[ -e "$prefix/include/taskdiag/taskdiag.h" ] || fail "no include/taskdiag/taskdiag.h"
[ -e "$libdir/cmake/taskdiag/taskdiagConfig.cmake" ] || fail "no taskdiagConfig.cmake"

# 1. cc + pkg-config alone. The .pc finds its prefix from where it lies
#    (${pcfiledir}), so an install with --prefix needs nothing more.
pcflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs taskdiag) ||
	fail "pkg-config --cflags --libs taskdiag"
inc=$(printf '%s\n' $pcflags | sed -n 's/^-I//p' | head -n1)
[ -n "$inc" ] && [ "$(cd "$inc" && pwd -P)" = "$(cd "$prefix/include" && pwd -P)" ] ||
	fail "pkg-config --cflags does not point into the prefix: $pcflags"
# shellcheck disable=SC2086 # word splitting of the flags is intended
cc -std=c11 -Wall -Wextra -Werror $san "$example" -o "$tmp/example_pc" $pcflags ||
	fail "cc docs/example.c \$(pkg-config --cflags --libs taskdiag)"

# 2. A CMake project: find_package(taskdiag) with CMAKE_PREFIX_PATH.
mkdir "$tmp/consumer"
cat >"$tmp/consumer/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(td_consumer C)
find_package(taskdiag 0.1 REQUIRED)
add_executable(example_cmake "$example")
target_link_libraries(example_cmake PRIVATE taskdiag::taskdiag)
EOF
"$cmake" -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Werror $san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
	>"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log" >&2; fail "configuring the consumer"; }
"$cmake" --build "$tmp/consumer/build" >>"$tmp/consumer.log" 2>&1 ||
	{ cat "$tmp/consumer.log" >&2; fail "building the consumer"; }

# Run each one: it must load the installed library, and list itself.
for bin in "$tmp/example_pc" "$tmp/consumer/build/example_cmake"; do
	name=$(basename "$bin")
	so=$(LD_LIBRARY_PATH=$libdir ldd "$bin" | awk '$1 ~ /^libtaskdiag\.so/ { print $3 }')
	case $so in
	"$libdir"/*) ;;
	*) fail "$name loads libtaskdiag from '$so', not from $libdir" ;;
	esac
	# The shell's pid is the example's: exec keeps it.
	LD_LIBRARY_PATH=$libdir sh -c 'echo "$$"; exec "$1"' sh "$bin" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "$name exited with an error"; }
	pid=$(head -n1 "$tmp/out")
	sed -n '2p' "$tmp/out" | grep -q 'PID.*COMMAND.*RSS_KIB' ||
		{ cat "$tmp/out" >&2; fail "$name: no header line"; }
	line=$(awk -v pid="$pid" 'NR > 2 && $1 == pid' "$tmp/out")
	[ -n "$line" ] || { cat "$tmp/out" >&2; fail "$name: no line for its own pid $pid"; }
	echo "$line" | awk -v comm="$name" '$2 == comm && $3 > 0 { ok = 1 } END { exit !ok }' ||
		fail "$name: own line '$line' is not '$pid $name <rss KiB > 0>'"
	n=$(awk 'NR > 2' "$tmp/out" | wc -l)
	[ "$n" -gt 1 ] || fail "$name listed $n processes"
	echo "$name: $n processes, own line: $line"
done
echo "installed package: pkg-config and find_package builds both work"
