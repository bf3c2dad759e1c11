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

- forms: BSD e (the environment after the command, also as -ex, ps's
  stray-dash form of ex), S and --cumulative (the dead children's CPU time
  in bsdtime, %cpu, c and cp, and their faults in minflt and majflt; time
  stays the task's own), and the tty4, tty8 and longtname columns, against
  ps on fixtures of known environment, with 1.5 s of CPU in a waited-for
  child, and with a pty as controlling terminal. The oracle is checked
  first (ps shows the environment, adds the children's time, shows the pty).
  A cell that moves between ps's two runs (the share of a sleeping task
  falls) passes when it lies between them.

Usage: test_tdps_host.py TDPS stat|c|forms
"""
import os
import pty
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import check, env, failures, run  # noqa: E402

PS = "/usr/bin/ps"


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
        tids = os.listdir("/proc/%d/task" % p.pid)
        if len(tids) == 3 and all(state(p.pid, t) == "S" for t in tids):
            break
        time.sleep(0.01)
    # A copy of its /proc taken within the 10 ms tick a thread started in
    # gives that thread no elapsed time (C 0), where ps, later, gives 99.
    time.sleep(0.2)
    return p


def state(pid, tid=None):
    path = "/proc/%d/task/%s/stat" % (pid, tid) if tid else "/proc/%d/stat" % pid
    with open(path) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


# ---- running ps and tdps ----


def fixture_lines(out, pid):
    """The header and the lines whose PID column is pid."""
    lines = out.splitlines()
    if not lines:
        return []
    col = lines[0].split().index("PID")
    return [lines[0]] + [ln for ln in lines[1:]
                         if len(ln.split()) > col and ln.split()[col] == str(pid)]


def between(td, a, b):
    """Each cell of td is a's or b's, or a number between theirs (a value that
    moved between ps's two runs: %cpu, c and cp of a sleeping task fall)."""
    t, x, y = (ln.split(None, len(a.split()) - 1) for ln in (td, a, b))
    if len(t) != len(x) or len(x) != len(y):
        return False
    for c, u, v in zip(t, x, y):
        if c in (u, v):
            continue
        try:
            if not min(float(u), float(v)) <= float(c) <= max(float(u), float(v)):
                return False
        except ValueError:
            return False
    return True


def compare(tdps, args, pid, what, moving=False):
    """tdps ARGS and ps ARGS (before and after): the fixture's lines. moving:
    a cell that moved between ps's two runs passes within their range."""
    rc1, ps1, _ = run([PS] + args)
    rc, td, err = run([tdps, "--backend", "procfs"] + args)
    rc2, ps2, _ = run([PS] + args)
    a, t, b = (fixture_lines(x, pid) for x in (ps1, td, ps2))
    check(rc == rc1 == 0 and not err, "%s: exit %d (ps %d), stderr %r" % (what, rc, rc1, err))
    ok = len(t) == len(a) == len(b) > 1 and all(
        between(x, y, z) if moving else x in (y, z) for x, y, z in zip(t, a, b))
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
    thread); the process's total CPU ticks after that. The machine's
    files the tools read (boot time, uptime, memory) are copied too."""
    for name in ("stat", "uptime", "meminfo", "loadavg"):
        shutil.copyfile("/proc/" + name, os.path.join(root, name))
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


def wait_exec(pid, argv):
    want = ("\0".join(argv) + "\0").encode()
    for _ in range(6000):
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            if f.read() == want:
                return
        time.sleep(0.01)
    raise SystemExit("fixture %d did not exec %r" % (pid, argv))


def check_forms(tdps):
    """e (environment), S and --cumulative (dead children's CPU time and
    faults), -ex (a stray dash: BSD e and x), tty4, tty8, longtname, cp."""
    procs = []
    try:
        # a known environment: a newline and a tab in it, which ps shows as a
        # space and (in the C locale) as '.'
        e = subprocess.Popen(["sleep", "1000"], start_new_session=True,
                             env={"FOO": "bar", "NL": "x\ny", "TAB": "a\tb"})
        procs.append(e)
        # 1.5 s of CPU in a waited-for child, then exec: the children's times
        # stay with the process
        busy = "import time\nwhile time.process_time() < 1.5: pass"
        cum = subprocess.Popen(["sh", "-c", '"$0" -c "$1"; exec sleep 1000', sys.executable, busy],
                               start_new_session=True)
        procs.append(cum)
        # a controlling terminal (a pty): tty4 shows its number alone
        tpid, master = pty.fork()
        if tpid == 0:
            os.execvp("sleep", ["sleep", "1000"])
        wait_exec(e.pid, ["sleep", "1000"])
        wait_exec(cum.pid, ["sleep", "1000"])
        wait_exec(tpid, ["sleep", "1000"])

        rc, out, _ = run([PS, "e", "-o", "pid,args", "-p", str(e.pid)])
        check(out.splitlines()[-1].split(None, 1)[1] == "sleep 1000 FOO=bar NL=x y TAB=a.b",
              "the oracle: ps e shows the fixture's environment: %r" % out.splitlines()[-1])
        for form in (["axe"], ["-ex"], ["e", "-p", str(e.pid)], ["axe", "-o", "pid,comm,args"],
                     ["-e", "e", "-o", "pid,args,comm"]):
            compare(tdps, form, e.pid, " ".join(form))

        _, plain, _ = run([PS, "-o", "bsdtime=,minflt=", "-p", str(cum.pid)])
        _, summed, _ = run([PS, "S", "-o", "bsdtime=,minflt=", "-p", str(cum.pid)])
        check(plain.split()[0] == "0:00" and summed.split()[0] == "0:01"
              and int(summed.split()[1]) > int(plain.split()[1]),
              "the oracle: ps S adds the children's 1.5 s and faults (%r, without S %r)"
              % (summed.strip(), plain.strip()))
        # not %cpu, c and cp: a share of 1.5 s over a life of 2 s falls too
        # fast for two ps runs to bracket tdps's read (one CI failure in 5)
        cols = "pid,bsdtime,time,minflt,majflt,min_flt,maj_flt,comm"
        for form in (["axS"], ["S", "-o", cols, "-p", str(cum.pid)],
                     ["-e", "--cumulative", "-o", cols], ["-exS"], ["-o", cols, "-p", str(cum.pid)]):
            compare(tdps, form, cum.pid, " ".join(form), moving=True)

        _, out, _ = run([PS, "-o", "tty4=,tty8=", "-p", str(tpid)])
        t4, t8 = out.split()
        check(t8 == "pts/" + t4 and t4.isdigit(),
              "the oracle: ps shows the pty as tty8 pts/N and tty4 N: %r" % out.strip())
        for form in (["-o", "pid,tty4,tty8,longtname,tty,tname,tt", "-p", str(tpid)],
                     ["-e", "-o", "pid,tty4,tty8,comm"], ["-t", "pts/" + t4, "-o", "pid,tty4"]):
            compare(tdps, form, tpid, " ".join(form))
        os.kill(tpid, signal.SIGKILL)
        os.waitpid(tpid, 0)
        os.close(master)
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def main():
    if sys.argv[1] == "--fixture":
        fixture()
        return 0
    tdps, what = sys.argv[1], sys.argv[2]
    {"stat": check_stat, "c": check_c, "forms": check_forms}[what](tdps)
    print("%s: %d failures" % (what, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
