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
Each fixture has one record per interval; JSON lines and CSV carry the
same fields; the table is pidstat's three reports per interval (time of day
first, the command name last, the rest within 80 columns, columns aligned);
several -p list exactly those processes, a pid that is not there exits 5; bad values of --interval and --count are usage
errors (exit 2); --backend netlink exits 3 where the module is not loaded.

Usage: test_interval.py TASK_DIAG_ALL
"""
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time

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


# pidstat's three reports, as the table prints them: header cells after the
# time and the ids, then Command; and the JSON field of each value column
# with its divisor (kB are 1024 bytes)
REPORTS = [
    (["%CPU", "%MACH", "minflt/s", "majflt/s"],
     [("cpu", 1), ("cpu_machine", 1), ("minflt_rate", 1), ("majflt_rate", 1)]),
    (["kB_rd/s", "kB_wr/s", "kB_rch/s", "kB_wch/s"],
     [("read_bytes_rate", 1024), ("write_bytes_rate", 1024), ("rchar_rate", 1024),
      ("wchar_rate", 1024)]),
    (["cswch/s", "nvcswch/s", "rdcall/s", "wrcall/s"],
     [("voluntary_ctxt_rate", 1), ("nonvoluntary_ctxt_rate", 1), ("syscr_rate", 1),
      ("syscw_rate", 1)]),
]


def check_table(tda, procs):
    """The table: per interval, three reports, each a blank line, a header
    that begins with the time of day, a line per task; every line but the
    command name within 80 columns (threads too); a long name does not move
    the columns; the stopped fixture's values 0.00 in every report."""
    for threads in (False, True):
        ids = ["TGID", "TID"] if threads else ["PID"]
        argv = [tda, "--interval", "0.5", "--count", "2", "--backend", "procfs", "-p",
                ",".join(str(p.pid) for p in procs)] + (["-A"] if threads else [])
        t0 = time.time()
        t = subprocess.run(argv, capture_output=True, text=True)
        t1 = time.time()
        what = " ".join(argv[1:])
        if t.returncode or t.stderr:
            fail("%s: exit %d, %r" % (what, t.returncode, t.stderr))
            continue
        blocks = [""] + t.stdout[1:].split("\n\n")
        if not t.stdout.startswith("\n") or len(blocks) != 2 * len(REPORTS) + 1:
            fail("%s: not 2 x 3 reports, each after a blank line: %r" % (what, t.stdout))
            continue
        tods = {time.strftime("%H:%M:%S", time.localtime(x)) for x in
                range(int(t0), int(t1) + 2)}
        for k, block in enumerate(blocks[1:]):
            lines = block.rstrip("\n").split("\n")
            heads, fields = REPORTS[k % len(REPORTS)]
            head = lines[0].split()
            if head[1:] != ids + heads + ["Command"] or head[0] not in tods:
                fail("%s: header %r, want a time of day of the run (%s) and %r"
                     % (what, lines[0], sorted(tods), ids + heads + ["Command"]))
            name_at = lines[0].index(" Command") + 1
            if name_at + 15 > 80:
                fail("%s: a name of 15 characters ends past column 80: %r" % (what, lines[0]))
            for ln in lines:
                if ln[:8] != lines[0][:8] or ln[name_at - 1] != " " or ln[name_at] == " ":
                    fail("%s: the time differs, or the name does not start at %d: %r"
                         % (what, name_at, ln))
            rows = {int(ln.split()[1]): ln for ln in lines[1:]}
            want = {p.pid for p in procs}
            got = set(rows)
            if got != want:
                fail("%s: processes %s, want %s" % (what, sorted(got), sorted(want)))
            st = rows.get(procs[0].pid)
            if st and st.split()[len(ids) + 1:len(ids) + 1 + len(heads)] != ["0.00"] * len(heads):
                fail("%s: the stopped process: %r" % (what, st))
        # the same columns at every line: each cell ends where its header does
        for block in blocks[1:]:
            lines = block.rstrip("\n").split("\n")
            head = lines[0][:lines[0].index(" Command")]
            edges = [m.end() for m in re.finditer(r"\S+", head)]
            for ln in lines[1:]:
                if [m.end() for m in re.finditer(r"\S+", ln[:len(head)])] != edges:
                    fail("%s: a value column does not line up: %r under %r" % (what, ln, head))


def check_pids(tda, a, b):
    """Several -p (a list and repeated): those processes only; a pid that is
    not there: exit status 5 and a message, as task_diag_all's."""
    for argv in (["-p", "%d,%d" % (a.pid, b.pid)], ["-p", str(a.pid), "-p", str(b.pid)]):
        r = subprocess.run([tda, "--interval", "0.2", "--count", "1", "-j", "--backend",
                            "procfs"] + argv, capture_output=True, text=True)
        got = sorted(json.loads(ln)["pid"] for ln in r.stdout.splitlines())
        if r.returncode or got != sorted([a.pid, b.pid]):
            fail("%s: exit %d, pids %s" % (" ".join(argv), r.returncode, got))
    gone = subprocess.Popen(["true"])
    gone.wait()
    for argv in (["-p", str(gone.pid)], ["-p", "%d,%d" % (a.pid, gone.pid)]):
        r = subprocess.run([tda, "--interval", "0.2", "--count", "1", "--backend", "procfs"] +
                           argv, capture_output=True, text=True)
        if r.returncode != 5 or "pid %d: no such process" % gone.pid not in r.stderr:
            fail("%s (a pid that exited): exit %d, %r" % (" ".join(argv), r.returncode,
                                                          r.stderr))


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
        check_table(tda, [stopped, iop, busy])
        check_pids(tda, stopped, iop)
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
    # An option the mode does not take, an unknown one, or one without its
    # argument: task_diag_all's one option table names it as written, and
    # getopt prints nothing of its own.
    for args, said in ((["-s", "stat"], "does not take -s (--show)"),
                       (["--verify"], "does not take --verify"),
                       (["-n", "1"], "unknown option -n"),
                       (["--bogus"], "unknown option --bogus"),
                       (["-Ax"], "unknown option -x"),
                       (["-p"], "missing argument to -p"),
                       (["--count"], "missing argument to --count")):
        r = subprocess.run([tda, "--interval", "1"] + args, capture_output=True, text=True)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        if r.returncode != 2 or not first.endswith(said) or "--help" not in r.stderr:
            fail("--interval 1 %s: exit %d, want 2 and %r; stderr %r"
                 % (" ".join(args), r.returncode, said, r.stderr))
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("--interval records agree with what the fixtures do")
    return 0


if __name__ == "__main__":
    sys.exit(main())
