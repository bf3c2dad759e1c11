#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest side of benchmarks/filters: kernel-side filters, one boot.

Spawns 9,900 sleeping processes of one user and 100 of another (1 % of the
10,000), then 50 busy ones (a loop each), and measures with tdbench, in
alternating rounds, netlink_full (base|stat|statm|io|status) of all
processes five ways: a full dump; a "ran since" dump from the previous
dump's start, taken one sampling interval later (--ran-since-ms, the sleep
outside the timing); the same with ran-since-idle records (every task
present, the idle ones as pid-only records); the ran-since dump again while
a tenth of the sleeping processes are woken every 0.5 s (SIGUSR1, which
tdspawn's children handle); and a dump filtered on the second user's uid.
Beside them netlink_pid_only, the floor a task left out is measured
against, and the full and pid-only dumps again after the same pause as the
ran-since dumps (tdbench --pause-ms): a dump that follows an interval of
sleep starts slower than one that follows another dump (measured under
TCG), so a ran-since dump's left-out tasks are weighed against dumps that
start alike. tdbench runs at nice -20 so that it, not the busy loops, gets
the CPU while it is timed. Reports the medians of the timed dumps (wall
and CPU time), the tasks each returned, and the ratios to the full dump of
the same rounds.
"""
import argparse
import json
import os
import statistics
import signal
import subprocess
import sys
import threading
import time

BUSY = 50
UID_MAIN, UID_FEW = 1000, 2000
WAKE_EVERY_S = 0.5


class Waker:
    """Wakes @pids (tdspawn children: SIGUSR1 runs a no-op handler) every
    WAKE_EVERY_S while started, so that each ran-since interval sees them
    run."""

    def __init__(self, pids):
        self.pids = pids
        self.stop = threading.Event()
        self.thread = None

    def __enter__(self):
        self.stop.clear()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def run(self):
        # At nice -20 (Linux's nice is per thread): at 0, among the 50 busy
        # loops, one pass over a thousand pids outlasted the interval, and
        # the dumps kept half of them.
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -20)
        while not self.stop.is_set():
            for pid in self.pids:
                os.kill(pid, signal.SIGUSR1)
            self.stop.wait(WAKE_EVERY_S)


def children(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(x) for x in f.read().split()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--procs", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--interval-ms", type=int, default=1000)
    ap.add_argument("--json")
    a = ap.parse_args()
    tdbench = os.path.join(a.bench, "tdbench")
    few = a.procs // 100
    spawns = []
    for n, uid in ((a.procs - few, UID_MAIN), (few, UID_FEW)):
        sp = subprocess.Popen([os.path.join(a.bench, "tdspawn"), str(n), "1", str(uid)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if not sp.stdout.readline().startswith("ready"):
            print("tdspawn failed", file=sys.stderr)
            return 1
        spawns.append(sp)
    # A tenth of the processes, woken through the ran-since-10pct dumps.
    woken = children(spawns[0].pid)[::10]
    busy = [subprocess.Popen(["/bin/sh", "-c", "while :; do :; done"]) for _ in range(BUSY)]
    time.sleep(2)
    variants = [
        ("full", "netlink_full", []),
        ("ran_since", "netlink_full", ["--ran-since-ms", str(a.interval_ms)]),
        ("ran_since_idle", "netlink_full", ["--ran-since-ms", str(a.interval_ms), "--idle"]),
        ("ran_since_10pct", "netlink_full", ["--ran-since-ms", str(a.interval_ms)]),
        ("uid_1pct", "netlink_full", ["--uid", str(UID_FEW)]),
        ("pid_only", "netlink_pid_only", []),
        ("full_paused", "netlink_full", ["--pause-ms", str(a.interval_ms)]),
        ("pid_only_paused", "netlink_pid_only", ["--pause-ms", str(a.interval_ms)]),
    ]
    times = {v: [] for v, _, _ in variants}
    # The CPU time tdbench itself took for the same dump (user + system,
    # getrusage()): what the dump costs without the time the waker, the
    # woken handlers and the busy loops had the CPU.
    cpu = {v: [] for v, _, _ in variants}
    tasks = {v: [] for v, _, _ in variants}
    try:
        for r in range(a.rounds):
            order = variants if r % 2 == 0 else variants[::-1]
            for name, method, extra in order:
                # At nice -20: the 50 busy loops must not decide the timings.
                cmd = ["nice", "-n", "-20", tdbench, "run", method, "--loops", "3"] + extra
                if name == "ran_since_10pct":
                    with Waker(woken):
                        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                                             text=True).stdout
                else:
                    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                                         text=True).stdout
                res = json.loads(out.strip().splitlines()[-1])
                # The first loop warms up (and, for ran-since, starts from a
                # stamp taken before the untimed first dump): the last counts.
                times[name].append(res["loop_s"][-1])
                cpu[name].append(res["loop_utime_s"][-1] + res["loop_stime_s"][-1])
                tasks[name].append(res["tasks"])
            print("[filters] round %d of %d" % (r + 1, a.rounds), file=sys.stderr, flush=True)
    finally:
        for p in busy:
            p.kill()
            p.wait()
        for sp in spawns:
            sp.stdin.close()
            sp.wait()
    med = {v: statistics.median(t) for v, t in times.items()}
    cmed = {v: statistics.median(t) for v, t in cpu.items()}
    print("%d sleeping processes (%d of uid %d), %d busy; %d rounds in one boot; "
          "netlink_full of all processes; ran-since interval %d ms"
          % (a.procs, few, UID_FEW, BUSY, a.rounds, a.interval_ms))
    print("| dump | tasks returned (per round) | median ms | / full | CPU ms | CPU / full |")
    print("|---|---|---:|---:|---:|---:|")
    for v, _, _ in variants:
        print("| %s | %s | %.1f | %.3f | %.1f | %.3f |"
              % (v, ",".join(map(str, tasks[v])), med[v] * 1e3, med[v] / med["full"],
                 cmed[v] * 1e3, cmed[v] / cmed["full"]))
    # What a task the filter leaves out costs: the dump's time less its kept
    # tasks at a full dump's cost per task, over the tasks it left out,
    # against a pid-only dump's cost per task (the walk, the visibility
    # check and a 2-attribute message). A ran-since dump follows a pause:
    # its full and pid-only costs are those of the dumps after the same
    # pause; the uid dump follows the previous loop's dump, as the plain
    # full and pid-only dumps do.
    def per_task(m, v):
        return m[v] / statistics.median(tasks[v])

    skipped, pid_ratio, at_pid_only = {}, {}, {}
    for clock, m in (("wall", med), ("cpu", cmed)):
        for v, start in (("ran_since", "_paused"), ("ran_since_10pct", "_paused"),
                         ("uid_1pct", "")):
            full, pid = "full" + start, "pid_only" + start
            full_task, pid_task = per_task(m, full), per_task(m, pid)
            kept = statistics.median(tasks[v])
            left = statistics.median(tasks[full]) - kept
            key = "%s/%s" % (clock, v)
            skipped[key] = (m[v] - kept * full_task) / left if left > 0 else float("nan")
            pid_ratio[key] = skipped[key] / pid_task
            # The kept tasks at a full record's cost, the rest at a pid-only
            # one's, as a share of a full dump that starts alike.
            at_pid_only[key] = (kept * full_task + left * pid_task) / m[full]
            print("%s time, %s: a task left out costs %.2f us, %.2f of a pid-only task (%s); "
                  "the dump %.3f of a full one (%s); kept at full and left out at pid-only "
                  "cost %.3f" % (clock, v, skipped[key] * 1e6, pid_ratio[key], pid,
                                 m[v] / m[full], full, at_pid_only[key]))
        for v in ("full", "pid_only"):
            print("%s time, %s: %.2f us per task; after a pause of %d ms %.2f us"
                  % (clock, v, per_task(m, v) * 1e6, a.interval_ms,
                     per_task(m, v + "_paused") * 1e6))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"procs": a.procs, "busy": BUSY, "rounds": a.rounds,
                       "interval_ms": a.interval_ms, "runs_s": times, "cpu_s": cpu,
                       "tasks": tasks, "median_s": med, "cpu_median_s": cmed,
                       "skipped_task_s": skipped, "skipped_over_pid_only": pid_ratio,
                       "left_out_at_pid_only_over_full": at_pid_only}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
