#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The request filters and "ran since" select what user space would select.

Runs in the guest (through scripts/vm-run), as root or as any user, with the
independent client of tdnl.py. The oracle of each filter is the same
selection done here on full dumps (and, for cgroups, on /proc/PID/cgroup):
a full dump before and one after the filtered dump; a task present in both
with the same values must be in the filtered dump exactly when it matches,
and every task of the filtered dump must match by the values it carries
itself (uid, euid, comm come with the cred and base groups asked for).
Filters checked: filter-pid (with pids that do not exist and a thread's),
filter-uid, filter-euid, filter-comm, filter-cgroup-path and -id (as root:
a cgroup2 mount with fixtures in a/ and a/b/; unprivileged: the root
cgroup), and combinations (AND), in process and thread scopes.

The same filters on libtaskdiag's procfs backend (which applies them in
user space) must give the same selection.

Ran since: fixtures that stay asleep, that are woken between two samples
(each acknowledges having run), that exit between them, one that spins,
and a two-threaded process whose second thread alone is woken. The second
dump, with ran-since set to the first dump's next-ran-since, must hold
every fixture that ran (a miss is the bug the ABI promises never
happens), none that exited, and, since the idle ones last ran well before
the first dump, at most a tenth of them. With ran-since-idle the idle ones
come back as pid-only records flagged idle, the others as full records,
so that dump lists exactly the tasks of a full dump around it. As root,
under a procfs with hidepid=noaccess, a user's uid filter must not match
the root tasks it may only list (a filter must not reveal a hidden uid),
while a pid filter still finds them as listed records.

The sampling API (libtaskdiag, through ctypes): taskdiag_sample_take_since()
after a first sample must list the same live tasks as a full dump, count
the idle fixtures among the records it copied, give the woken fixtures
their new context-switch counts and the idle ones their old ones, and
leave out the fixtures that exited.

Usage: test_filters.py LIBTASKDIAG_SO
"""
import ctypes
import os
import re
import select
import signal
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdlib  # noqa: E402
import tdnl  # noqa: E402
from forked import drop_to, in_child  # noqa: E402

A = {n: tdnl.abi.enums["TASK_DIAG_A_TASK_" + n] for n in (
    "FILTER_PID", "FILTER_UID", "FILTER_EUID", "FILTER_CGROUP_ID", "FILTER_CGROUP_PATH",
    "FILTER_COMM", "RAN_SINCE", "RAN_SINCE_IDLE")}
SHOW = tdnl.SHOW["base"] | tdnl.SHOW["cred"]
COMM = "tdfilt-fix"
CG = "/sys/fs/cgroup"
libc = ctypes.CDLL(None, use_errno=True)


def u32s(vals):
    return struct.pack("=%dI" % len(vals), *vals)


class Filt(bytes):
    """A filter's attributes, and the same filter as libtaskdiag request members."""
    def __new__(cls, data, members):
        o = bytes.__new__(cls, data)
        o.members = members
        return o

    def __add__(self, other):
        return Filt(bytes(self) + bytes(other), {**self.members, **getattr(other, "members", {})})


def f_pid(pids):
    return Filt(tdnl.nla(A["FILTER_PID"], u32s(pids)), {"pids": pids})


def f_uid(uids):
    return Filt(tdnl.nla(A["FILTER_UID"], u32s(uids)), {"uids": uids})


def f_euid(uids):
    return Filt(tdnl.nla(A["FILTER_EUID"], u32s(uids)), {"euids": uids})


def f_comm(comm):
    return Filt(tdnl.nla(A["FILTER_COMM"], comm.encode() + b"\0"), {"comm": comm})


def f_cgpath(path):
    return Filt(tdnl.nla(A["FILTER_CGROUP_PATH"], path.encode() + b"\0"),
                {"cgroup_path": path})


def f_cgid(cid):
    return Filt(tdnl.nla(A["FILTER_CGROUP_ID"], struct.pack("=Q", cid)), {"cgroup_id": cid})


