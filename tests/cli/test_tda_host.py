#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a new user meets on a host without the task_diag module (issue 33).

Each check has its own oracle, never the tools' own output:
- nomodule: `task_diag_all --verify` and `--dump-raw F` exit 3 and say the
  module is needed (task-diag-dkms, modprobe task_diag); every option the
  message suggests is then tried with the same command and must not be
  refused as bad usage (the message used to say "or use -b procfs", which
  both refuse). A host with the module skips this check (77).
- cgroup: `--cgroup PATH` on the procfs backend, for a PATH that this test
  finds absent from the unified hierarchy (its own reading of
  /proc/self/mountinfo; a hybrid system's /sys/fs/cgroup/unified counts),
  is refused as the module refuses it (kernel/filter.c: ENOENT, extack "no
  such cgroup in the sender's cgroup namespace (unified hierarchy)"): exit
  status 1 (the man page's "any other error"), that message, no table, and
  with -j a JSON error of errno ENOENT; the test's own cgroup (the 0:: line
  of /proc/self/cgroup) is accepted and lists this test's pid. Skips the
  ENOENT half (not the rest) where no cgroup2 is mounted.
- aggregate: --aggregate with any label (pid too) without --format
  openmetrics is bad usage (exit 2, naming both); with it, exit 0.
- help: --help and task_diag_all.1 do not call the filters netlink-only,
  and a filter works on the procfs backend (--comm of a process this test
  starts under a name of its own selects exactly that process); -j is
  documented as JSON Lines in both, and each line of -j is one JSON value.
- nopid: a pid that cannot exist (pid_max) with -p, -t, -c on the procfs
  backend: exit 5 and "no such" said once, not "no such process (no such
  pid)".
- tdps_full: `tdps ... > /dev/full` exits with what procps `ps ... >
  /dev/full` exits with on this host (1 where ps is absent: procps's
  close_stdout()), and says "write error".
- docs: docs/install.md has no "once it exists", installs the Debian -dev
  package of every pkg_check_modules(... REQUIRED ...) module of the CMake
  files (a table of this test's: an unknown module fails), and says that
  `tdps aux` works without the module; tdps.1 documents C's cap at 99 and
  tdtop.1 the batch width of 80 columns.

Usage: test_tda_host.py TASK_DIAG_ALL TDPS SOURCE_DIR CHECK
"""
import errno
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import check, failures  # noqa: E402

TDA, TDPS, SRC, CHECK = sys.argv[1:5]
MAN = os.path.join(SRC, "docs", "man")


def run(argv, stdout=subprocess.PIPE):
    e = dict(os.environ, LC_ALL="C")
    e.pop("COLUMNS", None)
    p = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, env=e,
                       stdin=subprocess.DEVNULL, timeout=120)
    out = p.stdout.decode("utf-8", "replace") if p.stdout is not None else ""
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


def module_loaded():
    return os.path.exists("/sys/module/task_diag")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def check_nomodule():
    if module_loaded():
        print("skip: the task_diag module is loaded here")
        sys.exit(77)
    tmp = tempfile.mkdtemp()
    try:
        raw = os.path.join(tmp, "x.raw")
        for cmd in (["--verify"], ["--dump-raw", raw], ["--verify", "-p", "1"],
                    ["--dump-raw", raw, "-q"]):
            what = "task_diag_all %s" % " ".join(cmd).replace(raw, "F")
            rc, out, err = run([TDA] + cmd)
            check(rc == 3, "%s without the module: exit 3 (got %d)" % (what, rc))
            check("not loaded" in err and "task-diag-dkms" in err and
                  "modprobe task_diag" in err and "needs the module" in err,
                  "%s: says it needs the module and how to get it: %r" % (what, err))
            # every "--backend B" / "--opt" the message suggests
            for sug in re.findall(r"use (-b \w+|--backend \w+|--[\w-]+)", err):
                rc2, _, err2 = run([TDA] + cmd + sug.split())
                check(rc2 != 2, "%s: the suggested '%s' is accepted (exit %d: %r)"
                      % (what, sug, rc2, err2))
            rc, out, err = run([TDA] + cmd + ["-j"])
            obj = json.loads(out.splitlines()[-1]) if out.strip() else {}
            check(rc == 3 and "needs the module" in obj.get("error", ""),
                  "%s -j: the JSON error says it too: %r" % (what, out))
    finally:
        shutil.rmtree(tmp)


def cgroup2_mount():
    """A cgroup2 mount whose root is the reader's cgroup namespace root."""
    best = None
    for line in read("/proc/self/mountinfo").splitlines():
        pre, _, post = line.partition(" - ")
        if post.split()[:1] != ["cgroup2"]:
            continue
        f = pre.split()
        root, mnt = f[3], re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), f[4])
        if root != "/":
            continue
        if mnt == "/sys/fs/cgroup":
            return mnt
        best = best or mnt
    return best


