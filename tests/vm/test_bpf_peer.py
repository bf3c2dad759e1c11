#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's BPF peer returns the right records on a 6.7+ kernel.

Runs in the guest as root (through tests/vm/test_bpf_peer.sh), given the
folder benchmarks/programs built for this kernel. It pins the iterators
(tdbpf_pin, with the open-coded one), starts sleeping fixture processes of
several threads (tdspawn), and reads the process scope through tdbench
twice: bpf_iter (the open-coded iterator, records in the mapped array) and
bpf_iter_classic (the classic iter/task program), both with --records.
/proc is listed and read before and after.

It fails unless:
- tdbpf_pin pinned the open-coded iterator (this kernel has it);
- each reader returns every process present in both /proc listings, once,
  leaders only (pid == tgid), and nothing else but its own tdbench;
- the fixtures' records are equal field for field in the two readers;
- tasks both readers saw agree on the fields that do not move;
- the fixtures' records equal /proc/PID/stat (and TracerPid of status), in
  procfs's units (ticks, pages), utime and stime within a tick of it (the
  peer splits the times as cputime_adjust() does but without its monotonic
  clamp, task_record.bpf.h).

Usage: test_bpf_peer.py BENCH_DIR
"""
import os
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procfs  # noqa: E402

# struct td_bench_rec (benchmarks/bench_record.h), field for field.
REC = struct.Struct("<7Ii2I2B2x3i3Ii16s27Q")
NAMES = ("pid tgid ppid pgid sid tracer_pid tty_nr tpgid flags num_threads state wchan "
         "priority nice exit_signal processor rt_priority policy exit_code comm start_time "
         "minflt cminflt majflt cmajflt utime stime cutime cstime vsize rss rsslim "
         "start_code end_code start_stack kstk_esp kstk_eip blkio_delay guest_time "
         "cguest_time start_data end_data start_brk arg_start arg_end env_start "
         "env_end").split()
# Fields that do not move for a task that exists throughout.
STEADY = ("pid", "tgid", "ppid", "pgid", "sid", "comm", "start_time")
PROCS, THREADS = 12, 4
PIN = "/sys/fs/bpf/td_bpf_peer"

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def records(path):
    data = open(path, "rb").read()
    if REC.size != 304 or len(data) % REC.size:
        sys.exit("records file of %d bytes is not a whole number of %d-byte records" % (
            len(data), REC.size))
    out = []
    for off in range(0, len(data), REC.size):
        r = dict(zip(NAMES, REC.unpack_from(data, off)))
        r["comm"] = r["comm"].split(b"\0")[0].decode(errors="replace")
        out.append(r)
    return out


def tgids():
    return {int(d) for d in os.listdir("/proc") if d.isdigit()}


def read(bench, method, out):
    p = subprocess.Popen([os.path.join(bench, "tdbench"), "run", method, "--bpf-dir", PIN,
                          "--records", out],
                         stdout=subprocess.DEVNULL)
    if p.wait() != 0:
        sys.exit("tdbench run %s failed (%d)" % (method, p.returncode))
    return p.pid, records(out)


def by_pid(name, recs, allowed, own):
    seen = {}
    for r in recs:
        if r["pid"] in seen:
            fail("%s: pid %d twice" % (name, r["pid"]))
        if r["pid"] != r["tgid"]:
            fail("%s: pid %d is a thread of %d, not a leader" % (name, r["pid"], r["tgid"]))
        seen[r["pid"]] = r
    extra = set(seen) - allowed - {own}
    if extra:
        fail("%s: pids %s in neither /proc listing" % (name, sorted(extra)))
    return seen


def against_proc(pid, r, before, after):
    """Each field equals the procfs reading before or after (both equal for
    a fixture that did not move)."""
    for name in NAMES:
        if name in ("pid", "tgid"):
            continue
        grp = "base" if name in before["base"] else "stat"
        if name not in before[grp]:
            fail("the oracle has no %s" % name)
            continue
        v = r[name]
        if name in procfs.TICKS:
            v = v // procfs.TICK_NS * procfs.TICK_NS
        want = {before[grp][name], after[grp][name]}
        if name in ("utime", "stime"):
            if min(abs(v - w) for w in want) <= procfs.TICK_NS:
                continue
        if v not in want:
            fail("pid %d %s: peer %r, /proc %s" % (pid, name, v, sorted(want)))


def main():
    bench = sys.argv[1]
    if not os.path.ismount("/sys/fs/bpf"):
        os.makedirs("/sys/fs/bpf", exist_ok=True)
        subprocess.run(["mount", "-t", "bpf", "bpf", "/sys/fs/bpf"], check=True)
    shutil.rmtree(PIN, ignore_errors=True)
    open_obj = os.path.join(bench, "task_iter_open.bpf.o")
    if not os.path.exists(open_obj):
        sys.exit("no %s: benchmarks/programs found no open-coded task iterator in this "
                 "kernel's BTF" % open_obj)
    r = subprocess.run([os.path.join(bench, "tdbpf_pin"), os.path.join(bench, "task_iter.bpf.o"),
                        PIN, open_obj], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="", flush=True)
    if r.returncode != 0 or "procs: open-coded" not in r.stdout:
        sys.exit("tdbpf_pin did not pin the open-coded iterator")

    sp = subprocess.Popen([os.path.join(bench, "tdspawn"), str(PROCS), str(THREADS),
                           "1,2,65534"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if not sp.stdout.readline().startswith("ready"):
        sys.exit("tdspawn did not start")
    time.sleep(1)
    fixtures = []
    for pid in sorted(tgids()):
        t = procfs.read_task("/proc/%d" % pid)
        if t and t["base"]["ppid"] == sp.pid:
            fixtures.append(pid)
    if len(fixtures) != PROCS:
        fail("%d fixture processes in /proc, %d started" % (len(fixtures), PROCS))

    before_ls = tgids()
    before = {pid: procfs.read_task("/proc/%d" % pid) for pid in fixtures}
    o_pid, o_recs = read(bench, "bpf_iter", "/tmp/td_open.rec")
    c_pid, c_recs = read(bench, "bpf_iter_classic", "/tmp/td_classic.rec")
    after = {pid: procfs.read_task("/proc/%d" % pid) for pid in fixtures}
    after_ls = tgids()

    stable = before_ls & after_ls
    allowed = before_ls | after_ls
    o = by_pid("open-coded", o_recs, allowed, o_pid)
    c = by_pid("classic", c_recs, allowed, c_pid)
    for name, got in (("open-coded", o), ("classic", c)):
        missing = stable - set(got)
        if missing:
            fail("%s: misses pids %s of both /proc listings" % (name, sorted(missing)))
    print("open-coded %d records, classic %d, /proc %d then %d processes, %d fixtures" % (
        len(o), len(c), len(before_ls), len(after_ls), len(fixtures)), flush=True)

    for pid in sorted(stable & set(o) & set(c)):
        for f in STEADY:
            if o[pid][f] != c[pid][f]:
                fail("pid %d %s: open-coded %r, classic %r" % (pid, f, o[pid][f], c[pid][f]))
    for pid in fixtures:
        if pid not in o or pid not in c or not before[pid] or not after[pid]:
            fail("fixture %d missing (open %s, classic %s)" % (pid, pid in o, pid in c))
            continue
        if o[pid] != c[pid]:
            diff = [f for f in NAMES if o[pid][f] != c[pid][f]]
            fail("fixture %d: open-coded and classic differ in %s" % (pid, diff))
        if o[pid]["num_threads"] != THREADS:
            fail("fixture %d: %d threads, not %d" % (pid, o[pid]["num_threads"], THREADS))
        against_proc(pid, o[pid], before[pid], after[pid])

    sp.stdin.close()
    sp.wait()
    shutil.rmtree(PIN, ignore_errors=True)
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("ok: the open-coded and the classic iterator agree with each other and with /proc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
