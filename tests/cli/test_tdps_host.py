#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdps against procps ps on this host (procfs backend), for fixtures of its own.

The fixture: this script run again, a process with three threads that
sleep, leading its own session (setsid). Only its lines are compared (the
rest of the host moves on its own).

- stat: the oracle is procps ps on the fixture, run just before and just
  after tdps (a tdps line passes when it equals either). ps prints `s` on
  every thread row of a session leader (it compares the session with the
  thread group's id, not the thread's), so each row of
  `-L -o pid,tid,nlwp,stat,comm -p PID` and of `-eL -o ...` says `Ssl`;
  the test checks ps does, and that tdps prints ps's lines.
- c: ps caps C at 99 (pr_c() in procps's ps/output.c). The fixture is
  stopped and its /proc copied into a tree that tdps reads
  (TASKDIAG_PROC_ROOT), every thread's utime raised by 1000 s (the
  process's by 3000 s): far more than the task's life, so C must be 99.
  The expected lines are ps's own lines of the live fixture for -ef, -eLf,
  -el, -ely, -eF and -fu USER, with the cells under C and TIME set by hand
  (99, and the copy's CPU time; a thread group leader's row has the
  process's, as ps reads it from /proc/PID): tdps must print exactly them,
  with every column after C in place.

Usage: test_tdps_host.py TDPS stat|c
"""
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PS = "/usr/bin/ps"
failures = []


def check(ok, what):
    print("%s %s" % ("ok" if ok else "FAIL", what), flush=True)
    if not ok:
        failures.append(what)


# ---- fixtures (this script, run again with --fixture) ----

def fixture():
    hold = threading.Event()
    for _ in range(2):
        threading.Thread(target=hold.wait, daemon=True).start()
    print("ready", flush=True)
    hold.wait()


def spawn():
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--fixture"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         start_new_session=True)
    if p.stdout.readline() != b"ready\n":
        raise SystemExit("the fixture did not start")
    for _ in range(500):    # until its three threads sleep
        if all(state(p.pid, t) == "S" for t in os.listdir("/proc/%d/task" % p.pid)):
            break
        time.sleep(0.01)
    return p


def state(pid, tid=None):
    path = "/proc/%d/task/%s/stat" % (pid, tid) if tid else "/proc/%d/stat" % pid
    with open(path) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


# ---- running ps and tdps ----

def env():
    e = dict(os.environ, LC_ALL="C")
    e.pop("COLUMNS", None)
    return e


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
                       stdin=subprocess.DEVNULL, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def fixture_lines(out, pid):
    """The header and the lines whose PID column is pid."""
    lines = out.splitlines()
    if not lines:
        return []
    col = lines[0].split().index("PID")
    return [lines[0]] + [ln for ln in lines[1:]
                         if len(ln.split()) > col and ln.split()[col] == str(pid)]


def compare(tdps, args, pid, what):
    """tdps ARGS and ps ARGS (before and after): the fixture's lines."""
    rc1, ps1, _ = run([PS] + args)
    rc, td, err = run([tdps, "--backend", "procfs"] + args)
    rc2, ps2, _ = run([PS] + args)
    a, t, b = (fixture_lines(x, pid) for x in (ps1, td, ps2))
    check(rc == rc1 == 0 and not err, "%s: exit %d (ps %d), stderr %r" % (what, rc, rc1, err))
    ok = len(t) == len(a) > 1 and all(x in (y, z) for x, y, z in zip(t, a, b))
    check(ok, "%s: the fixture's lines are ps's" % what)
    if not ok:
        print("  ps:   " + "\n        ".join(a) + "\n  tdps: " + "\n        ".join(t) +
              "\n  ps2:  " + "\n        ".join(b))
    return a


def check_stat(tdps):
    p = spawn()
    try:
        fmt = ["-o", "pid,tid,nlwp,stat,comm"]
        a = compare(tdps, ["-L"] + fmt + ["-p", str(p.pid)], p.pid, "-L -o pid,tid,nlwp,stat,comm")
        check(len(a) == 4 and all(ln.split()[3] == "Ssl" for ln in a[1:]),
              "the oracle: ps shows the fixture's 3 threads as Ssl: %r" % a[1:])
        compare(tdps, ["-eL"] + fmt, p.pid, "-eL -o pid,tid,nlwp,stat,comm")
    finally:
        p.kill()
        p.wait()


def copy_proc(pid, root, extra_ticks):
    """/proc/PID as root/PID (the files the procfs backend reads), each
    stat's utime raised by extra_ticks (the process's by that many per
    thread); the process's total CPU ticks after that."""
    tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))
    total = 0
    for sub, add in [("", extra_ticks * len(tids))] + \
            [("task/%d/" % t, extra_ticks) for t in tids]:
        os.makedirs(os.path.join(root, str(pid), sub), exist_ok=True)
        for name in ("stat", "status", "statm", "cmdline", "io"):
            with open("/proc/%d/%s%s" % (pid, sub, name), "rb") as f:
                data = f.read()
            if name == "stat":
                head, tail = data.rsplit(b")", 1)
                fields = tail.split()
                fields[11] = str(int(fields[11]) + add).encode()     # utime
                data = head + b") " + b" ".join(fields) + b"\n"
                if not sub:
                    total = int(fields[11]) + int(fields[12])
            with open(os.path.join(root, str(pid), sub, name), "wb") as f:
                f.write(data)
    return total


