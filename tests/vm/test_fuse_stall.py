#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A FUSE daemon that never answers cannot hold genetlink's cb_lock.

genetlink runs a ->doit, a dump's ->start and the first dump batch inside
genl_rcv(), in the sender's sendmsg(), under down_read(&cb_lock). Whatever
waits there without bound makes the next genl_register_family() (loading
any module with a generic netlink family) wait for cb_lock for writing, and
every generic netlink request of the machine (CTRL_CMD_GETFAMILY, as
`genl ctrl list` sends it) queue behind that writer. Runs in the guest as
root; the attacker parts run as uid 65534 in a user and mount namespace of
their own, where FUSE mounts are allowed:

1. LOOKUP never answered: a FUSE file system whose daemon answers INIT,
   GETATTR and ACCESS but never LOOKUP; processes chrooted into it send a
   task_diag do request (scope task, their own pid) and a dump. The module
   must not look /proc up through the file system (the old one did
   kern_path("/proc"), which waits for the LOOKUP): both come back within
   20 s with EACCES "no procfs mounted at /proc" (a mount point is always in
   the dentry cache, so a "proc" the cache does not hold has no procfs on
   it) and an extack that names procfs-fd, and a request with
   procfs-fd (opened before the chroot) works.
2. A target's mmap lock stuck: a process maps a file of a FUSE mount whose
   daemon never answers READ; a thread reads /proc/self/mem at the mapping
   (access_remote_vm() faults the page in holding the mmap lock for
   reading), another calls mmap() (a writer queues on the lock, so every
   new reader waits). The fixture is checked: a read of its
   /proc/PID/cmdline blocks. Then root sends an all-processes dump of
   base, stat, cmdline and mem, a dump and a do of scope task for the
   stalled pid and a get-vma of it. Each sendmsg() must return within
   20 s (a dump's first batch, under cb_lock, holds no task) and the do
   must come back within 20 s (what needs the lock withheld); the dumps'
   tasks are written in the sender's own recvmsg(), which waits there for
   the lock as a read of /proc/PID/cmdline does. With --vma-lib (tests/vm/
   vma_lib.c), libtaskdiag's VMA dump of the stalled pid waits likewise.
   Once the FUSE connection is aborted, the all-processes dump must end and
   carry the process with the cmdline procfs then reads, and its mem group;
   the dump and the get-vma of scope task and the library's VMA dump carry
   it too.

3. Another user's process stuck in exec: the attacker's process maps a
   file of a FUSE mount whose READ is never answered and posix_spawn()s a
   program of the mount (a vfork child, sharing its mm); a thread faults
   the mapping in through /proc/self/mem and another calls mmap(), as in
   part 2; then the program's READs are answered. The child's exec takes
   its exec_update_lock and waits for the shared mm's mmap lock, without
   bound. The fixture is checked: root's read of the child's
   /proc/PID/maps blocks. Two readers of other uids (65532, 65533), which
   may not read the attacker's maps, send an all-processes get-vma dump,
   one started after the child and one before it. Both must end within
   20 s, without an error, with their own process and without the child:
   a read of its maps just before the exec began would have been refused.

4. The last mmput() of a target with AIO in flight: the attacker's process
   has an asynchronous direct-I/O read of a FUSE file in flight (io_submit;
   the daemon never answers it) and 96 TiB of MAP_NORESERVE hugetlb memory
   (a long mem walk); root sends a do with mem of it and kills it 0.2 s
   later. Whoever puts the mm's last reference waits in exit_aio() for the
   read: the do must not be it under cb_lock (its walk gives up at the
   module's deadline; its put is mmput_async()). The module before the fix
   held cb_lock there until the abort: insmod and GETFAMILY waited.

In parts 1, 2 and 4, while the stall lasts: (a) CTRL_CMD_GETFAMILY (a client of
its own, SO_RCVTIMEO) answers within 20 s; (b) insmod of a Debian module
that registers a genl family (team, macsec: no dependencies) completes
within 20 s, GETFAMILY finds its family, GETFAMILY of nlctrl still
answers, and rmmod completes. Everything the test started must end once
the FUSE connections are aborted (/sys/fs/fuse/connections/N/abort).

TD_FUSE_PARTS=3 (or 12, 4, ...) in the environment runs those parts alone.

A stall that is found (the module before the fix) is reported and ended by
the abort in well under the guest's 120 s hung-task panic: each wait is
20 s. The guest kernel's modules come from the kernel image scripts/setup
unpacked (TASK_DIAG_CACHE, /root/.cache/task_diag, /home/*/.cache/task_diag,
or --cache DIR); on 6.1 fuse is a module, loaded from there too.
"""
import ctypes
import errno
import glob
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to  # noqa: E402

NOBODY = 65534
WAIT = 20.0          # what a request, GETFAMILY, insmod may take during a stall
RELEASE_WAIT = 30.0  # what a dump may take to end once the stall is aborted
WORK = "/tmp/td_fuse_stall"
CLONE_NEWNS, CLONE_NEWUSER = 0x20000, 0x10000000
MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 2, 4, 0x4000, 1 << 18
PR_SET_DUMPABLE = 4
PROT_READ, PROT_WRITE = 1, 2
MAP_SHARED, MAP_PRIVATE, MAP_ANONYMOUS = 1, 2, 0x20
MAP_FAILED = (1 << 64) - 1
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
SHOW = tdnl.SHOW["base"] | tdnl.SHOW["stat"] | tdnl.SHOW["cmdline"] | tdnl.SHOW["mem"]

# FUSE, from include/uapi/linux/fuse.h
FUSE_LOOKUP, FUSE_FORGET, FUSE_GETATTR, FUSE_OPEN, FUSE_READ = 1, 2, 3, 14, 15
FUSE_RELEASE, FUSE_FSYNC, FUSE_FLUSH, FUSE_INIT, FUSE_RELEASEDIR = 18, 20, 25, 26, 29
FUSE_ACCESS, FUSE_INTERRUPT, FUSE_BATCH_FORGET = 34, 36, 42
OPNAME = {FUSE_LOOKUP: "LOOKUP", FUSE_GETATTR: "GETATTR", FUSE_OPEN: "OPEN",
          FUSE_READ: "READ", FUSE_INIT: "INIT", FUSE_ACCESS: "ACCESS", FUSE_FLUSH: "FLUSH",
          FUSE_RELEASE: "RELEASE", FUSE_INTERRUPT: "INTERRUPT", FUSE_FORGET: "FORGET"}
IN_HEADER = struct.Struct("=IIQQIIIHH")    # struct fuse_in_header (40 bytes)
OUT_HEADER = struct.Struct("=IiQ")          # struct fuse_out_header (16 bytes)
ATTR = struct.Struct("=QQQQQQIIIIIIIIII")   # struct fuse_attr (88 bytes)
INIT_OUT = struct.Struct("=IIIIHHIIHHI28x")  # struct fuse_init_out (64 bytes)
FILE_NAME, FILE_SIZE = b"file", 65536
PROG_NAME, PROG_MODE = b"prog", 0o100555
with open("/bin/true", "rb") as _f:
    PROG = _f.read()
READERS = (65532, 65533)  # part 3's readers: uids of their own
DIR_MODE, FILE_MODE = 0o040755, 0o100444

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
def info(text):
    print("# " + text, flush=True)


def oserror(what):
    e = ctypes.get_errno()
    return OSError(e, "%s: %s" % (what, os.strerror(e)))


def mount(src, target, fstype, flags, data):
    if libc.mount(src.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                  data.encode() if data else None) != 0:
        raise oserror("mount %s on %s" % (fstype, target))


# --- children that report through a pipe, one repr()'d tuple a line ---------

_out = [None]


def say(*msg):
    """Report to the test (from a child); short lines, so writes stay atomic."""
    os.write(_out[0], (repr(msg) + "\n").encode())


def since(t0):
    return round(time.monotonic() - t0, 2)


class Proc:
    """A forked child running fn(*args); what it say()s is read here."""
    live = []

    def __init__(self, name, fn, *args):
        self.name = name
        r, w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(r)
            _out[0] = w
            rc = 0
            try:
                fn(*args)
            except BaseException as e:  # no traceback: it may read files
                say("error", "%s: %s" % (type(e).__name__, e))
                rc = 1
            os._exit(rc)
        os.close(w)
        self.fd, self.buf, self.msgs, self.eof, self.status = r, b"", [], False, None
        Proc.live.append(self)

    def pump(self, timeout):
        if self.eof:
            return
        if not select.select([self.fd], [], [], max(timeout, 0))[0]:
            return
        data = os.read(self.fd, 65536)
        if not data:
            self.eof = True
            return
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self.msgs.append(eval(line.decode()))

    def find(self, *prefix):
        for m in self.msgs:
            if m[:len(prefix)] == prefix:
                return m
        return None

    def wait_for(self, timeout, *prefix, err=("error",)):
        """The first message starting with prefix (or with err: a failure),
        or None after timeout."""
        end = time.monotonic() + timeout
        while True:
            m = self.find(*prefix) or self.find(*err)
            if m or self.eof:
                return m
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.pump(left)

    def reap(self, timeout):
        """Wait for the child to exit, up to timeout; True once it has."""
        if self not in Proc.live:
            return True
        end = time.monotonic() + timeout
        while self.status is None:
            self.pump(0)
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = st
                break
            if time.monotonic() >= end:
                return False
            time.sleep(0.1)
        # What it said last; its own children may still hold the pipe.
        end = time.monotonic() + 2
        while not self.eof and time.monotonic() < end:
            self.pump(0.2)
        os.close(self.fd)
        self.eof = True
        Proc.live.remove(self)
        return True

    def kill(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


# --- a FUSE daemon of our own -------------------------------------------------

def attr(nodeid):
    mode, size, nlink = {1: (DIR_MODE, 0, 2), 3: (PROG_MODE, len(PROG), 1)}.get(
        nodeid, (FILE_MODE, FILE_SIZE, 1))
    return ATTR.pack(nodeid, size, (size + 511) // 512, 0, 0, 0, 0, 0, 0, mode, nlink,
                     0, 0, 0, 4096, 0)


def serve(fd, mode):
    """Answer /dev/fuse requests. mode "lookup": a root directory only, and
    LOOKUP is never answered; mode "read": the root holds FILE_NAME, whose
    READ is never answered; mode "exec": the same, and PROG_NAME (/bin/true)
    too, whose READs wait until a LOOKUP of "release". INIT asks for no
    feature (no FUSE_ASYNC_READ: a read waits for its answer in the faulting
    task, interruptibly)."""
    nodes = {1} if mode == "lookup" else {1, 2, 3} if mode == "exec" else {1, 2}
    # aio: direct I/O, asynchronous (FUSE_ASYNC_DIO, FOPEN_DIRECT_IO)
    init_flags, open_flags = (1 << 15, 1) if mode == "aio" else (0, 0)
    held, released = [], False
    while True:
        try:
            req = os.read(fd, (1 << 20) + 65536)
        except OSError as e:
            if e.errno in (errno.EINTR, errno.ENOENT, errno.EAGAIN):
                continue
            say("daemon", "exit", e.errno)  # ENODEV: aborted or unmounted
            return
        ln, op, unique, nodeid = IN_HEADER.unpack_from(req)[:4]
        body = req[IN_HEADER.size:ln]
        name = body.split(b"\0", 1)[0] if op == FUSE_LOOKUP else b""
        say("daemon", OPNAME.get(op, op), nodeid, name)
        if op in (FUSE_FORGET, FUSE_BATCH_FORGET, FUSE_INTERRUPT):
            continue
        if (op == FUSE_LOOKUP and mode == "lookup") or \
                (op == FUSE_READ and mode in ("read", "exec", "aio") and nodeid == 2):
            continue  # never answered
        if op == FUSE_READ and nodeid == 3 and not released:
            held.append((unique, body))
            continue
        if op == FUSE_LOOKUP and name == b"release":
            released = True
            for u, b in held:
                prog_read(fd, u, b)
        if op == FUSE_READ and nodeid == 3:
            prog_read(fd, unique, body)
            continue
        err, out = 0, b""
        if op == FUSE_INIT:
            major, minor, readahead = struct.unpack_from("=III", body)
            out = INIT_OUT.pack(7, minor, readahead, init_flags, 0, 0, 4096, 1, 0, 0, 0)
        elif op == FUSE_GETATTR:
            if nodeid in nodes:
                out = struct.pack("=QII", 3600, 0, 0) + attr(nodeid)
            else:
                err = -errno.ENOENT
        elif op == FUSE_LOOKUP:
            node = {FILE_NAME: 2, PROG_NAME: 3}.get(name) if nodeid == 1 else None
            if node in nodes:
                out = struct.pack("=QQQQII", node, 1, 3600, 3600, 0, 0) + attr(node)
            else:
                err = -errno.ENOENT
        elif op == FUSE_OPEN:
            out = struct.pack("=QII", 1, open_flags, 0)
        elif op in (FUSE_ACCESS, FUSE_FLUSH, FUSE_RELEASE, FUSE_RELEASEDIR, FUSE_FSYNC):
            pass
        else:
            err = -errno.ENOSYS
        try:
            os.write(fd, OUT_HEADER.pack(OUT_HEADER.size + len(out), err, unique) + out)
        except OSError:
            pass  # the request was interrupted or the connection aborted


def prog_read(fd, unique, body):
    """Answer a READ of PROG_NAME (struct fuse_read_in: fh, offset, size)."""
    off, size = struct.unpack_from("=QI", body, 8)
    out = PROG[off:off + size]
    try:
        os.write(fd, OUT_HEADER.pack(OUT_HEADER.size + len(out), 0, unique) + out)
    except OSError:
        pass


# --- the attacker: uid 65534 in its own user and mount namespace ------------

def attacker(mnt, mode, ctl_r, close_fds, go_r):
    """Mount a FUSE file system served by a child, then fork what the test
    asks for on ctl_r ("do", "dump", "procfs-fd", "stall", "quit")."""
    for fd in close_fds:
        os.close(fd)
    drop_to(NOBODY)
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # or /proc/self/uid_map stays root's
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise oserror("unshare(CLONE_NEWUSER|CLONE_NEWNS)")
    for f, v in (("setgroups", "deny"), ("uid_map", "0 %d 1" % NOBODY),
                 ("gid_map", "0 %d 1" % NOBODY)):
        with open("/proc/self/" + f, "w") as fh:
            fh.write(v)
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    # Opened in the user namespace that mounts: fuse_fill_super() wants it so.
    fuse = os.open("/dev/fuse", os.O_RDWR)
    mount("td_fuse_stall", mnt, "fuse", MS_NOSUID | MS_NODEV,
          "fd=%d,rootmode=40000,user_id=0,group_id=0" % fuse)
    daemon = os.fork()
    if daemon == 0:
        serve(fuse, mode)
        os._exit(0)
    os.close(fuse)  # the daemon holds the only descriptor: its death aborts
    say("mounted", daemon)
    buf = b""
    while True:
        while b"\n" not in buf:
            data = os.read(ctl_r, 256)
            if not data:
                buf += b"quit\n"
            buf += data
        cmd, buf = buf.split(b"\n", 1)
        cmd = cmd.decode()
        if cmd == "quit":
            break
        pid = os.fork()
        if pid == 0:
            try:
                if cmd == "stall":
                    stalled(mnt, go_r)
                elif cmd == "spawn":
                    stalled(mnt, go_r, spawn=True)
                elif cmd == "aio":
                    aio_target(mnt)
                elif cmd == "release":
                    try:
                        os.stat(os.path.join(mnt, "release"))
                    except OSError:
                        pass
                else:
                    chrooted_request(mnt, cmd)
            except BaseException as e:  # no traceback: it may look paths up
                say(cmd, "error", "%s: %s" % (type(e).__name__, e))
            os._exit(0)
        say("forked", cmd, pid)
    # Reap what we forked (the test kills what must die).
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            time.sleep(0.1)
    say("children left")


def chrooted_request(mnt, kind):
    """chroot into the FUSE root and send one request. After the chroot
    nothing may look a path up (each would be a LOOKUP that never ends):
    the family is resolved, and everything used, before it."""
    c = tdnl.Client()
    c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("@ll", 60, 0))
    procfd = os.open("/proc", os.O_PATH | os.O_DIRECTORY) if kind == "procfs-fd" else None
    me = os.getpid()
    try:
        raise tdnl.NetlinkError(errno.EAGAIN, "warm-up")
    except tdnl.NetlinkError as e:
        repr((e.errno, e.extack))
    os.chdir(mnt)     # FUSE_ACCESS, answered
    os.chroot(".")    # CAP_SYS_CHROOT in its user namespace
    say(kind, "sending")
    t0 = time.monotonic()
    try:
        if kind == "dump":
            tasks = c.request(scope=tdnl.SCOPE["all_processes"], show=tdnl.SHOW["base"])
        else:
            tasks = c.request(scope=tdnl.SCOPE["task"], pid=me, show=tdnl.SHOW["base"],
                              dump=False, procfs_fd=procfd)
        res = ("tasks", len(tasks), me in [t["pid"] for t in tasks])
    except tdnl.NetlinkError as e:
        res = ("error", errno.errorcode.get(e.errno, e.errno), e.extack)
    except OSError as e:
        res = ("oserror", errno.errorcode.get(e.errno, e.errno))
    say(kind, "reply", since(t0), res)


def posix_spawn(path):
    """glibc's posix_spawn() through ctypes, which lets go of the GIL (os's
    does not): the vfork child's exec waits, and so does this call."""
    pid = ctypes.c_int()
    argv = (ctypes.c_char_p * 2)(os.path.basename(path).encode(), None)
    envp = (ctypes.c_char_p * 1)(None)
    err = libc.posix_spawn(ctypes.byref(pid), path.encode(), None, None, argv, envp)
    say("S", "spawned", pid.value, err)


def stalled(mnt, go_r, spawn=False):
    """The target: a mapping of a FUSE file whose READ is never answered,
    faulted in by access_remote_vm() (holding the mmap lock for reading),
    then an mmap() that queues for it for writing. spawn: first a vfork
    child (posix_spawn) of PROG_NAME, whose exec waits for its READs."""
    fd = os.open(os.path.join(mnt, FILE_NAME.decode()), os.O_RDONLY)
    addr = libc.mmap(None, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0)
    if addr is None or addr == MAP_FAILED:
        raise oserror("mmap of the FUSE file")
    mem = os.open("/proc/self/mem", os.O_RDONLY)
    if spawn:
        prog = os.path.join(mnt, PROG_NAME.decode())
        threading.Thread(target=posix_spawn, args=(prog,), daemon=True).start()
        say("S", "spawning", os.getpid())
        os.read(go_r, 1)  # the daemon holds the program's READ

    def reader():
        try:
            os.pread(mem, 16, addr)
            say("S", "read returned")
        except OSError as e:
            say("S", "read failed", errno.errorcode.get(e.errno, e.errno))
    threading.Thread(target=reader, daemon=True).start()
    say("S", "ready", os.getpid())
    os.read(go_r, 1)  # the daemon got the READ: the lock is held
    say("S", "mmap")
    p = libc.mmap(None, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    say("S", "mmap returned", p != MAP_FAILED)
    while True:
        time.sleep(3600)


class Iocb(ctypes.Structure):
    """struct iocb (x86-64, little endian)."""
    _fields_ = [("aio_data", ctypes.c_uint64), ("aio_key", ctypes.c_uint32),
                ("aio_rw_flags", ctypes.c_uint32), ("aio_lio_opcode", ctypes.c_uint16),
                ("aio_reqprio", ctypes.c_int16), ("aio_fildes", ctypes.c_uint32),
                ("aio_buf", ctypes.c_uint64), ("aio_nbytes", ctypes.c_uint64),
                ("aio_offset", ctypes.c_int64), ("aio_reserved2", ctypes.c_uint64),
                ("aio_flags", ctypes.c_uint32), ("aio_resfd", ctypes.c_uint32)]


def aio_target(mnt):
    """Part 4's target: an asynchronous direct-I/O read of the FUSE file in
    flight (io_submit(); the daemon never answers it), so that whoever puts
    the last reference of its mm waits in exit_aio() for as long as the
    daemon likes; and 96 TiB of MAP_NORESERVE hugetlb memory, so that a
    mem walk of it (a do's, under cb_lock) is long (48 M steps)."""
    big = libc.mmap(None, 96 << 40, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | 0x4000 | 0x40000, -1, 0)  # NORESERVE|HUGETLB
    if big is None or big == MAP_FAILED:
        raise oserror("mmap of 96 TiB of hugetlb memory")
    fd = os.open(os.path.join(mnt, FILE_NAME.decode()), os.O_RDONLY | os.O_DIRECT)
    buf = libc.mmap(None, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    ctx = ctypes.c_ulong(0)
    if libc.syscall(206, 1, ctypes.byref(ctx)) != 0:  # io_setup
        raise oserror("io_setup")
    cb = Iocb(aio_lio_opcode=0, aio_fildes=fd, aio_buf=buf, aio_nbytes=4096)  # IOCB_CMD_PREAD
    cbs = (ctypes.POINTER(Iocb) * 1)(ctypes.pointer(cb))
    n = libc.syscall(209, ctx, 1, cbs)  # io_submit
    if n != 1:
        raise oserror("io_submit")
    say("A", "ready", os.getpid())
    while True:
        time.sleep(3600)


# --- what root runs from the outside -----------------------------------------

def getfamily(name):
    """CTRL_CMD_GETFAMILY for name: ("result", "id", N) or an error."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, tdnl.NETLINK_GENERIC)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("@ll", int(WAIT), 0))
    s.bind((0, 0))
    body = struct.pack("=BBH", CTRL_CMD_GETFAMILY, 1, 0) + \
        tdnl.nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")
    t0 = time.monotonic()
    s.send(struct.pack("=IHHII", 16 + len(body), GENL_ID_CTRL, tdnl.NLM_F_REQUEST, 1, 0) + body)
    say("sent", since(t0))
    try:
        data = s.recv(65536)
    except BlockingIOError:
        say("result", "no answer (SO_RCVTIMEO)", since(t0))
        return
    mtype = struct.unpack_from("=H", data, 4)[0]
    if mtype == tdnl.NLMSG_ERROR:
        err = -struct.unpack_from("=i", data, 16)[0]
        say("result", "error", errno.errorcode.get(err, err), since(t0))
        return
    for at, val in tdnl.parse_attrs(data[20:struct.unpack_from("=I", data)[0]]):
        if at == CTRL_ATTR_FAMILY_ID:
            say("result", "id", struct.unpack("=H", val)[0], since(t0))
            return
    say("result", "no family id", since(t0))


def summary(tasks, spid):
    t = [t for t in tasks if t["pid"] == spid]
    if not t:
        return None
    t = t[0]
    return {"cmdline": t.get("cmdline"), "mem": "mem" in t,
            "stat_fields": len(t.get("stat", {})),
            "guarded_stat": "start_code" in t.get("stat", {})}


def x_dump_all(spid):
    c = tdnl.Client(rcvbuf=65536)
    t0 = time.monotonic()
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    say("sent", since(t0))
    tasks, n, where = [], 0, None
    while True:
        try:
            msgs, end = c.read_datagram(seq)
        except tdnl.NetlinkError as e:
            say("done", since(t0), n, None, ("error", errno.errorcode.get(e.errno), e.extack))
            return
        n += 1
        got = [tdnl.decode("TASK", m[4:]) for m in msgs]
        if spid in [t["pid"] for t in got]:
            where = n
        if n == 1:
            say("first", len(got), spid in [t["pid"] for t in got])
        tasks += got
        if end:
            break
    say("done", since(t0), n, where, summary(tasks, spid))


def x_task(spid, how):
    c = tdnl.Client(rcvbuf=65536)
    t0 = time.monotonic()
    say("sending")
    try:
        if how == "vma":
            seq = c.send_vma_request(scope=tdnl.SCOPE["task"], pid=spid)
            say("sent", since(t0))
            out = c._vma_dump(seq, [])
            res = {"vmas": len(out.get(spid, []))}
        elif how == "dump":
            seq = c.send_request(scope=tdnl.SCOPE["task"], pid=spid, show=SHOW)
            say("sent", since(t0))
            res = summary([tdnl.decode("TASK", m[4:]) for m in c.recv_msgs(seq)], spid)
        else:
            res = summary(c.request(scope=tdnl.SCOPE["task"], pid=spid, show=SHOW,
                                    dump=False), spid)
    except tdnl.NetlinkError as e:
        res = ("error", errno.errorcode.get(e.errno, e.errno), e.extack)
    say("reply", since(t0), res)


def lib_vma(vma_lib, spid):
    """libtaskdiag's VMA dump of spid (vma_lib netlink PID)."""
    say("sending")
    t0 = time.monotonic()
    r = subprocess.run([vma_lib, "netlink", str(spid)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=2 * WAIT)
    say("reply", since(t0), r.returncode, len(r.stdout.splitlines()), r.stderr.strip())


def vma_reader(uid, spid_r):
    """Part 3's reader: as uid, an all-processes get-vma dump once the stuck
    pid comes on spid_r (a pipe)."""
    drop_to(uid)
    c = tdnl.Client()
    say("waiting", os.getpid())
    spid = int(os.read(spid_r, 32).decode())
    t0 = time.monotonic()
    try:
        out = c.vma_request()
        res = ("dump", len(out), os.getpid() in out, spid in out)
    except tdnl.NetlinkError as e:
        res = ("error", errno.errorcode.get(e.errno, e.errno), e.extack)
    say("reply", since(t0), res)


def read_maps(pid):
    with open("/proc/%d/maps" % pid) as f:
        say("maps", len(f.read()))


def children(pid):
    out = []
    for f in glob.glob("/proc/%d/task/*/children" % pid):
        with open(f) as fh:
            out += [int(x) for x in fh.read().split()]
    return out


def read_cmdline(pid):
    t0 = time.monotonic()
    with open("/proc/%d/cmdline" % pid, "rb") as f:
        data = f.read()
    say("cmdline", since(t0), data)


# --- the guest's kernel modules ----------------------------------------------

def module_dir(arg):
    rel = os.uname().release
    bases = [arg] if arg else [os.environ.get("TASK_DIAG_CACHE"), "/root/.cache/task_diag"] + \
        sorted(glob.glob("/home/*/.cache/task_diag"))
    for b in bases:
        d = b and os.path.join(b, "linux-image-" + rel, "lib", "modules", rel)
        if d and os.path.isdir(d):
            return d
    return None


def module_file(mdir, rel):
    for ext in ("", ".xz", ".zst", ".gz"):
        if mdir and os.path.exists(os.path.join(mdir, rel + ext)):
            return os.path.join(mdir, rel + ext)
    return None


GENL_MODULES = [("team", "kernel/drivers/net/team/team.ko"),
                ("macsec", "kernel/drivers/net/macsec.ko"),
                ("psample", "kernel/net/psample/psample.ko"),
                ("nbd", "kernel/drivers/block/nbd.ko")]


def genl_module(mdir, used):
    """A module that registers a generic netlink family of its name and
    needs no other module, not loaded yet: (name, path) or None."""
    for name, rel in GENL_MODULES:
        path = module_file(mdir, rel)
        if name in used or not path or os.path.exists("/sys/module/" + name):
            continue
        deps = subprocess.run(["modinfo", "-F", "depends", path], capture_output=True,
                              text=True).stdout.strip()
        if not deps:
            used.add(name)
            return name, path
    return None


def run_bounded(argv, timeout):
    """(exit status or None if still running after timeout, seconds, Popen)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    while p.poll() is None and time.monotonic() - t0 < timeout:
        time.sleep(0.1)
    return p.returncode, since(t0), p


def setup_fuse(mdir):
    if not os.path.exists("/sys/fs/fuse"):
        ko = module_file(mdir, "kernel/fs/fuse/fuse.ko")
        if not ko:
            raise RuntimeError("fuse is a module of this kernel and fuse.ko was not found "
                               "(module dir %s)" % mdir)
        subprocess.run(["insmod", ko], check=True, timeout=120)
    for _ in range(50):
        if os.path.exists("/dev/fuse"):
            break
        time.sleep(0.1)
    os.chmod("/dev/fuse", 0o666)  # what udev's rule does
    if not os.path.ismount("/sys/fs/fuse/connections"):
        mount("fusectl", "/sys/fs/fuse/connections", "fusectl", 0, None)


def connections():
    return set(os.listdir("/sys/fs/fuse/connections"))


def abort(conn, daemon):
    """Abort the FUSE connection (fusectl), or kill its daemon (the only
    holder of its /dev/fuse descriptor) if fusectl does not list it."""
    if conn:
        with open("/sys/fs/fuse/connections/%s/abort" % conn, "w") as f:
            f.write("1")
        return "fusectl abort of connection %s" % conn
    os.kill(daemon, signal.SIGKILL)
    return "SIGKILL of the daemon"


def daemon_ops(att):
    return [m[1] + (" %r" % m[3].decode() if m[3] else "") for m in att.msgs
            if m[0] == "daemon" and m[1] != "exit"]


# --- the two parts -----------------------------------------------------------

class Part:
    """One attacker (mount, daemon, forked requesters) and what it leaves."""

    def __init__(self, label, mnt, mode):
        self.label, self.mnt = label, mnt
        os.makedirs(mnt, exist_ok=True)
        before = connections()
        self.ctl_r, self.ctl_w = os.pipe()
        self.go_r, self.go_w = os.pipe()
        self.att = Proc("attacker", attacker, mnt, mode, self.ctl_r,
                        [self.ctl_w, self.go_w], self.go_r)
        os.close(self.ctl_r)
        os.close(self.go_r)
        m = self.att.wait_for(WAIT, "mounted")
        if not m or m[0] != "mounted":
            raise RuntimeError("%s: the attacker did not mount: %s" % (label, m))
        self.daemon = m[1]
        new = connections() - before
        self.conn = new.pop() if len(new) == 1 else None
        if not self.conn:
            info("%s: fusectl lists no new connection: the abort kills the daemon" % label)
        self.aborted = None
        self.waiters = []  # (what, Proc or Popen) that may be stuck in the stall

    def fork(self, cmd):
        os.write(self.ctl_w, (cmd + "\n").encode())
        m = self.att.wait_for(WAIT, "forked", cmd)
        if not m or m[0] != "forked":
            raise RuntimeError("%s: the attacker did not fork %s: %s" % (self.label, cmd, m))
        return m[2]

    def abort(self):
        if self.aborted is None:
            self.aborted = time.monotonic()
            info("%s: %s" % (self.label, abort(self.conn, self.daemon)))

    def family_checks(self, mdir, used, while_what):
        """(a) and (b) while the stall lasts."""
        tag = "%s: while %s, " % (self.label, while_what)
        g = Proc("getfamily", getfamily, "nlctrl")
        m = g.wait_for(WAIT, "result")
        check(tag + "(a) GETFAMILY nlctrl answers within %d s" % WAIT,
              bool(m and m[1] == "id"), "no answer: sendmsg or recvmsg still waiting"
              if m is None else "" if m[1] == "id" else str(m))
        self.waiters.append(("GETFAMILY nlctrl (a)", g))
        mod = genl_module(mdir, used)
        if not mod:
            check(tag + "(b) a module with a genl family to load", False,
                  "none of %s found in %s (or already loaded)"
                  % ([n for n, _ in GENL_MODULES], mdir))
            return
        name, path = mod
        rc, took, p = run_bounded(["insmod", path], WAIT)
        self.waiters.append(("insmod " + name, p))
        check(tag + "(b) insmod %s (genl_register_family) completes within %d s"
              % (name, WAIT), rc == 0,
              "still waiting after %.1f s (for cb_lock, for writing)" % took
              if rc is None else "" if rc == 0 else "exit %s: %s" % (rc, p.stdout.read()))
        g2 = Proc("getfamily", getfamily, "nlctrl")
        m = g2.wait_for(WAIT, "result")
        self.waiters.append(("GETFAMILY nlctrl after insmod", g2))
        check(tag + "... and GETFAMILY nlctrl after it answers within %d s" % WAIT,
              bool(m and m[1] == "id"), "no answer (queued behind the insmod?)"
              if m is None else "" if m[1] == "id" else str(m))
        if rc == 0:
            g3 = Proc("getfamily", getfamily, name)
            m = g3.wait_for(WAIT, "result")
            self.waiters.append(("GETFAMILY " + name, g3))
            check(tag + "... GETFAMILY finds the family %s" % name,
                  bool(m and m[1] == "id"), str(m))
            rc2, took, p2 = run_bounded(["rmmod", name], WAIT)
            self.waiters.append(("rmmod " + name, p2))
            check(tag + "... and rmmod %s (genl_unregister_family) completes within %d s"
                  % (name, WAIT), rc2 == 0, "still waiting after %.1f s" % took
                  if rc2 is None else "" if rc2 == 0 else "exit %s" % rc2)

    def finish(self, pids_to_kill=()):
        """Abort, then end what the part started; report what was stuck."""
        self.abort()
        late = []
        for what, w in self.waiters:
            end = self.aborted + RELEASE_WAIT
            if isinstance(w, Proc):
                done = w.reap(max(end - time.monotonic(), 0))
            else:
                while w.poll() is None and time.monotonic() < end:
                    time.sleep(0.1)
                done = w.returncode is not None
            if not done:
                late.append(what)
        for pid in pids_to_kill:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.write(self.ctl_w, b"quit\n")
        except BrokenPipeError:
            pass
        ok = self.att.reap(RELEASE_WAIT + 10)
        if not ok:
            late.append("the attacker and its children")
        check("%s: everything ends once the FUSE connection is aborted" % self.label,
              not late and not self.att.find("children left"), ", ".join(late))
        os.close(self.ctl_w)
        os.close(self.go_w)


def part1(mdir, used):
    p = Part("1", WORK + "/mnt1", "lookup")
    try:
        # procfs-fd: the way round a /proc that cannot be looked up.
        p.fork("procfs-fd")
        m = p.att.wait_for(WAIT, "procfs-fd", "reply", err=("procfs-fd", "error"))
        check("1: in the chroot, a do request with procfs-fd (opened before) gets the "
              "sender's own task", bool(m and m[1] == "reply" and m[3] == ("tasks", 1, True)),
              "no reply within %d s" % WAIT if m is None else str(m[1:]))
        t0 = time.monotonic()
        for kind in ("do", "dump"):
            p.fork(kind)
        replies = {}
        for kind in ("do", "dump"):
            replies[kind] = p.att.wait_for(max(t0 + WAIT - time.monotonic(), 0), kind, "reply",
                                           err=(kind, "error"))
        for kind in ("do", "dump"):
            m = replies[kind]
            if m is None:
                sent = p.att.find(kind, "sending")
                detail = ("sendmsg() did not return within %d s" % WAIT) if sent else \
                    "it did not even send (%s)" % (p.att.find(kind, "error"),)
            elif m[1] == "error":
                detail = m[2]
            else:
                detail = "%s after %.2f s" % (m[3], m[2])
            res = m and m[1] == "reply" and m[3]
            check("1: a %s request from the chroot comes back within %d s with EACCES and "
                  "an extack naming procfs-fd" % (kind, WAIT),
                  bool(res and res[0] == "error" and res[1] == "EACCES"
                       and "procfs-fd" in (res[2] or "")), detail)
        info("1: the daemon got %s" % daemon_ops(p.att))
        p.family_checks(mdir, used, "the chrooted requests are out")
    finally:
        waiting = [k for k in ("do", "dump") if p.att.find(k, "sending")
                   and not p.att.find(k, "reply")]
        p.finish()
        for k in waiting:
            m = p.att.find(k, "reply")
            info("1: the %s request that waited came back after the abort: %s"
                 % (k, m[2:] if m else "never"))


def lowest_free_pid():
    used = set()
    for t in glob.glob("/proc/[0-9]*/task/[0-9]*"):
        used.add(int(t.rsplit("/", 1)[1]))
    p = 2
    while p in used:
        p += 1
    return p


def task_state(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            st = f.read().rsplit(")", 1)[1].split()[0]
        with open("/proc/%d/wchan" % pid) as f:
            return st, f.read()
    except OSError as e:
        return "?", str(e)


def part2(mdir, used, vma_lib):
    p = Part("2", WORK + "/mnt2", "read")
    spid, helpers = None, []
    try:
        # A low pid, so that a dump that fills its first batch reaches it.
        low = lowest_free_pid()
        with open("/proc/sys/kernel/ns_last_pid", "w") as f:
            f.write(str(low - 1))
        p.fork("stall")
        m = p.att.wait_for(WAIT, "S", "ready", err=("stall", "error"))
        if not m or m[1] != "ready":
            raise RuntimeError("the stalled process did not start: %s" % (m,))
        spid = m[2]
        m = p.att.wait_for(WAIT, "daemon", "READ")
        if not m or m[0] != "daemon":
            raise RuntimeError("the daemon got no READ: %s" % daemon_ops(p.att))
        os.write(p.go_w, b"g")
        p.att.wait_for(WAIT, "S", "mmap")
        time.sleep(1)
        st = task_state(spid)
        h = Proc("cmdline", read_cmdline, spid)
        helpers.append(h)
        m = h.wait_for(3, "cmdline")
        check("2: the fixture: pid %d's mmap lock is stuck (its mmap() waits: state %s in %s; "
              "a read of its /proc/PID/cmdline blocks for 3 s)" % (spid, st[0], st[1]),
              m is None and st[0] == "D" and not p.att.find("S", "mmap returned"),
              "cmdline read returned %s" % (m,) if m else "")

        x1 = Proc("x1", x_dump_all, spid)
        xs = {how: Proc("x-" + how, x_task, spid, how) for how in ("dump", "do", "vma")}
        t0 = time.monotonic()
        m1 = x1.wait_for(WAIT, "sent")
        # The do's reply, and the dumps' sendmsg(): their tasks are written
        # in their recvmsg(), which waits for the lock (checked after the abort).
        replies = {how: x.wait_for(max(t0 + WAIT - time.monotonic(), 0),
                                   "reply" if how == "do" else "sent")
                   for how, x in xs.items()}
        p.waiters += [("all-processes dump", x1)] + \
            [("%s of scope task" % how, x) for how, x in xs.items()]
        check("2: the all-processes dump's sendmsg() (its first batch, under cb_lock) "
              "returns within %d s" % WAIT, bool(m1 and m1[0] == "sent"),
              "it did not" if m1 is None else "" if m1[0] == "sent" else str(m1))
        first = x1.wait_for(2, "first")
        if first and first[0] == "first":
            info("2: its first datagram held %d tasks%s" % (
                first[1], ", the stalled one among them" if first[2] else ""))
        names = {"dump": "a dump of scope task", "do": "a do of scope task",
                 "vma": "a get-vma dump of scope task"}
        m = replies["do"]
        check("2: %s for pid %d comes back within %d s" % (names["do"], spid, WAIT),
              bool(m and m[0] == "reply"),
              "sendmsg() still waiting" if m is None else "")
        if m and m[0] == "reply":
            info("2: %s: %s after %.2f s" % (names["do"], m[2], m[1]))
        for how in ("dump", "vma"):
            m = replies[how]
            check("2: %s for pid %d: its sendmsg() (the first batch, under cb_lock, "
                  "which holds no task) returns within %d s" % (names[how], spid, WAIT),
                  bool(m and m[0] == "sent"), "still in sendmsg()" if m is None else str(m))
        p.family_checks(mdir, used, "pid %d's mmap lock is stuck" % spid)
        lv = None
        if vma_lib:
            lv = Proc("lib-vma", lib_vma, vma_lib, spid)
            p.waiters.append(("the library's VMA dump during the stall", lv))
            lv.wait_for(WAIT, "sending")
            time.sleep(1)
        done = x1.find("done")
        info("2: the all-processes dump %s while the stall lasted" % (
            "ended (%s)" % (done[1:],) if done else "was still waiting (in a later batch: "
            "recvmsg, outside cb_lock)" if x1.find("sent") else "was still in sendmsg()"))

        p.abort()
        for how in ("dump", "vma"):
            m = xs[how].wait_for(RELEASE_WAIT, "reply")
            res = m[2] if m and m[0] == "reply" else None
            check("2: once the stall is aborted, %s ends with pid %d in it (its recvmsg() "
                  "waited for the lock)" % (names[how], spid),
                  bool(res and (res.get("vmas") if how == "vma" else res.get("cmdline"))),
                  "still waiting" if m is None else str(m[1:]))
        if lv:
            m = lv.wait_for(RELEASE_WAIT, "reply")
            check("2: the library's VMA dump of pid %d started during the stall gets its "
                  "VMAs once it is aborted" % spid,
                  bool(m and m[0] == "reply" and m[2] == 0 and m[3] > 0),
                  "still waiting" if m is None else str(m[1:]))
        m = x1.wait_for(RELEASE_WAIT, "done")
        check("2: once the stall is aborted, the all-processes dump ends within %d s"
              % RELEASE_WAIT, bool(m and m[0] == "done"), str(m))
        if m and m[0] == "done":
            with open("/proc/%d/cmdline" % spid, "rb") as f:
                want = f.read()
            s = m[4]
            check("2: ... and holds pid %d with the cmdline procfs reads and its mem group "
                  "(datagram %s of %d)" % (spid, m[3], m[2]),
                  bool(s and s.get("cmdline") == want and s.get("mem")),
                  "" if s and s.get("cmdline") == want and s.get("mem") else
                  "got %s, procfs cmdline %r" % (s, want))
        ms = p.att.wait_for(RELEASE_WAIT, "S", "mmap returned")
        info("2: the stalled process: %s; %s" % (
            ms[1:] if ms else "mmap() still waiting",
            [x[1:] for x in p.att.msgs if x[:2] == ("S", "read failed")
             or x[:2] == ("S", "read returned")]))
    finally:
        p.waiters += [("cmdline reader", h) for h in helpers]
        p.finish([spid] if spid else [])
        info("2: the daemon got %s" % sorted(set(daemon_ops(p.att))))


def part3():
    p = Part("3", WORK + "/mnt3", "exec")
    tpid, cpid, helpers = None, None, []
    (r1, w1), (r2, w2) = os.pipe(), os.pipe()
    try:
        before = Proc("3-reader-before", vma_reader, READERS[0], r1)
        helpers.append(before)
        before.wait_for(WAIT, "waiting")
        p.fork("spawn")
        m = p.att.wait_for(WAIT, "S", "spawning", err=("spawn", "error"))
        if not m or m[1] != "spawning":
            raise RuntimeError("the spawning process did not start: %s" % (m,))
        tpid = m[2]
        if not p.att.wait_for(WAIT, "daemon", "READ", 3):
            raise RuntimeError("the daemon got no READ of the program: %s" % daemon_ops(p.att))
        kids = children(tpid)
        if len(kids) != 1:
            raise RuntimeError("pid %d has children %s, not one" % (tpid, kids))
        cpid = kids[0]
        os.write(p.go_w, b"g")
        if not p.att.wait_for(WAIT, "daemon", "READ", 2):
            raise RuntimeError("the daemon got no READ of the file: %s" % daemon_ops(p.att))
        os.write(p.go_w, b"g")
        p.att.wait_for(WAIT, "S", "mmap")
        time.sleep(1)
        p.fork("release")
        time.sleep(1)
        # Not its stat: 7.x's takes exec_update_lock too.
        h = Proc("maps", read_maps, cpid)
        helpers.append(h)
        m = h.wait_for(3, "maps")
        check("3: the fixture: pid %d (a vfork child of pid %d) is stuck in exec (root's "
              "read of its /proc/PID/maps blocks for 3 s)" % (cpid, tpid), m is None,
              "maps read returned %s" % (m,) if m else "")
        after = Proc("3-reader-after", vma_reader, READERS[1], r2)
        helpers.append(after)
        after.wait_for(WAIT, "waiting")
        info("3: readers: pid %d (uid %d) before the stuck pid %d, pid %d (uid %d) after it"
             % (before.pid, READERS[0], cpid, after.pid, READERS[1]))
        os.write(w1, b"%d" % cpid)
        os.write(w2, b"%d" % cpid)
        for what, x in (("started after it", after), ("started before it", before)):
            m = x.wait_for(WAIT, "reply")
            res = m[2] if m and m[0] == "reply" else None
            check("3: another uid's all-processes get-vma dump %s ends within %d s without "
                  "an error, with its own process and without pid %d" % (what, WAIT, cpid),
                  bool(res and res[0] == "dump" and res[2] and not res[3]),
                  "no reply: sendmsg() or recvmsg() waiting" if m is None else
                  "%s after %.2f s" % (res or m, m[1] if res else 0))
            if res:
                info("3: the reader %s: %s after %.2f s"
                     % (what.split(" (")[0], res[:3], m[1]))
    finally:
        for fd in (r1, w1, r2, w2):
            os.close(fd)
        p.waiters += [("part 3's " + h.name, h) for h in helpers]
        p.finish([x for x in (cpid, tpid) if x])
        info("3: the daemon got %s" % sorted(set(daemon_ops(p.att))))


def part4(mdir, used):
    """A do writes its task under cb_lock and holds the task's mm while it
    walks it for mem. If the task exits meanwhile, the do's put is the
    last one, and exit_aio() then waits for the task's direct-I/O read,
    which the FUSE daemon never answers: under cb_lock (the module before
    mmput_async() and the walk's deadline), every family registration and
    generic netlink request behind it wait until the connection is
    aborted. The target is killed 0.2 s after the do is sent."""
    p = Part("4", WORK + "/mnt4", "aio")
    apid = None
    try:
        p.fork("aio")
        m = p.att.wait_for(WAIT, "A", "ready", err=("aio", "error"))
        if not m or m[1] != "ready":
            raise RuntimeError("the AIO target did not start: %s" % (m,))
        apid = m[2]
        m = p.att.wait_for(WAIT, "daemon", "READ")
        check("4: the fixture: pid %d has a direct-I/O read of the FUSE file in flight "
              "(the daemon got its READ)" % apid, bool(m and m[0] == "daemon"), str(m))
        x = Proc("x-aio-do", x_task, apid, "do")
        p.waiters.append(("the do of the AIO target", x))
        x.wait_for(WAIT, "sending")
        time.sleep(0.2)
        os.kill(apid, signal.SIGKILL)
        info("4: pid %d killed 0.2 s after the do was sent" % apid)
        p.family_checks(mdir, used, "pid %d exited with a direct-I/O read in flight" % apid)
        m = x.wait_for(WAIT, "reply")
        check("4: the do of pid %d comes back within %d s" % (apid, WAIT),
              bool(m and m[0] == "reply"), "still waiting" if m is None else str(m))
    finally:
        p.finish([apid] if apid else [])


def main(argv):
    if os.environ.get("TDVM") != "1" or os.geteuid() != 0:
        print("FAIL setup: this test mounts FUSE file systems and loads modules: run it as "
              "root in the guest (scripts/vm-run)")
        return 1
    cache = argv[argv.index("--cache") + 1] if "--cache" in argv else None
    vma_lib = argv[argv.index("--vma-lib") + 1] if "--vma-lib" in argv else None
    mdir = module_dir(cache)
    info("kernel %s, modules from %s" % (os.uname().release, mdir))
    used = set()
    try:
        setup_fuse(mdir)
        parts = os.environ.get("TD_FUSE_PARTS", "1234")
        if "1" in parts:
            part1(mdir, used)
        if "2" in parts:
            part2(mdir, used, vma_lib)
        if "3" in parts:
            part3()
        if "4" in parts:
            part4(mdir, used)
    except Exception as e:
        check("setup", False, "%s: %s" % (type(e).__name__, e))
    finally:
        # Whatever is left: abort every FUSE connection, end our children.
        for c in (connections() if os.path.isdir("/sys/fs/fuse/connections") else []):
            try:
                abort(c, None)
            except OSError:
                pass
        for pr in list(Proc.live):
            pr.kill()
            if not pr.reap(10):
                check("cleanup", False, "%s (pid %d) did not end" % (pr.name, pr.pid))
    failed = tally("fuse_stall")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
