#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The reader is checked when the data is written, as procfs checks at read time.

Most of a dump is written inside later recvmsg() calls, in the context of
whichever process reads the socket then. procfs checks the reader of
/proc/PID/io and /proc/PID/stat when it reads; the module must check the
process reading the socket as well as the sender and the opener. Runs in
the guest as root; each case drops privileges itself, and each would fail
if the module fixed its checks when the request arrived:

- drop: root sends a dump request, reads one datagram, drops to uid 65534
  and reads on;
- SCM_RIGHTS: root sends the request, reads one datagram and hands the
  socket to a uid-65534 process, which reads on;
- non-dumpable sender: a uid-65534 process sends the request, makes itself
  non-dumpable and forks; its child reads the dump, and must not get the
  parent's guarded fields (procfs refuses them to the child);
- user namespace: a socket opened in the initial user namespace and used
  from a new one shows ids as the opener's /proc shows them.

The oracle is procfs itself, read by the same process right after the
dump: a task whose /proc/PID/io the reader may not read must carry neither
io nor a guarded stat field (a disclosure), and every task of the reader's
own (dumpable, alive) must carry io (nothing missing). netlink writes the
next datagram at the end of each recvmsg(), so the one datagram queued when
the reader changes was written for the previous reader (as data a file read
returned before a setuid()); the checks start with the datagram after it.
"""
import ctypes
import errno
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to, in_child  # noqa: E402

NOBODY = 65534
OTHER = 1000
GUARDED_STAT = ("start_code", "end_code", "start_stack", "kstk_esp", "kstk_eip", "wchan",
                "start_data", "end_data", "start_brk", "arg_start", "arg_end", "env_start",
                "env_end", "exit_code")
SHOW = tdnl.SHOW["base"] | tdnl.SHOW["stat"] | tdnl.SHOW["io"]
SMALL = 4096  # a reader's buffer this size keeps each datagram to a few tasks
libc = ctypes.CDLL(None, use_errno=True)


def guarded(rec):
    return "io" in rec or any(k in rec.get("stat", {}) for k in GUARDED_STAT)


def procfs_io(pid):
    """True if this process may read /proc/PID/io, False if refused, None if gone."""
    try:
        with open("/proc/%d/io" % pid) as f:
            f.read()
        return True
    except PermissionError:
        return False
    except (FileNotFoundError, ProcessLookupError):
        return None


def owner(pid):
    try:
        return os.stat("/proc/%d" % pid).st_uid
    except FileNotFoundError:
        return None


def procfs_stat_guarded(pid):
    """Does this process's /proc/PID/stat show the guarded fields? procfs
    prints start_code as 1 to readers that fail its ptrace check (when the
    task has an mm); without an mm it prints 0 either way, and then the io
    file's answer stands (a task without an mm has a root-owned io file, and
    ptrace refuses it to all but root). None if the task is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    vsize, start_code = int(fields[20]), int(fields[23])
    if vsize:
        return start_code != 1
    return procfs_io(pid)


def judge(tasks):
    """Disclosures and missing tasks among tasks, by this process's /proc."""
    bad, missing = [], []
    for t in tasks:
        io_ok, stat_ok = procfs_io(t["pid"]), procfs_stat_guarded(t["pid"])
        if io_ok is None or stat_ok is None:
            continue
        gstat = any(k in t.get("stat", {}) for k in GUARDED_STAT)
        if ("io" in t and not io_ok) or (gstat and not stat_ok):
            bad.append(t["pid"])
        elif (io_ok and "io" not in t) or (stat_ok and not gstat):
            missing.append(t["pid"])
    return bad, missing


def read_rest(c, seq):
    tasks, n = [], 0
    while True:
        msgs, end = c.read_datagram(seq)
        n += 1
        tasks += [tdnl.decode("TASK", m[4:]) for m in msgs]
        if end:
            return tasks, n


def report(name, res, min_tasks):
    """res: (tasks checked, datagrams, disclosures, missing) from a case."""
    if res and res[0] == "error":
        check(name, False, res[1])
        return
    ntasks, ndgrams, bad, missing = res
    check("%s: %d tasks in %d datagrams written for the new reader, 0 disclosures, none missing"
          % (name, ntasks, ndgrams),
          ntasks >= min_tasks and not bad and not missing,
          "disclosures %s, missing %s" % (bad, missing) if bad or missing or ntasks < min_tasks
          else "")


def case_drop():
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    first, end = c.read_datagram(seq)
    assert not end, "the dump fitted one datagram"
    drop_to(NOBODY)
    c.read_datagram(seq)  # written at the end of the first recvmsg(), for root
    tasks, n = read_rest(c, seq)
    bad, missing = judge(tasks)
    return len(tasks), n, bad, missing


