# SPDX-License-Identifier: LGPL-2.1-or-later
"""Build the taskdiag extension against an installed libtaskdiag (pkg-config taskdiag)."""
import os
import re
import subprocess

from setuptools import Extension, setup


def pkgconfig(flag):
    try:
        out = subprocess.run(["pkg-config", flag, "taskdiag"], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("taskdiag: pkg-config finds no libtaskdiag (install libtaskdiag-dev, "
                         "or set PKG_CONFIG_PATH): %s" % e)
    return out.split()


def version():
    """project()'s VERSION in the top CMakeLists.txt, the one place it is written."""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "CMakeLists.txt")
    with open(top) as f:
        m = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9.]+)", f.read())
    return m.group(1)


cflags = pkgconfig("--cflags")
libs = pkgconfig("--libs")
# A libtaskdiag outside the linker's default directories (a prefix of one's
# own: pkg-config gives its -L only then) is found at run time through the
# extension's RUNPATH, with no LD_LIBRARY_PATH.
libdirs = [f[2:] for f in libs if f.startswith("-L")]

setup(
    name="taskdiag",
    version=version(),
    description="Every process's figures from the task_diag kernel module, the psutil way",
    license="LGPL-2.1-or-later",
    packages=["taskdiag"],
    package_data={"taskdiag": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension(
        "taskdiag._taskdiag", ["taskdiag/_taskdiag.c"],
        include_dirs=[f[2:] for f in cflags if f.startswith("-I")],
        extra_compile_args=[f for f in cflags if not f.startswith("-I")],
        library_dirs=libdirs,
        runtime_library_dirs=libdirs,
        libraries=[f[2:] for f in libs if f.startswith("-l")],
        define_macros=[("TD_PY_VERSION", '"%s"' % version())],
    )],
    python_requires=">=3.9",
)
