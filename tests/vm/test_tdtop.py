#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdtop -b prints what procps's top -b prints, in the columns that keep still.

Runs in the guest as root (through scripts/vm-run). It starts fixture tasks:
sleepers of root, nobody and a uid without a name, at nice 0, 5, 10 and -5,
a process with four sleeping threads, a stopped task, and two duty-cycle
processes that burn 30 % and 60 % of a CPU (busy for that share of every
50 ms of wall-clock time). Then it runs `top -b -n 2 -d D` and
`tdtop -b -n 2 -d D` one after the other and compares their last frames:

- the Tasks line: total, stopped and zombie counts equal, running + sleeping
  equal (which busy task is running at the instant differs);
- every task in both frames, column by column: PID, USER, PR, NI, VIRT,
  RES, SHR and COMMAND equal, and S equal for the fixtures (a task the
  system runs by itself may change state; a kernel worker its name, which
  procfs shows with its current work);
- no task missing from one frame but a kernel thread or the tools
  themselves (and this script, whose memory moves);
- %CPU of each duty-cycle fixture within TOL points of its share, in both
  tools (the tolerance both must meet);
- the same with -H (threads): the Threads line, and one row per thread of
  the threaded fixture, as /proc/PID/task lists them.

Usage: test_tdtop.py TDTOP [--backend netlink|procfs]
"""
import os
import re
import signal
import subprocess
import sys
import time

TOP = "/usr/bin/top"
PY = "/usr/bin/python3"
DELAY = "2"
TOL = 15.0
DUTIES = [0.30, 0.60]

DUTY = r"""
import sys, time
duty, period = float(sys.argv[1]), 0.05
t = time.monotonic()
while True:
    busy_end = t + period * duty
    while time.monotonic() < busy_end:
        pass
    t += period
    d = t - time.monotonic()
    if d > 0:
        time.sleep(d)
    else:
        t = time.monotonic()
"""

THREADS = r"""
import threading, time
for _ in range(4):
    threading.Thread(target=time.sleep, args=(100000,), daemon=True).start()