def case_scm_rights():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:
        a.close()
        try:
            drop_to(NOBODY)
            msg, fds, _, _ = socket.recv_fds(b, 64, 1)
            seq = int(msg.decode())
            c = tdnl.Client.__new__(tdnl.Client)  # a client around the received socket
            c.sock = socket.socket(fileno=fds[0])
            c.rcvbuf, c.datagrams, c.max_datagram = SMALL, 0, 0
            c.read_datagram(seq)  # queued before the hand-over, for root
            tasks, n = read_rest(c, seq)
            bad, missing = judge(tasks)
            out = (len(tasks), n, bad, missing)
        except Exception as e:
            out = ("error", "%s: %s" % (type(e).__name__, e))
        b.sendall(repr(out).encode())
        os._exit(0)
    b.close()
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    _, end = c.read_datagram(seq)
    assert not end, "the dump fitted one datagram"
    socket.send_fds(a, [str(seq).encode()], [c.sock.fileno()])
    c.close()
    data = b""
    while True:
        chunk = a.recv(65536)
        if not chunk:
            break
        data += chunk
    os.waitpid(pid, 0)
    return eval(data.decode())


def case_nondumpable_sender():
    """The sender (uid 65534) makes itself non-dumpable after sending; its
    child reads. Returns what the child saw of the parent, and procfs's view."""
    drop_to(NOBODY)
    me = os.getpid()
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        return ("error", "prctl: %s" % os.strerror(ctypes.get_errno()))

    def child():
        first, end = c.read_datagram(seq)
        in_first = me in [tdnl.decode("TASK", m[4:])["pid"] for m in first]
        tasks, _ = read_rest(c, seq)
        rec = [t for t in tasks if t["pid"] == me]
        return in_first, rec[0] if rec else None, procfs_io(me)
    return in_child(child)


def status_ids(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Uid:"):
                uids = [int(x) for x in line.split()[1:]]
            elif line.startswith("Gid:"):
                gids = [int(x) for x in line.split()[1:]]
    return uids, gids


def case_userns(pids):
    drop_to(NOBODY)
    libc.prctl(4, 1, 0, 0, 0)  # dumpable again, or /proc/self/uid_map is root's
    before = {p: status_ids(p) for p in pids}
    c = tdnl.Client()
    if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
        return ("error", "unshare: %s" % os.strerror(ctypes.get_errno()))
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write("0 %d 1" % NOBODY)
    with open("/proc/self/gid_map", "w") as f:
        f.write("0 %d 1" % NOBODY)
    inside = {p: status_ids(p) for p in pids}
    got = {}
    for p in pids:
        t = c.request(scope=tdnl.SCOPE["task"], pid=p, show=tdnl.SHOW["cred"], dump=False)[0]
        cr = t["cred"]
        got[p] = ([cr["uid"], cr["euid"], cr["suid"], cr["fsuid"]],
                  [cr["gid"], cr["egid"], cr["sgid"], cr["fsgid"]])
    return before, inside, got


def spawn(uid, n):
    return [subprocess.Popen(["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid,
                              "--clear-groups", "sleep", "1000"]) for _ in range(n)]


def main():
    procs = spawn(0, 30) + spawn(OTHER, 15) + spawn(NOBODY, 15)
    end = time.time() + 60
    while time.time() < end:
        try:
            if all(open("/proc/%d/comm" % p.pid).read().strip() == "sleep" for p in procs):
                break
        except OSError:
            pass
        time.sleep(0.2)
    else:
        print("FAIL: the fixture tasks did not start within 60 s")
        return 1
    try:
        report("root reads one datagram, drops to uid 65534, reads on", in_child(case_drop), 20)
        report("root hands the socket to a uid-65534 process over SCM_RIGHTS mid-dump",
               case_scm_rights(), 20)

        res = in_child(case_nondumpable_sender)
        if res and res[0] == "error":
            check("non-dumpable sender, child reads", False, res[1])
        else:
            in_first, rec, proc_io = res
            check("non-dumpable sender's record is written in the child's recvmsg()",
                  not in_first and rec is not None, "in first datagram %s, record %s"
                  % (in_first, rec is not None))
            check("... procfs refuses the parent's io to the child", proc_io is False,
                  str(proc_io))
            check("... and the child gets none of the parent's guarded fields",
                  rec is not None and not guarded(rec),
                  str(sorted(k for k in rec.get("stat", {}) if k in GUARDED_STAT)
                      + (["io"] if "io" in rec else [])) if rec else "")

        pids = [1, procs[30].pid, procs[-1].pid]
        res = in_child(lambda: case_userns(pids))
        if res and res[0] == "error":
            check("socket opened in the initial user namespace, used from a new one", False,
                  res[1])
        else:
            before, inside, got = res
            check("ids are mapped into the opener's user namespace, as its /proc shows them",
                  got == before, "module %s, opener's /proc %s" % (got, before))
            check("... which differs from the sender's (the case can tell them apart)",
                  inside != before, "sender's /proc %s" % inside)
    finally:
        for p in procs:
            p.kill()
            p.wait()
    failed = tally("read_time")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
