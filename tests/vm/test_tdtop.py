#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdtop -b prints what procps's top -b prints, in the columns that keep still.

Runs in the guest as root (through scripts/vm-run). It starts fixture tasks:
sleepers of root, nobody and a uid without a name, at nice 0, 5, 10 and -5,
a process with four sleeping threads, a stopped task, and two duty-cycle
processes that burn 30 % and 60 % of a CPU (busy for that share of every
50 ms of wall-clock time). Then it runs `top -b -n 2 -d D` and
`tdtop -b -n 2 -d D` one after the other and compares their last frames:

- the Tasks line: each total is the number of rows of its frame; totals,
  and running + sleeping, equal but for the tasks only one frame has (the
  tools, short-lived tasks); stopped and zombie counts equal;
- every task in both frames, column by column: PID, USER, PR, NI, VIRT,
  RES, SHR and COMMAND equal, and S equal for the fixtures (a task the
  system runs by itself may change state; a kernel worker its name, which
  procfs shows with its current work);
- no task missing from one frame but a kernel thread or the tools
  themselves (and this script, whose memory moves);
- %CPU of each duty-cycle fixture, from a second pair of runs of both tools
  side by side (-d 6: about the same interval, so that the host's load, which
  moves what a TCG guest charges its tasks, falls alike on both): the two
  within PAIR_TOL points of each other, and tdtop within TOL points of the
  fixture's share whenever top is (the tolerance both must meet; when top
  is not, the guest did not get the share and only the pair is checked);
  a miss is measured again, up to three times in all;
- memory columns of tasks that are not fixtures may move between the runs:
  top runs again after tdtop; where top's two runs agree, tdtop must show
  the same value;
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
TOL = 20.0
PAIR_TOL = 15.0
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


def check_cpu_side_by_side(tdtop, backend, busy):
    """%CPU of the duty-cycle fixtures, both tools over the same interval."""
    t = subprocess.Popen([TOP, "-b", "-n", "2", "-d", "6"], stdout=subprocess.PIPE, text=True)
    d = subprocess.Popen([tdtop, "-b", "-n", "2", "-d", "6", "--backend", backend],
                         stdout=subprocess.PIPE, text=True)
    trows, drows = frames(t.communicate()[0])[-1][1], frames(d.communicate()[0])[-1][1]
    if t.returncode or d.returncode:
        fail("side by side: top exit %d, tdtop exit %d" % (t.returncode, d.returncode))
    for pid, duty in busy.items():
        if pid not in trows or pid not in drows:
            fail("side by side: duty fixture %d missing" % pid)
            continue
        tc, dc = float(trows[pid][8]), float(drows[pid][8])
        print("duty %.0f %%: top %.1f, tdtop %.1f %%CPU" % (duty * 100, tc, dc))
        if abs(tc - dc) > PAIR_TOL:
            fail("duty %.0f %%: top %.1f and tdtop %.1f %%CPU over the same interval" %
                 (duty * 100, tc, dc))
        if abs(tc - duty * 100) > TOL:
            # top, the oracle, says the guest did not get its share (a loaded
            # host starves TCG vCPUs and the guest loses ticks): the two
            # tools' agreement over the same interval is what is left to check
            print("note: top's %.1f is off the %.0f %% duty: the share was not delivered"
                  % (tc, duty * 100))
        elif abs(dc - duty * 100) > TOL:
            fail("tdtop shows %.1f %%CPU for a %.0f %% duty cycle (top %.1f)" %
                 (dc, duty * 100, tc))


def kib(s):
    m = re.match(r"^([\d.]+)([kmgtpe]?)$", s)
    return float(m.group(1)) * 1024 ** "kmgtpe".index(m.group(2) or "k") if m else None