def procfs_pids(scope, members):
    """The pids libtaskdiag's procfs backend gives for a request with these
    filters (the backend does in user space what the module does)."""
    lib = tdlib.load(sys.argv[1])
    lib.taskdiag_iter_start.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.taskdiag_iter_next.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.taskdiag_iter_end.argtypes = [ctypes.c_void_p]
    td, it, t = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    if lib.taskdiag_open(ctypes.byref(td), tdlib.BACKEND_PROCFS):
        return None
    keep = []
    req = tdlib.Request(scope=tdlib.SCOPE_ALL_PROCESSES if scope == "all_processes" else
                        tdlib.SCOPE_ALL_THREADS, groups=tdlib.GROUP_BASE)
    for name in ("pids", "uids", "euids"):
        if name in members:
            arr = (ctypes.c_uint32 * len(members[name]))(*members[name])
            keep.append(arr)
            setattr(req, name, ctypes.cast(arr, ctypes.c_void_p))
            setattr(req, "n" + name, len(members[name]))
    if "comm" in members:
        req.comm = members["comm"].encode()
    if "cgroup_path" in members:
        req.cgroup_path = members["cgroup_path"].encode()
    req.cgroup_id = members.get("cgroup_id", 0)
    pids = set()
    err = lib.taskdiag_iter_start(td, ctypes.byref(req), ctypes.byref(it))
    if err == 0:
        while lib.taskdiag_iter_next(it, ctypes.byref(t)) == 1:
            pids.add(lib.taskdiag_task_pid(t))
        lib.taskdiag_iter_end(it)
    lib.taskdiag_close(td)
    return pids if err == 0 else "error %d" % err


def f_since(stamp, idle=False):
    return tdnl.nla(A["RAN_SINCE"], struct.pack("=Q", stamp)) + \
        (tdnl.nla(A["RAN_SINCE_IDLE"], b"") if idle else b"")


def set_comm(name):
    with open("/proc/thread-self/comm", "w") as f:
        f.write(name)


# Each fixture writes "PID MIGRATIONS" here, its own se.nr_migrations, just
# before it goes to sleep; the test keeps the last line of each.
REPORT_R, REPORT_W = os.pipe()
os.set_blocking(REPORT_R, False)
REPORTED = {}


def report_placement():
    """Called by a fixture right before it sleeps: its migration count then."""
    pl = placement(os.getpid())
    os.write(REPORT_W, b"%d %d\n" % (os.getpid(), -1 if pl is None or pl[1] is None else pl[1]))


def migrated_asleep(pid):
    """Has the scheduler moved the fixture since it last went to sleep? Its
    migration count now against the one it reported then. A migration
    zeroes the task's last-run time, and ran-since may then keep it until it
    runs again; on 6.12 and later the load balancer moves a task that
    delayed dequeue keeps queued after it went to sleep, which can happen
    before the first sample. Also true for a fixture moved while it was
    preempted between its report and its sleep, which then ran: the test
    only allows such a task to be kept, it never requires it."""
    try:
        while True:
            data = os.read(REPORT_R, 65536)
            if not data:
                break
            for line in data.split(b"\n"):
                if line:
                    p, m = line.split()
                    REPORTED[int(p)] = int(m)
    except BlockingIOError:
        pass
    pl = placement(pid)
    return pl is not None and pl[1] is not None and REPORTED.get(pid) != pl[1]


