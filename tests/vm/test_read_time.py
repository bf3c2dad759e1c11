#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A dump is written only for the process that sent it, checked as it is then.

netlink writes a dump's first batch in the sender's sendmsg() (the module
puts no task there, only an NLMSG_NOOP) and every later batch at the end of
a recvmsg() on the socket, in the context of whichever process calls it.
The module writes tasks only for the thread group that sent the request,
still running the program that sent it, judged with the credentials it has
then; any other reader ends the dump with EPERM. Runs in the guest as root;
each case drops privileges itself, and each would fail if the module wrote
a batch for another reader, or fixed its checks when the request arrived:

- drop: root sends a dump request, reads one datagram, drops to uid 65534
  and reads on (its /proc is the oracle for every task after);
- SCM_RIGHTS: root sends the request, reads one datagram and hands the
  socket to a uid-65534 process: it gets at most the datagram queued before
  (written for root) and then EPERM, no task written for it;
- swapped reader (get-vma, and get with mem): uid 1000 sends a dump and
  hands the socket to a process of uid 1001 that reads it once (as any
  program reading its stdin would); uid 1000 reads on: none of the other
  process's VMAs or mem reach it, as its /proc/PID/maps says EACCES (the
  old module wrote them, its mm being the reader's own);
- a child of a non-dumpable sender reads: EPERM, none of the parent's
  guarded fields (procfs refuses them to the child);
- setuid exec: uid 1000 sends a dump and execve()s a setuid-root program
  that reads one datagram; another process of uid 1000 reads on: none of
  the setuid process's guarded fields reach it (its /proc/PID/io says
  EACCES);
- remount: uid 65534 dumps through a procfs instance of hidepid=0 that root
  remounts hidepid=2 mid-dump: the datagrams written after the remount
  hold only what that instance then lists to the reader;
- exec during a get-vma dump: a process execve()s while its VMAs are
  listed: the listing holds only VMAs of the image it began in (an open
  /proc/PID/maps reads on in the mm it was opened on), never the two
  images joined;
- user namespace: a socket opened in the initial user namespace and used
  from a new one shows ids as the opener's /proc shows them.

The oracle is procfs itself, read by the same process right after the
dump. netlink writes the next datagram at the end of each recvmsg(), so
the one datagram queued when the reader changes was written for the
previous reader (as data a file read returned before a setuid()); the
checks start with the datagram after it.
"""
import ctypes
import errno
import os
import signal
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to, in_child, join_child, read_result, start_child  # noqa: E402

NOBODY = 65534
OTHER = 1000
VICTIM = 1001
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


def read_on(c, seq):
    """Read a dump to its end: (tasks, datagrams, the error it ended with
    as (errno name, extack) or None)."""
    tasks, n = [], 0
    try:
        while True:
            msgs, end = c.read_datagram(seq)
            n += 1
            tasks += [tdnl.decode("TASK", m[4:]) for m in msgs]
            if end:
                return tasks, n, None
    except tdnl.NetlinkError as e:
        return tasks, n, (errno.errorcode.get(e.errno, e.errno), e.extack)


def wrap(sock, rcvbuf):
    """A tdnl client around a socket received from another process."""
    c = tdnl.Client.__new__(tdnl.Client)
    c.sock = sock
    c.rcvbuf, c.datagrams, c.max_datagram = rcvbuf, 0, 0
    return c


def recv_socket(b):
    msg, fds, _, _ = socket.recv_fds(b, 64, 1)
    return int(msg.decode()), socket.socket(fileno=fds[0])


def case_scm_rights():
    """Root hands the socket to a uid-65534 process after one datagram."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

    def reader():
        a.close()
        drop_to(NOBODY)
        seq, sock = recv_socket(b)
        c = wrap(sock, SMALL)
        c.read_datagram(seq)  # queued before the hand-over, for root
        tasks, n, err = read_on(c, seq)
        return len(tasks), n, err
    child = start_child(reader)
    b.close()
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    _, end = c.read_datagram(seq)
    assert not end, "the dump fitted one datagram"
    socket.send_fds(a, [str(seq).encode()], [c.sock.fileno()])
    c.close()
    a.close()
    return join_child(child)