print("ready", flush=True)
time.sleep(100000)
"""

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def spawn(argv, uid=None, nice=0):
    def pre():
        if nice:
            os.nice(nice)
        if uid is not None:
            os.setgid(uid)
            os.setgroups([])
            os.setuid(uid)
    return subprocess.Popen(argv, preexec_fn=pre, stdout=subprocess.PIPE)


def frames(text):
    """The frames of a batch output: (summary lines, {pid: row fields})."""
    out = []
    for chunk in re.split(r"\n(?=top - )", text.strip("\n")):
        lines = chunk.split("\n")
        rows = {}
        for line in lines[7:]:
            if not line.strip():
                continue
            f = line.split(None, 11)
            if len(f) < 12:
                f.append("")
            rows[int(f[0])] = f
        out.append((lines[:7], rows))
    return out


def tasks_line(line):
    m = re.match(r"(Tasks|Threads): *(\d+) total, *(\d+) running, *(\d+) sleeping, *"
                 r"(\d+) stopped, *(\d+) zombie", line)
    if not m:
        fail("no Tasks line: %r" % line)
        return None
    return m.group(1), [int(x) for x in m.groups()[1:]]


def is_kthread(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            flags = int(f.read().rsplit(")", 1)[1].split()[6])
        return bool(flags & 0x00200000)
    except (OSError, IndexError, ValueError):
        return True  # gone: a short-lived kernel worker or a tool


COLS = ["PID", "USER", "PR", "NI", "VIRT", "RES", "SHR", "S", "%CPU", "%MEM", "TIME+",
        "COMMAND"]


def compare(what, top_out, td_out, fixtures, busy, skip, check_cpu=True):
    (tsum, trows), (dsum, drows) = frames(top_out)[-1], frames(td_out)[-1]
    if tsum[6] != dsum[6]:
        fail("%s: header %r vs %r" % (what, tsum[6], dsum[6]))
    for i in (1, 2, 3, 4):
        # same layout: same words in the same places, numbers aside
        if re.sub(r" *[\d.]+", "#", tsum[i]) != re.sub(r" *[\d.]+", "#", dsum[i]):
            fail("%s: summary line %d %r vs %r" % (what, i, tsum[i], dsum[i]))
    tt, dt = tasks_line(tsum[1]), tasks_line(dsum[1])
    if tt and dt:
        (tk, (ttot, trun, tsl, tst, tzo)), (dk, (dtot, drun, dsl, dst, dzo)) = tt, dt
        if tk != dk or ttot != dtot or tst != dst or tzo != dzo or trun + tsl != drun + dsl:
            fail("%s: %r vs %r" % (what, tsum[1], dsum[1]))
    compared = 0
    for pid in sorted(set(trows) | set(drows)):
        if pid in skip:
            continue
        if pid not in trows or pid not in drows:
            if not is_kthread(pid):
                fail("%s: pid %d only in %s" % (what, pid, "top" if pid in trows else "tdtop"))
            continue
        t, d = trows[pid], drows[pid]
        compared += 1
        for k, name in enumerate(COLS):
            if name in ("%CPU", "%MEM", "TIME+"):
                continue
            if name == "S" and (pid not in fixtures or pid in busy):
                continue
            if name == "COMMAND" and t[4] == "0" and t[k] != d[k] and \
                    t[k].startswith("kworker"):
                continue
            if t[k] != d[k]:
                fail("%s: pid %d %s: top %r tdtop %r" % (what, pid, name, t[k], d[k]))
    for pid, duty in busy.items() if check_cpu else ():
        for tool, rows in (("top", trows), ("tdtop", drows)):
            if pid not in rows:
                fail("%s: duty fixture %d missing from %s" % (what, pid, tool))
                continue
            cpu = float(rows[pid][8])
            if abs(cpu - duty * 100) > TOL:
                fail("%s: %s shows %.1f %%CPU for a %.0f %% duty cycle" %
                     (what, tool, cpu, duty * 100))
            else:
                print("%s: %s %%CPU %.1f for duty %.0f %%" % (what, tool, cpu, duty * 100))
    return compared, trows, drows


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    tdtop = args[0]
    backend = args[args.index("--backend") + 1] if "--backend" in args else "auto"
    procs = []
    try:
        for uid, nice in ((None, 0), (65534, 5), (1234, 10), (None, -5), (65534, 0)):
            procs.append(spawn(["sleep", "100000"], uid, nice))
        stopped = spawn(["sleep", "100000"])
        procs.append(stopped)
        os.kill(stopped.pid, signal.SIGSTOP)
        thr = spawn([PY, "-c", THREADS], 65534)
        procs.append(thr)
        thr.stdout.readline()
        busy = {}
        for duty in DUTIES:
            p = spawn([PY, "-c", DUTY, str(duty)])
            procs.append(p)
            busy[p.pid] = duty
        fixtures = {p.pid for p in procs}
        time.sleep(2)  # the fixtures settle (imports done, duty cycles running)

        skip = {os.getpid()}
        top_out = run([TOP, "-b", "-n", "2", "-d", DELAY])
        td_out = run([tdtop, "-b", "-n", "2", "-d", DELAY, "--backend", backend])
        for out in (top_out, td_out):
            for _, rows in frames(out):
                for pid, f in rows.items():
                    if f[11] in ("top", "tdtop"):
                        skip.add(pid)
        n, _, _ = compare("processes", top_out, td_out, fixtures, busy, skip)
        print("processes: %d tasks compared" % n)
        if n < 20:
            fail("only %d tasks compared" % n)

        top_out = run([TOP, "-b", "-H", "-n", "1"])
        td_out = run([tdtop, "-b", "-H", "-n", "1", "--backend", backend])
        for out in (top_out, td_out):
            for _, rows in frames(out):
                for pid, f in rows.items():
                    if f[11] in ("top", "tdtop"):
                        skip.add(pid)
        n, trows, drows = compare("threads", top_out, td_out, fixtures, busy, skip,
                                    check_cpu=False)
        tids = {int(t) for t in os.listdir("/proc/%d/task" % thr.pid)}
        if len(tids) != 5 or not tids <= set(drows) or not tids <= set(trows):
            fail("threads: fixture threads %s, tdtop shows %s" %
                 (sorted(tids), sorted(tids & set(drows))))
        print("threads: %d tasks compared" % n)
    finally:
        for p in procs:
            try:
                os.kill(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("tdtop -b agrees with top -b")
    return 0


if __name__ == "__main__":
    sys.exit(main())
