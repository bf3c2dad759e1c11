#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Dumps stay correct while tasks are born and die as fast as they can.

Runs in the guest as root: test_churn.py PATH/TO/churn [DUMPS]

While churn forks and reaps processes and creates and joins threads, this
runs DUMPS (default 1000) full dumps (all threads, every group). In every
dump pids must be strictly ascending and unique (a dump resumed by index
rather than by key, or one that revisits pids, breaks this). Every 10th dump
is bracketed by two readings of /proc: a task present in both with the same
start time lived through the whole dump and must be in it (a dump that
loses its place, or skips tasks, breaks this). Unreclaimable slab, after
dropping caches, may not grow by more than 4 MiB over the test (it is
printed with MemAvailable). scripts/vm-run fails the run
if the kernel logs anything.
"""
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdnl  # noqa: E402


def alive():
    """{tid: start_time} of every thread, from /proc."""
    out = {}
    for d in glob.glob("/proc/[0-9]*/task/[0-9]*"):
        try:
            st = open(d + "/stat").read()
        except OSError:
            continue
        out[int(d.rsplit("/", 1)[1])] = int(st[st.rindex(")") + 2:].split()[19])
    return out


def meminfo_kb(key):
    for line in open("/proc/meminfo"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def settle():
    subprocess.call(["sync"])
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    time.sleep(1)


def main():
    churn, dumps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    tick = 10**9 // os.sysconf("SC_CLK_TCK")
    settle()
    slab0, avail0 = meminfo_kb("SUnreclaim"), meminfo_kb("MemAvailable")
    proc = subprocess.Popen([churn, "100000"], stdout=subprocess.PIPE, text=True)
    time.sleep(1)
    c = tdnl.Client(rcvbuf=1 << 20)
    errors, tasks, checked = [], 0, 0
    t0 = time.time()
    try:
        for i in range(dumps):
            before = alive() if i % 10 == 0 else None
            ts = c.request(scope=tdnl.SCOPE["all_threads"], show=tdnl.SHOW_ALL)
            pids = [t["pid"] for t in ts]
            tasks += len(ts)
            if any(a >= b for a, b in zip(pids, pids[1:])):
                errors.append("dump %d: pids not strictly ascending" % i)
            if before is not None:
                after = alive()
                got = {t["pid"]: t["base"]["start_time"] // tick for t in ts}
                for tid, st in before.items():
                    if after.get(tid) == st:
                        checked += 1
                        if got.get(tid) != st:
                            errors.append("dump %d: task %d lived throughout but %s"
                                          % (i, tid, "is missing" if tid not in got
                                             else "has another start time"))
    finally:
        proc.terminate()
        out = proc.communicate()[0].strip()
        c.close()
    print(out or "churn: (no report)")
    settle()
    slab1, avail1 = meminfo_kb("SUnreclaim"), meminfo_kb("MemAvailable")
    print("churn: SUnreclaim %d kB -> %d kB (%+d kB), MemAvailable %d kB -> %d kB (%+d kB)"
          % (slab0, slab1, slab1 - slab0, avail0, avail1, avail1 - avail0))
    if slab1 - slab0 > 4096:
        errors.append("unreclaimable slab grew by %d kB over the churn test" % (slab1 - slab0))
    print("churn test: %d dumps (%d task records) in %.0f s, %d lived-throughout checks, "
          "%d errors" % (dumps, tasks, time.time() - t0, checked, len(errors)))
    for e in errors[:20]:
        print("FAIL", e)
    return 1 if errors or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