def swapped_reader(kind, victim_uid):
    """uid OTHER sends a dump (kind "vma": get-vma of every process; "mem":
    get with base and mem of pids 1 and the victim) and hands the socket to
    a process of victim_uid, which reads one datagram with a large buffer;
    uid OTHER then reads on. Returns (the victim's pid, what uid OTHER got of
    it, whether uid OTHER's /proc/PID/maps of it is refused, the error the
    dump ended with)."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    go_r, go_w = os.pipe()

    def sender():
        # Forked first: a lower pid than the victim's, so that an
        # all-processes dump reaches the victim after the sender.
        os.close(go_w)
        b.close()
        drop_to(OTHER)
        vpid = int(os.read(go_r, 32).decode())
        # As large as the victim's: a batch it made fits.
        c = tdnl.Client(rcvbuf=1 << 20)
        if kind == "vma":
            seq = c.send_vma_request(scope=tdnl.SCOPE["all_processes"])
        else:
            pids = tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_FILTER_PID"],
                            struct.pack("=II", 1, vpid))
            seq = c.send_request(scope=tdnl.SCOPE["all_processes"], raw_attrs=pids,
                                 show=tdnl.SHOW["base"] | tdnl.SHOW["mem"])
        socket.send_fds(a, [str(seq).encode()], [c.sock.fileno()])
        if a.recv(16) != b"read":
            raise RuntimeError("the victim did not read")
        got, err = 0, None
        try:
            if kind == "vma":
                got = len(c._vma_dump(seq, []).get(vpid, []))
            else:
                for m in c.recv_msgs(seq):
                    t = tdnl.decode("TASK", m[4:])
                    got += t.get("pid") == vpid and "mem" in t
        except tdnl.NetlinkError as e:
            err = (errno.errorcode.get(e.errno, e.errno), e.extack)
        try:
            with open("/proc/%d/maps" % vpid) as f:
                f.read()
            refused = False
        except PermissionError:
            refused = True
        return vpid, got, refused, err
    snd = start_child(sender)
    os.close(go_r)
    victim = os.fork()
    if victim == 0:
        a.close()
        try:
            drop_to(victim_uid)
            _, sock = recv_socket(b)
            sock.recvmsg(1 << 20)  # a program reading its stdin once
            b.sendall(b"read")
            sock.close()
            time.sleep(30)  # alive until the sender has looked
        finally:
            os._exit(0)
    os.write(go_w, b"%d" % victim)
    os.close(go_w)
    a.close()
    b.close()
    out = join_child(snd)
    os.kill(victim, signal.SIGKILL)
    os.waitpid(victim, 0)
    return out


def setuid_copy():
    """A setuid-root copy of Debian's python3 on a tmpfs of its own: a
    setuid program that reads its stdin, for case_setuid_exec()."""
    d = "/run/td_suid"
    os.makedirs(d, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=755", "td_suid", d], check=True)
    exe = os.path.join(d, "python3")
    with open(os.path.realpath("/usr/bin/python3"), "rb") as src, open(exe, "wb") as dst:
        dst.write(src.read())
    os.chmod(exe, 0o4755)
    return d, exe


SUID_READER = """
import os, socket, sys, time
s = socket.socket(fileno=int(sys.argv[1]))
s.recvmsg(1 << 20)
os.write(int(sys.argv[2]), b"%d" % os.geteuid())
os.close(int(sys.argv[2]))
time.sleep(30)
"""


def case_setuid_exec(exe):
    """uid OTHER sends a dump of pids 1 and its own with stat, io and mem,
    forks a reader that keeps the socket, and execve()s a setuid-root
    program that reads one datagram; the reader reads on. Returns (the
    guarded parts the reader got of the sender's pid, the setuid program's
    euid, the reader's procfs view of it, the dump's error)."""
    r, w = os.pipe()
    res_r, res_w = os.pipe()
    sender = os.fork()
    if sender == 0:
        os.close(res_r)
        try:
            drop_to(OTHER)
            me = os.getpid()
            c = tdnl.Client(rcvbuf=SMALL)
            pids = tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_FILTER_PID"],
                            struct.pack("=II", 1, me))
            seq = c.send_request(scope=tdnl.SCOPE["all_processes"], raw_attrs=pids,
                                 show=SHOW | tdnl.SHOW["mem"])
            if os.fork() == 0:
                # The other reader: keeps the socket across the exec.
                os.close(w)
                euid = os.read(r, 16).decode()
                rec, err = None, None
                try:
                    for m in c.recv_msgs(seq):
                        t = tdnl.decode("TASK", m[4:])
                        if t.get("pid") == me:
                            rec = t
                except tdnl.NetlinkError as e:
                    err = (errno.errorcode.get(e.errno, e.errno), e.extack)
                fields = None
                if rec:
                    fields = sorted(k for k in rec.get("stat", {}) if k in GUARDED_STAT) + \
                        [k for k in ("io", "mem") if k in rec]
                out = (fields, euid, procfs_io(me), procfs_stat_guarded(me), err)
                os.write(res_w, repr(out).encode())
                os._exit(0)
            os.close(r)
            os.set_inheritable(c.sock.fileno(), True)
            os.set_inheritable(w, True)
            os.execv(exe, [exe, "-I", "-S", "-c", SUID_READER, str(c.sock.fileno()), str(w)])
        except Exception as e:
            os.write(res_w, repr(("error", "%s: %s" % (type(e).__name__, e))).encode())
        os._exit(1)
    os.close(r)
    os.close(w)
    os.close(res_w)
    out = read_result(res_r)  # written by the sender's child
    os.kill(sender, signal.SIGKILL)
    os.waitpid(sender, 0)
    return out


def case_remount(mnt):
    """uid 65534 dumps through the procfs at mnt (hidepid=0), reading with a
    small buffer; after two datagrams root remounts it hidepid=2. Returns
    (pids in the datagrams written after the remount, pids mnt then lists
    to the reader, those datagrams, the dump's error)."""
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()

    def reader():
        drop_to(NOBODY)
        fd = os.open(mnt, os.O_RDONLY | os.O_DIRECTORY)
        c = tdnl.Client(rcvbuf=SMALL)
        seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW["base"],
                             procfs_fd=fd)
        c.read_datagram(seq)
        c.read_datagram(seq)
        os.write(w1, b"r")
        os.read(r2, 1)      # remounted
        c.read_datagram(seq)  # written before the remount
        tasks, n, err = read_on(c, seq)
        listed = sorted(int(x) for x in os.listdir(mnt) if x.isdigit())
        return sorted(t["pid"] for t in tasks), listed, n, err
    child = start_child(reader)
    os.read(r1, 1)
    subprocess.run(["mount", "-o", "remount,hidepid=2", mnt], check=True)
    os.write(w2, b"g")
    out = join_child(child)
    for fd in (r1, w1, r2, w2):
        os.close(fd)
    return out


