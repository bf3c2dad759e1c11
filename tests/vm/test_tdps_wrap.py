#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdps against procps ps for the order of siblings and threads after pids wrap.

Run as root in the guest (it lowers kernel.pid_max, and restores it). ps
orders the rows of a tree by parent, then by start time in clock ticks, then
by pid (its sort of what it read in pid order), and the threads of a
process as /proc/PID/task lists them: in the order they were made. Both
differ from pid order once pids wrapped, which is what the module and
/proc's directory give.

The population: pids burnt (short-lived forks) up to just below pid_max,
this process's children `sleep` A and B, pids burnt until they wrap, then
children C and D, whose pids are
below A's and B's; and this process's threads: one made before the wrap and
one after, whose tid is below the first's. The oracle is checked first: ps
lists the siblings A B C D and the threads in that order although C's pid is
below A's. Then, on each backend (the module, /proc), for every everyday
tree and thread form (axjf, -ejH, -e --forest, -eH, auxf, axf, -eLF, -eLf,
-eL, axH), the sequence of rows (their PID, and LWP/TID columns) of tdps is
ps's, run just before or just after, and the lines of the fixture are ps's
(with -o pid,ppid,lwp,args forms, whose values do not move).

Usage: test_tdps_wrap.py TDPS
"""
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import check, failures, run  # noqa: E402

PS = "/usr/bin/ps"


def read(path):
    with open(path) as f:
        return f.read().strip()


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def last_pid():
    return int(read("/proc/sys/kernel/ns_last_pid"))


def burn(until):
    """Fork short-lived children until until(pid, previous pid) says so."""
    prev = last_pid()
    for _ in range(100000):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        if until(pid, prev):
            return
        prev = pid
    raise SystemExit("pids did not get there")


def sleeper():
    p = subprocess.Popen(["sleep", "1000"])
    want = b"sleep\x001000\x00"
    for _ in range(3000):
        with open("/proc/%d/cmdline" % p.pid, "rb") as f:
            if f.read() == want:
                return p
        time.sleep(0.01)
    raise SystemExit("sleep %d did not start" % p.pid)


def keys(out, names=("PID", "LWP", "TID", "SPID")):
    """The sequence of rows as the tuples of their id columns."""
    lines = out.splitlines()
    if not lines:
        return []
    head = lines[0].split()
    cols = [head.index(n) for n in names if n in head]
    return [tuple(ln.split()[c] for c in cols) for ln in lines[1:]]


def compare(tdps, backend, form, lines_of=None):
    """tdps FORM against ps FORM run before and after: the order of every row
    and, with lines_of (pids), those pids' lines in full."""
    args = form.split()
    rc1, ps1, _ = run([PS] + args)
    rc, td, err = run([tdps] + backend + args)
    rc2, ps2, _ = run([PS] + args)
    what = "%s %s" % (" ".join(backend) or "module", form)
    check(rc == rc1 == 0 and not err, "%s: exit %d (ps %d), stderr %r" % (what, rc, rc1, err))
    # rows of tasks in both ps runs: not the listing programs themselves
    stable = {k[0] for k in keys(ps1)} & {k[0] for k in keys(ps2)}
    t, a, b = ([k for k in keys(x) if k[0] in stable] for x in (td, ps1, ps2))
    ok = t in (a, b) and len(t) > 1
    check(ok, "%s: the rows in ps's order (%d rows)" % (what, len(t)))
    if not ok:
        for name, out in (("ps", ps1), ("tdps", td), ("ps2", ps2)):
            print("  %s: %s" % (name, " ".join("/".join(k) for k in keys(out))))
    if lines_of:
        pick = [ln for ln in td.splitlines() if ln.split()[0] in lines_of]
        ok = pick in ([ln for ln in ps1.splitlines() if ln.split()[0] in lines_of],
                      [ln for ln in ps2.splitlines() if ln.split()[0] in lines_of])
        check(ok and pick, "%s: the fixture's lines are ps's" % what)
        if not ok:
            print("  tdps:\n    " + "\n    ".join(pick) + "\n  ps:\n    " + "\n    ".join(
                ln for ln in ps1.splitlines() if ln.split()[0] in lines_of))


def main():
    tdps = sys.argv[1]
    me = os.getpid()
    old_max = read("/proc/sys/kernel/pid_max")
    # Room for the fixture above what is in use; pids wrap to 300 and up.
    pid_max = max(last_pid() + 120, 500)
    write("/proc/sys/kernel/pid_max", pid_max)
    kids, hold = [], threading.Event()
    try:
        # the first ones just below pid_max, the last ones after the wrap
        burn(lambda pid, prev: pid >= pid_max - 20 or pid < prev)
        kids += [sleeper(), sleeper()]
        t1 = threading.Thread(target=hold.wait)
        t1.start()
        time.sleep(0.05)  # another clock tick for what follows
        burn(lambda pid, prev: pid < prev)
        kids += [sleeper(), sleeper()]
        t2 = threading.Thread(target=hold.wait)
        t2.start()
        pids = [k.pid for k in kids]
        tids = [t1.native_id, t2.native_id]
        print("children %s, threads %s (pid_max %s)" % (pids, tids,
              read("/proc/sys/kernel/pid_max")), flush=True)
        check(pids[2] < pids[0] and tids[1] < tids[0],
              "the fixture: pids wrapped between the first and last children and threads")

        # the oracle: ps's order is the order they were made in
        _, out, _ = run([PS, "-e", "--forest", "-o", "pid,ppid,comm"])
        sib = [int(k[0]) for k in keys(out) if int(k[0]) in pids]
        check(sib == pids, "the oracle: ps's forest lists the children as made: %s" % sib)
        _, out, _ = run([PS, "-L", "-o", "pid,lwp,comm", "-p", str(me)])
        lwps = [int(k[1]) for k in keys(out)]
        check(lwps[0] == me and [t for t in lwps if t in tids] == tids,
              "the oracle: ps -L lists the threads as made: %s" % lwps)

        fixture = {str(p) for p in pids} | {str(me)}
        for backend in ([], ["--backend", "procfs"]):
            for form in ("axjf", "-ejH", "-e --forest", "-eH", "auxf", "axf", "-eLF", "-eLf",
                         "-eL", "axH", "xf"):
                compare(tdps, backend, form)
            for form in ("-e --forest -o pid,ppid,args", "-eH -o pid,ppid,args",
                         "axf -o pid,ppid,args", "-eL -o pid,lwp,args", "-p %d -L -o pid,lwp,comm"
                         % me, "x --forest -o pid,ppid,pgid,args"):
                compare(tdps, backend, form, fixture)
    finally:
        hold.set()
        for k in kids:
            k.kill()
            k.wait()
        write("/proc/sys/kernel/pid_max", old_max)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
