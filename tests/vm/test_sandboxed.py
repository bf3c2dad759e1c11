#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A sandboxed reader gets no more than its /proc gives it (nnp_cap_only).

procfs guards /proc/PID/io, stat's guarded fields, maps and mem with
ptrace_may_access(PTRACE_MODE_READ_FSCREDS), and that runs the LSM hooks:
Landlock refuses a process in a domain the processes outside it, though
they are its own user's. The module cannot call the hook; with
nnp_cap_only (the default) a party with no_new_privs, which an
unprivileged process needs to enter a Landlock domain (or to install a
seccomp filter), gets the guarded data of processes outside its own thread
group only with CAP_SYS_PTRACE.

Runs in the guest as root; 20 sleeps of uid 1000 are the fixture, and each
case is a forked child that drops to uid 1000 (unless it says root). The
oracle is procfs read by the same process around the dump: /proc/PID/io
(readable or EACCES), /proc/PID/stat (start_code 1 when its guarded fields
are withheld) and /proc/PID/maps, and with hidepid=invisible the listing
of /proc. The cases:

1. control, no sandbox: procfs gives the 20 sleeps' io; the module sends
   io, the guarded stat fields, maps (get-vma) and the mem group of all 20,
   values equal to procfs's (the sleeps are idle, so their io and stat
   addresses do not move; the child reads procfs before and after);
2. Landlock (no_new_privs + landlock_restrict_self): procfs refuses io and
   maps of the 20 and hides stat's guarded fields; the module sends the
   unguarded data of all 20 and the guarded data (io, guarded stat, maps,
   mem) of none, a get-vma of one of them is EACCES as its maps is; the
   process's own pid and its own threads keep everything, as /proc/self;
3. no_new_privs alone: procfs still gives io (no LSM confines it) but the
   module withholds it (documented: it cannot tell this from a Landlock
   domain); a reader without no_new_privs is the control, case 1;
4. nnp_cap_only=0 (written to sysfs before the fork): the Landlocked
   process gets io and guarded stat of all 20 again while its /proc
   refuses them: the documented opt-out, and the old behaviour;
5. a reader that enters the domain after sending: the datagrams written
   in its recvmsg() after that carry no guarded data of any process but
   its own, while the same reading without the domain carries the 20's;
6. hidepid=invisible (a private mount namespace): the dump lists exactly
   what the reader's /proc lists, the 20 sleeps in both without the
   domain, in neither with it (Landlock hides them from the listing);
7. root (CAP_SYS_PTRACE) with no_new_privs: everything, as its procfs.

9. a Landlock domain whose file rules refuse /proc (its ls /proc and cat
   /proc/1/cmdline say EACCES): a get dump, a get-vma dump and one with an
   O_PATH procfs-fd (which Landlock does not check) are refused with
   EACCES naming procfs-fd, and libtaskdiag's dump (--lib) lists no other
   process; the control, a domain that lets it read /proc, lists them
   through procfs-fd (opened for reading, as the library and tdnl open it
   for a sender with no_new_privs).

Lines starting "note" are the module's known limits, printed and not
counted: a Landlocked root (CAP_SYS_PTRACE), and a process a privileged
parent put in a domain without no_new_privs, get what procfs refuses them;
a child of a Landlocked process is in its domain, listed by its /proc under
hidepid=invisible, and hidden by the module.

Built into the kernel (scripts/in-tree-kernel: no task_diag in
/proc/modules), task_diag asks the LSM hook itself, so every case is
procfs's answer exactly: no nnp_cap_only parameter; case 3 sends the
guarded data procfs gives; case 4 is not made; the three known limits are
checked like the other cases (a Landlocked root: io and guarded stat
refused, maps and mem given, as mm_access() admits perfmon_capable(); a
domain without no_new_privs: refused; the child: listed and dumped). On both,
8. ptrace_cap_only=1: uid 1000 without a sandbox gets no guarded data of
   any process, nor io and guarded stat of its own (documented stricter
   than procfs); maps and mem of its own mm, as mm_access() allows. Built
   in, a Landlocked root (CAP_SYS_PTRACE) still gets no io, as its procfs.