def compare(what, top_out, td_out, fixtures, busy, skip, top_after):
    (tsum, trows), (dsum, drows) = frames(top_out)[-1], frames(td_out)[-1]
    arows = frames(top_after)[-1][1]
    if tsum[6] != dsum[6]:
        fail("%s: header %r vs %r" % (what, tsum[6], dsum[6]))
    for i in (1, 2, 3, 4):
        # same layout: same words in the same places, numbers aside
        if re.sub(r" *[\d.]+", "#", tsum[i]) != re.sub(r" *[\d.]+", "#", dsum[i]):
            fail("%s: summary line %d %r vs %r" % (what, i, tsum[i], dsum[i]))
    tt, dt = tasks_line(tsum[1]), tasks_line(dsum[1])
    if tt and dt:
        # each total counts the rows below it; the two differ by exactly the
        # tasks only one frame has (the tools, short-lived tasks)
        (tk, (ttot, trun, tsl, tst, tzo)), (dk, (dtot, drun, dsl, dst, dzo)) = tt, dt
        tonly, donly = len(set(trows) - set(drows)), len(set(drows) - set(trows))
        if tk != dk or ttot != len(trows) or dtot != len(drows) or \
                ttot - tonly != dtot - donly or tst != dst or tzo != dzo or \
                trun + tsl - tonly != drun + dsl - donly:
            fail("%s: %r vs %r (%d and %d tasks only in one)" % (what, tsum[1], dsum[1], tonly,
                                                                  donly))
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
            # memory that moved between top's two runs (a fixture still
            # faulting in a shared page too: RES and SHR 64 KiB up on 7.3)
            if t[k] != d[k] and name in ("VIRT", "RES", "SHR") and pid in arows:
                a, v, b = kib(t[k]), kib(d[k]), kib(arows[pid][k])
                if a != b or (None not in (a, v, b) and min(a, b) <= v <= max(a, b)):
                    continue    # it moved between top's two runs, or tdtop saw it in between
            if t[k] != d[k]:
                fail("%s: pid %d %s: top %r tdtop %r" % (what, pid, name, t[k], d[k]))
    return compared, trows, drows


def with_retries(check, fixtures, tries=3):
    """Run check(); when all it found wrong is about tasks that are not
    fixtures (another process of the guest whose memory moved between the
    two tools' reads, though not between top's two), run it again: a real
    difference comes back every time, a moving task does not."""
    for i in range(tries):
        before = len(failures)
        check()
        new = failures[before:]
        pids = {int(m) for f in new for m in re.findall(r"pid (\d+)", f)}
        if not new or i == tries - 1 or not pids or pids & fixtures or \
                any("pid" not in f for f in new):
            return
        print("retry: only non-fixture tasks moved (%s)" % sorted(pids))
        del failures[before:]


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

        def processes():
            top_out = run([TOP, "-b", "-n", "2", "-d", DELAY])
            td_out = run([tdtop, "-b", "-n", "2", "-d", DELAY, "--backend", backend])
            top_after = run([TOP, "-b", "-n", "1"])
            for out in (top_out, td_out, top_after):
                for _, rows in frames(out):
                    for pid, f in rows.items():
                        if f[11] in ("top", "tdtop"):
                            skip.add(pid)
            n, _, _ = compare("processes", top_out, td_out, fixtures, busy, skip, top_after)
            print("processes: %d tasks compared" % n)
            if n < 20:
                fail("only %d tasks compared" % n)
        skip = {os.getpid()}
        with_retries(processes, fixtures)
        # The duty fixtures' share depends on the host's load at that moment
        # (TCG), and the two tools sample a few ms apart: a miss is measured
        # again, up to three times. A wrong %CPU in tdtop misses every time.
        for i in range(3):
            before = len(failures)
            check_cpu_side_by_side(tdtop, backend, busy)
            if len(failures) == before or i == 2:
                break
            print("retry: %%CPU side by side (%d)" % (i + 1))
            del failures[before:]

        def threads():
            top_out = run([TOP, "-b", "-H", "-n", "1"])
            td_out = run([tdtop, "-b", "-H", "-n", "1", "--backend", backend])
            top_after = run([TOP, "-b", "-H", "-n", "1"])
            for out in (top_out, td_out, top_after):
                for _, rows in frames(out):
                    for pid, f in rows.items():
                        if f[11] in ("top", "tdtop"):
                            skip.add(pid)
            n, trows, drows = compare("threads", top_out, td_out, fixtures, busy, skip,
                                       top_after)
            tids = {int(t) for t in os.listdir("/proc/%d/task" % thr.pid)}
            if len(tids) != 5 or not tids <= set(drows) or not tids <= set(trows):
                fail("threads: fixture threads %s, tdtop shows %s" %
                     (sorted(tids), sorted(tids & set(drows))))
            print("threads: %d tasks compared" % n)
        with_retries(threads, fixtures)
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
