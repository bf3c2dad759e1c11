#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fallback to /proc says so, on a host without the task_diag module.

With the default backend (auto) and no module, each tool reads /proc; what
would be a bug:
- it does so silently: each of task_diag_all (its table, --interval and
  --maps modes), tdps and tdtop -b must write exactly one line on stderr,
  "PROG: ... not loaded: reading /proc instead (...)", naming the package
  (task-diag-dkms) and `modprobe task_diag`, as the Python binding warns;
- the notice changes the output: stdout must be that of --backend procfs
  (tdtop: a frame with top's header, its values move);
- a quiet option does not silence it (tdps: --quiet-fallback, as its -q is
  ps's pid list; tdtop: -q, --quiet, --quiet-fallback; task_diag_all:
  --quiet-fallback, and -q which prints nothing), or --backend procfs,
  which asked for /proc, gets it;
- --backend netlink without the module does not exit 3 or does not say how
  to get the module (the package, modprobe) and the way out (procfs);
- a man page or --help does not document the quiet options.
A host with the module loaded skips (77).

Usage: test_fallback.py TASK_DIAG_ALL TDPS TDTOP MAN_DIR
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import check, failures, run  # noqa: E402

NOTICE = ": the task_diag kernel module is not loaded: reading /proc instead ("


def how_to_get(err):
    return "task-diag-dkms" in err and "modprobe task_diag" in err


def whole(out):
    return out


def first_line(out):
    """--interval: the header (the values move)"""
    return out.splitlines()[:1]


def table_header(out):
    """tdtop: the task table's header (the values move)"""
    return [ln for ln in out.splitlines() if ln.split()[:1] == ["PID"]][:1]


def check_tool(prog, path, args, quiet, key=whole):
    what = "%s %s" % (prog, " ".join(args))
    rc_p, out_p, err_p = run([path, "--backend", "procfs"] + args)
    check(rc_p == 0 and out_p and not err_p,
          "%s --backend procfs: exit %d, stderr %r" % (what, rc_p, err_p))
    rc, out, err = run([path] + args)
    lines = err.splitlines()
    check(rc == 0 and len(lines) == 1 and lines[0].startswith(prog + NOTICE) and how_to_get(err),
          "%s: exit %d, one notice on stderr naming task-diag-dkms and modprobe: %r"
          % (what, rc, err))
    check(key(out) == key(out_p) != [], "%s: stdout is --backend procfs's (%s)"
          % (what, key.__doc__ or "all of it"))
    for q in quiet:
        rc, out, err = run([path, q] + args)
        check(rc == 0 and not err, "%s %s: exit %d, stderr %r" % (prog, q, rc, err))
        if q != "-q" or prog == "tdtop":
            check(key(out) == key(out_p), "%s %s: stdout is --backend procfs's" % (what, q))
    rc, out, err = run([path, "--backend", "netlink"] + args)
    check(rc == 3 and how_to_get(err) and "procfs" in err,
          "%s --backend netlink: exit %d (3), stderr naming task-diag-dkms, modprobe and "
          "procfs: %r" % (what, rc, err))


def check_docs(man_dir, tools):
    for prog, path, opts in tools:
        man = open(os.path.join(man_dir, prog + ".1")).read().replace("\\-", "-")
        rc, usage, _ = run([path, "--help"])
        for o in opts:
            check(o in man, "%s.1 documents %s" % (prog, o))
            check(o in usage, "%s --help lists %s" % (prog, o))
        check("task-diag-dkms" in man, "%s.1 says where the module comes from" % prog)


def main():
    tda, tdps, tdtop, man_dir = sys.argv[1:5]
    rc, _, err = run([tda, "--backend", "netlink", "-p", "1", "-o", "pid"])
    if rc != 3:
        print("SKIP: the task_diag module is loaded here (exit %d: %s)" % (rc, err.strip()))
        return 77
    sleeper = subprocess.Popen(["sleep", "600"])
    try:
        time.sleep(0.1)
        check_tool("task_diag_all", tda, ["-p", str(sleeper.pid), "-o", "pid,ppid,comm"],
                   ["--quiet-fallback", "-q"])
        check_tool("task_diag_all", tda, ["--maps", "-p", str(sleeper.pid)],
                   ["--quiet-fallback"])
        check_tool("task_diag_all", tda, ["--interval", "0.1", "--count", "1", "-p",
                                          str(sleeper.pid), "--csv"], ["--quiet-fallback"],
                   first_line)
        check_tool("tdps", tdps, ["-o", "pid,ppid,stat,comm", "-p", str(sleeper.pid)],
                   ["--quiet-fallback"])
        check_tool("tdtop", tdtop, ["-b", "-n", "1", "-d", "0.1"],
                   ["-q", "--quiet", "--quiet-fallback"], table_header)
    finally:
        sleeper.kill()
        sleeper.wait()
    check_docs(man_dir, [("task_diag_all", tda, ["--quiet-fallback"]),
                         ("tdps", tdps, ["--quiet-fallback"]),
                         ("tdtop", tdtop, ["-q", "--quiet", "--quiet-fallback"])])
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