def my_cgroup():
    for line in read("/proc/self/cgroup").splitlines():
        if line.startswith("0::"):
            return line[3:]
    return None


def check_cgroup():
    mnt = cgroup2_mount()
    if not mnt:
        print("skip: no cgroup2 mounted here, nothing to look a path up in")
    else:
        for path in ("/td-no-such-cgroup-%d" % os.getpid(), "/td-no/such/cgroup/",
                     "/cgroup.procs"):
            if os.path.isdir(mnt + path):
                continue
            for extra in ([], ["-o", "pid,comm"], ["-p", str(os.getpid())]):
                what = "--backend procfs --cgroup %s %s" % (path, " ".join(extra))
                rc, out, err = run([TDA, "--backend", "procfs", "--cgroup", path] + extra)
                check(rc == 1 and not out and os.strerror(errno.ENOENT) in err and
                      "no such cgroup in the sender's cgroup namespace (unified hierarchy)" in err,
                      "%s: refused as the module does (exit 1, ENOENT, its message), not a "
                      "table: exit %d, stdout %r, stderr %r" % (what, rc, out[:200], err))
            rc, out, err = run([TDA, "-j", "--backend", "procfs", "--cgroup", path])
            lines = out.splitlines()
            obj = json.loads(lines[-1]) if lines else {}
            check(rc == 1 and len(lines) == 1 and obj.get("errno") == errno.ENOENT,
                  "-j --backend procfs --cgroup %s: one JSON error, errno ENOENT: %r" % (path, out))
    cg = my_cgroup()
    if cg is not None:
        rc, out, err = run([TDA, "--backend", "procfs", "--cgroup", cg, "-o", "pid"])
        pids = [ln.strip() for ln in out.splitlines()[1:]]
        check(rc == 0 and str(os.getpid()) in pids,
              "--backend procfs --cgroup %s (this test's own): exit 0 and lists it: exit %d, %r"
              % (cg, rc, err))


def check_aggregate():
    for agg in ("pid", "user", "comm", "user,comm"):
        for fmt in ([], ["-j"], ["--csv"], ["-f", "table"], ["-q"]):
            what = "--aggregate %s %s" % (agg, " ".join(fmt))
            rc, out, err = run([TDA, "--backend", "procfs", "--aggregate", agg] + fmt)
            check(rc == 2 and "--aggregate" in err and "openmetrics" in err and
                  not out.strip().startswith(("PID", "pid")),
                  "%s without --format openmetrics: bad usage, exit 2: exit %d, %r"
                  % (what, rc, err))
        rc, out, err = run([TDA, "--backend", "procfs", "--format", "openmetrics", "--aggregate", agg])
        check(rc == 0 and "# TYPE" in out,
              "--format openmetrics --aggregate %s: exit 0 (got %d, %r)" % (agg, rc, err[-300:]))


NETLINK_ONLY = re.compile(r"netlink[- ](backend )?only|only (with|on) the netlink|"
                          r"netlink backend only", re.I)


