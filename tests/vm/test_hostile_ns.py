#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An unprivileged user cannot see past hidepid= with pid and user namespaces.

Runs in the guest as root. Root mounts /proc with hidepid=invisible (2) in
a private mount namespace and runs sleep processes of its own; each case
then works as an unprivileged user (uid 65534 or 1000) in forked children.
The oracle is procfs itself: the procfs instance that decides a request's
view (the one at /proc, or the one procfs-fd names) lists some pids, and a
dump must list exactly those, by the numbers that instance gives them. A
difference is a bug: a task the instance does not list is one the user may
not know of, and a number of another namespace names another task.

- a. The bypass: the user makes a user, mount and pid namespace, its pid 1
  mounts a procfs without hidepid= over /proc, and the user (whose own pid
  namespace is still the outer one) dumps, without and with procfs-fd of
  that mount. The instance lists only the new namespace's tasks (its init,
  which leads a session, and two sleeps); the dump must list those and no
  host task (root's sleeps), each with the tgid, comm, ppid, pgid, sid and
  NSpid the instance's /proc/PID/stat and status show (init: pid 1, ppid 0).
  A module that walked the sender's pid namespace with the options of the
  new instance showed every host task. With procfs-fd of the host hidepid=2
  instance, opened before, the same user still sees only its own processes.
- b. A rootless container: procfs-fd of /proc/INIT/root/proc, the
  container's own procfs seen from the host, lists the container's tasks by
  the container's numbers (as a), while the user's /proc is hidepid=2;
  without procfs-fd, what that hidepid=2 /proc lists. Once the container
  has stopped, procfs-fd of its procfs (still open) lists nothing.
- c. procfs-fd must be the root directory of a procfs: /proc/self/stat,
  /proc/self, /proc/1, /proc/sys and a non-procfs directory are refused
  (EINVAL, with a message); the /proc root directory is accepted.
- d. An instance of an ancestor pid namespace (the host /proc, seen from a
  child pid namespace, at /proc or by procfs-fd) is refused with EXDEV and
  a message: it lists tasks the sender's namespace does not hold. Its own
  procfs, mounted then, works. As root and as a user in a user namespace.
- e. A dump (get with base, status and cmdline; get-vma) read by pid 1 of
  a child pid namespace (the socket inherited over fork, or passed with
  SCM_RIGHTS; as root, and as a user in a user namespace) must not give it
  host tasks: the batches written in its recvmsg() are refused (EPERM with
  a message), after the first datagram, written in the sender's sendmsg()
  (at most one task: the module writes no more under cb_lock). The control:
  the sender reading in its own namespace gets the whole dump, in three
  datagrams or more (so a later batch exists to refuse even if the first
  batch were full).
- f. ptrace_cap_only=1 withholds guarded fields (io, stat's addresses,
  wchan, exit code) and nothing else: under hidepid=2 the user's dump
  lists exactly the processes its /proc lists (its own), without guarded
  fields; with ptrace_cap_only=0, its own sleeps have them.
"""
import ctypes
import errno
import os
import socket
import struct
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
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x20000, 0x10000000, 0x20000000
MS_REC, MS_PRIVATE = 0x4000, 1 << 18
PR_SET_DUMPABLE, PR_SET_NAME = 4, 15
PARAM = "/sys/module/task_diag/parameters/ptrace_cap_only"
GUARDED_STAT = ("start_code", "end_code", "start_stack", "kstk_esp", "kstk_eip", "wchan",
                "start_data", "end_data", "start_brk", "arg_start", "arg_end", "env_start",
                "env_end", "exit_code")
BASE = tdnl.SHOW["base"]
BIG = tdnl.SHOW["base"] | tdnl.SHOW["status"] | tdnl.SHOW["cmdline"]
# e's buffer: its size is that of the batches after the first, the minimum
# the module asks for status and cmdline (12 KiB): about 30 tasks a batch.
E_RCVBUF = 12288
IDS = tdnl.SHOW["base"] | tdnl.SHOW["status"]
ALL = tdnl.SCOPE["all_processes"]
NS_INIT = "td-hostile-init"   # comm of the inits of the namespaces made here
libc = ctypes.CDLL(None, use_errno=True)


def is_error(res):
    """An in_child() result that is an exception's report."""
    return isinstance(res, tuple) and len(res) == 2 and res[0] == "error"


def note(text):
    print("# " + text)


def oserr(what):
    e = ctypes.get_errno()
    return OSError(e, "%s: %s" % (what, os.strerror(e)))


def mount(src, target, fstype, flags, data):
    if libc.mount(src.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                  data.encode() if data else None) != 0:
        raise oserr("mount %s on %s" % (fstype, target))


def unshare(flags):
    if libc.unshare(flags) != 0:
        raise oserr("unshare(%#x)" % flags)


def private_proc(options):
    """A new mount namespace with a procfs of these options at /proc."""
    unshare(CLONE_NEWNS)
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    mount("proc", "/proc", "proc", 0, options)


def become(uid):
    """Drop to uid; dumpable again (setresuid() cleared it), as a login
    process is: its /proc/self files are its own (uid_map can be written),
    and the children it forks are ptrace-readable (listed by hidepid=2)."""
    drop_to(uid)
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)


