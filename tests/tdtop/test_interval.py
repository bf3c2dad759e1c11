#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""task_diag_all --interval SEC --count N, on the host with the procfs backend.

Fixtures whose rates are known whatever the machine's load:
- a stopped process: every rate and %cpu exactly 0;
- a process that reads /dev/zero 4096 bytes and writes /dev/null 512 bytes
  at a time: rchar_rate / syscr_rate = 4096, wchar_rate / syscw_rate = 512
  (to within the rounding of the printed values) in every interval where it
  ran, and it ran in one at least;
- a busy loop: 0 <= cpu <= 100 (one thread) to within two clock ticks over the
  interval (procfs counts utime/stime in USER_HZ ticks, so each sample rounds down by up to
  one tick, and the task is read a little later or earlier in one walk than in the other),
  above 0 in one interval at least, cpu_machine = cpu / online CPUs, and
  cpu_time = cpu / 100 * the interval.
Each fixture has one record per interval; JSON lines, CSV and the table
carry the same fields; bad values of --interval and --count are usage
errors (exit 2); --backend netlink exits 3 where the module is not loaded.

Usage: test_interval.py TASK_DIAG_ALL
"""
import csv
import io
import json
import os
import signal
import subprocess
import sys

failures = []
PY = "/usr/bin/python3"
IO = r"""
import os, sys, time
z = os.open("/dev/zero", os.O_RDONLY)
n = os.open("/dev/null", os.O_WRONLY)
buf = b"x" * 512
print("ready", flush=True)
while True:
    for _ in range(200):
        os.read(z, 4096)
        os.write(n, buf)
    time.sleep(0.001)
"""


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def close(a, b, rel=0.01):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 0.02


def main():
    tda = sys.argv[1]
    ncpu = os.sysconf("SC_NPROCESSORS_ONLN")
    stopped = subprocess.Popen(["sleep", "1000"])
    os.kill(stopped.pid, signal.SIGSTOP)
    iop = subprocess.Popen([PY, "-c", IO], stdout=subprocess.PIPE)
    iop.stdout.readline()
    busy = subprocess.Popen(["sh", "-c", "while :; do :; done"])
    procs = [stopped, iop, busy]
    try:
        count, interval = 3, 1.0
        r = subprocess.run([tda, "--interval", str(interval), "--count", str(count), "-j",
                            "--backend", "procfs"], capture_output=True, text=True)
        if r.returncode != 0:
            fail("exit %d: %s" % (r.returncode, r.stderr))
        recs = [json.loads(l) for l in r.stdout.splitlines()]
        by = {}
        for x in recs:
            by.setdefault(x["pid"], []).append(x)
        for p in procs:
            if len(by.get(p.pid, [])) != count:
                fail("pid %d: %d records, not %d" % (p.pid, len(by.get(p.pid, [])), count))
        for x in by.get(stopped.pid, []):
            for k, v in x.items():
                if k not in ("time", "pid", "tgid", "comm") and v != 0:
                    fail("stopped process: %s = %r" % (k, v))
        # a loaded host may not run a fixture in some interval: the ratios hold
        # in every interval where it ran, and it must have run in one
        active = [x for x in by.get(iop.pid, []) if x["syscr_rate"] and x["syscw_rate"]]
        if not active:
            fail("reader/writer: no interval with reads and writes: %r" % by.get(iop.pid))
        for x in active:
            if not close(x["rchar_rate"] / x["syscr_rate"], 4096):
                fail("reader: rchar_rate %r / syscr_rate %r is not 4096" %
                     (x["rchar_rate"], x["syscr_rate"]))
            if not close(x["wchar_rate"] / x["syscw_rate"], 512):
                fail("writer: wchar_rate %r / syscw_rate %r is not 512" %
                     (x["wchar_rate"], x["syscw_rate"]))
        times = sorted({x["time"] for x in recs})
        if not any(x["cpu"] > 0 for x in by.get(busy.pid, [])):
            fail("busy loop: no CPU in any interval: %r" % by.get(busy.pid))
        for x in by.get(busy.pid, []):
            # two USER_HZ ticks over the interval: the rounding of each sample's counters
            if not 0 <= x["cpu"] <= 100.0 * (1 + 2 / (os.sysconf("SC_CLK_TCK") * interval)):
                fail("busy loop: cpu %r" % x["cpu"])
            if not close(x["cpu_machine"], x["cpu"] / ncpu):
                fail("busy loop: cpu_machine %r, cpu %r, %d CPUs" % (x["cpu_machine"], x["cpu"],
                                                                   ncpu))
        for a, b in zip(times, times[1:]):
            # the interval between two samples is at least the one asked for
            if b - a < interval - 0.01:
                fail("samples %.3f s apart" % (b - a))
        if len(times) != count:
            fail("%d sample times, not %d" % (len(times), count))
        rows = by.get(busy.pid, [])
        for prev_t, x in zip([None] + times, rows):
            if prev_t is None:
                continue
            dt = x["time"] - prev_t
            if not close(x["cpu_time"], x["cpu"] / 100 * dt * 1e9, rel=0.02):
                fail("busy loop: cpu_time %r for cpu %r over %.3f s" % (x["cpu_time"], x["cpu"],
                                                                        dt))

        # CSV and the table: the same fields, one record per task per interval
        c = subprocess.run([tda, "--interval", "0.2", "--count", "1", "--csv", "--backend",
                            "procfs", "-p", str(stopped.pid)], capture_output=True, text=True)
        rows = list(csv.DictReader(io.StringIO(c.stdout)))
        if c.returncode or len(rows) != 1 or set(rows[0]) != set(recs[0]) or \
                int(rows[0]["pid"]) != stopped.pid or float(rows[0]["cpu"]) != 0:
            fail("--csv -p: %r %r" % (c.returncode, c.stdout))
        t = subprocess.run([tda, "--interval", "0.2", "--count", "2", "--backend", "procfs",
                            "-p", str(stopped.pid)], capture_output=True, text=True)
        lines = t.stdout.splitlines()
        if t.returncode or len(lines) != 3 or lines[0].split() != ["time", "pid", "tgid", "comm"] + \
                [k for k in recs[0] if k not in ("time", "pid", "tgid", "comm")]:
            fail("table: %r %r" % (t.returncode, t.stdout))
    finally:
        for p in procs:
            p.kill()
            p.wait()

    for args, want in ((["--interval", "0"], 2), (["--interval", "x"], 2),
                       (["--interval", "1", "--count", "0"], 2),
                       (["--interval", "1", "stray"], 2),
                       (["--interval", "0.1", "--count", "1", "--backend", "netlink"],
                        0 if os.path.exists("/sys/module/task_diag") else 3)):
        r = subprocess.run([tda] + args, capture_output=True, text=True)
        if r.returncode != want or bool(r.stderr) != (want != 0):
            fail("%s: exit %d (want %d), stderr %r" % (" ".join(args), r.returncode, want,
                                                      r.stderr))
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("--interval records agree with what the fixtures do")
    return 0


if __name__ == "__main__":
    sys.exit(main())
