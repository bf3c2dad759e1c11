#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The requester's /proc decides which tasks a dump shows.

procfs's hidepid= and gid= mount options (systemd's ProtectProc= mounts a
private /proc with them) limit what a user sees: hidepid=noaccess (1)
lists every /proc/PID but lets a reader open only those it may ptrace-read,
invisible (2) lists only those, ptraceable (4) also ignores gid=; members
of the gid= group are exempt from 1 and 2. Runs in the guest as root: each
case mounts a procfs with the options in a private mount namespace, as
ProtectProc= does, and dumps as an unprivileged user, with and without
membership of the gid= group, and as root.

The oracle is that reader's own /proc, read around the dump: every task
in the dump must be listed by readdir(/proc) (or /proc/TGID/task for a
thread), and carry groups only if the reader may open /proc/PID/stat;
every task /proc lists throughout the dump must be in it, with its groups
if /proc opens it. Also: a hidden pid does not exist for a request, a
noaccess one has no threads or children to show, a procfs-fd names another
instance, and a sender with no procfs at /proc is refused.
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
from tdlib import Request  # noqa: E402

NOBODY = 65534
OTHER = 1000
GID = 4242
CLONE_NEWNS = 0x20000
MS_REC, MS_PRIVATE = 0x4000, 1 << 18
libc = ctypes.CDLL(None, use_errno=True)


def mount(src, target, fstype, flags, data):
    if libc.mount(src.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                  data.encode() if data else None) != 0:
        raise OSError(ctypes.get_errno(), "mount %s on %s (%s)" % (fstype, target, data))


def private_proc(options, target="/proc"):
    """A new mount namespace, with a procfs of these options at target."""
    if libc.unshare(CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    os.makedirs(target, exist_ok=True)
    mount("proc", target, "proc", 0, options)


def listing(proc):
    return {int(n) for n in os.listdir(proc) if n.isdigit()}


def opens(path):
    """True if this process may open path, False if refused, None if gone."""
    try:
        os.close(os.open(path, os.O_RDONLY))
        return True
    except PermissionError:
        return False
    except (FileNotFoundError, ProcessLookupError):
        return None


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def compare(proc="/proc", procfs_fd=None):
    """Dump processes and threads; compare with this process's view of proc.
    Returns a list of problems (empty when the dump is what proc shows)."""
    bad = []
    c = tdnl.Client()
    before = listing(proc)
    procs = c.request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW_ALL,
                      procfs_fd=procfs_fd)
    threads = c.request(scope=tdnl.SCOPE["all_threads"], show=tdnl.SHOW["base"],
                        procfs_fd=procfs_fd)
    after = listing(proc)
    c.close()
    got = {t["pid"]: t for t in procs}
    for pid, t in got.items():
        if pid not in before | after:
            bad.append("pid %d dumped, not in the listing of %s" % (pid, proc))
            continue
        may = opens("%s/%d/stat" % (proc, pid))
        if may is False and ("base" in t or "stat" in t or "cred" in t):
            bad.append("pid %d dumped with groups, %s/%d/stat refused" % (pid, proc, pid))
        if may is True and "base" not in t:
            bad.append("pid %d dumped without groups, %s/%d/stat opens" % (pid, proc, pid))
    for pid in sorted(before & after):
        if pid not in got and alive(pid):
            bad.append("pid %d listed in %s, not dumped" % (pid, proc))
    # Threads: a non-leader only where /proc/TGID/task lists it.
    tasks = {}
    for pid in before & after:
        try:
            tasks[pid] = {int(n) for n in os.listdir("%s/%d/task" % (proc, pid))}
        except (PermissionError, FileNotFoundError):
            tasks[pid] = set()
    for t in threads:
        if t["pid"] != t["tgid"] and t["pid"] not in tasks.get(t["tgid"], set()) and \
                opens("%s/%d/task/%d/stat" % (proc, t["tgid"], t["pid"])) is not None:
            bad.append("thread %d of %d dumped, not in %s/%d/task" % (t["pid"], t["tgid"], proc,
                                                                       t["tgid"]))
    dumped_threads = {t["pid"] for t in threads}
    for tgid, tids in tasks.items():
        for tid in tids:
            if tid not in dumped_threads and alive(tid) and tgid in got:
                bad.append("thread %d listed in %s/%d/task, not dumped" % (tid, proc, tgid))
    return ["%d processes, %d threads dumped" % (len(got), len(threads))] + bad