def map_ids(uid):
    """After unshare(CLONE_NEWUSER): be root inside, uid outside."""
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write("0 %d 1" % uid)
    with open("/proc/self/gid_map", "w") as f:
        f.write("0 %d 1" % uid)


def listing(proc):
    return {int(n) for n in os.listdir(proc) if n.isdigit()}


def comm_of(proc, pid):
    try:
        with open("%s/%d/comm" % (proc, pid)) as f:
            return f.read().strip()
    except OSError:
        return None


def summary(tasks):
    """{pid: (tgid, comm, ppid, pgid, sid, NSpid)} of dumped tasks, as the
    base and status groups give them (None where a group is absent)."""
    out = {}
    for t in tasks:
        b, st = t.get("base", {}), t.get("status", {})
        ns = st.get("ns_pid")
        out[t["pid"]] = (t["tgid"], b.get("comm"), b.get("ppid"), b.get("pgid"), b.get("sid"),
                         struct.unpack("=%dI" % (len(ns) // 4), ns) if ns is not None else None)
    return out


def procfs_ids(proc, pid):
    """(tgid, comm, ppid, pgid, sid, NSpid) of pid as the instance at proc
    shows them in /proc/PID/stat and status; None if it is gone."""
    try:
        with open("%s/%d/stat" % (proc, pid)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("%s/%d/status" % (proc, pid)) as f:
            status = dict(line.split(":", 1) for line in f.read().splitlines() if ":" in line)
    except OSError:
        return None
    return (int(status["Tgid"]), status["Name"].strip(), int(fields[1]), int(fields[2]),
            int(fields[3]), tuple(int(n) for n in status["NSpid"].split()))


def outcome(fn):
    """("ok", result) or ("err", errno, extack) of a request."""
    try:
        return ("ok", fn())
    except tdnl.NetlinkError as e:
        return ("err", e.errno, e.extack)


def wait_exec(pids, proc="/proc", comm="sleep", timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if all(comm_of(proc, p) == comm for p in pids):
            return
        time.sleep(0.1)
    raise RuntimeError("%s did not exec %s within %d s" % (pids, comm, timeout))


def ns_init(ready_w, hold_r):
    """Body of pid 1 of a new pid namespace (never returns): lead a session,
    mount this namespace's procfs on /proc (no hidepid=), start two sleeps, say ready
    and stay until hold_r reaches EOF (the holder exited or let go)."""
    try:
        libc.prctl(PR_SET_NAME, NS_INIT.encode(), 0, 0, 0)
        if os.getpid() != 1:
            raise RuntimeError("ns init is pid %d" % os.getpid())
        os.setsid()  # session and group 1 here, its host pid outside
        mount("none", "/", None, MS_REC | MS_PRIVATE, None)
        mount("proc", "/proc", "proc", 0, None)
        kids = [subprocess.Popen(["sleep", "1000"]) for _ in range(2)]
        wait_exec([k.pid for k in kids])
        os.write(ready_w, b"ready\n")
        os.read(hold_r, 1)
    except Exception as e:  # noqa: BLE001 - reported to the holder
        os.write(ready_w, ("error %s: %s\n" % (type(e).__name__, e)).encode())
    os._exit(0)


def read_lines(fd, want):
    """Lines from a pipe until every prefix in want was seen, or an error."""
    got, buf = {}, b""
    with os.fdopen(fd, "rb", buffering=0) as f:
        while not all(w in got for w in want):
            chunk = f.read(4096)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                word, _, rest = line.decode().partition(" ")
                if word == "error":
                    raise RuntimeError("namespace init: " + rest)
                got[word] = rest
    missing = [w for w in want if w not in got]
    if missing:
        raise RuntimeError("namespace init said nothing of %s" % missing)
    return got


def ns_view(proc, tasks_before, dumped, after):
    """What a case returns about one dump against one procfs instance."""
    return {"before": sorted(tasks_before), "after": sorted(after), "dumped": dumped,
            "procfs": {p: procfs_ids(proc, p) for p in sorted(tasks_before | after)}}


# a. The bypass.
def case_bypass(uid):
    private_proc("hidepid=2")
    become(uid)
    host_fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)  # the hidepid=2 instance
    unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID)
    map_ids(uid)
    ready_r, ready_w = os.pipe()
    hold_r, hold_w = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(ready_r)
        os.close(hold_w)
        ns_init(ready_w, hold_r)
    os.close(ready_w)
    os.close(hold_r)
    try:
        read_lines(ready_r, ["ready"])
        c = tdnl.Client()
        out = {"init_host_pid": init}
        # (i) no attribute: the procfs at /proc, now the new namespace's
        before = listing("/proc")
        res = outcome(lambda: summary(c.request(scope=ALL, show=IDS)))
        out["i"] = ns_view("/proc", before, res, listing("/proc"))
        # (ii) procfs-fd of that mount
        fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
        before = listing("/proc")
        res = outcome(lambda: summary(c.request(scope=ALL, show=IDS, procfs_fd=fd)))
        out["ii"] = ns_view("/proc", before, res, listing("/proc"))
        # (iii) procfs-fd of the host's hidepid=2 instance, opened before
        before = listing(host_fd)
        res = outcome(lambda: summary(c.request(scope=ALL, show=BASE, procfs_fd=host_fd)))
        out["iii"] = {"before": sorted(before), "after": sorted(listing(host_fd)),
                      "dumped": res}
        return out
    finally:
        os.close(hold_w)
        os.waitpid(init, 0)


# b. Rootless container.
def case_container(uid):
    private_proc("hidepid=2")
    become(uid)
    ready_r, ready_w = os.pipe()
    hold_r, hold_w = os.pipe()
    launcher = os.fork()
    if launcher == 0:  # as a rootless runtime would
        try:
            os.close(ready_r)
            os.close(hold_w)
            unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID)
            map_ids(uid)
            init = os.fork()
            if init == 0:
                ns_init(ready_w, hold_r)
            os.write(ready_w, b"init %d\n" % init)
            os.close(ready_w)
            os.waitpid(init, 0)
        except Exception as e:  # noqa: BLE001
            os.write(ready_w, ("error %s: %s\n" % (type(e).__name__, e)).encode())
        os._exit(0)
    os.close(ready_w)
    os.close(hold_r)
    try:
        init = int(read_lines(ready_r, ["init", "ready"])["init"])
        path = "/proc/%d/root/proc" % init
        fd = os.open(path, os.O_PATH | os.O_DIRECTORY)
        c = tdnl.Client()
        before = listing(path)
        res = outcome(lambda: summary(c.request(scope=ALL, show=IDS, procfs_fd=fd)))
        out = {"init_host_pid": init, "ctr": ns_view(path, before, res, listing(path))}
        # control: no procfs-fd, the user's own hidepid=2 /proc
        before = listing("/proc")
        res = outcome(lambda: summary(c.request(scope=ALL, show=BASE)))
        out["own"] = {"before": sorted(before), "after": sorted(listing("/proc")),
                      "dumped": res}
        # The container stops; its procfs lives on in descriptors of it.
        rd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        os.close(hold_w)
        hold_w = None
        os.waitpid(launcher, 0)
        launcher = None
        res = outcome(lambda: sorted(t["pid"] for t in c.request(scope=ALL, show=IDS,
                                                                 procfs_fd=fd)))
        out["dead"] = (res, sorted(listing(rd)))
        return out
    finally:
        if hold_w is not None:
            os.close(hold_w)
        if launcher is not None:
            os.waitpid(launcher, 0)


def judge_ns(name, v, root_sleeps, host_pids):
    """a and b: the dump lists what the namespace's procfs lists, by its
    numbers: its init (pid 1, ppid 0, our comm) and two sleeps (ppid 1)."""
    res = v["dumped"]
    if res[0] != "ok":
        check(name, False, "refused: %s" % (res[1:],))
        return
    got = res[1]
    pids = set(got)
    before, after = set(v["before"]), set(v["after"])
    leaked = sorted(pids & set(root_sleeps))
    bad = []
    if not before & after <= pids <= before | after:
        bad.append("dumped %d pids %s, the instance lists %s" % (
            len(pids), sorted(pids)[:20], sorted(before | after)))
    if leaked:
        bad.append("root's sleeps %s dumped" % leaked)
    if sorted(pids) != [1, 2, 3] and not bad:
        bad.append("pids %s, want the init and its two sleeps (1, 2, 3)" % sorted(pids))
    for pid, ids in sorted(got.items()):
        want = v["procfs"].get(pid)
        if pid in before | after and want is None:
            bad.append("pid %d: the instance's stat or status could not be read" % pid)
            break
        if want is not None and ids != want:
            bad.append("pid %d: (tgid, comm, ppid, pgid, sid, NSpid) %s, the instance's "
                       "stat and status say %s" % (pid, ids, want))
            break
    if 1 in got and got[1][1:3] != (NS_INIT, 0):
        bad.append("pid 1 is %s, want %s with ppid 0" % (got[1][1:3], NS_INIT))
    if any(p in pids for p in host_pids if p > 3):
        bad.append("host numbers %s dumped" % sorted(pids & set(host_pids)))
    check(name, not bad, "; ".join(bad))
    note("%s: dumped %d tasks: %s" % (name.split(" ", 1)[0], len(got),
                                      sorted(got.items())[:6]))


# c. procfs-fd that is not a procfs root.
def case_not_root(uid):
    become(uid)
    c = tdnl.Client()
    out = {}
    for what, path, flags in (
            ("/proc/self/stat", "/proc/self/stat", os.O_RDONLY),
            ("/proc/self (directory)", "/proc/self", os.O_RDONLY | os.O_DIRECTORY),
            ("/proc/self (O_PATH of the symlink)", "/proc/self", os.O_PATH | os.O_NOFOLLOW),
            ("/proc/1", "/proc/1", os.O_RDONLY | os.O_DIRECTORY),
            ("/proc/sys", "/proc/sys", os.O_RDONLY | os.O_DIRECTORY),
            ("/tmp (not a procfs)", "/tmp", os.O_RDONLY | os.O_DIRECTORY)):
        fd = os.open(path, flags)
        res = outcome(lambda: len(c.request(scope=ALL, show=BASE, procfs_fd=fd)))
        os.close(fd)
        out[what] = res
    for what, flags in (("/proc (O_RDONLY)", os.O_RDONLY | os.O_DIRECTORY),
                        ("/proc (O_PATH)", os.O_PATH | os.O_DIRECTORY)):
        fd = os.open("/proc", flags)
        before = listing("/proc")
        res = outcome(lambda: sorted(t["pid"] for t in c.request(scope=ALL, show=BASE,
                                                                 procfs_fd=fd)))
        out[what] = (res, sorted(before), sorted(listing("/proc")))
        os.close(fd)
    return out


# d. An ancestor's instance.
def case_ancestor(uid):
    """In a child pid namespace (and a user namespace when uid): the host
    procfs at /proc and by procfs-fd; then its own procfs."""
    if uid:
        become(uid)
    host_fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
    unshare(CLONE_NEWPID | (CLONE_NEWUSER if uid else 0))
    if uid:
        map_ids(uid)

    def inner():
        c = tdnl.Client()
        out = {"pid": os.getpid()}
        out["at /proc"] = outcome(lambda: len(c.request(scope=ALL, show=BASE)))
        out["procfs-fd"] = outcome(lambda: len(c.request(scope=ALL, show=BASE,
                                                         procfs_fd=host_fd)))
        out["do, at /proc"] = outcome(lambda: len(c.request(scope=tdnl.SCOPE["task"], pid=1,
                                                            show=BASE, dump=False)))
        unshare(CLONE_NEWNS)
        mount("none", "/", None, MS_REC | MS_PRIVATE, None)
        mount("proc", "/proc", "proc", 0, None)
        before = listing("/proc")
        res = outcome(lambda: sorted(t["pid"] for t in c.request(scope=ALL, show=BASE)))
        out["own"] = (res, sorted(before), sorted(listing("/proc")))
        out["procfs-fd, own at /proc"] = outcome(
            lambda: len(c.request(scope=ALL, show=BASE, procfs_fd=host_fd)))
        return out
    return in_child(inner)


# e. A socket read from a child pid namespace.
def read_all(c, seq):
    """Per datagram, the number of messages of the dump; then the error
    that ended it (errno, extack), or None."""
    counts = []
    try:
        while True:
            msgs, end = c.read_datagram(seq)
            counts.append(len(msgs))
            if end:
                return counts, None
    except tdnl.NetlinkError as e:
        return counts, (e.errno, e.extack)


def send(c, vma):
    if vma:
        return c.send_vma_request(scope=ALL)
    return c.send_request(scope=ALL, show=BIG)


def case_inherit(uid, vma):
    """Sender in the host pid namespace; its child in a new one reads."""
    if uid:
        become(uid)
    c = tdnl.Client(rcvbuf=E_RCVBUF)
    c.sock.settimeout(120)
    seq = send(c, vma)
    unshare(CLONE_NEWPID | (CLONE_NEWUSER if uid else 0))
    if uid:
        map_ids(uid)
    return in_child(lambda: (os.getpid(), read_all(c, seq)))


def case_scm(uid, vma):
    """The reader is pid 1 of a pid namespace made beforehand (a container);
    the sender, outside, sends the request and hands the socket over."""
    if uid:
        become(uid)
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    launcher = os.fork()
    if launcher == 0:
        a.close()
        try:
            unshare(CLONE_NEWPID | (CLONE_NEWUSER if uid else 0))
            if uid:
                map_ids(uid)
            reader = os.fork()
            if reader == 0:
                try:
                    msg, fds, _, _ = socket.recv_fds(b, 64, 1)
                    c = tdnl.Client.__new__(tdnl.Client)  # around the received socket
                    c.sock = socket.socket(fileno=fds[0])
                    c.sock.settimeout(120)
                    c.rcvbuf, c.datagrams, c.max_datagram = E_RCVBUF, 0, 0
                    out = (os.getpid(), read_all(c, int(msg.decode())))
                except Exception as e:  # noqa: BLE001
                    out = ("error", "%s: %s" % (type(e).__name__, e))
                b.sendall(repr(out).encode())
                os._exit(0)
            os.waitpid(reader, 0)
        finally:
            os._exit(0)
    b.close()
    c = tdnl.Client(rcvbuf=E_RCVBUF)
    seq = send(c, vma)
    socket.send_fds(a, [str(seq).encode()], [c.sock.fileno()])
    c.close()
    data = b""
    a.settimeout(180)
    while True:
        chunk = a.recv(65536)
        if not chunk:
            break
        data += chunk
    os.waitpid(launcher, 0)
    return eval(data.decode())


def case_own_reader(vma):
    """Control: the sender reads its own dump, in its own namespace."""
    c = tdnl.Client(rcvbuf=E_RCVBUF)
    before = listing("/proc")
    seq = send(c, vma)
    counts, err = read_all(c, seq)
    return counts, err, len(before)


def judge_reader(name, res):
    if is_error(res):
        check(name, False, res[1])
        return
    pid, (counts, err) = res
    later = sum(counts[1:])
    ok = pid == 1 and counts[:1] <= [1] and later == 0 and err is not None and \
        err[0] == errno.EPERM and bool(err[1])
    check(name, ok, "reader pid %d, messages per datagram %s, ended by %s" % (
        pid, counts[:10] + (["..."] if len(counts) > 10 else []), err))


# f. ptrace_cap_only.
def set_cap_only(val):
    with open(PARAM, "w") as f:
        f.write(val)


def case_cap_only(uid):
    private_proc("hidepid=2")
    become(uid)
    c = tdnl.Client()
    before = listing("/proc")
    tasks = c.request(scope=ALL, show=BASE | tdnl.SHOW["stat"] | tdnl.SHOW["io"])
    after = listing("/proc")
    got = {t["pid"]: ("io" in t, sorted(k for k in t.get("stat", {}) if k in GUARDED_STAT))
           for t in tasks}
    return sorted(before), sorted(after), got, os.getpid()


def judge_cap_only(name, res, cap_only, own, root_sleeps):
    if is_error(res):
        check(name, False, res[1])
        return
    before, after, got, me = res
    before, after, pids = set(before), set(after), set(got)
    bad = []
    if not before & after <= pids <= before | after:
        bad.append("dumped %s, its /proc lists %s" % (sorted(pids), sorted(before | after)))
    if not set(own) | {me} <= pids:
        bad.append("own processes %s missing" % sorted((set(own) | {me}) - pids))
    if pids & set(root_sleeps):
        bad.append("root's sleeps %s dumped" % sorted(pids & set(root_sleeps)))
    if cap_only:
        leaks = {p: g for p, g in got.items() if g[0] or g[1]}
        if leaks:
            bad.append("guarded fields with ptrace_cap_only=1: %s" % leaks)
    else:
        for p in own:
            if p in got and (not got[p][0] or "start_code" not in got[p][1]):
                bad.append("own sleep %d: io %s, guarded stat %s" % (p, got[p][0], got[p][1]))
    check(name, not bad, "; ".join(bad))


def main():
    clone = "/proc/sys/kernel/unprivileged_userns_clone"
    if os.path.exists(clone):
        val = open(clone).read().strip()
        note("%s = %s" % (clone, val))
        if val != "1":
            with open(clone, "w") as f:  # a throwaway guest
                f.write("1")
    procs = []
    for uid in (0, OTHER):
        procs += [subprocess.Popen(["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid,
                                    "--clear-groups", "sleep", "1000"]) for _ in range(3)]
    # More root tasks, for e's dumps to need several batches (and more to hide)
    procs += [subprocess.Popen(["sleep", "1000"]) for _ in range(30)]
    try:
        wait_exec([p.pid for p in procs])
    except RuntimeError as e:
        print("FAIL: fixtures: %s" % e)
        return 1
    root_sleeps = [p.pid for p in procs[:3] + procs[6:]]
    other_sleeps = [p.pid for p in procs[3:6]]
    cap_only_was = open(PARAM).read().strip()
    host_pids = sorted(listing("/proc"))
    note("root's sleeps %s, uid %d's %s, %d host pids" % (root_sleeps, OTHER, other_sleeps,
                                                          len(host_pids)))
    try:
        # a.
        res = in_child(lambda: case_bypass(NOBODY))
        if is_error(res):
            check("a. the bypass: setup", False, res[1])
        else:
            hp = host_pids + [res["init_host_pid"]]
            judge_ns("a(i). user+mount+pid namespace, its procfs without hidepid= at /proc: "
                     "the dump lists what that procfs lists (its init is 1), no host task",
                     res["i"], root_sleeps, hp)
            judge_ns("a(ii). the same, procfs-fd of that mount", res["ii"], root_sleeps, hp)
            v = res["iii"]
            ok = v["dumped"][0] == "ok" and \
                set(v["before"]) & set(v["after"]) <= set(v["dumped"][1]) <= \
                set(v["before"]) | set(v["after"]) and \
                not set(v["dumped"][1]) & set(root_sleeps)
            check("a(iii). the same user, procfs-fd of the host hidepid=2 instance: what it "
                  "lists (own processes), no root sleep", ok,
                  "" if ok else "dumped %s, listed %s" % (
                      sorted(v["dumped"][1]) if v["dumped"][0] == "ok" else v["dumped"],
                      sorted(set(v["before"]) | set(v["after"]))))

        # b.
        res = in_child(lambda: case_container(OTHER))
        if is_error(res):
            check("b. rootless container: setup", False, res[1])
        else:
            judge_ns("b. rootless container, procfs-fd of /proc/INIT/root/proc: its tasks "
                     "by its numbers (init 1), no host task", res["ctr"], root_sleeps,
                     host_pids + [res["init_host_pid"]])
            v = res["own"]
            d = set(v["dumped"][1]) if v["dumped"][0] == "ok" else set()
            ok = v["dumped"][0] == "ok" and set(v["before"]) & set(v["after"]) <= d <= \
                set(v["before"]) | set(v["after"]) and not d & set(root_sleeps) and \
                res["init_host_pid"] in d and set(other_sleeps) <= d
            check("b. control: the same user without procfs-fd: its hidepid=2 /proc's list "
                  "(own sleeps, the container's init by its host pid)", ok,
                  "" if ok else "dumped %s, listed %s" % (v["dumped"], v["before"]))
            res_dead, listed = res["dead"]
            check("b. the container stopped: procfs-fd of its procfs lists nothing, as "
                  "that procfs does", res_dead == ("ok", []) and listed == [],
                  "dump %s, listed %s" % (res_dead, listed))

        # c.
        res = in_child(lambda: case_not_root(NOBODY))
        if is_error(res):
            check("c. procfs-fd not a procfs root", False, res[1])
        else:
            for what, r in res.items():
                if what.startswith("/proc ("):
                    (out, before, after) = r
                    ok = out[0] == "ok" and set(before) & set(after) <= set(out[1]) <= \
                        set(before) | set(after)
                    check("c. procfs-fd of %s: accepted, what it lists" % what, ok,
                          "" if ok else "%s, listed %s" % (out, before))
                else:
                    ok = r[0] == "err" and r[1] == errno.EINVAL and bool(r[2])
                    check("c. procfs-fd of %s: EINVAL with a message" % what, ok,
                          str(r) if r[0] == "err" else "accepted: %d tasks" % r[1])

        # d.
        for who, uid in (("root", 0), ("uid %d in a user namespace" % NOBODY, NOBODY)):
            res = in_child(lambda: case_ancestor(uid))
            if is_error(res):
                check("d. %s: an ancestor's instance" % who, False, res[1])
                continue
            for what in ("at /proc", "procfs-fd", "do, at /proc", "procfs-fd, own at /proc"):
                r = res[what]
                ok = r[0] == "err" and r[1] == errno.EXDEV and bool(r[2])
                check("d. %s, pid %d of a child pid namespace, the host procfs %s: EXDEV with "
                      "a message" % (who, res["pid"], what), ok,
                      str(r) if r[0] == "err" else "accepted: %s tasks" % r[1])
            out, before, after = res["own"]
            ok = out[0] == "ok" and set(before) & set(after) <= set(out[1]) <= \
                set(before) | set(after) and 1 in out[1]
            check("d. %s: its own procfs mounted at /proc: what it lists" % who, ok,
                  "%s, listed %s" % (out, before))

        # e.
        for vma in (False, True):
            kind = "get-vma" if vma else "get (base, status, cmdline)"
            counts, err, nlisted = case_own_reader(vma)
            ntasks = sum(counts)
            ok = err is None and len([n for n in counts if n]) >= 3 and \
                (vma or abs(ntasks - nlisted) <= 2)
            check("e. control, %s: the sender reads the whole dump in its namespace, "
                  "in 3 datagrams or more" % kind,
                  ok, "%d messages in datagrams of %s, %d pids listed, error %s" % (
                      ntasks, counts, nlisted, err))
            for who, uid in (("root", 0), ("uid %d" % NOBODY, NOBODY)):
                judge_reader("e. %s, %s: the socket inherited by pid 1 of a child pid "
                             "namespace: the batches its recvmsg() writes are EPERM"
                             % (kind, who), in_child(lambda: case_inherit(uid, vma)))
                judge_reader("e. %s, %s: the socket passed with SCM_RIGHTS to pid 1 of a "
                             "child pid namespace: EPERM" % (kind, who),
                             in_child(lambda: case_scm(uid, vma)))

        # f.
        for val in ("1", "0"):
            try:
                set_cap_only(val)
            except OSError as e:
                check("f. set ptrace_cap_only=%s" % val, False, str(e))
                continue
            judge_cap_only("f. ptrace_cap_only=%s, /proc hidepid=2, uid %d: the dump lists "
                           "what its /proc lists (its own processes), %s"
                           % (val, OTHER, "no guarded field" if val == "1" else
                              "its sleeps with io and guarded stat fields"),
                           in_child(lambda: case_cap_only(OTHER)), val == "1", other_sleeps,
                           root_sleeps)
    finally:
        try:
            set_cap_only(cap_only_was)
        except OSError:
            pass
        for p in procs:
            p.kill()
            p.wait()
    failed = tally("hostile_ns")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