def check_help():
    rc, helptext, _ = run([TDA, "--help"])
    man = subprocess.run(["man", "-l", os.path.join(MAN, "task_diag_all.1")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=dict(os.environ, MANWIDTH="200", LC_ALL="C")).stdout.decode()
    if not man:
        man = read(os.path.join(MAN, "task_diag_all.1"))
    for name, text in (("--help", helptext), ("task_diag_all.1", man)):
        check(not NETLINK_ONLY.search(text),
              "%s does not call anything netlink-only: %r"
              % (name, (NETLINK_ONLY.search(text) or [None])[0]))
        check("JSON Lines" in text, "%s says -j is JSON Lines" % name)
    # a filter on the procfs backend: a process of a name of our own
    tmp = tempfile.mkdtemp()
    sleeper = None
    try:
        name = "tdq33sl%d" % (os.getpid() % 100000)
        exe = os.path.join(tmp, name)
        os.symlink(shutil.which("sleep") or "/bin/sleep", exe)
        sleeper = subprocess.Popen([exe, "60"])
        for args in (["--comm", name], ["--comm", name, "--uid", str(os.getuid())]):
            rc, out, err = run([TDA, "--backend", "procfs", "-o", "pid"] + args)
            pids = [ln.strip() for ln in out.splitlines()[1:]]
            check(rc == 0 and pids == [str(sleeper.pid)],
                  "--backend procfs %s: exactly the process started as %s: %r"
                  % (" ".join(args), name, pids))
        rc, out, err = run([TDA, "--backend", "procfs", "-j", "-s", "base", "-p",
                            "1,%d" % sleeper.pid])
        lines = out.splitlines()
        ok = rc == 0 and len(lines) == 2
        for ln in lines:
            try:
                ok = ok and isinstance(json.loads(ln), dict)
            except ValueError:
                ok = False
        check(ok, "-j -p 1,PID: two lines, each one JSON object (JSON Lines)")
    finally:
        if sleeper:
            sleeper.kill()
            sleeper.wait()
        shutil.rmtree(tmp)


def check_nopid():
    pid = int(read("/proc/sys/kernel/pid_max").split()[0])   # pids are below it
    for opt in ("-p", "-t", "-c"):
        for extra in ([], ["-j"]):
            rc, out, err = run([TDA, "--backend", "procfs", opt, str(pid)] + extra)
            line = err.strip().splitlines()[-1] if err.strip() else ""
            check(rc == 5 and str(pid) in line and line.lower().count("no such") == 1,
                  "--backend procfs %s %s %s: exit 5, 'no such' said once: exit %d, %r"
                  % (opt, pid, " ".join(extra), rc, line))


def check_tdps_full():
    ps = shutil.which("ps")
    for args in ([], ["aux"], ["-ef"], ["-eLf", "-ww"], ["-p", "1"]):
        want = 1
        if ps:
            with open("/dev/full", "w") as full:
                want = subprocess.run([ps] + args, stdout=full, stderr=subprocess.DEVNULL,
                                      env=dict(os.environ, LC_ALL="C")).returncode
        with open("/dev/full", "w") as full:
            rc, _, err = run([TDPS, "--quiet-fallback"] + args, stdout=full)
        check(rc == want and "write error" in err,
              "tdps %s > /dev/full: exit %d as %s (got %d), says write error: %r"
              % (" ".join(args), want, "ps" if ps else "procps", rc, err))


# Debian's -dev package of each pkg-config module the build may require.
DEV_PACKAGE = {"libnl-3.0": "libnl-3-dev", "libnl-genl-3.0": "libnl-genl-3-dev",
               "cmocka": "libcmocka-dev", "ncurses": "libncurses-dev",
               "libbpf": "libbpf-dev"}


def check_docs():
    inst = read(os.path.join(SRC, "docs", "install.md"))
    check("once it exists" not in inst, "install.md: no 'once it exists'")
    required = set()
    for root, dirs, files in os.walk(SRC):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        for f in files:
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                for m in re.finditer(r"pkg_check_modules\(([^)]*)\)", read(os.path.join(root, f))):
                    words = m.group(1).split()
                    if "REQUIRED" in words:
                        required.update(w for w in words[1:] if w not in
                                        ("REQUIRED", "IMPORTED_TARGET", "QUIET", "GLOBAL"))
    check({"libnl-3.0", "ncurses", "cmocka"} <= required,
          "the CMake files require what this test expects (%s)" % sorted(required))
    apt = " ".join(ln for ln in inst.splitlines() if "apt-get install" in ln and "-dev" in ln)
    for mod in sorted(required):
        pkg = DEV_PACKAGE.get(mod)
        check(pkg is not None and re.search(r"(^|\s)%s(\s|$)" % re.escape(pkg), apt),
              "install.md's apt-get line installs %s for pkg_check_modules(%s)" % (pkg, mod))
    for pkg in ("cmake", "pkg-config", "python3"):
        check(re.search(r"(^|\s)%s(\s|$)" % pkg, apt), "install.md's apt-get line has " + pkg)
    check("tdps aux" in inst and re.search(r"without the\s+module", inst),
          "install.md says tdps aux works without the module")
    tdps1 = read(os.path.join(MAN, "tdps.1"))
    check(re.search(r"UID PID PPID C .*\n?.*capped at 99", tdps1) is not None,
          "tdps.1: -f's C column capped at 99")
    tdtop1 = read(os.path.join(MAN, "tdtop.1"))
    check(re.search(r"\b80\b", tdtop1) and re.search(r"\b79 columns", tdtop1),
          "tdtop.1: batch width 80 (lines of 79 columns)")


CHECKS = {"nomodule": check_nomodule, "cgroup": check_cgroup, "aggregate": check_aggregate,
          "help": check_help, "nopid": check_nopid, "tdps_full": check_tdps_full,
          "docs": check_docs}

if __name__ == "__main__":
    CHECKS[CHECK]()
    if failures:
        print("%d FAILED" % len(failures))
        sys.exit(1)
    print("all passed")