def child(fn):
    """Fork a fixture running fn(); return its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            fn()
        finally:
            os._exit(0)
    return pid


def sleeper(uid=None, euid=None, comm=COMM, cgroup=None):
    def run():
        if cgroup:
            with open(cgroup + "/cgroup.procs", "w") as f:
                f.write("0")
        if uid is not None:
            os.setresuid(uid, uid if euid is None else euid, uid)
        set_comm(comm)
        while True:
            report_placement()
            signal.pause()
    return child(run)


def cgroup_of(pid):
    """The task's cgroup v2 path; None if it is gone. procfs prints no 0::
    line until a cgroup2 has been mounted once (cgrp_dfl_visible): every
    task is then in the root of the unified hierarchy."""
    try:
        with open("/proc/%d/cgroup" % pid) as f:
            for line in f:
                if line.startswith("0::"):
                    return line[3:].strip()
    except OSError:
        return None
    return "/"


def key(t):
    c, b = t.get("cred", {}), t.get("base", {})
    return (t["tgid"], c.get("uid"), c.get("euid"), b.get("comm"))


def compare(name, scope, payload, pred, cgroups=False):
    """The filtered dump against pred(task) over two full dumps."""
    c = tdnl.Client()
    sc = tdnl.SCOPE[scope]
    before = {t["pid"]: t for t in c.request(scope=sc, show=SHOW)}
    got = c.request(scope=sc, show=SHOW, raw_attrs=bytes(payload))
    after = {t["pid"]: t for t in c.request(scope=sc, show=SHOW)}
    c.close()
    cg = {}
    if cgroups:
        for pid in set(before) | {t["pid"] for t in got}:
            cg[pid] = cgroup_of(pid)
    bad = []
    gone = 0
    gotpids = {t["pid"] for t in got}
    for t in got:
        # A task that exited before its cgroup was read (a kworker the
        # kernel retires) has no /proc to compare with: neither a match nor
        # a mismatch.
        if cgroups and cg.get(t["pid"]) is None and not os.path.exists("/proc/%d" % t["pid"]):
            gone += 1
            continue
        if not pred(t, cg.get(t["pid"])):
            bad.append("pid %d in the dump does not match (%r)" % (t["pid"], key(t)))
    stable = [p for p in before if p in after and key(before[p]) == key(after[p])]
    want = {p for p in stable if pred(before[p], cg.get(p))}
    missing = sorted(p for p in want if p not in gotpids)
    if missing:
        bad.append("matching pids missing: %s" % missing[:10])
    check("%s [%s]" % (name, scope), not bad and (len(want) > 0 or name.startswith("none")),
          "; ".join(bad) or "%d of %d tasks%s" % (len(got), len(stable),
                                                 ", %d gone before /proc was read" % gone
                                                 if gone else ""))
    if not isinstance(payload, Filt):
        return
    # The same filter on the procfs backend: the same selection.
    pgot = procfs_pids(scope, payload.members)
    if not isinstance(pgot, set):
        check("%s [%s, procfs backend]" % (name, scope), False, str(pgot))
        return
    for pid in pgot - set(cg):
        if cgroups:
            cg[pid] = cgroup_of(pid)
    bad = ["pid %d matches not" % p for p in sorted(pgot)
           if p in before and p in after and p in stable and not pred(before[p], cg.get(p))]
    # A task born after the netlink dumps (a kworker the kernel starts on
    # demand) is in one more dump, taken after the procfs backend's read.
    c = tdnl.Client()
    late = {t["pid"] for t in c.request(scope=sc, show=SHOW)}
    c.close()
    bad += ["pid %d unknown to the dumps" % p
            for p in sorted(pgot - set(before) - set(after) - late)
            if os.path.exists("/proc/%d" % p) and p != os.getpid()]
    missing = sorted(want - pgot)
    if missing:
        bad.append("matching pids missing: %s" % missing[:10])
    check("%s [%s, procfs backend]" % (name, scope), not bad, "; ".join(bad[:5]))


def filter_cases(me, fixtures, cg):
    uid = os.getuid()
    tid = box["tid"]
    for scope in ("all_processes", "all_threads"):
        proc = scope == "all_processes"
        pids = [1, me, tid, 3999999, fixtures[0]]
        compare("filter-pid %s" % pids, scope, f_pid(pids),
                lambda t, _: t["pid"] in pids and (not proc or t["pid"] == t["tgid"]))
        compare("filter-uid [%d]" % uid, scope, f_uid([uid]),
                lambda t, _: t["cred"]["uid"] == uid)
        compare("filter-uid [0, 65534, 1001]", scope, f_uid([0, 65534, 1001]),
                lambda t, _: t["cred"]["uid"] in (0, 65534, 1001))
        compare("filter-euid [%d]" % uid, scope, f_euid([uid]),
                lambda t, _: t["cred"]["euid"] == uid)
        compare("filter-comm %s" % COMM, scope, f_comm(COMM),
                lambda t, _: t["base"]["comm"] == COMM)
        if not proc:
            compare("filter-comm tdfilt-thread (a thread's own comm)", scope,
                    f_comm("tdfilt-thread"), lambda t, _: t["base"]["comm"] == "tdfilt-thread")
        # Kernel threads: a workqueue worker (procfs appends its workqueue to
        # the name) and one whose name task->comm cuts at 15 bytes, by their
        # task->comm (what a module sends; built in, task_diag sends
        # procfs's name, task_comm() takes task->comm back from it).
        c = tdnl.Client()
        comms = sorted({task_comm(t["base"]["comm"])
                        for t in c.request(scope=tdnl.SCOPE[scope], show=SHOW)
                        if t.get("cred", {}).get("uid") == 0})
        c.close()
        for kc in ([x for x in comms if WORKER_ID.match(x)][:1] +
                   [x for x in comms if len(x) == 15][:1]):
            compare("filter-comm %s (a kernel thread)" % kc, scope, f_comm(kc),
                    lambda t, _, kc=kc: task_comm(t["base"]["comm"]) == kc)
        compare("filter-comm and filter-uid [%d]" % uid, scope, f_comm(COMM) + f_uid([uid]),
                lambda t, _: t["base"]["comm"] == COMM and t["cred"]["uid"] == uid)
        compare("filter-cgroup-path /", scope, f_cgpath("/"),
                lambda t, c: c is not None, cgroups=True)
        compare("none: filter-uid and filter-pid disjoint", scope,
                f_uid([4242]) + f_pid([me]), lambda t, _: False)
        if cg:
            compare("filter-cgroup-path /tdfilt/a", scope, f_cgpath("/tdfilt/a"),
                    lambda t, c: c is not None and (c == "/tdfilt/a" or
                                                    c.startswith("/tdfilt/a/")),
                    cgroups=True)
            cid = os.stat(CG + "/tdfilt/a/b").st_ino
            compare("filter-cgroup-id of /tdfilt/a/b", scope, f_cgid(cid),
                    lambda t, c: c == "/tdfilt/a/b", cgroups=True)
            compare("filter-cgroup-path /tdfilt/a and filter-euid [1003]", scope,
                    f_cgpath("/tdfilt/a") + f_euid([1003]),
                    lambda t, c: c is not None and c.startswith("/tdfilt/a") and
                    t["cred"]["euid"] == 1003, cgroups=True)
            compare("filter-uid [1001]", scope, f_uid([1001]),
                    lambda t, _: t["cred"]["uid"] == 1001)
            compare("filter-euid [1003]", scope, f_euid([1003]),
                    lambda t, _: t["cred"]["euid"] == 1003)


def waker_child(r, w):
    """A fixture that sleeps in read(); each byte wakes it: it spins a little and acks."""
    def run():
        set_comm(COMM)
        while True:
            report_placement()
            if not os.read(r, 1):
                return
            x = 0
            for i in range(20000):
                x += i
            os.write(w, b"k")
    return child(run)


def two_threads(r, w):
    """A process whose second thread alone wakes on r; its main thread sleeps."""
    def run():
        set_comm(COMM)

        def worker():
            set_comm("tdfilt-thread")
            while True:
                if not os.read(r, 1):
                    return
                os.write(w, b"t")
        th = threading.Thread(target=worker, daemon=True)
        th.start()
        while True:
            report_placement()
            signal.pause()
    return child(run)


def spin():
    set_comm(COMM)
    while True:
        pass


# A workqueue worker's task->comm: kworker/CPU:ID (H: high priority) or
# kworker/uPOOL:ID; procfs appends "+work" or "-work" to it.
WORKER_ID = re.compile(r"^kworker/(u?\d+:\d+H?)(?=[-+]|$)")


def task_comm(name):
    """task->comm of a task that procfs names name: a worker's id, the first
    15 bytes of a kernel thread's full name, or the name itself."""
    m = WORKER_ID.match(name)
    return "kworker/" + m.group(1) if m else name[:15]


