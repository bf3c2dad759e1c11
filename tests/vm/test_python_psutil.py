#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""taskdiag.process_iter() gives what psutil gives, for every process.

psutil (Debian's python3-psutil) reads /proc itself, file by file: it is the
oracle. Each round reads every process with taskdiag (td1), then with
psutil, then with taskdiag again (td2), each asking for every attribute that
both have. For each process all three saw, each attribute passes when
psutil's value equals td1's or td2's or, for the counters (cpu_times,
num_ctx_switches, io_counters), when each of its fields lies between td1's
and td2's: what the task could have run between the reads. A value psutil
may not read (AccessDenied: None) must be None in taskdiag too, and the
other way round. Fixture tasks (sleeping, stopped, zombie, niced,
multi-threaded with a long argv, a long name, another user's) must all be
compared, and match on everything. Tasks the system runs by itself may
differ in status, cpu_num, memory_info and memory_percent only (they move
on their own, memory both ways; a kworker's name too, which the kernel gives
after the work it runs). A cmdline longer than 4096 bytes, which is what
task_diag sends of it, must be psutil's cut there.

Usage: test_python_psutil.py BACKEND... [--expect-fallback]
  BACKEND            netlink, procfs or auto (each in turn)
  --expect-fallback  auto without the module: a ProcfsFallbackWarning
                     must be given, and backend='netlink' must raise
                     ModuleNotLoaded
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import psutil  # noqa: E402
import taskdiag  # noqa: E402
from test_compare_proc import spawn_fixtures  # noqa: E402

# The attributes both have (cpu_percent: psutil's first call is always 0.0,
# nothing to compare).
ATTRS = ["pid", "ppid", "name", "exe", "cmdline", "status", "username", "uids", "gids",
         "terminal", "nice", "num_threads", "num_ctx_switches", "cpu_times", "cpu_num",
         "create_time", "memory_info", "memory_percent", "io_counters", "cpu_affinity"]
COUNTERS = {"cpu_times", "num_ctx_switches", "io_counters"}
VOLATILE = {"status", "cpu_num"}
RANGED = {"memory_info", "memory_percent"}
ROUNDS = 3
CMDLINE_CAP = 4096  # what the module and the procfs backend send of it


def spawn_more(tmp):
    """A long-named task (its comm is cut at 15 characters), a busy one, and
    one whose arguments are longer than the 4096 bytes task_diag sends."""
    longname = os.path.join(tmp, "sleep_with_a_long_name")
    os.symlink(shutil.which("sleep"), longname)
    # The Python one says when it has started (its memory grows until then),
    # by writing a byte to its stdout just before it sleeps.
    argvs = [[longname, "1000"], ["sh", "-c", "while :; do :; done"],
             [sys.executable, "-c", "import os, time; os.write(1, b'.'); time.sleep(1000)"] +
             ["argument-%04d" % i for i in range(400)]]
    procs = [subprocess.Popen(a, stdout=subprocess.PIPE) for a in argvs]
    for p, a in zip(procs, argvs):  # until each one has exec'd
        want = ("\0".join(a) + "\0").encode()
        while open("/proc/%d/cmdline" % p.pid, "rb").read() != want:
            time.sleep(0.05)
    assert procs[2].stdout.read(1) == b"."
    for p in procs:
        settle(p.pid)
    return procs


def settle(pid):
    """Until the task's memory (/proc/PID/statm) stays the same for 0.3 s."""
    end, last, same = time.time() + 30, None, 0
    while time.time() < end and same < 3:
        now = open("/proc/%d/statm" % pid).read()
        same = same + 1 if now == last else 0
        last = now
        time.sleep(0.1)


def td_read(backend):
    return {p.pid: p.info for p in taskdiag.process_iter(ATTRS, backend=backend)}


def ps_read():
    return {p.pid: p.info for p in psutil.process_iter(ATTRS)}


def check(name, a, v, b, fixture):
    """Does psutil's v agree with taskdiag's a (before) and b (after)?"""
    if v == a or v == b:
        return True
    if (v is None) or (a is None) or (b is None):
        return False
    if name in COUNTERS:
        return all(x <= y <= z for x, y, z in zip(a, v, b))
    if name in VOLATILE and not fixture:
        return True
    if name == "name" and a.startswith("kworker/") and v.startswith("kworker/"):
        return True  # the kernel names a kworker after the work it runs, at each read
    if name in RANGED and not fixture:
        return True  # the memory of a task at work moves both ways
    if name == "cmdline" and len("\0".join(v).encode()) >= CMDLINE_CAP:
        # the first 4096 bytes: whole arguments, then a part of the next
        return v[:len(a) - 1] == a[:-1] and v[len(a) - 1].startswith(a[-1]) and a == b
    return False


def run(backend, expect_fallback):
    if expect_fallback:
        try:
            taskdiag.Process(backend="netlink")
        except taskdiag.ModuleNotLoaded as e:
            assert "modprobe task_diag" in str(e), str(e)
        else:
            raise SystemExit("backend='netlink' without the module did not raise")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            first = taskdiag.Process(backend=backend)
        assert [x.category for x in w] == [taskdiag.ProcfsFallbackWarning], w
        assert first.backend == "procfs"
    warnings.simplefilter("ignore", taskdiag.ProcfsFallbackWarning)
    used = taskdiag.Process(backend=backend).backend
    if backend != "auto":
        assert used == backend, (used, backend)
    tmp = tempfile.mkdtemp()
    procs = spawn_fixtures() + spawn_more(tmp)
    fixtures = {p.pid for p in procs}
    errors, compared, fixtures_seen, denied = [], 0, set(), 0
    try:
        for _ in range(ROUNDS):
            td1, ps, td2 = td_read(backend), ps_read(), td_read(backend)
            for pid in sorted(set(td1) & set(ps) & set(td2)):
                fixture = pid in fixtures
                compared += 1
                if fixture:
                    fixtures_seen.add(pid)
                for name in ATTRS:
                    a, v, b = td1[pid][name], ps[pid][name], td2[pid][name]
                    denied += v is None and name != "terminal"
                    if not check(name, a, v, b, fixture):
                        errors.append("pid %d (%s) %s: taskdiag %r, %r; psutil %r"
                                      % (pid, ps[pid]["name"], name, a, b, v))
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shutil.rmtree(tmp)
    missing = fixtures - fixtures_seen
    for e in errors[:50]:
        print("MISMATCH", e)
    print("backend %s (%s), uid %d: %d process reads compared over %d rounds, %d attributes "
          "each; %d values psutil could not read; %d mismatches; fixtures missing: %s"
          % (backend, used, os.getuid(), compared, ROUNDS, len(ATTRS), denied, len(errors),
             sorted(missing) or "none"))
    return 1 if errors or missing or compared < len(fixtures) else 0


def main():
    """Each backend named on the command line in turn (one guest boot)."""
    backends = [a for a in sys.argv[1:] if not a.startswith("--")]
    expect_fallback = "--expect-fallback" in sys.argv[1:]
    rc = 0
    for backend in backends:
        rc |= run(backend, expect_fallback)
    return rc


if __name__ == "__main__":
    sys.exit(main())