EXEC_TARGET = """
import mmap, os, sys
maps = [mmap.mmap(-1, 4096, prot=mmap.PROT_READ | (mmap.PROT_WRITE if i % 2 else 0))
        for i in range(3000)]
os.write(1, b"r")
os.read(0, 1)
os.execv("/bin/sleep", ["sleep", "100"])
"""


def case_exec_vma():
    """uid 65534 lists its child's 3,000 VMAs (a get-vma dump of scope task,
    several datagrams); after the first datagram with entries it execve()s
    sleep. Returns (entries got, entries not of the old image, entries of
    the new image only, the old image's VMA count)."""
    drop_to(NOBODY)
    p = subprocess.Popen([sys.executable, "-c", EXEC_TARGET], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    try:
        p.stdout.read(1)

        def spans(pid):
            with open("/proc/%d/maps" % pid) as f:
                return {tuple(int(x, 16) for x in ln.split()[0].split("-")) for ln in f}
        old = spans(p.pid)
        c = tdnl.Client(rcvbuf=65536)  # get-vma's batches are up to 32 KiB
        seq = c.send_vma_request(scope=tdnl.SCOPE["task"], pid=p.pid)
        got = []
        while not got:
            msgs, end = c.read_datagram(seq)
            for m in msgs:
                got += tdnl.decode_vma_msg(m[4:])[1]
            if end:
                return ("error", "the listing ended in one datagram")
        p.stdin.write(b"x")
        p.stdin.flush()
        end = time.time() + 30
        while os.readlink("/proc/%d/exe" % p.pid) != os.path.realpath("/bin/sleep"):
            if time.time() > end:
                return ("error", "the child did not exec")
            time.sleep(0.05)
        time.sleep(0.2)
        new = spans(p.pid)
        for m in c.recv_msgs(seq):  # the first one written before the exec
            got += tdnl.decode_vma_msg(m[4:])[1]
        spans_got = [(v["start"], v["end"]) for v in got]
        return (len(got), len([s for s in spans_got if s not in old]),
                len([s for s in spans_got if s in new - old]), len(old))
    finally:
        p.kill()
        p.wait()


def case_nondumpable_sender():
    """The sender (uid 65534) makes itself non-dumpable after sending; its
    child reads. Returns what the child got, the dump's error and procfs's
    view."""
    drop_to(NOBODY)
    me = os.getpid()
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        return ("error", "prctl: %s" % os.strerror(ctypes.get_errno()))

    def child():
        tasks, _, err = read_on(c, seq)
        rec = [t for t in tasks if t["pid"] == me]
        return len(tasks), rec[0] if rec else None, err, procfs_io(me)
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
        res = case_scm_rights()
        if res and res[0] == "error":
            check("root hands the socket to a uid-65534 process mid-dump", False, res[1])
        else:
            ntasks, n, err = res
            check("root hands the socket to a uid-65534 process mid-dump: after the datagram "
                  "queued for root, no task, and EPERM", ntasks == 0 and bool(err)
                  and err[0] == "EPERM",
                  "%d tasks in %d datagrams, error %s" % (ntasks, n, err))

        res = in_child(case_nondumpable_sender)
        if res and res[0] == "error":
            check("non-dumpable sender, child reads", False, res[1])
        else:
            ntasks, rec, err, proc_io = res
            check("non-dumpable sender, its child reads: procfs refuses the parent's io to the "
                  "child (%s), and the child gets no task, EPERM" % proc_io,
                  proc_io is False and ntasks == 0 and rec is None and bool(err)
                  and err[0] == "EPERM",
                  "%d tasks, the parent's record %s, error %s"
                  % (ntasks, "with guarded fields" if rec and guarded(rec) else rec is not None,
                     err))

        for kind, what in (("vma", "get-vma"), ("mem", "get with mem")):
            res = swapped_reader(kind, VICTIM)
            if res and res[0] == "error":
                check("swapped reader (%s)" % what, False, res[1])
                continue
            vpid, got, refused, err = res
            check("swapped reader (%s): uid %d hands its dump to pid %d of uid %d, which reads "
                  "once: %d %s of it reach uid %d, whose /proc/PID/maps %s; the dump ends with %s"
                  % (what, OTHER, vpid, VICTIM, got, "VMAs" if kind == "vma" else "mem records",
                     OTHER, "is refused" if refused else "is READABLE (no oracle)",
                     err[0] if err else "no error"),
                  refused and got == 0 and bool(err) and err[0] == "EPERM", "")

        d, exe = setuid_copy()
        try:
            res = case_setuid_exec(exe)
        finally:
            subprocess.run(["umount", d])
        if res and res[0] == "error":
            check("setuid exec mid-dump", False, res[1])
        else:
            fields, euid, io_ok, stat_ok, err = res
            check("setuid exec mid-dump: the sender execs a setuid program (euid %s) that "
                  "reads once; another process of uid %d reads on: none of its guarded parts "
                  "(its /proc/PID/io: %s), and the dump ends with %s"
                  % (euid, OTHER, "readable" if io_ok else "refused",
                     err[0] if err else "no error"),
                  euid == "0" and io_ok is False and stat_ok is False and not fields
                  and bool(err) and err[0] == "EPERM",
                  "got %s" % fields if fields else "")

        mnt = "/run/td_proc_remount"
        os.makedirs(mnt, exist_ok=True)
        subprocess.run(["mount", "-t", "proc", "-o", "hidepid=0", "proc", mnt], check=True)
        try:
            res = case_remount(mnt)
        finally:
            subprocess.run(["umount", mnt])
        if res and res[0] == "error":
            check("a hidepid= remount reaches a running dump", False, res[1])
        else:
            after, listed, n, err = res
            extra = sorted(set(after) - set(listed))
            check("a hidepid= remount reaches a running dump: %d tasks in %d datagrams "
                  "written after it, all listed by that procfs to the reader now (%d)"
                  % (len(after), n, len(listed)),
                  not extra and not err and n >= 1,
                  "not listed: %s%s" % (extra[:10], ", error %s" % (err,) if err else ""))

        res = in_child(case_exec_vma)
        if res and res[0] == "error":
            check("exec during a get-vma dump", False, res[1])
        else:
            n, not_old, new_only, n_old = res
            check("exec during a get-vma dump: the %d entries listed are all of the image the "
                  "listing began in (%d VMAs), none of the one the process execve()d into"
                  % (n, n_old), n > 0 and not not_old and not new_only,
                  "%d entries not of the old image, %d of the new one" % (not_old, new_only))

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
