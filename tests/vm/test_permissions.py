#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guarded fields go exactly where procfs would let them go.

Runs in the guest as root; it drops privileges itself where a case needs it.
The guarded fields are the io group and stat's addresses, wchan and
exit_code. Each case states the rule, and each would fail if the module
skipped the check it is about:

- opener: a socket opened by an unprivileged user and then used by root
  (the set-uid pattern) gains nothing: no io for root's tasks;
- sender: a socket opened by root and used after dropping to an
  unprivileged user gains nothing either;
- non-dumpable: a task of uid 65534 that made itself non-dumpable has its
  guarded fields hidden from uid 65534 (procfs refuses /proc/PID/io and
  shows start_code 1), and shown to root; reading itself, it gets its
  guarded stat fields (as /proc/self/stat) but not io (as /proc/self/io);
- capabilities: a root process without capabilities does not see a full
  root process's io (the capability module's rule), as procfs refuses it;
- vfork: a child sharing a non-dumpable process's mm gets its maps (the
  reader's own mm, as mm_access()) but not its io, as procfs;
- CAP_PERFMON: uid 65534 with CAP_PERFMON gets maps and mem of pid 1
  exactly when its procfs opens /proc/1/maps and smaps_rollup (6.15+),
  never io or the guarded stat fields;
- ptrace_cap_only=1: uid 65534 loses even its own tasks' guarded fields,
  root keeps them.
