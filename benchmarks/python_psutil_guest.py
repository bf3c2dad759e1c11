#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""taskdiag.process_iter() against psutil.process_iter(), with the attrs of `ps aux`.

Runs in a guest, in one boot: starts PROCS sleeping processes (tdspawn,
half root's, half nobody's), then reads every process with the attributes
that `ps aux` shows (user, pid, %cpu, %mem, vsz, rss, tty, stat, start,
time, command), REPEAT times with each reader, in turn: psutil,
taskdiag over netlink, taskdiag from /proc. Prints each one's median
seconds per read and the ratios psutil / taskdiag, which are the result
(never the seconds alone: rule of this tree, only ratios within one boot).

  benchmarks/python_psutil [PROCS [REPEAT]]   (boots the guest, runs this there)
"""
import statistics
import subprocess
import sys
import time
import warnings

import psutil
import taskdiag

PS_AUX = ["username", "pid", "cpu_percent", "memory_percent", "memory_info", "terminal",
          "status", "create_time", "cpu_times", "cmdline", "name"]


def read_psutil():
    return [p.info for p in psutil.process_iter(PS_AUX)]


def read_td(backend):
    return [p.info for p in taskdiag.process_iter(PS_AUX, backend=backend)]


def timed(fn):
    t = time.perf_counter()
    rows = fn()
    return time.perf_counter() - t, len(rows)


def main():
    tdspawn, procs = sys.argv[1], int(sys.argv[2])
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    warnings.simplefilter("ignore", taskdiag.ProcfsFallbackWarning)
    spawn = subprocess.Popen([tdspawn, str(procs), "1", "0,65534"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    line = spawn.stdout.readline()
    if not line.startswith("ready"):
        raise SystemExit("tdspawn did not start its processes: %r" % line)
    readers = {"psutil": read_psutil,
               "taskdiag netlink": lambda: read_td("netlink"),
               "taskdiag procfs": lambda: read_td("procfs")}
    times = {k: [] for k in readers}
    counts = {}
    try:
        for fn in readers.values():
            fn()  # warm: imports, caches, cpu_percent's first reading
        for _ in range(repeat):
            for name, fn in readers.items():
                t, n = timed(fn)
                times[name].append(t)
                counts[name] = n
    finally:
        spawn.stdin.close()
        spawn.wait()
    med = {k: statistics.median(v) for k, v in times.items()}
    print("python_psutil: %d spawned, %d reads each, attrs of ps aux (%s)"
          % (procs, repeat, ", ".join(PS_AUX)))
    for name in readers:
        print("  %-17s %6d processes  median %.4f s per read" % (name, counts[name], med[name]))
    for name in ("taskdiag netlink", "taskdiag procfs"):
        print("  psutil / %-17s %.1fx" % (name, med["psutil"] / med[name]))
    if min(counts.values()) < procs:
        raise SystemExit("a reader saw fewer than the %d spawned processes: %r" % (procs, counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