def runtime(pid):
    """The task's run time in ns, /proc/PID/schedstat's first field; None if gone.
    A task whose run time did not change over an interval did not run in it."""
    try:
        with open("/proc/%d/schedstat" % pid) as f:
            return int(f.read().split()[0])
    except (FileNotFoundError, ProcessLookupError):
        return None


def placement(pid):
    """Where the scheduler has had the task: (processor, migrations), its
    /proc/PID/stat processor field and /proc/PID/sched's se.nr_migrations
    (None where that file is absent); None if gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            cpu = int(f.read().rsplit(")", 1)[1].split()[36])
    except (FileNotFoundError, ProcessLookupError):
        return None
    moves = sched_fields(pid).get("se.nr_migrations")
    return cpu, None if moves is None else int(moves)


def sched_fields(pid):
    """/proc/PID/sched as {name: text}; {} if the file is absent or the task gone."""
    f = {}
    try:
        with open("/proc/%d/sched" % pid) as fh:
            for line in fh:
                k, _, v = line.partition(":")
                f[k.strip()] = v.strip()
    except OSError:
        pass
    return f


def sched_note(pid):
    """/proc/PID/sched's last-run time (ms of the rq clock), run time and
    switches, and /proc/PID/stat's state: what a failure report shows of a
    task ran-since kept."""
    f = sched_fields(pid)
    try:
        with open("/proc/%d/stat" % pid) as fh:
            f["state"] = fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        pass
    return "%d: exec_start %s ms, runtime %s ms, switches %s, migrations %s, state %s" % (
        pid, f.get("se.exec_start"), f.get("se.sum_exec_runtime"), f.get("nr_switches"),
        f.get("se.nr_migrations"), f.get("state"))


def settle(pids, timeout=60.0):
    """Wait until none of pids runs for 0.3 s: forked fixtures on a loaded
    TCG guest can still be starting up a second after fork."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        a = {p: runtime(p) for p in pids}
        time.sleep(0.3)
        if a == {p: runtime(p) for p in pids}:
            return True
    return False