def lib_pids(path, fd):
    """The pids libtaskdiag's netlink backend dumps (all processes, base)
    after taskdiag_set_procfs(fd): the library side of procfs-fd."""
    lib = ctypes.CDLL(path)
    td, it, t = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    if lib.taskdiag_open(ctypes.byref(td), 1) != 0:  # TASKDIAG_BACKEND_NETLINK
        raise RuntimeError("taskdiag_open failed")
    err = lib.taskdiag_set_procfs(td, fd)
    if err:
        raise RuntimeError("taskdiag_set_procfs: %d" % err)
    req = Request(1, 0, 1)  # all processes, base
    if lib.taskdiag_iter_start(td, ctypes.byref(req), ctypes.byref(it)) != 0:
        raise RuntimeError("taskdiag_iter_start failed")
    pids = []
    while lib.taskdiag_iter_next(it, ctypes.byref(t)) == 1:
        pids.append(lib.taskdiag_task_pid(t))
    lib.taskdiag_iter_end(it)
    lib.taskdiag_close(td)
    return pids


def report(name, res):
    if res and res[0] == "error":
        check(name, False, res[1])
        return
    check("%s (%s)" % (name, res[0]), len(res) == 1, "; ".join(res[1:8]))


def errno_of(fn):
    try:
        fn()
        return 0
    except tdnl.NetlinkError as e:
        return e.errno