"""
import ctypes
import errno
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to, in_child  # noqa: E402

NOBODY = 65534
PARAM = "/sys/module/task_diag/parameters/ptrace_cap_only"
GUARDED_STAT = ("start_code", "start_stack", "exit_code", "wchan")


def dump(client, pid):
    """The task record of pid (scope task, every group), as the socket sees it."""
    ts = client.request(scope=tdnl.SCOPE["task"], pid=pid, show=tdnl.SHOW_ALL, dump=False)
    return ts[0]


def guarded(rec):
    """Which guarded parts a record carries."""
    return {"io": "io" in rec, "stat": any(k in rec["stat"] for k in GUARDED_STAT)}


def procfs_allows_io(pid):
    try:
        open("/proc/%d/io" % pid).read()
        return True
    except PermissionError:
        return False


def main():
    root_task = 1
    nobody_sleeper = subprocess.Popen(["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
                                       "--clear-groups", "sleep", "1000"])
    nondumpable = subprocess.Popen(
        ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups",
         sys.executable, "-c",
         "import ctypes,sys,time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); "
         "print('ready', flush=True); time.sleep(1000)"],
        stdout=subprocess.PIPE)
    # Wait until both are what they should be: python starts slowly under TCG.
    # The non-dumpable task says when prctl() is done: checking the owner of
    # /proc/PID/io is not enough, since setpriv is briefly non-dumpable too
    # (between its setresuid() and the execve() that makes it dumpable again).
    if nondumpable.stdout.readline().strip() != b"ready":
        print("FAIL: the non-dumpable fixture did not start")
        return 1
    end = time.time() + 60
    while time.time() < end:
        try:
            ready = (open("/proc/%d/comm" % nobody_sleeper.pid).read().strip() == "sleep" and
                     os.stat("/proc/%d/io" % nondumpable.pid).st_uid == 0)
        except OSError:
            ready = False
        if ready:
            break
        time.sleep(0.2)
    else:
        print("FAIL: the fixture tasks did not start within 60 s")
        return 1
    try:
        # Baseline: root sees everything, through its own socket.
        c = tdnl.Client()
        g = guarded(dump(c, root_task))
        check("root sees pid 1's guarded fields", g == {"io": True, "stat": True}, str(g))
        c.close()

        # Opener: socket opened as nobody, request sent as root.
        def opener_case():
            os.setresgid(NOBODY, NOBODY, 0)
            os.setresuid(NOBODY, NOBODY, 0)
            c = tdnl.Client()
            os.setresuid(0, 0, 0)
            os.setresgid(0, 0, 0)
            assert os.geteuid() == 0
            g = guarded(dump(c, root_task))
            c.close()
            return g
        g = in_child(opener_case)
        check("socket opened by nobody, used by root: no guarded fields of pid 1",
              g == {"io": False, "stat": False}, str(g))

        # Sender: socket opened as root, request sent as nobody.
        def sender_case():
            c = tdnl.Client()
            drop_to(NOBODY)
            g = guarded(dump(c, root_task))
            own = guarded(dump(c, nobody_sleeper.pid))
            c.close()
            return g, own, procfs_allows_io(root_task)
        g, own, proc_io = in_child(sender_case)
        check("socket opened by root, used by nobody: no guarded fields of pid 1",
              g == {"io": False, "stat": False} and not proc_io, "%s, procfs io %s" % (g, proc_io))
        check("... but nobody's own task stays complete", own == {"io": True, "stat": True}, str(own))

        # Non-dumpable task of nobody: hidden from nobody, as procfs hides it.
        def nondumpable_case():
            drop_to(NOBODY)
            c = tdnl.Client()
            g = guarded(dump(c, nondumpable.pid))
            c.close()
            st = open("/proc/%d/stat" % nondumpable.pid).read()
            start_code = int(st[st.rindex(")") + 2:].split()[23])
            return g, procfs_allows_io(nondumpable.pid), start_code
        g, proc_io, start_code = in_child(nondumpable_case)
        check("non-dumpable task hidden from its own user, as procfs does",
              g == {"io": False, "stat": False} and not proc_io and start_code == 1,
              "%s, procfs io %s, procfs start_code %d" % (g, proc_io, start_code))
        c = tdnl.Client()
        g = guarded(dump(c, nondumpable.pid))
        c.close()
        check("non-dumpable task shown to root", g == {"io": True, "stat": True}, str(g))

        # A non-dumpable process reading itself, through a socket it opened:
        # ptrace lets a thread group read itself, so /proc/self/stat shows its
        # guarded fields; /proc/self/io is root's file (mode 0400) and stays shut.
        def nondumpable_self():
            drop_to(NOBODY)
            ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
            c = tdnl.Client()
            g = guarded(dump(c, os.getpid()))
            c.close()
            st = open("/proc/self/stat").read()
            start_code = int(st[st.rindex(")") + 2:].split()[23])
            return g, procfs_allows_io(os.getpid()), start_code
        g, proc_io, start_code = in_child(nondumpable_self)
        check("non-dumpable process reading itself: guarded stat as /proc/self/stat, no io",
              g == {"io": proc_io, "stat": start_code != 1} and g["stat"] and not proc_io,
              "%s, procfs io %s, procfs start_code %d" % (g, proc_io, start_code))

        # Capability rule: root without capabilities vs pid 1 (full capabilities).
        def nocap_case():
            libc = ctypes.CDLL(None, use_errno=True)
            # capset(v3) with empty sets: keep uid 0, drop every capability.
            hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)
            data = (ctypes.c_uint32 * 6)()
            if libc.capset(hdr, data) != 0:
                return ("capset failed", ctypes.get_errno())
            c = tdnl.Client()
            g = guarded(dump(c, root_task))
            c.close()
            return g, procfs_allows_io(root_task)
        g, proc_io = in_child(nocap_case)
        check("capability-less root does not see a full root task's io, as procfs",
              g["io"] == proc_io and not proc_io, "%s, procfs io %s" % (g, proc_io))

        # CAP_PERFMON without CAP_SYS_PTRACE, as nobody: from 6.15 on,
        # mm_access() opens maps and smaps_rollup of any process for it, while
        # io and the guarded stat fields stay shut; before, all are refused.
        # The module follows the kernel's own procfs either way.
        def perfmon_case():
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(8, 1, 0, 0, 0) != 0:  # PR_SET_KEEPCAPS
                return ("prctl failed", ctypes.get_errno())
            drop_to(NOBODY)
            # capset(v3): CAP_PERFMON (38) effective and permitted, nothing else
            hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)
            data = (ctypes.c_uint32 * 6)(0, 0, 0, 1 << 6, 1 << 6, 0)
            if libc.capset(hdr, data) != 0:
                return ("capset failed", ctypes.get_errno())
            proc = {}
            for f in ("maps", "smaps_rollup", "io"):
                try:
                    open("/proc/%d/%s" % (root_task, f)).read()
                    proc[f] = True
                except PermissionError:
                    proc[f] = False
            c = tdnl.Client()
            rec = dump(c, root_task)
            try:
                vmas = c.vma_request(scope=tdnl.SCOPE["task"], pid=root_task)
                vma = "sent %d" % len(vmas.get(root_task, []))
            except tdnl.NetlinkError as e:
                vma = "errno %d" % e.errno
            c.close()
            return proc, guarded(rec), "mem" in rec, vma
        proc, g, mem, vma = in_child(perfmon_case)
        want_vma = "sent" if proc["maps"] else "errno %d" % errno.EACCES
        check("CAP_PERFMON reader: maps and mem as /proc/1/maps and smaps_rollup, io and "
              "guarded stat as /proc/1/io",
              proc["maps"] == proc["smaps_rollup"] and vma.startswith(want_vma) and
              vma != "sent 0" and mem == proc["smaps_rollup"] and
              g == {"io": proc["io"], "stat": proc["io"]} and not proc["io"],
              "procfs %s; module: vma %s, mem %s, %s" % (proc, vma, mem, g))

        # A vfork child of a non-dumpable process, same user: it shares the
        # parent's mm, so mm_access() lets it open /proc/PARENT/maps, while
        # the ptrace check alone refuses /proc/PARENT/io. The module must
        # give maps and refuse io exactly as that procfs does.
        if len(sys.argv) > 1:
            out = subprocess.run(["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
                                  "--clear-groups", sys.argv[1]],
                                 capture_output=True, text=True)
            got = dict(ln.rsplit(" ", 1) for ln in out.stdout.splitlines() if " " in ln)
            pm, pio = got.get("procfs maps", "?"), got.get("procfs io", "?")
            mm, mio = got.get("module maps", "?"), got.get("module io", "?")
            check("vfork child of a non-dumpable process: its maps as /proc/PARENT/maps "
                  "(mm_access: the reader's own mm), no io as /proc/PARENT/io",
                  out.returncode == 0 and pm.isdigit() and int(pm) > 0 and mm.isdigit() and
                  int(mm) > 0 and pio == "EACCES" and mio == "no",
                  "%s%s" % (got, out.stderr.strip()))

        # ptrace_cap_only=1.
        with open(PARAM, "w") as f:
            f.write("1")

        def capsonly_nobody():
            drop_to(NOBODY)
            c = tdnl.Client()
            g = guarded(dump(c, nobody_sleeper.pid))
            c.close()
            return g
        g = in_child(capsonly_nobody)
        check("ptrace_cap_only=1: nobody loses its own task's guarded fields",
              g == {"io": False, "stat": False}, str(g))
        c = tdnl.Client()
        g = guarded(dump(c, nobody_sleeper.pid))
        c.close()
        check("ptrace_cap_only=1: root keeps them", g == {"io": True, "stat": True}, str(g))
    finally:
        with open(PARAM, "w") as f:
            f.write("0")
        for p in (nobody_sleeper, nondumpable):
            p.kill()
            p.wait()
    failed = tally("permissions")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
