#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The taskdiag Python binding's error paths and API, on the host (procfs backend).

Each check states its oracle: /proc read here, errno values, a process this
test started and ended, or the library's own error codes.

Usage: PYTHONPATH=BUILD/python test_binding.py
"""
import errno
import os
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import taskdiag

PY = sys.executable
warnings.simplefilter("ignore", taskdiag.ProcfsFallbackWarning)


def run_py(code, env=None, user=None):
    """Run code in a fresh interpreter (the fallback warning is once per process)."""
    cmd = [PY, "-c", code]
    if user is not None:
        cmd = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, "--clear-groups"] + cmd
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, capture_output=True, text=True, env=e, check=False)


def started(argv):
    """A child running argv, once /proc shows it exec'd."""
    p = subprocess.Popen(argv)
    want = ("\0".join(argv) + "\0").encode()
    while True:
        with open("/proc/%d/cmdline" % p.pid, "rb") as f:
            if f.read() == want:
                return p


def gone_pid():
    """A pid that named a process a moment ago and names none now."""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


class Errors(unittest.TestCase):
    def test_no_such_process(self):
        pid = gone_pid()
        with self.assertRaises(taskdiag.NoSuchProcess) as cm:
            taskdiag.Process(pid, backend="procfs")
        self.assertEqual(cm.exception.pid, pid)
        self.assertIn(str(pid), str(cm.exception))
        self.assertIsInstance(cm.exception, taskdiag.Error)

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            taskdiag.Process(-1)
        with self.assertRaises(TypeError):
            taskdiag.Process("1")
        with self.assertRaises(ValueError) as cm:
            taskdiag.process_iter(["pid", "nope"])
        self.assertIn("nope", str(cm.exception))
        with self.assertRaises(TypeError):
            taskdiag.process_iter("pid")
        with self.assertRaises(ValueError) as cm:
            taskdiag.process_iter(backend="kernel")
        self.assertIn("kernel", str(cm.exception))
        p = taskdiag.Process(backend="procfs")
        with self.assertRaises(ValueError):
            p.item("no_such_item")
        with self.assertRaises(ValueError):
            p.rates()  # not from a diff
        with self.assertRaises(AttributeError):
            p.info  # not from process_iter(attrs=...)

    @unittest.skipIf(taskdiag.backend() == "netlink", "the module is loaded here")
    def test_module_not_loaded(self):
        with self.assertRaises(taskdiag.ModuleNotLoaded) as cm:
            taskdiag.Process(backend="netlink")
        e = cm.exception
        self.assertIsInstance(e, taskdiag.TaskDiagError)
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.errno, errno.ENOPKG)
        self.assertIn("modprobe task_diag", str(e))

    @unittest.skipIf(taskdiag.backend() == "netlink", "the module is loaded here")
    def test_fallback_warned_once(self):
        r = run_py("import warnings, taskdiag\n"
                   "warnings.simplefilter('always')\n"
                   "with warnings.catch_warnings(record=True) as w:\n"
                   "    warnings.simplefilter('always')\n"
                   "    a = taskdiag.Process()\n"
                   "    b = list(taskdiag.process_iter(['pid']))\n"
                   "print([x.category.__name__ for x in w], a.backend, b[0].backend)\n"
                   "print(w[0].message)\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "['ProcfsFallbackWarning'] procfs procfs")
        self.assertIn("not loaded", lines[1])
        self.assertIn("/proc", lines[1])

    def test_library_errors(self):
        code = ("import taskdiag\n"
                "try:\n"
                "    list(taskdiag.process_iter(['pid', 'name'], backend='procfs'))\n"
                "except taskdiag.TaskDiagError as e:\n"
                "    print(e.errno, e.strerror)\n")
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, "1"))
            with open(os.path.join(root, "1", "stat"), "w") as f:
                f.write("not a stat line\n")
            r = run_py(code, env={"TASKDIAG_PROC_ROOT": root})
            self.assertEqual(r.returncode, 0, r.stderr)
            num, msg = r.stdout.split(" ", 1)
            self.assertEqual(int(num), errno.EBADMSG)
            self.assertIn("malformed", msg)
        r = run_py(code, env={"TASKDIAG_PROC_ROOT": "/nonexistent-proc"})
        self.assertEqual(int(r.stdout.split()[0]), errno.ENOENT, r.stdout + r.stderr)

    def test_gone_process_read_again(self):
        sleeper = started(["sleep", "1000"])
        try:
            alone = taskdiag.Process(sleeper.pid, backend="procfs")
            listed = [p for p in taskdiag.process_iter(["pid"], backend="procfs")
                      if p.pid == sleeper.pid]
            self.assertEqual(len(listed), 1)
        finally:
            sleeper.kill()
            sleeper.wait()
        # values of the read stay readable; a value the read lacked needs a new one
        self.assertEqual(alone.name(), "sleep")
        self.assertEqual(alone.cmdline(), ["sleep", "1000"])
        with self.assertRaises(taskdiag.NoSuchProcess):
            listed[0].name()

    @unittest.skipUnless(os.geteuid() == 0, "needs root to become another user")
    def test_access_denied(self):
        # as nobody: /proc/1/io is refused, so io_counters must be too
        r = run_py("import os, taskdiag, warnings\n"
                   "warnings.simplefilter('ignore')\n"
                   "try:\n"
                   "    open('/proc/1/io').read(); print('readable')\n"
                   "except PermissionError:\n"
                   "    print('refused')\n"
                   "p = taskdiag.Process(1, backend='procfs')\n"
                   "try:\n"
                   "    p.io_counters(); print('readable')\n"
                   "except taskdiag.AccessDenied as e:\n"
                   "    print('refused', e.pid)\n"
                   "print(p.as_dict(['pid', 'io_counters'], ad_value='AD'))\n", user=65534)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "refused")
        self.assertEqual(lines[1], "refused 1")
        self.assertEqual(lines[2], "{'pid': 1, 'io_counters': 'AD'}")


