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

Then psutil's idioms, on processes this test starts (check_api): children()
and children(recursive=True) of this process and of a tree with
grandchildren and a great-grandchild (zombies included, as psutil's);
cpu_percent(interval=1.0) of a busy child measured over the same second by
both, and cpu_percent() (0.0 at the first call, then since the last call);
is_running() of a live child, a zombie and a reaped one; pid_exists() of a
live process, a zombie, a thread id (False, as psutil's), a pid that just
exited, 0 and -1; Process equality and hashing (equal when pid and create
time are); __version__ a str as psutil's.

Usage: test_python_psutil.py BACKEND... [--expect-fallback]
  BACKEND            netlink, procfs or auto (each in turn)
  --expect-fallback  auto without the module: a ProcfsFallbackWarning
                     must be given, and backend='netlink' must raise
                     ModuleNotLoaded
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
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


def started(argv):
    """A child running argv, once /proc shows it exec'd."""
    p = subprocess.Popen(argv)
    want = ("\0".join(argv) + "\0").encode()
    while open("/proc/%d/cmdline" % p.pid, "rb").read() != want:
        time.sleep(0.01)
    return p


def pids_of(procs):
    return sorted(p.pid for p in procs)


def cpu_pair(busy, backend, interval):
    """cpu_percent(interval) of busy by taskdiag and psutil, over the same
    interval (two threads, started together), and how far apart in time the
    two measurements began and ended (seconds)."""
    out, go = {}, threading.Barrier(2)

    def measure(key, proc):
        go.wait()
        t0 = time.monotonic()
        out[key] = proc.cpu_percent(interval=interval)
        out[key + "_t"] = (t0, time.monotonic())

    ps = threading.Thread(target=measure, args=("ps", psutil.Process(busy)))
    ps.start()
    measure("td", taskdiag.Process(busy, backend=backend))
    ps.join()
    skew = (abs(out["td_t"][0] - out["ps_t"][0]) + abs(out["td_t"][1] - out["ps_t"][1]))
    return out["td"], out["ps"], skew


def check_api(backend):
    """psutil's idioms against psutil on this test's own processes: a list of errors."""
    errors = []

    def expect(what, td, ps):
        if td != ps:
            errors.append("%s: taskdiag %r, psutil %r" % (what, td, ps))

    me, hz = os.getpid(), os.sysconf("SC_CLK_TCK")
    # A tree: sh -> (sleep, sleep, sh -> sleep); a zombie child (sh whose child
    # exited unreaped, as spawn_fixtures's); a busy child.
    # (each in a process group of its own: the cleanup kills every member)
    tree = subprocess.Popen(["sh", "-c", "sleep 1000 & sleep 1000 & "
                             "sh -c 'sleep 1000 & wait' & wait"], start_new_session=True)
    zparent = subprocess.Popen(["sh", "-c", "sleep 0 & exec sleep 1000"],
                               start_new_session=True)
    busy = started(["sh", "-c", "while :; do :; done"])
    procs = [tree, zparent, busy]
    try:
        end = time.time() + 30
        while time.time() < end:  # until the tree's four sleeps and shells have exec'd
            d = psutil.Process(tree.pid).children(recursive=True)
            try:
                # a child in the middle of its exec reads an empty cmdline
                names = sorted((c.cmdline() or [""])[0] for c in d)
                zdone = [c.status() for c in psutil.Process(zparent.pid).children()]
            except psutil.Error:
                names = zdone = None
            if (names == ["sh", "sleep", "sleep", "sleep"] and zdone == ["zombie"]
                    and psutil.Process(zparent.pid).cmdline() == ["sleep", "1000"]):
                break
            time.sleep(0.05)
        else:
            errors.append("the fixture tree did not start")

        def children():
            # children(): this process, the tree's top, and recursive
            for pid in (me, tree.pid, zparent.pid):
                for rec in (False, True):
                    td = taskdiag.Process(pid, backend=backend).children(recursive=rec)
                    ps = psutil.Process(pid).children(recursive=rec)
                    expect("Process(%d).children(recursive=%s) pids" % (pid, rec),
                           pids_of(td), pids_of(ps))
                    # psutil's order: a depth-first walk from the last child
                    expect("Process(%d).children(recursive=%s) order" % (pid, rec),
                           [p.pid for p in td], [p.pid for p in ps])
            expect("len(children(recursive=True)) of the tree",
                   len(taskdiag.Process(tree.pid, backend=backend).children(recursive=True)), 4)

        def equality():
            # equality and hashing: pid and create time
            a, b = taskdiag.Process(tree.pid, backend=backend), taskdiag.Process(tree.pid, backend=backend)
            c = taskdiag.Process(zparent.pid, backend=backend)
            pa, pb, pc = (psutil.Process(x) for x in (tree.pid, tree.pid, zparent.pid))
            expect("a == b", a == b, pa == pb)
            expect("a != b", a != b, pa != pb)
            expect("a == c", a == c, pa == pc)
            expect("a != c", a != c, pa != pc)
            expect("hash(a) == hash(b)", hash(a) == hash(b), hash(pa) == hash(pb))
            expect("len({a, b, c})", len({a, b, c}), len({pa, pb, pc}))
            expect("a == pid", a == tree.pid, pa == tree.pid)
            listed = [p for p in taskdiag.process_iter(["name"], backend=backend) if p.pid == tree.pid]
            expect("process_iter's == Process(pid)", listed == [a], True)
            expect("a in children of this process",
                   a in taskdiag.Process(me, backend=backend).children(),
                   pa in psutil.Process(me).children())

        def cpu_blocking():
            # cpu_percent, blocking: the same second, measured by both
            td, ps, skew = cpu_pair(busy.pid, backend, 1.0)
            # each figure is whole clock ticks (psutil's, and /proc's) over the
            # interval: less than a tick off at each end, so 2 ticks in all; the
            # two intervals began and ended skew seconds apart, each second of
            # which the busy child may have run for; 0.1 is the rounding.
            tol = 100 * (2.0 / hz + skew) / 1.0 + 0.1
            if not (abs(td - ps) <= tol and td > 10):
                errors.append("cpu_percent(interval=1.0) of a busy child: taskdiag %r, psutil %r "
                              "(tolerance %.2f)" % (td, ps, tol))

        def cpu_nonblocking():
            # non-blocking: 0.0 at the first call, then since the last call
            ptd, pps = taskdiag.Process(busy.pid, backend=backend), psutil.Process(busy.pid)
            t0 = time.monotonic()
            expect("first cpu_percent()", ptd.cpu_percent(), pps.cpu_percent())
            t1 = time.monotonic()
            time.sleep(1.0)
            t2 = time.monotonic()
            td = ptd.cpu_percent(None)
            ps = pps.cpu_percent(None)
            t3 = time.monotonic()
            tol = 100 * (2.0 / hz + (t1 - t0) + (t3 - t2)) / (t2 - t1) + 0.1
            if not (abs(td - ps) <= tol and td > 10):
                errors.append("cpu_percent() a second after the first: taskdiag %r, psutil %r "
                              "(tolerance %.2f)" % (td, ps, tol))
            sleeper = [p.pid for p in psutil.Process(tree.pid).children() if p.name() == "sleep"][0]
            ptd, pps = taskdiag.Process(sleeper, backend=backend), psutil.Process(sleeper)
            ptd.cpu_percent(), pps.cpu_percent()
            time.sleep(0.3)
            expect("cpu_percent() of a sleeping child", ptd.cpu_percent(), pps.cpu_percent())
            try:
                ptd.cpu_percent(interval=-1)
            except ValueError:
                pass
            else:
                errors.append("cpu_percent(interval=-1) did not raise ValueError")

        def running():
            # is_running() and pid_exists(): alive, a zombie, gone; a thread id
            zombie = [p.pid for p in psutil.Process(zparent.pid).children()][0]
            ev = threading.Event()
            th = threading.Thread(target=ev.wait)
            th.start()
            try:
                for what, pid in (("this process", me), ("a zombie", zombie),
                                  ("a thread id", th.native_id), ("pid 0", 0), ("pid -1", -1)):
                    expect("pid_exists(%s)" % what, taskdiag.pid_exists(pid, backend=backend),
                           psutil.pid_exists(pid))
            finally:
                ev.set()
                th.join()
            ptd, pps = taskdiag.Process(zombie, backend=backend), psutil.Process(zombie)
            expect("is_running() of a zombie", ptd.is_running(), pps.is_running())
            ptd, pps = taskdiag.Process(busy.pid, backend=backend), psutil.Process(busy.pid)
            expect("is_running() of a live child", ptd.is_running(), pps.is_running())
            busy.kill()
            busy.wait()
            expect("is_running() of a reaped child", ptd.is_running(), pps.is_running())
            expect("pid_exists() of a reaped child", taskdiag.pid_exists(busy.pid, backend=backend),
                   psutil.pid_exists(busy.pid))
            try:
                ptd.cpu_percent()
            except taskdiag.NoSuchProcess:
                pass
            else:
                errors.append("cpu_percent() of a reaped child did not raise NoSuchProcess")

        def version():
            expect("type(__version__)", type(taskdiag.__version__), type(psutil.__version__))
            expect("version_info", taskdiag.version_info,
                   tuple(int(x) for x in taskdiag.__version__.split(".")))

        # each check on its own: one that raises is a mismatch, the others still run
        for check in (children, equality, cpu_blocking, cpu_nonblocking, running, version):
            try:
                check()
            except Exception as e:  # noqa: BLE001 (a missing API fails its check only)
                errors.append("%s: %r" % (check.__name__, e))
    finally:
        for p in procs:
            if p is not busy:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            p.kill()
            p.wait()
    return errors


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
    api = check_api(backend)
    for e in api:
        print("API MISMATCH", e)
    print("backend %s: psutil's children, cpu_percent, is_running, pid_exists, ==, hash, "
          "__version__: %d mismatches" % (backend, len(api)))
    print("backend %s (%s), uid %d: %d process reads compared over %d rounds, %d attributes "
          "each; %d values psutil could not read; %d mismatches; fixtures missing: %s"
          % (backend, used, os.getuid(), compared, ROUNDS, len(ATTRS), denied, len(errors),
             sorted(missing) or "none"))
    return 1 if errors or api or missing or compared < len(fixtures) else 0


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