def main():
    threaded = ("import threading,time\n"
                "for _ in range(3): threading.Thread(target=time.sleep, args=(1000,),"
                " daemon=True).start()\n"
                "print('ready', flush=True); time.sleep(1000)")
    procs = []
    for uid in (0, OTHER, NOBODY):
        ids = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"]
        procs += [subprocess.Popen(ids + ["sleep", "1000"]) for _ in range(3)]
        procs.append(subprocess.Popen(ids + [sys.executable, "-c", threaded],
                                      stdout=subprocess.PIPE))
    for p in procs:
        if p.stdout and p.stdout.readline().strip() != b"ready":
            print("FAIL: a threaded fixture did not start")
            return 1
    root_sleeper, other_threaded = procs[0].pid, procs[7].pid
    try:
        for opts in ("hidepid=1", "hidepid=2", "hidepid=4", "hidepid=1,gid=%d" % GID,
                     "hidepid=2,gid=%d" % GID, "hidepid=4,gid=%d" % GID):
            for who, uid, groups in (("uid 65534", NOBODY, []),
                                     ("uid 65534 in group %d" % GID, NOBODY, [GID]),
                                     ("root", 0, [])):
                def case():
                    private_proc(opts)
                    drop_to(uid, groups)
                    return compare()
                report("/proc %s, %s: the dump shows what its /proc shows" % (opts, who),
                       in_child(case))

        # Requests naming a pid the requester's /proc hides or will not open.
        def named_pids():
            private_proc("hidepid=2")
            drop_to(NOBODY, [])
            c = tdnl.Client()
            hidden_do = errno_of(lambda: c.request(scope=tdnl.SCOPE["task"], pid=root_sleeper,
                                                   show=tdnl.SHOW_ALL, dump=False))
            hidden_threads = errno_of(lambda: c.request(scope=tdnl.SCOPE["threads"],
                                                        pid=other_threaded))
            return hidden_do, hidden_threads, opens("/proc/%d" % root_sleeper)
        res = in_child(named_pids)
        check("hidepid=2: a hidden pid is 'no such pid' (do and threads), as /proc has no entry",
              res == (errno.ESRCH, errno.ESRCH, None), str(res))

        def noaccess_pids():
            private_proc("hidepid=1")
            drop_to(NOBODY, [])
            c = tdnl.Client()
            do = c.request(scope=tdnl.SCOPE["task"], pid=root_sleeper, show=tdnl.SHOW_ALL,
                           dump=False)
            threads = errno_of(lambda: c.request(scope=tdnl.SCOPE["threads"],
                                                 pid=other_threaded))
            children = errno_of(lambda: c.request(scope=tdnl.SCOPE["children"], pid=1))
            return sorted(do[0]), threads, children, opens("/proc/%d/task" % other_threaded)
        res = in_child(noaccess_pids)
        check("hidepid=1: a do shows only pid and tgid; threads and children of a "
              "process /proc will not open are refused (EACCES), as /proc/PID/task is",
              res == (["pid", "tgid"], errno.EACCES, errno.EACCES, False), str(res))

        # procfs-fd: another instance's options instead of /proc's.
        def fd_open_instance():
            private_proc("hidepid=2")
            mount("proc", "/mnt", "proc", 0, "hidepid=0")
            drop_to(NOBODY, [])
            fd = os.open("/mnt", os.O_RDONLY | os.O_DIRECTORY)
            return compare("/mnt", procfs_fd=fd)
        report("/proc hidepid=2, procfs-fd of a hidepid=0 instance: the dump shows what "
               "that instance shows", in_child(fd_open_instance))

        def fd_closed_instance():
            private_proc("hidepid=2", target="/mnt")
            drop_to(NOBODY, [])
            fd = os.open("/mnt", os.O_PATH)
            return compare("/mnt", procfs_fd=fd)
        report("/proc hidepid=0, procfs-fd (O_PATH) of a hidepid=2 instance: the dump shows "
               "what that instance shows", in_child(fd_closed_instance))

        if len(sys.argv) > 1:
            def lib_fd():
                private_proc("hidepid=2", target="/mnt")
                drop_to(NOBODY, [])
                fd = os.open("/mnt", os.O_PATH)
                before = listing("/mnt")
                got = lib_pids(sys.argv[1], fd)
                return got, sorted(before | listing("/mnt")), len(listing("/proc"))
            res = in_child(lib_fd)
            ok = res[0] != "error" and set(res[0]) <= set(res[1]) and len(res[0]) < res[2]
            check("libtaskdiag's taskdiag_set_procfs() sends procfs-fd: only what the "
                  "hidepid=2 instance lists", ok, str(res))

        # tdps and tdtop list what ps and top list: under hidepid=1 the
        # tasks /proc lists but will not open are left out by both.
        if "--tdps" in sys.argv:
            tdps = sys.argv[sys.argv.index("--tdps") + 1]
            tdtop = sys.argv[sys.argv.index("--tdtop") + 1]

            def first_column(argv, skip_to=None):
                out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
                if skip_to is not None:    # top -b: the rows after the header
                    out = out.split(skip_to, 1)[1]
                return sorted({int(line.split()[0]) for line in out.splitlines()
                               if line.strip()})

            def tools_noaccess():
                private_proc("hidepid=1")
                drop_to(NOBODY, [])
                top = ["top", "-b", "-n", "1", "-w", "200"]
                return (first_column(["ps", "-e", "-o", "pid="]),
                        first_column([tdps, "-e", "-o", "pid=", "--backend", "netlink"]),
                        first_column(["ps", "-e", "-o", "pid="]),
                        first_column(top, "COMMAND\n"),
                        first_column([tdtop, "-b", "-n", "1", "--backend", "netlink"],
                                     "COMMAND\n"),
                        first_column(top, "COMMAND\n"))
            res = in_child(tools_noaccess)
            ok = res[0] != "error"
            if ok:
                for what, (b, got, a) in (("tdps", res[0:3]), ("tdtop", res[3:6])):
                    # each listing has its own tool's pid, which the others lack
                    b, got, a = set(b), set(got), set(a)
                    if not b & a <= got or len(got - (b | a)) > 1 or root_sleeper in got:
                        ok = False
                        print("%s: %s; ps/top listed %s and %s" % (what, sorted(got),
                                                                   sorted(b), sorted(a)))
            check("hidepid=1, uid 65534: tdps -e and tdtop -b list what ps -e and top -b "
                  "list (not the tasks /proc lists but will not open)", ok,
                  "" if ok else str(res)[:300])

        # No procfs at /proc: refused with a message; a procfs-fd still works.
        def no_proc():
            private_proc("hidepid=0", target="/mnt")
            mount("tmpfs", "/proc", "tmpfs", 0, None)
            drop_to(NOBODY, [])
            c = tdnl.Client()
            try:
                c.request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW["base"])
                refused = (0, "")
            except tdnl.NetlinkError as e:
                refused = (e.errno, e.extack)
            fd = os.open("/mnt", os.O_RDONLY | os.O_DIRECTORY)
            n = len(c.request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW["base"],
                              procfs_fd=fd))
            return refused, n, len(listing("/mnt"))
        res = in_child(no_proc)
        ok = (res[0] != "error" and res[0][0] == errno.EACCES and "procfs" in res[0][1]
              and abs(res[1] - res[2]) <= 2)
        check("no procfs at /proc: EACCES with a message; with procfs-fd, the dump lists "
              "what that procfs lists", ok, str(res))
    finally:
        for p in procs:
            p.kill()
            p.wait()
    failed = tally("hidepid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