class Api(unittest.TestCase):
    def test_item_against_proc(self):
        def minflt():
            with open("/proc/self/stat") as f:
                return int(f.read().rsplit(")", 1)[1].split()[7])
        before = minflt()
        v = taskdiag.Process(backend="procfs").item("stat.minflt")
        after = minflt()
        self.assertTrue(before <= v <= after, (before, v, after))
        with open("/proc/self/comm") as f:
            self.assertEqual(taskdiag.Process(backend="procfs").item("comm"), f.read().strip())

    def test_info_and_defaults(self):
        procs = list(taskdiag.process_iter([], backend="procfs"))
        self.assertTrue(procs)
        self.assertEqual(list(procs[0].info), list(taskdiag.ATTRS))
        for name in ("pid", "name", "cpu_times", "memory_info", "minflt", "vm_swap"):
            self.assertIn(name, taskdiag.ATTRS)
        pids = [p.pid for p in procs]
        self.assertEqual(pids, sorted(pids))
        self.assertIn(os.getpid(), pids)
        with self.assertRaises(AttributeError):
            next(iter(taskdiag.process_iter(backend="procfs"))).info

    def test_mem_only_when_named(self):
        """mem walks page tables (smaps_rollup's cost): never read unless named."""
        for k in taskdiag.ITEMS:
            if k.startswith("mem."):
                self.assertNotIn(k[4:], taskdiag.ATTRS)
        # stopped once it exec'd: its memory cannot change between the two
        # reads (a 0.2 s wait was not always enough for the loader on a busy
        # machine: a failure under ctest -j2)
        child = started(["sleep", "100"])
        try:
            os.kill(child.pid, signal.SIGSTOP)
            while True:
                with open("/proc/%d/stat" % child.pid) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "T":
                        break
            with open("/proc/%d/smaps_rollup" % child.pid) as f:
                roll = {ln.split(":")[0]: int(ln.split()[1]) * 1024 for ln in f
                        if ln.rstrip().endswith(" kB")}
            p = taskdiag.Process(child.pid, backend="procfs")
            self.assertEqual(p.item("mem.pss"), roll["Pss"])
            self.assertEqual(p.item("mem.private_dirty"), roll["Private_Dirty"])
            got = {q.pid: q.info["mem.rss"] for q in
                   taskdiag.process_iter(["pid", "mem.rss"], backend="procfs")}
            self.assertEqual(got[child.pid], roll["Rss"])
        finally:
            child.kill()
            child.wait()

    def test_threads(self):
        stop = threading.Event()
        ts = [threading.Thread(target=stop.wait) for _ in range(3)]
        for t in ts:
            t.start()
        try:
            tids = {p.pid for p in taskdiag.process_iter(["pid"], threads=True,
                                                         backend="procfs")}
            mine = {int(t) for t in os.listdir("/proc/self/task")}
        finally:
            stop.set()
            for t in ts:
                t.join()
        self.assertEqual(len(mine), 4)
        self.assertTrue(mine <= tids, (mine, tids))

    def test_sample_and_diff(self):
        ended = started(["sleep", "1000"])
        a = taskdiag.sample(backend="procfs")
        ended.kill()
        ended.wait()
        busy = subprocess.Popen(["sh", "-c", "while :; do :; done"])
        try:
            # until the busy child has run a clock tick (read from /proc)
            while True:
                with open("/proc/%d/stat" % busy.pid) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[11]) + int(fields[12]) > 0:
                    break
            b = taskdiag.sample(backend="procfs")
        finally:
            busy.kill()
            busy.wait()
        d = taskdiag.diff(a, b)
        self.assertEqual(len(d), len(b))
        self.assertGreater(d.interval, 0)
        self.assertIn(ended.pid, [p.pid for p in d.exited])
        self.assertGreaterEqual(d.appeared, 1)
        rates = {p.pid: p.rates() for p in d}
        self.assertGreater(rates[busy.pid]["cpu"], 0)
        self.assertIn("minflt_rate", rates[busy.pid])
        with self.assertRaises(TypeError):
            taskdiag.diff(a, "b")

    def test_parent_children(self):
        child = started(["sleep", "1000"])
        try:
            me = taskdiag.Process(backend="procfs")
            self.assertIn(child.pid, [c.pid for c in me.children()])
            self.assertEqual(taskdiag.Process(child.pid, backend="procfs").parent().pid,
                             os.getpid())
        finally:
            child.kill()
            child.wait()


class Version(unittest.TestCase):
    def test_version(self):
        """__version__ is project()'s VERSION in the top CMakeLists.txt (as setup.py's)."""
        import re
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                           "CMakeLists.txt")
        with open(top) as f:
            want = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9.]+)", f.read()).group(1)
        self.assertEqual(taskdiag.__version__, want)
        self.assertEqual(taskdiag.version_info, tuple(int(x) for x in want.split(".")))


if __name__ == "__main__":
    unittest.main(verbosity=1)