def replace_cell(line, header, name, value):
    """line with the cell under the right-aligned header name set to value."""
    end = [m.end() for m in re.finditer(r"\S+", header) if m.group() == name][0]
    return line[:end - len(value)] + value + line[end:]


def check_c(tdps):
    """The fixture's lines of ps, C and TIME set by hand, against tdps on a
    copy of the fixture's /proc whose CPU time is 1000 s more per thread
    (far more than its life: ps's C is 99 for such a task)."""
    hz = os.sysconf("SC_CLK_TCK")
    p = spawn()
    tmp = tempfile.mkdtemp(prefix="tdps-c.")
    try:
        os.kill(p.pid, signal.SIGSTOP)
        for _ in range(500):
            if state(p.pid) == "T":
                break
            time.sleep(0.01)
        total = copy_proc(p.pid, tmp, 1000 * hz)
        user = pwd.getpwuid(os.getuid()).pw_name
        for args in (["-ef"], ["-eLf"], ["-el"], ["-ely"], ["-eF"], ["-fu", user]):
            what = " ".join(args)
            rc1, ps, _ = run([PS] + args)
            want = fixture_lines(ps, p.pid)
            for i in range(1, len(want)):
                # ps reads a thread group leader from its base dir, not its
                # task dir (readeither() in procps's library/readproc.c)
                if args == ["-eLf"] and want[i].split()[3] != str(p.pid):
                    with open(os.path.join(tmp, str(p.pid), "task", want[i].split()[3],
                                           "stat")) as f:
                        st = f.read().rsplit(")", 1)[1].split()
                    secs = (int(st[11]) + int(st[12])) // hz
                else:
                    secs = total // hz
                want[i] = replace_cell(want[i], want[0], "C", "99")
                want[i] = replace_cell(want[i], want[0], "TIME", "%02d:%02d:%02d" %
                                       (secs // 3600, secs // 60 % 60, secs % 60))
            # -fu reads the caller's own terminal: tdps's own /proc too
            argv = ["sh", "-c", 'ln -s /proc/$$ "$0/$$" && exec "$@"', tmp,
                    tdps, "--backend", "procfs"] + args
            p2 = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, timeout=60,
                                env=dict(env(), TASKDIAG_PROC_ROOT=tmp))
            got = fixture_lines(p2.stdout.decode("utf-8", "replace"), p.pid)
            err = p2.stderr.decode("utf-8", "replace")
            check(p2.returncode == rc1 == 0 and not err,
                  "%s: exit %d (ps %d), stderr %r" % (what, p2.returncode, rc1, err))
            ok = got == want and len(want) > 1
            check(ok, "%s: the fixture's lines are ps's with C 99 and TIME +1000 s" % what)
            if not ok:
                print("  want: " + "\n        ".join(want) + "\n  tdps: " + "\n        ".join(got))
            for name in os.listdir(tmp):
                if os.path.islink(os.path.join(tmp, name)):
                    os.unlink(os.path.join(tmp, name))
    finally:
        p.kill()
        p.wait()
        shutil.rmtree(tmp)


def main():
    if sys.argv[1] == "--fixture":
        fixture()
        return 0
    tdps, what = sys.argv[1], sys.argv[2]
    {"stat": check_stat, "c": check_c}[what](tdps)
    print("%s: %d failures" % (what, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