"""
import ctypes
import errno
import os
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to as _drop_to, in_child  # noqa: E402
from tdlib import Request  # noqa: E402

USER = 1000
NSLEEP = 20
PARAM = "/sys/module/task_diag/parameters/nnp_cap_only"
CAP_ONLY = "/sys/module/task_diag/parameters/ptrace_cap_only"
# Built in: procfs's own check, LSM hook included (see above).
IN_TREE = tdnl.built_in()
SMALL = 4096  # keeps a dump's datagrams to a few tasks each
SHOW = tdnl.SHOW["base"] | tdnl.SHOW["stat"] | tdnl.SHOW["io"]
# The guarded stat fields the module fills (kstk_esp and kstk_eip never are),
# and their field numbers in /proc/PID/stat (proc(5), 1-based).
STAT_FIELD = {"start_code": 26, "end_code": 27, "start_stack": 28, "wchan": 35,
              "start_data": 45, "end_data": 46, "start_brk": 47, "arg_start": 48,
              "arg_end": 49, "env_start": 50, "env_end": 51, "exit_code": 52}
GUARDED_STAT = tuple(STAT_FIELD) + ("kstk_esp", "kstk_eip")
IO_KEYS = ("rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes",
           "cancelled_write_bytes")

SYS_landlock_create_ruleset, SYS_landlock_add_rule, SYS_landlock_restrict_self = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
LANDLOCK_ACCESS_FS_READ_FILE, LANDLOCK_ACCESS_FS_READ_DIR = 1 << 2, 1 << 3
LANDLOCK_ACCESS_FS_MAKE_BLOCK = 1 << 11  # handled with no rule: no mknod of block devices
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS = 4, 38, 39
CLONE_NEWNS = 0x20000
MS_REC, MS_PRIVATE = 0x4000, 1 << 18

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class PathBeneath(ctypes.Structure):
    """struct landlock_path_beneath_attr (packed)."""
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def note(name, detail):
    print("note %s: %s" % (name, detail), flush=True)


def drop_to(uid):
    """Become uid, dumpable again (a setresuid() away from root clears it,
    and a non-dumpable process's /proc/self/io is root's), like a process
    the user started."""
    _drop_to(uid)
    if libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")


# --- sandboxes ---

def set_nnp():
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def has_nnp():
    return libc.prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1


def landlock_abi():
    """Landlock's ABI version, or the negative errno (EOPNOTSUPP: disabled)."""
    v = libc.syscall(SYS_landlock_create_ruleset, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return v if v >= 0 else -ctypes.get_errno()


def enter_landlock(nnp=True):
    """Put this thread (and what it forks later) in a new Landlock domain.
    The ruleset handles one file access Python never uses; the domain's
    ptrace restriction (no process outside the domain) comes with any."""
    attr = ctypes.c_uint64(LANDLOCK_ACCESS_FS_MAKE_BLOCK)
    fd = libc.syscall(SYS_landlock_create_ruleset, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    if nnp:
        set_nnp()
    if libc.syscall(SYS_landlock_restrict_self, fd, 0) != 0:
        err = ctypes.get_errno()
        os.close(fd)
        raise OSError(err, "landlock_restrict_self")
    os.close(fd)


def mount(src, target, fstype, flags, data):
    if libc.mount(src.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                  data.encode() if data else None) != 0:
        raise OSError(ctypes.get_errno(), "mount %s on %s (%s)" % (fstype, target, data))


def private_mounts():
    if libc.unshare(CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    mount("none", "/", None, MS_REC | MS_PRIVATE, None)


def lsm_list():
    """The LSMs of the running kernel, from a securityfs mounted privately."""
    def read():
        private_mounts()
        if not os.path.exists("/sys/kernel/security/lsm"):
            mount("securityfs", "/sys/kernel/security", "securityfs", 0, None)
        return open("/sys/kernel/security/lsm").read().strip()
    return in_child(read)


# --- procfs, the oracle ---

def proc_io(pid):
    """/proc/PID/io as a dict, "EACCES" if refused, None if gone."""
    try:
        with open("/proc/%d/io" % pid) as f:
            text = f.read()
    except PermissionError:
        return "EACCES"
    except (FileNotFoundError, ProcessLookupError):
        return None
    return {k.strip(): int(v) for k, v in (ln.split(":") for ln in text.splitlines())}


def proc_stat(pid):
    """The guarded fields of /proc/PID/stat as a dict, "hidden" when procfs
    withholds them (it prints start_code 1 for a task with an mm), None if gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    vals = {k: int(rest[n - 3]) for k, n in STAT_FIELD.items()}
    if int(rest[23 - 3]) and vals["start_code"] == 1:  # vsize, start_code
        return "hidden"
    return vals


def proc_maps(pid):
    """Lines of /proc/PID/maps, "EACCES" if refused, None if gone."""
    try:
        with open("/proc/%d/maps" % pid) as f:
            return len(f.read().splitlines())
    except PermissionError:
        return "EACCES"
    except (FileNotFoundError, ProcessLookupError):
        return None


def proc_view(pid):
    return {"io": proc_io(pid), "stat": proc_stat(pid), "maps": proc_maps(pid)}


def listing(proc="/proc"):
    return {int(n) for n in os.listdir(proc) if n.isdigit()}


# --- the module, as the reader sees it ---

def record(t):
    """What one task record carries: its io, guarded stat fields, and
    whether its unguarded data (comm, times) is there."""
    if t is None:
        return None
    st = t.get("stat", {})
    return {"io": t.get("io"), "gstat": {k: st[k] for k in GUARDED_STAT if k in st},
            "plain": "comm" in t.get("base", {}) and "utime" in st}


def vma_task(c, pid):
    """get-vma of one process: its VMA count, or the errno name."""
    try:
        return len(c.vma_request(scope=tdnl.SCOPE["task"], pid=pid).get(pid, []))
    except tdnl.NetlinkError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def has_mem(c, pid):
    t = c.request(scope=tdnl.SCOPE["task"], pid=pid,
                  show=tdnl.SHOW["base"] | tdnl.SHOW["mem"], dump=False)
    return "mem" in t[0]


def observe(sleeps):
    """In the reader: procfs around a dump, the dump, get-vma and mem, for
    the sleeps and this process. Returns plain data for the parent."""
    me = os.getpid()
    pids = list(sleeps) + [me]
    c = tdnl.Client()
    before = {p: proc_view(p) for p in pids}
    dump = {t["pid"]: t for t in c.request(scope=tdnl.SCOPE["all_processes"], show=SHOW)}
    after = {p: proc_view(p) for p in pids}
    vmas = c.vma_request()
    out = {"me": me, "nnp": has_nnp(), "uid": os.getuid(),
           "procfs": before, "stable": {p: before[p] == after[p] for p in pids},
           "rec": {p: record(dump.get(p)) for p in pids},
           "vma": {p: len(vmas[p]) if p in vmas else None for p in pids},
           "vma_task": {p: vma_task(c, p) for p in (sleeps[0], me)},
           "mem": {p: has_mem(c, p) for p in pids},
           "pid1": record(dump.get(1)), "pid1_procfs_io": proc_io(1) not in ("EACCES", None)}
    c.close()
    return out


def observe_threads():
    """This process's threads (two started here), as the module and procfs see them."""
    stop = threading.Event()
    ths = [threading.Thread(target=stop.wait) for _ in range(2)]
    for t in ths:
        t.start()
    try:
        me = os.getpid()
        tids = sorted(int(n) for n in os.listdir("/proc/self/task"))
        c = tdnl.Client()
        got = {t["pid"]: record(t) for t in c.request(scope=tdnl.SCOPE["threads"], pid=me,
                                                       show=SHOW)}
        c.close()
        procfs = {tid: proc_io_path("/proc/%d/task/%d/io" % (me, tid)) for tid in tids}
        return tids, got, procfs
    finally:
        stop.set()
        for t in ths:
            t.join()


def proc_io_path(path):
    try:
        with open(path) as f:
            f.read()
        return True
    except PermissionError:
        return False


# --- judging what a reader saw ---

def guarded(rec):
    return rec is not None and (rec["io"] is not None or bool(rec["gstat"]))


def full(rec):
    """io and every guarded stat field the module fills."""
    return rec is not None and rec["io"] is not None and set(STAT_FIELD) <= set(rec["gstat"])


def values_match(rec, io, stat):
    """The record's io and guarded stat values equal procfs's."""
    bad = []
    if isinstance(io, dict):
        for k in IO_KEYS:
            if rec["io"].get(k) != io.get(k):
                bad.append("io.%s %s, procfs %s" % (k, rec["io"].get(k), io.get(k)))
    if isinstance(stat, dict):
        for k in STAT_FIELD:
            # wchan says whether the task is blocked: a sleep between two
            # wake-ups (a loaded host) reads 0 in one reading, 1 in the other.
            if k == "wchan" and {rec["gstat"].get(k), stat[k]} <= {0, 1}:
                continue
            if rec["gstat"].get(k) != stat[k]:
                bad.append("stat.%s %s, procfs %s" % (k, rec["gstat"].get(k), stat[k]))
    return bad


def judge(name, obs, sleeps, ref, procfs_allows, module_sends, own_sent=True):
    """Check one reader's observation. procfs_allows: what its /proc must
    give of the 20 sleeps (the oracle of the case); module_sends: whether the
    module must send their guarded data. ref: root's procfs reading of the
    sleeps (for values where the reader's own /proc refuses them)."""
    if isinstance(obs, tuple) and obs and obs[0] == "error":
        return check(name, False, obs[1])
    n = len(sleeps)
    me = obs["me"]
    pf = obs["procfs"]
    # the oracle
    io_ok = sum(isinstance(pf[p]["io"], dict) for p in sleeps)
    io_refused = sum(pf[p]["io"] == "EACCES" for p in sleeps)
    st_shown = sum(isinstance(pf[p]["stat"], dict) for p in sleeps)
    maps_ok = sum(isinstance(pf[p]["maps"], int) for p in sleeps)
    if procfs_allows:
        check("%s: procfs gives io, guarded stat and maps of %d/%d sleeps" % (name, n, n),
              io_ok == n and st_shown == n and maps_ok == n,
              "io %d, stat %d, maps %d" % (io_ok, st_shown, maps_ok))
    else:
        check("%s: procfs refuses io and maps of %d/%d sleeps and hides stat's guarded fields"
              % (name, n, n),
              io_refused == n and st_shown == 0 and
              sum(pf[p]["maps"] == "EACCES" for p in sleeps) == n,
              "io refused %d, stat shown %d, maps readable %d" % (io_refused, st_shown, maps_ok))
    # the module
    recs = obs["rec"]
    listed = [p for p in sleeps if recs[p] is not None and recs[p]["plain"]]
    check("%s: all %d sleeps dumped with their unguarded data" % (name, n), len(listed) == n,
          "%d dumped" % len(listed))
    got = [p for p in sleeps if guarded(recs[p])]
    whole = [p for p in sleeps if full(recs[p])]
    in_vma = [p for p in sleeps if obs["vma"][p]]
    with_mem = [p for p in sleeps if obs["mem"][p]]
    vt = obs["vma_task"][sleeps[0]]
    if module_sends:
        check("%s: module sends io and guarded stat of %d/%d" % (name, n, n), len(whole) == n,
              "%d with all, %d with some" % (len(whole), len(got)))
        bad = []
        for p in whole:
            io, stat = pf[p]["io"], pf[p]["stat"]
            if not (obs["stable"][p] and isinstance(io, dict)):
                io, stat = ref[p]["io"], ref[p]["stat"]
            bad += ["pid %d: %s" % (p, b) for b in values_match(recs[p], io, stat)]
        check("%s: ... values equal procfs's (io, stat addresses, wchan, exit_code)" % name,
              whole and not bad, "; ".join(bad[:6]))
        check("%s: maps of %d/%d in the get-vma dump, scope task gives VMAs, mem of %d/%d"
              % (name, n, n, n, n),
              len(in_vma) == n and isinstance(vt, int) and vt > 0 and len(with_mem) == n,
              "vma %d, scope task %s, mem %d" % (len(in_vma), vt, len(with_mem)))
    else:
        check("%s: module sends io or guarded stat of 0/%d" % (name, n), not got,
              "sent for %d: pid %d carries io %s, stat %s" % (
                  len(got), got[0], recs[got[0]]["io"] is not None,
                  sorted(recs[got[0]]["gstat"])) if got else "")
        check("%s: maps of 0/%d in the get-vma dump, scope task EACCES, mem of 0/%d"
              % (name, n, n),
              not in_vma and vt == "EACCES" and not with_mem,
              "vma %d, scope task %s, mem %d" % (len(in_vma), vt, len(with_mem)))
    # its own process
    own, opf = recs[me], pf[me]
    if not own_sent:
        # (maps and mem of its own mm still are: mm_access()'s first rule)
        return check("%s: own process: no io or guarded stat sent" % name,
                     not guarded(own), "record %s" % own)
    check("%s: own process: io, guarded stat, maps, mem sent, as /proc/self gives them" % name,
          full(own) and obs["vma"][me] and obs["vma_task"][me] and obs["mem"][me] and
          isinstance(opf["io"], dict) and isinstance(opf["stat"], dict),
          "record %s, vma %s/%s, mem %s, procfs io %s, stat %s" % (
              own and {"io": own["io"] is not None, "gstat": len(own["gstat"])},
              obs["vma"][me], obs["vma_task"][me], obs["mem"][me],
              "ok" if isinstance(opf["io"], dict) else opf["io"],
              "ok" if isinstance(opf["stat"], dict) else opf["stat"]))
    return True


def judge_perfmon(name, obs, sleeps):
    """A Landlocked root: the LSM hook refuses io and stat's guarded fields,
    but maps and mem (mm_access()) admit a perfmon_capable() reader without
    asking it (6.15+), in procfs and in the module alike."""
    if isinstance(obs, tuple):
        return check(name, False, str(obs))
    n = len(sleeps)
    pf, recs = obs["procfs"], obs["rec"]
    refused = sum(pf[p]["io"] == "EACCES" and pf[p]["stat"] == "hidden" for p in sleeps)
    maps_ok = sum(isinstance(pf[p]["maps"], int) for p in sleeps)
    check("%s: procfs refuses io and stat's guarded fields of %d/%d sleeps, gives maps of %d/%d"
          % (name, n, n, n, n), refused == n and maps_ok == n,
          "refused %d, maps %d" % (refused, maps_ok))
    got = [p for p in sleeps if guarded(recs[p])]
    in_vma = [p for p in sleeps if obs["vma"][p]]
    with_mem = [p for p in sleeps if obs["mem"][p]]
    return check("%s: module sends io or guarded stat of 0/%d, maps and mem of %d/%d"
                 % (name, n, n, n), not got and len(in_vma) == n and len(with_mem) == n,
                 "guarded %d, vma %d, mem %d" % (len(got), len(in_vma), len(with_mem)))


# --- the cases, run in forked children ---

def as_user(*steps):
    def run(sleeps):
        drop_to(USER)
        for s in steps:
            s()
        return observe(sleeps)
    return run


def read_rest(c, seq):
    tasks = []
    while True:
        msgs, end = c.read_datagram(seq)
        tasks += [tdnl.decode("TASK", m[4:]) for m in msgs]
        if end:
            return tasks


def mid_dump(sleeps, enter):
    """Send the dump request as uid 1000 outside any domain, read one
    datagram, enter the domain (if enter), skip the datagram queued before
    that, and return what the later datagrams carry."""
    drop_to(USER)
    me = os.getpid()
    c = tdnl.Client(rcvbuf=SMALL)
    seq = c.send_request(scope=tdnl.SCOPE["all_processes"], show=SHOW)
    _, end = c.read_datagram(seq)
    if end:
        return ("error", "the dump fitted one datagram")
    if enter:
        enter_landlock()
    _, end = c.read_datagram(seq)  # written at the end of the previous recvmsg()
    if end:
        return ("error", "the dump fitted two datagrams")
    tasks = read_rest(c, seq)
    c.close()
    recs = {t["pid"]: record(t) for t in tasks}
    return {"me": me, "n": len(tasks),
            "sleeps": {p: guarded(recs[p]) for p in sleeps if p in recs},
            "others": sorted(p for p, r in recs.items() if p != me and guarded(r)),
            "own": full(recs.get(me)) if me in recs else None,
            "io": {p: proc_io(p) == "EACCES" for p in sleeps}}


def hidepid(sleeps, enter, grandchild=False):
    """/proc hidepid=invisible in a private mount namespace, uid 1000, in a
    Landlock domain if enter: the listing of /proc around a dump, and the dump."""
    private_mounts()
    mount("proc", "/proc", "proc", 0, "hidepid=invisible")
    drop_to(USER)
    if enter:
        enter_landlock()
    kid = None
    if grandchild:
        r, w = os.pipe()
        kid = os.fork()
        if kid == 0:  # in the domain, another thread group
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        os.close(r)
    try:
        c = tdnl.Client()
        before = listing()
        dumped = [t["pid"] for t in c.request(scope=tdnl.SCOPE["all_processes"],
                                               show=tdnl.SHOW["base"])]
        after = listing()
        c.close()
    finally:
        if kid:
            os.close(w)
            os.waitpid(kid, 0)
    return {"me": os.getpid(), "kid": kid, "before": sorted(before), "after": sorted(after),
            "dumped": sorted(dumped), "sleeps_listed": len(set(sleeps) & (before | after)),
            "sleeps_dumped": len(set(sleeps) & set(dumped))}


def judge_hidepid(name, res, n_expect):
    if isinstance(res, tuple) and res[0] == "error":
        return check(name, False, res[1])
    before, after, dumped = set(res["before"]), set(res["after"]), set(res["dumped"])
    ok = before == after and dumped == before and res["me"] in dumped and \
        res["sleeps_listed"] == n_expect and res["sleeps_dumped"] == n_expect
    return check("%s: the dump lists exactly what /proc lists, %d of the %d sleeps"
                 % (name, n_expect, NSLEEP), ok,
                 "listed %d (%d sleeps), dumped %d (%d sleeps), only listed %s, only dumped %s"
                 % (len(before), res["sleeps_listed"], len(dumped), res["sleeps_dumped"],
                    sorted((before | after) - dumped)[:8], sorted(dumped - before)[:8]))


def enter_landlock_without_proc():
    """A Landlock domain whose file rules allow reading everything under
    / but /proc (as a sandbox that was not given /proc): its ls /proc and
    cat /proc/1/cmdline say EACCES."""
    handled = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR
    attr = ctypes.c_uint64(handled)
    fd = libc.syscall(SYS_landlock_create_ruleset, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        for name in os.listdir("/"):
            if name == "proc":
                continue
            try:
                pfd = os.open("/" + name, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                is_dir = stat.S_ISDIR(os.fstat(pfd).st_mode)
                rule = PathBeneath(handled if is_dir else LANDLOCK_ACCESS_FS_READ_FILE, pfd)
                if libc.syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH,
                                ctypes.byref(rule), 0) != 0:
                    raise OSError(ctypes.get_errno(), "landlock_add_rule /" + name)
            finally:
                os.close(pfd)
        set_nnp()
        if libc.syscall(SYS_landlock_restrict_self, fd, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(fd)


def lib_dump(path):
    """libtaskdiag's netlink dump of all processes (base): (pids, error)."""
    lib = ctypes.CDLL(path)
    lib.taskdiag_strerror.restype = ctypes.c_char_p
    lib.taskdiag_extack.restype = ctypes.c_char_p
    lib.taskdiag_extack.argtypes = [ctypes.c_void_p]
    td, it, t = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    if lib.taskdiag_open(ctypes.byref(td), 1) != 0:  # TASKDIAG_BACKEND_NETLINK
        return [], "taskdiag_open failed"
    req = Request(1, 0, 1)  # all processes, base
    pids, err = [], lib.taskdiag_iter_start(td, ctypes.byref(req), ctypes.byref(it))
    if err == 0:
        while True:
            err = lib.taskdiag_iter_next(it, ctypes.byref(t))
            if err != 1:
                break
            pids.append(lib.taskdiag_task_pid(t))
        lib.taskdiag_iter_end(it)
    msg = None
    if err < 0:
        ext = lib.taskdiag_extack(td)
        msg = "%s (%s)" % (errno.errorcode.get(-err, err), ext.decode() if ext else "")
    lib.taskdiag_close(td)
    return pids, msg


def without_proc(lib):
    """Case 9, in the child: uid USER in a domain that refuses /proc."""
    drop_to(USER)
    me = os.getpid()
    enter_landlock_without_proc()
    out = {}
    for what, fn in (("ls /proc", lambda: os.listdir("/proc")),
                     ("cat /proc/1/cmdline", lambda: open("/proc/1/cmdline", "rb").read())):
        try:
            fn()
            out[what] = "readable"
        except PermissionError:
            out[what] = "EACCES"
    c = tdnl.Client()
    for what, kw in (("get", {}), ("get with an O_PATH procfs-fd", {"opath": True}),
                     ("get-vma", {"vma": True})):
        fd = os.open("/proc", os.O_PATH | os.O_DIRECTORY) if kw.get("opath") else None
        try:
            if kw.get("vma"):
                got = c.vma_request(scope=tdnl.SCOPE["all_processes"])
            else:
                got = {t["pid"]: t for t in c.request(scope=tdnl.SCOPE["all_processes"],
                                                      show=tdnl.SHOW["base"], procfs_fd=fd)}
            out[what] = ("others", len([p for p in got if p != me]))
        except tdnl.NetlinkError as e:
            out[what] = (errno.errorcode.get(e.errno, e.errno), e.extack)
        finally:
            if fd is not None:
                os.close(fd)
    if lib:
        pids, err = lib_dump(lib)
        out["library"] = (len([p for p in pids if p != me]), err)
    return out


def with_proc(lib):
    """Case 9's control: a domain of the same rules with /proc allowed."""
    drop_to(USER)
    me = os.getpid()
    enter_landlock()
    c = tdnl.Client()
    out = {"get": len([t for t in c.request(scope=tdnl.SCOPE["all_processes"],
                                             show=tdnl.SHOW["base"]) if t["pid"] != me])}
    if lib:
        pids, err = lib_dump(lib)
        out["library"] = (len([p for p in pids if p != me]), err)
    return out


def set_param(path, val):
    with open(path, "w") as f:
        f.write(val)


def spawn(uid, n):
    return [subprocess.Popen(["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid,
                              "--clear-groups", "sleep", "1000"]) for _ in range(n)]


def main(argv):
    lib = argv[argv.index("--lib") + 1] if "--lib" in argv else None
    procs = spawn(USER, NSLEEP)
    sleeps = [p.pid for p in procs]
    end = time.time() + 60
    while time.time() < end:
        try:
            # after setpriv's execve(): comm sleep, dumpable (io owned by the user)
            if all(open("/proc/%d/comm" % p).read().strip() == "sleep" and
                   os.stat("/proc/%d/io" % p).st_uid == USER for p in sleeps):
                break
        except OSError:
            pass
        time.sleep(0.2)
    else:
        print("FAIL: the fixture sleeps did not start within 60 s")
        return 1
    # sleep's own start (the dynamic loader reading its libraries) can run
    # on after its comm changed: the fixture is ready when the io of every
    # sleep stays the same for a second.
    end = time.time() + 60
    ref = {p: proc_view(p) for p in sleeps}  # root's view, for values
    while time.time() < end:
        time.sleep(1)
        now = {p: proc_view(p) for p in sleeps}
        if now == ref:
            break
        ref = now
    else:
        print("FAIL: the fixture sleeps' io did not settle within 60 s")
        return 1
    had_param = os.path.exists(PARAM)
    try:
        lsms = lsm_list()
        abi = landlock_abi()
        if not check("Landlock is enabled (LSMs %s, ABI %s)" % (lsms, abi),
                     abi > 0 and "landlock" in str(lsms).split(",")):
            return 1
        if IN_TREE:
            check("built in: no nnp_cap_only parameter (the LSM hook is asked)", not had_param)
        else:
            check("nnp_cap_only parameter exists, default Y",
                  had_param and open(PARAM).read().strip() == "Y",
                  open(PARAM).read().strip() if had_param else "no %s" % PARAM)

        # 1. control
        judge("1 uid %d, no sandbox" % USER, in_child(lambda: as_user()(sleeps)), sleeps, ref,
              procfs_allows=True, module_sends=True)

        # 2. Landlock
        judge("2 uid %d in a Landlock domain" % USER,
              in_child(lambda: as_user(enter_landlock)(sleeps)), sleeps, ref,
              procfs_allows=False, module_sends=False)

        def threads():
            drop_to(USER)
            enter_landlock()
            return observe_threads()
        res = in_child(threads)
        if res[0] == "error":
            check("2 Landlock: own threads", False, res[1])
        else:
            tids, got, procfs = res
            check("2 Landlock: own %d threads (scope threads) carry io and guarded stat, "
                  "as /proc/self/task/TID/io opens" % len(tids),
                  len(tids) == 3 and sorted(got) == tids and all(map(full, got.values())) and
                  all(procfs.values()),
                  "dumped %s, full %s, procfs %s" % (sorted(got),
                                                     [full(r) for r in got.values()], procfs))

        # 3. no_new_privs alone
        res = in_child(lambda: as_user(set_nnp)(sleeps))
        judge("3 uid %d with no_new_privs, no Landlock" % USER, res, sleeps, ref,
              procfs_allows=True, module_sends=IN_TREE)
        if isinstance(res, dict):
            check("3 ... the reader had no_new_privs", res["nnp"])

        # 4. nnp_cap_only=0 (the module's)
        if not IN_TREE:
            if had_param:
                set_param(PARAM, "0")
            try:
                judge("4 nnp_cap_only=0, uid %d in a Landlock domain" % USER,
                      in_child(lambda: as_user(enter_landlock)(sleeps)), sleeps, ref,
                      procfs_allows=False, module_sends=True)
            finally:
                if had_param:
                    set_param(PARAM, "1")

        # 5. into the domain mid-dump
        for enter, name in ((False, "5 control: uid %d reads a dump in 4 KiB datagrams" % USER),
                            (True, "5 uid %d enters a Landlock domain after two datagrams"
                             % USER)):
            res = in_child(lambda: mid_dump(sleeps, enter))
            if isinstance(res, tuple):
                check(name, False, res[1])
                continue
            later = len(res["sleeps"])
            with_g = sum(res["sleeps"].values())
            if enter:
                check("%s: procfs then refuses io of %d/%d" % (name, NSLEEP, NSLEEP),
                      all(res["io"].values()), "%d refused" % sum(res["io"].values()))
                check("%s: the later %d tasks (%d sleeps) carry guarded data of no process "
                      "but its own" % (name, res["n"], later),
                      later == NSLEEP and not res["others"] and res["own"] is True,
                      "sleeps with guarded data %d, others %s, own %s"
                      % (with_g, res["others"][:10], res["own"]))
            else:
                check("%s: the later %d tasks carry guarded data of %d/%d sleeps and its own"
                      % (name, res["n"], NSLEEP, NSLEEP),
                      later == NSLEEP and with_g == NSLEEP and res["own"] is True,
                      "sleeps in the later part %d, with guarded data %d, own %s"
                      % (later, with_g, res["own"]))

        # 6. hidepid=invisible
        judge_hidepid("6 /proc hidepid=invisible, uid %d, no sandbox" % USER,
                      in_child(lambda: hidepid(sleeps, False)), NSLEEP)
        judge_hidepid("6 /proc hidepid=invisible, uid %d in a Landlock domain" % USER,
                      in_child(lambda: hidepid(sleeps, True)), 0)

        # 7. root with no_new_privs
        def root_nnp():
            set_nnp()
            return observe(sleeps)
        res = in_child(root_nnp)
        judge("7 root with no_new_privs", res, sleeps, ref, procfs_allows=True, module_sends=True)
        if isinstance(res, dict):
            check("7 ... pid 1's io and guarded stat too, as its procfs",
                  res["nnp"] and full(res["pid1"]) and res["pid1_procfs_io"],
                  "nnp %s, pid 1 %s, procfs %s" % (res["nnp"], res["pid1"] and sorted(res["pid1"]),
                                                   res["pid1_procfs_io"]))

        # 8. ptrace_cap_only=1
        set_param(CAP_ONLY, "1")
        try:
            judge("8 ptrace_cap_only=1, uid %d, no sandbox" % USER,
                  in_child(lambda: as_user()(sleeps)), sleeps, ref,
                  procfs_allows=True, module_sends=False, own_sent=False)
            if IN_TREE:
                # CAP_SYS_PTRACE is asked on top of procfs's check, LSM included
                judge_perfmon("8 ptrace_cap_only=1, built in: a Landlocked root",
                              in_child(lambda: (enter_landlock(), observe(sleeps))[1]), sleeps)
        finally:
            set_param(CAP_ONLY, "0")

        # 9. a domain whose rules refuse /proc
        res = in_child(lambda: without_proc(lib))
        if isinstance(res, tuple):
            check("9 uid %d in a Landlock domain that refuses /proc" % USER, False, res[1])
        else:
            check("9 uid %d in a Landlock domain that refuses /proc: its ls /proc and cat "
                  "/proc/1/cmdline say EACCES" % USER,
                  res["ls /proc"] == res["cat /proc/1/cmdline"] == "EACCES",
                  "%s, %s" % (res["ls /proc"], res["cat /proc/1/cmdline"]))
            for what in ("get", "get with an O_PATH procfs-fd", "get-vma"):
                r = res[what]
                check("9 ... a %s dump: EACCES naming procfs-fd, no other process" % what,
                      r[0] == "EACCES" and "procfs-fd" in (r[1] or ""), str(r))
            if lib:
                n, err = res["library"]
                check("9 ... libtaskdiag's dump: no other process, EACCES",
                      n == 0 and err is not None and err.startswith("EACCES"),
                      "%d other processes, %s" % (n, err))
        res = in_child(lambda: with_proc(lib))
        if isinstance(res, tuple):
            check("9 control: the same user in a Landlock domain with /proc", False, res[1])
        else:
            check("9 control: the same user in a Landlock domain with /proc: the dump (tdnl's "
                  "procfs-fd, opened for reading) and libtaskdiag's list the other processes",
                  res["get"] >= NSLEEP and (not lib or res["library"][0] >= NSLEEP),
                  str(res))

        # The module's known limits, not counted; built in, checked.
        def root_landlock():
            enter_landlock()
            return observe(sleeps)

        def privileged_domain():
            enter_landlock(nnp=False)  # CAP_SYS_ADMIN needs no no_new_privs
            drop_to(USER)
            return observe(sleeps)
        for name, fn in (("Landlocked root (CAP_SYS_PTRACE)", root_landlock),
                         ("uid %d in a domain a privileged parent made, no no_new_privs" % USER,
                          privileged_domain)):
            res = in_child(fn)
            if IN_TREE and fn is root_landlock:
                judge_perfmon("built in: " + name, res, sleeps)
                continue
            if IN_TREE:
                judge("built in: " + name, res, sleeps, ref, procfs_allows=False,
                      module_sends=False)
                continue
            if isinstance(res, tuple):
                note(name, str(res))
                continue
            refused = sum(res["procfs"][p]["io"] == "EACCES" for p in sleeps)
            sent = sum(full(res["rec"][p]) for p in sleeps)
            note(name, "no_new_privs %s; procfs refuses io of %d/%d sleeps, the module sends "
                 "io and guarded stat of %d/%d%s" % (res["nnp"], refused, NSLEEP, sent, NSLEEP,
                                                     " (more than procfs)" if sent and refused
                                                     else ""))
        res = in_child(lambda: hidepid(sleeps, True, grandchild=True))
        if IN_TREE:
            check("built in: hidepid=invisible, a child forked inside the Landlock domain is "
                  "listed by /proc and dumped", isinstance(res, dict) and
                  res["kid"] in res["before"] and res["kid"] in res["dumped"], str(res)[:300])
        elif isinstance(res, dict):
            note("hidepid=invisible, a child forked inside the Landlock domain",
                 "listed by /proc %s, dumped %s" % (res["kid"] in res["before"],
                                                    res["kid"] in res["dumped"]))
        else:
            note("hidepid=invisible, a child forked inside the Landlock domain", str(res))
    finally:
        for p in procs:
            p.kill()
            p.wait()
    failed = tally("sandboxed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