def stamp_of(tasks):
    stamps = {t.get("next_ran_since") for t in tasks}
    return stamps.pop() if len(stamps) == 1 else None


class Population:
    """n wakers (each woken through its pipe), n sleepers, some doomed."""

    def __init__(self, n, ndoomed):
        self.wake = [os.pipe() for _ in range(n)]
        self.ack_r, self.ack_w = os.pipe()
        self.wakers = [waker_child(r, self.ack_w) for r, _ in self.wake]
        self.idle = [sleeper() for _ in range(n)]
        self.doomed = [sleeper() for _ in range(ndoomed)]

    def step(self, k, extra_acks=0):
        """Wake the first k wakers, kill the doomed, wait until the woken ran."""
        for i in range(k):
            os.write(self.wake[i][1], b"w")
        for p in self.doomed:
            os.kill(p, signal.SIGKILL)
            os.waitpid(p, 0)
        acks = b""
        while len(acks) < k + extra_acks:
            select.select([self.ack_r], [], [], 30)
            acks += os.read(self.ack_r, 64)

    def end(self):
        for _, w in self.wake:
            os.close(w)
        for p in self.wakers + self.idle:
            os.kill(p, signal.SIGKILL)
            os.waitpid(p, 0)


def ran_since_cases():
    n = 12
    pop = Population(n, 4)
    wakers, idle, doomed, ack_w = pop.wakers, pop.idle, pop.doomed, pop.ack_w
    tr, tw = os.pipe()
    tt = two_threads(tr, ack_w)
    busy = child(spin)
    quiet_set = set(idle) | set(wakers[n // 2:])  # never woken by the test
    check("fixtures set up and asleep", settle(wakers + idle + doomed + [tt]))
    ttid = max(int(x) for x in os.listdir("/proc/%d/task" % tt))
    # tt's own run time and placement (schedstat, sched and stat's processor
    # field are the leader thread's), for its sleeping main thread.
    rt0 = {p: runtime(p) for p in quiet_set | {tt}}
    place0 = {p: placement(p) for p in quiet_set | {tt}}
    c = tdnl.Client()
    procs, threads = tdnl.SCOPE["all_processes"], tdnl.SCOPE["all_threads"]
    first = c.request(scope=procs, show=SHOW, raw_attrs=f_since(0))
    s0 = stamp_of(first)
    check("ran-since 0: every record carries one next-ran-since", s0 is not None,
          "%d records" % len(first))
    fix = set(wakers + idle + doomed + [tt, busy])
    check("ran-since 0 lists every fixture", fix <= {t["pid"] for t in first})
    first_t = c.request(scope=threads, show=SHOW, raw_attrs=f_since(0))
    s0t = stamp_of(first_t)
    # Between the samples: wake half the wakers, the second thread, kill some.
    woken = wakers[: n // 2]
    os.write(tw, b"w")
    pop.step(n // 2, extra_acks=1)
    for name, scope, stamp in (("processes", procs, s0), ("threads", threads, s0t)):
        second = c.request(scope=scope, show=SHOW, raw_attrs=f_since(stamp))
        got = {t["pid"] for t in second}
        ran = set(woken) | {busy} | ({tt} if scope == procs else {ttid})
        missed = sorted(ran - got)
        check("ran-since [%s]: no task that ran is missed" % name, not missed,
              "missed %s" % missed)
        gone = sorted(got & set(doomed))
        check("ran-since [%s]: exited tasks absent" % name, not gone, "present %s" % gone)
        # The oracle: a fixture whose /proc run time did not change from before
        # the first sample to after this one did not run since the stamp.
        quiet = {p for p in quiet_set if rt0[p] == runtime(p)}
        check("ran-since [%s]: most untouched fixtures stayed asleep" % name,
              len(quiet) >= len(quiet_set) // 2,
              "%d of %d did not run" % (len(quiet), len(quiet_set)))
        # A fixture migrated since it went to sleep (the load balancer moves
        # a task that 6.12's delayed dequeue keeps queued) has its last-run
        # time zeroed: the spec keeps it, as a task that may have run.
        moved = {p for p in quiet if place0[p] != placement(p) or migrated_asleep(p)}
        still = sorted((got & quiet) - moved)
        check("ran-since [%s]: tasks that did not run are absent" % name, not still,
              "%d of %d present %s; %d records in all, %d in a full dump; migrated %s; "
              "stamp %.6f ms; %s"
              % (len(still), len(quiet), still, len(second), len(first), sorted(moved),
                 stamp / 1e6, "; ".join(sched_note(p) for p in still)))
        if scope == threads:
            # Unless it ran or was migrated (the same oracle as above).
            rt1, place1 = runtime(tt), placement(tt)
            tt_quiet = rt0[tt] == rt1 and place0[tt] == place1 and not migrated_asleep(tt)
            check("ran-since [threads]: the sleeping main thread of %d is absent" % tt,
                  tt not in got or not tt_quiet,
                  "absent" if tt not in got else
                  "present; its run time %s -> %s, (CPU, migrations) %s -> %s"
                  % (rt0[tt], rt1, place0[tt], place1))
        # With ran-since-idle: everything, idle ones flagged with pid and tgid only.
        before = {t["pid"] for t in c.request(scope=scope)}
        withidle = c.request(scope=scope, show=SHOW, raw_attrs=f_since(stamp, idle=True))
        after = {t["pid"] for t in c.request(scope=scope)}
        quiet = {p for p in quiet_set if rt0[p] == runtime(p)}
        pids = {t["pid"] for t in withidle}
        flagged = {t["pid"] for t in withidle if "ran_since_idle" in t}
        bad = [t["pid"] for t in withidle if "ran_since_idle" in t and
               ("base" in t or "cred" in t)]
        bad += [t["pid"] for t in withidle if "ran_since_idle" not in t and "base" not in t]
        check("ran-since-idle [%s]: idle records carry no group, others all" % name, not bad,
              "%s" % bad[:10])
        check("ran-since-idle [%s]: lists every task of full dumps around it" % name,
              (before & after) <= pids and pids <= (before | after),
              "missing %s, extra %s" % (sorted((before & after) - pids)[:10],
                                         sorted(pids - (before | after))[:10]))
        check("ran-since-idle [%s]: no task that ran is flagged idle" % name,
              not (ran & flagged), "ran but flagged %s" % sorted(ran & flagged))
        quiet -= {p for p in quiet if place0[p] != placement(p) or migrated_asleep(p)}
        check("ran-since-idle [%s]: fixtures that did not run flagged" % name,
              bool(quiet) and quiet <= flagged, "not flagged: %s of %d"
              % (sorted(quiet - flagged), len(quiet)))
        check("ran-since [%s]: a new stamp, later than the first" % name,
              stamp_of(withidle) is not None and stamp_of(withidle) > stamp)
    c.close()
    pop.end()
    os.close(tw)
    for p in (tt, busy):
        os.kill(p, signal.SIGKILL)
        os.waitpid(p, 0)


def sample_case(path):
    """taskdiag_sample_take_since(): idle tasks keep their previous record."""
    lib = tdlib.load(path)
    td, s1, s2 = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    if lib.taskdiag_open(ctypes.byref(td), tdlib.BACKEND_NETLINK) or \
            lib.taskdiag_sample_new(ctypes.byref(s1)) or lib.taskdiag_sample_new(ctypes.byref(s2)):
        check("sample: open the library", False)
        return
    vcs = lib.taskdiag_item_lookup(b"status.voluntary_ctxt_switches")
    req = tdlib.Request(scope=tdlib.SCOPE_ALL_PROCESSES,
                        groups=tdlib.GROUP_BASE | tdlib.GROUP_STATUS)
    n = 6
    pop = Population(n, 2)
    wakers, idle, doomed = pop.wakers, pop.idle, pop.doomed
    check("sample: fixtures set up and asleep", settle(wakers + idle + doomed))

    def records(s):
        out = {}
        for i in range(lib.taskdiag_sample_count(s)):
            t = lib.taskdiag_sample_task(s, i)
            v = ctypes.c_uint64()
            ok = lib.taskdiag_task_get_u64(t, vcs, ctypes.byref(v)) == 0
            out[lib.taskdiag_task_pid(t)] = v.value if ok else None
        return out
    n1 = lib.taskdiag_sample_take_since(td, ctypes.byref(req), None, s1)
    first = records(s1)
    check("sample: the first take_since reads every task, copies none",
          n1 > 0 and lib.taskdiag_sample_idle_count(s1) == 0 and
          set(wakers + idle + doomed) <= set(first), "%d records" % n1)
    pop.step(n // 2)
    # A waker's voluntary switch is counted when it blocks in read() again,
    # after its ack: wait until the woken ones sleep.
    settle(wakers[: n // 2])
    c = tdnl.Client()
    before = {t["pid"] for t in c.request(scope=tdnl.SCOPE["all_processes"])}
    n2 = lib.taskdiag_sample_take_since(td, ctypes.byref(req), s1, s2)
    after = {t["pid"] for t in c.request(scope=tdnl.SCOPE["all_processes"])}
    c.close()
    second = records(s2)
    copied = lib.taskdiag_sample_idle_count(s2)
    check("sample: the second lists the live tasks of full dumps around it",
          (before & after) <= set(second) <= (before | after),
          "%d records, %d copied; missing %s" % (n2, copied, sorted((before & after) -
                                                                     set(second))[:10]))
    check("sample: exited fixtures absent", not set(doomed) & set(second))
    check("sample: records copied for the idle fixtures at least", copied >= n,
          "%d copied of %d" % (copied, n2))
    grew = [p for p in wakers[: n // 2] if second.get(p) is not None and
            first.get(p) is not None and second[p] > first[p]]
    check("sample: woken fixtures have their new context-switch counts", len(grew) == n // 2,
          "%d of %d" % (len(grew), n // 2))
    same = [p for p in idle if second.get(p) == first.get(p) is not None]
    check("sample: idle fixtures keep their counts", len(same) == n,
          "%d of %d" % (len(same), n))
    pop.end()
    lib.taskdiag_sample_free(s1)
    lib.taskdiag_sample_free(s2)
    lib.taskdiag_close(td)


def hidepid_case():
    """hidepid=noaccess: a uid filter never matches a task the user may only list."""
    os.makedirs("/tmp/tdfilt-proc", exist_ok=True)
    if libc.mount(b"proc", b"/tmp/tdfilt-proc", b"proc", 0, b"hidepid=noaccess") != 0:
        check("mount a procfs with hidepid=noaccess", False, os.strerror(ctypes.get_errno()))
        return
    fd = os.open("/tmp/tdfilt-proc", os.O_RDONLY | os.O_DIRECTORY)

    def as_nobody():
        drop_to(65534)
        c = tdnl.Client()
        sc = tdnl.SCOPE["all_processes"]
        plain = c.request(scope=sc, show=SHOW, procfs_fd=fd)
        root_uid = c.request(scope=sc, show=SHOW, procfs_fd=fd, raw_attrs=f_uid([0]))
        by_pid = c.request(scope=sc, show=SHOW, procfs_fd=fd, raw_attrs=f_pid([1]))
        since = c.request(scope=sc, show=SHOW, procfs_fd=fd, raw_attrs=f_since(0))
        c.close()
        return ([t["pid"] for t in plain if "cred" not in t],
                [t["pid"] for t in root_uid], [(t["pid"], "cred" in t) for t in by_pid],
                [t["pid"] for t in since if "cred" not in t])
    listed, root_uid, by_pid, since = in_child(as_nobody)
    os.close(fd)
    libc.umount2(b"/tmp/tdfilt-proc", 0)
    check("hidepid=noaccess: root's tasks listed only, without groups", 1 in listed,
          "%d listed-only records" % len(listed))
    check("hidepid=noaccess: filter-uid [0] matches no listed-only task", not root_uid,
          "got %s" % root_uid[:10])
    check("hidepid=noaccess: ran-since keeps no listed-only task", not since,
          "got %s" % since[:10])
    check("hidepid=noaccess: filter-pid [1] gives pid 1 as a listed record",
          by_pid == [(1, False)], "got %r" % by_pid)


box = {}


def main():
    root = os.geteuid() == 0
    me = os.getpid()
    stop = threading.Event()

    def worker():
        box["tid"] = threading.get_native_id()
        set_comm("tdfilt-thread")
        stop.wait()
    th = threading.Thread(target=worker, daemon=True)
    th.start()
    while "tid" not in box:
        time.sleep(0.01)
    set_comm(COMM)
    cg = False
    fixtures = [sleeper(), sleeper(comm="tdfilt-other")]
    if root:
        os.makedirs(CG, exist_ok=True)
        if libc.mount(b"cgroup2", CG.encode(), b"cgroup2", 0, None) == 0 or \
                os.path.exists(CG + "/cgroup.procs"):
            os.makedirs(CG + "/tdfilt/a/b", exist_ok=True)
            cg = True
        check("cgroup2 mounted for the cgroup cases", cg)
        fixtures += [sleeper(uid=1001, cgroup=CG + "/tdfilt/a" if cg else None),
                     sleeper(uid=1001, euid=1003, cgroup=CG + "/tdfilt/a/b" if cg else None),
                     sleeper(uid=1002, comm="tdfilt-other")]
    time.sleep(0.5)
    print("# pid %d, thread %d, uid %d, fixtures %s" % (me, box["tid"], os.getuid(), fixtures),
          flush=True)
    try:
        filter_cases(me, fixtures, cg)
        ran_since_cases()
        sample_case(sys.argv[1])
        if root:
            hidepid_case()
    finally:
        stop.set()
        for p in fixtures:
            os.kill(p, signal.SIGKILL)
            os.waitpid(p, 0)
        if cg:
            for d in ("/tdfilt/a/b", "/tdfilt/a", "/tdfilt"):
                try:
                    os.rmdir(CG + d)
                except OSError:
                    pass
    failed = tally("filters")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
