#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pip install ./python in a fresh venv, as a user would, against a
# libtaskdiag installed from this build tree (cmake --install into a
# temporary prefix, found through pkg-config). Offline: the venv's own
# setuptools builds it (--no-build-isolation --no-index). Then the venv's
# python, without LD_LIBRARY_PATH (the RUNPATH setup.py gives the extension
# finds the prefix's library), imports the installed package (not the build
# tree's) and reads its own process: pid, ppid and comm must be what /proc
# and os say.
#
#   test_pip_venv.sh PYTHON CMAKE BUILD_DIR SOURCE_DIR
set -eu

python=$1
cmake=$2
build=$3
src=$4

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/td_pip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$tmp/prefix

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "cmake --install"; }
pc=$(find "$prefix" -name taskdiag.pc -path '*/pkgconfig/*' | head -n1)
[ -n "$pc" ] || fail "no taskdiag.pc under $prefix"
libdir=$(dirname "$(dirname "$pc")")

"$python" -m venv "$tmp/venv" || fail "python3 -m venv (python3-venv installed?)"
# pip builds in a copy or in place depending on its version: give it a copy
# of the tree it needs (python/ and the top CMakeLists.txt for the version)
mkdir "$tmp/src"
cp -r "$src/python" "$src/CMakeLists.txt" "$tmp/src/"
PKG_CONFIG_PATH=$(dirname "$pc") "$tmp/venv/bin/pip" install -q --no-build-isolation --no-index \
	"$tmp/src/python" >"$tmp/pip.log" 2>&1 ||
	{ cat "$tmp/pip.log" >&2; fail "pip install ./python"; }

cd "$tmp"
# No LD_LIBRARY_PATH: the extension's RUNPATH (setup.py) finds the prefix's library.
env -u LD_LIBRARY_PATH "$tmp/venv/bin/python" - "$tmp/venv" "$libdir" <<'PY' || fail "the installed package"
import os, sys, warnings
import taskdiag
venv, libdir = sys.argv[1], sys.argv[2]
assert taskdiag.__file__.startswith(venv + "/"), taskdiag.__file__
ext = taskdiag._taskdiag.__file__
maps = open("/proc/self/maps").read()
lib = [l.split()[-1] for l in maps.splitlines() if "libtaskdiag.so" in l]
assert lib and all(os.path.realpath(p).startswith(os.path.realpath(libdir)) for p in lib), lib
warnings.simplefilter("ignore", taskdiag.ProcfsFallbackWarning)
p = taskdiag.Process()
assert p.pid == os.getpid() and p.ppid() == os.getppid(), (p.pid, p.ppid())
assert p.name() == open("/proc/self/comm").read().strip(), p.name()
assert os.path.exists(os.path.join(os.path.dirname(taskdiag.__file__), "__init__.pyi"))
print("pip install ./python: ok (%s, %s)" % (ext, lib[0]))
PY
