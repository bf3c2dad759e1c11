#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The module leaks nothing per request, and unloading it under load is safe.

Runs in the guest as root: usage test_lifetime.py PATH/TO/task_diag.ko [CYCLES [REQUESTS]]

1. Unreclaimable slab (SUnreclaim in /proc/meminfo) before and after 10,000
   single-task requests with every group and 300 full dumps. Each request
   allocates a subject with two credential references and a pid reference;
   leaking any of them would cost at least ~100 bytes a request, i.e. more
   than 1 MiB over the run, so growth above 1 MiB fails the test.
2. rmmod in a loop while another process dumps continuously, and insmod
   again after each unload that succeeded, until 100 cycles: the unload
   either fails with "in use" or succeeds between dumps; afterwards no task
   is stuck in D state (there without a context switch for 10 s) and the
   family answers again. scripts/vm-run fails the run if the kernel logged
   anything (warning, BUG, oops).
"""
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdnl  # noqa: E402


CYCLES = int(sys.argv[2]) if len(sys.argv) > 2 else 100
# Fewer under the debug kernel's CI run, where every request costs many
# times more and kmemleak is the finer leak check (the 1 MiB bound below
# catches ~100 bytes a request only over 10,000 of them).
REQUESTS = int(sys.argv[3]) if len(sys.argv) > 3 else 10000


def meminfo_kb(key):
    for line in open("/proc/meminfo"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise RuntimeError("no %s in /proc/meminfo" % key)


def sunreclaim_kb():
    return meminfo_kb("SUnreclaim")


def settle():
    subprocess.call(["sync"])
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    time.sleep(1)


# A task is stuck if it stays in D state without a single context switch for
# this long: khungtaskd's rule (state D, nvcsw + nivcsw unchanged) over a
# shorter window. One look is not enough: khugepaged, kcompactd or a virtio-fs
# reader pass through D for milliseconds while working.
STUCK_SECONDS = 10


def d_state_tasks():
    """{pid: (comm, wchan, switches)} of the tasks in D state now."""
    found = {}
    for d in glob.glob("/proc/[0-9]*"):
        try:
            st = open(d + "/stat").read()
            if st[st.rindex(")") + 2] != "D":
                continue
            switches = sum(int(line.split()[1]) for line in open(d + "/status")
                           if line.startswith(("voluntary_ctxt_switches:",
                                               "nonvoluntary_ctxt_switches:")))
            comm = st[st.index("(") + 1:st.rindex(")")]
            wchan = open(d + "/wchan").read()
        except (OSError, ValueError):
            continue
        found[int(d[6:])] = (comm, wchan, switches)
    return found


def stuck_tasks():
    """The tasks in D state that made no progress for STUCK_SECONDS."""
    suspects = d_state_tasks()
    end = time.time() + STUCK_SECONDS
    while suspects and time.time() < end:
        time.sleep(0.5)
        now = d_state_tasks()
        suspects = {pid: v for pid, v in suspects.items()
                    if pid in now and now[pid][2] == v[2]}
    return ["%d %s in %s" % (pid, v[0], v[1] or "?") for pid, v in sorted(suspects.items())]


DUMPER = r"""
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: sys.exit(print("dumper: stopped after %%d dumps, %%d refused" %% (ok, err))))
sys.path.insert(0, %r)
import tdnl
end = time.time() + float(sys.argv[1])
ok = err = 0
while time.time() < end:
    try:
        c = tdnl.Client()
        if c.family is None:
            err += 1
            c.close()
            continue
        c.request(scope=tdnl.SCOPE["all_threads"], show=tdnl.SHOW_ALL)
        c.close()
        ok += 1
    except OSError:
        err += 1
print("dumper: %%d dumps completed, %%d refused or cut short while the module was away" %% (ok, err))
""" % os.path.dirname(os.path.abspath(__file__))


def main():
    ko = sys.argv[1]
    me = os.getpid()
    c = tdnl.Client()
    one = dict(scope=tdnl.SCOPE["task"], pid=me, show=tdnl.SHOW_ALL, dump=False)
    for _ in range(300):
        c.request(**one)
    settle()
    before, avail_before = sunreclaim_kb(), meminfo_kb("MemAvailable")
    for _ in range(REQUESTS):
        c.request(**one)
    for _ in range(REQUESTS * 3 // 100):
        c.request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW_ALL)
    c.close()
    settle()
    after, avail_after = sunreclaim_kb(), meminfo_kb("MemAvailable")
    growth = after - before
    print("leak: SUnreclaim %d kB -> %d kB (%+d kB), MemAvailable %d kB -> %d kB (%+d kB) "
          "over %d requests and %d dumps"
          % (before, after, growth, avail_before, avail_after, avail_after - avail_before,
             REQUESTS, REQUESTS * 3 // 100))
    failed = growth > 1024

    dumper = subprocess.Popen([sys.executable, "-c", DUMPER, "600"])
    unloaded = busy = 0
    end = time.time() + 400
    while time.time() < end and unloaded < CYCLES:
        r = subprocess.run(["rmmod", "task_diag"], capture_output=True)
        if r.returncode == 0:
            unloaded += 1
            subprocess.check_call(["insmod", ko])
        else:
            busy += 1
    dumper.terminate()
    dumper.wait()
    print("lifetime: %d unloads + reloads, %d refused as busy, while dumping" % (unloaded, busy))
    if unloaded < CYCLES:
        print("FAIL: only %d of %d unload/reload cycles happened" % (unloaded, CYCLES))
        failed = True
    stuck = stuck_tasks()
    if stuck:
        print("FAIL: tasks stuck in D state for %d s: %s" % (STUCK_SECONDS, stuck))
        failed = True
    c = tdnl.Client()
    tasks = c.request(scope=tdnl.SCOPE["all_processes"])
    c.close()
    if me not in [t["pid"] for t in tasks]:
        print("FAIL: the family does not answer after the reload cycles")
        failed = True
    print("lifetime: %s" % ("FAIL" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
