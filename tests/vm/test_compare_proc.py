#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every field the module sends equals what /proc shows for the same task.

Runs in the guest (through scripts/vm-run), as root or as any user, for one
scope. It starts a set of fixture tasks (sleeping, stopped, zombie, niced,
multi-threaded, with locked memory, another user's), then for each round reads /proc, dumps
over netlink with the independent client in tdnl.py, and reads /proc
again. A field passes when its value equals the first or the second procfs
reading or, for counters, lies between them; any other value is a bug in
the module (or in this oracle). Fixture tasks must match on every field;
tasks the system runs by itself may differ only in state, processor and
wchan, which move on their own. Guarded fields (io, addresses, wchan,
exit code) must be present exactly when procfs lets the caller read
/proc/PID/io, and absent otherwise. Fields the module never fills (statm's
lib and dt, which procfs always prints as 0; kstk_esp and kstk_eip, which
procfs fills only for a task exiting or dumping core) must be absent: their
mask bit clear and their bytes zero (tdnl checks the bytes).

The NS* arrays (one id per pid-namespace level, from the reader's down) must
equal status's NStgid, NSpid, NSpgid and NSsid lines and start with the
dump's own tgid, pid, pgid and sid. As root in the initial user namespace
one fixture runs in a pid namespace of its own (unshare --pid --fork):
seen from here it must have exactly two levels, its pid here and 1 there,
so a module that sent one level, or the levels of the wrong namespace,
fails whatever procfs says.

Usage: test_compare_proc.py [--rounds N] SCOPE...   (all_processes,
all_threads, task, threads, children; each in turn, failing if any fails;
3 rounds by default, at least 2: the task scope is asked as a dump and as a
do)
"""
import glob
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procfs  # noqa: E402
import tdnl  # noqa: E402

GUARDED_STAT = {"start_code", "end_code", "start_stack", "kstk_esp", "kstk_eip",
                "wchan", "start_data", "end_data", "start_brk", "arg_start",
                "arg_end", "env_start", "env_end", "exit_code"}
PF_KTHREAD = 0x00200000
# Built in, task_diag sends kernel threads' names as procfs does.
BUILT_IN = tdnl.built_in()
VOLATILE = {"state", "processor", "wchan"}
CMDLINE_CAP = 4096
# Never filled by the module: absent whatever procfs prints.
NOT_FILLED = {("statm", "lib"), ("statm", "dt"), ("stat", "kstk_esp"), ("stat", "kstk_eip")}
REFUSED = set()  # tasks whose io procfs refused the caller
# The NS* arrays, and the reply value their first element must equal.
NS_FIRST = {"ns_tgid": ("tgid",), "ns_pid": ("pid",), "ns_pgid": ("base", "pgid"),
            "ns_sid": ("base", "sid")}


def u32s(data):
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def spawn_fixtures():
    """Tasks whose every field is stable while the test runs."""
    procs = []
    sleep = ["sleep", "1000"]
    procs.append(subprocess.Popen(sleep))
    procs.append(subprocess.Popen(["nice", "-n", "7"] + sleep))
    stopped = subprocess.Popen(sleep)
    os.kill(stopped.pid, signal.SIGSTOP)
    procs.append(stopped)
    # A zombie: a shell whose child exits and is never reaped.
    procs.append(subprocess.Popen(["sh", "-c", "sleep 0 & exec sleep 1000"]))
    # Threads: python with 4 sleeping threads and a long argv.
    procs.append(subprocess.Popen([sys.executable, "-c",
                                   "import threading,time\n"
                                   "[threading.Thread(target=time.sleep,args=(1000,),daemon=True).start() for _ in range(4)]\n"
                                   "time.sleep(1000)", "x" * 300, "arg two"]))
    # Locked memory (VmLck, statm's locked): 16 pages mlock()ed, as any
    # user may (RLIMIT_MEMLOCK); exit code 3 if mlock() fails.
    procs.append(subprocess.Popen([sys.executable, "-c",
                                   "import ctypes,mmap,sys,time\n"
                                   "m = mmap.mmap(-1, 65536)\n"
                                   "a = ctypes.addressof(ctypes.c_char.from_buffer(m))\n"
                                   "libc = ctypes.CDLL(None, use_errno=True)\n"
                                   "libc.mlock.argtypes = (ctypes.c_void_p, ctypes.c_size_t)\n"
                                   "if libc.mlock(a, 65536):\n"
                                   "    sys.exit(3)\n"
                                   "time.sleep(1000)"]))
    if os.geteuid() == 0 and open("/proc/self/uid_map").read().split() == ["0", "0", "4294967295"]:
        # Another user's task, and a non-dumpable (set-uid style) one.
        procs.append(subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534",
                                       "--clear-groups"] + sleep))
        procs.append(subprocess.Popen(["setpriv", "--reuid=1", "--regid=1",
                                       "--groups=4,5,6"] + sleep))
        # In a pid namespace below ours, where its sleep is pid 1; it dies
        # with unshare (--kill-child), so killing the fixture leaves nothing.
        procs.append(subprocess.Popen(["unshare", "--pid", "--fork", "--kill-child"] + sleep))
    wait_settled(procs, threaded=procs[4].pid)
    locked = procfs.read_task("/proc/%d" % procs[5].pid)
    if not locked or not locked["status"].get("vm_lck"):
        raise SystemExit("the mlock fixture has no VmLck (exit code %r): the oracle of statm's "
                         "locked would be zero" % procs[5].poll())
    return procs


def nested_child(procs):
    """The pid (ours) of the sleep that unshare --pid --fork started, or None."""
    if not procs[-1].args[0] == "unshare":
        return None
    end = time.time() + 60
    while time.time() < end:
        for d in glob.glob("/proc/[0-9]*"):
            rec = procfs.read_task(d)
            if (rec and rec["base"]["ppid"] == procs[-1].pid and rec["base"]["comm"] == "sleep"
                    and chr(rec["base"]["state"]) == "S"):
                return rec["pid"]
        time.sleep(0.2)
    raise SystemExit("unshare --pid --fork started no sleep within 60 s")


def check_nested(pid, nl, before, errors):
    """The task of the nested pid namespace: two levels, ours then its own."""
    st = nl.get("status", {})
    for name in ("ns_tgid", "ns_pid"):
        v = u32s(st.get(name, b""))
        if v != [pid, 1]:
            errors.append("%d: nested pid namespace: %s netlink %s, want [%d, 1]" % (pid, name, v, pid))
        if before["status"].get(name) != [pid, 1]:
            errors.append("%d: nested pid namespace: procfs %s %s, want [%d, 1] (the oracle)"
                          % (pid, name, before["status"].get(name), pid))
    for name in ("ns_pgid", "ns_sid"):
        if len(u32s(st.get(name, b""))) != 2:
            errors.append("%d: nested pid namespace: %s netlink %s, want 2 levels"
                          % (pid, name, u32s(st.get(name, b""))))


def wait_settled(procs, threaded, timeout=60):
    """Wait until every fixture thread sleeps (or is stopped or a zombie),
    the threaded one has its 5 threads and the zombie exists: under TCG on
    a busy host, starting python alone can take seconds."""
    end = time.time() + timeout
    while time.time() < end:
        states = []
        for p in procs:
            for d in glob.glob("/proc/%d/task/*" % p.pid):
                rec = procfs.read_task(d)
                if rec:
                    states.append(chr(rec["base"]["state"]))
        zombies = [d for d in glob.glob("/proc/[0-9]*")
                   if (procfs.read_task(d) or {"base": {"ppid": 0}})["base"]["ppid"] in
                   {p.pid for p in procs}]
        if (all(s in "STZ" for s in states) and len(os.listdir("/proc/%d/task" % threaded)) == 5
                and zombies):
            time.sleep(0.2)
            return
        time.sleep(0.2)
    raise SystemExit("fixture tasks did not settle within %d s" % timeout)


def procfs_scope(scope, target):
    """{pid: record} for the tasks the scope covers, as procfs shows them."""
    if scope in ("all_threads", "threads"):
        pat = "/proc/%s/task/[0-9]*" % (target if scope == "threads" else "[0-9]*")
    elif scope == "task":
        pat = "/proc/%d" % target
    else:
        pat = "/proc/[0-9]*"
    out = {}
    for d in glob.glob(pat):
        rec = procfs.read_task(d)
        if rec is None:
            continue
        if scope == "children" and rec["base"]["ppid"] != target:
            continue
        out[rec["pid"]] = rec
    return out


def strip0(words):
    words = list(words)
    while words and not words[-1]:
        words.pop()
    return words


def close_enough(name, nv, bv, av):
    if nv == bv or nv == av:
        return True
    if isinstance(nv, int) and isinstance(bv, int) and isinstance(av, int):
        if name in procfs.TICKS:
            nv = nv // procfs.TICK_NS * procfs.TICK_NS
        return min(bv, av) <= nv <= max(bv, av)
    return False


def stat_permitted(before):
    """Did procfs let the caller see this task's guarded stat fields?

    True or False where procfs itself tells: /proc/PID/io readable implies
    the ptrace check passed; wchan reads 1 only when it passed; start_code
    and end_code both read 1 exactly when it failed for a task with an mm.
    None where it cannot tell (then any value sent must equal procfs's).
    """
    st = before["stat"]
    if "io" in before or st["wchan"] == 1:
        return True
    if st["start_code"] == 1 and st["end_code"] == 1:
        return False
    return None


def compare(pid, nl, before, after, fixture, errors):
    permitted = "io" in before
    stat_ok = stat_permitted(before)
    b_groups = ("base", "stat", "statm", "status", "cred", "io")
    for name, first in NS_FIRST.items():
        v = u32s(nl.get("status", {}).get(name, b""))
        want = nl[first[0]] if len(first) == 1 else nl.get(first[0], {}).get(first[1])
        if not v or v[0] != want:
            errors.append("%d: status.%s %s does not start with %s %r" % (pid, name, v, ".".join(first), want))
    for grp in b_groups:
        n = nl.get(grp)
        if grp == "status" and n is not None:
            # the pid arrays as lists, compared as a whole below
            n = dict(n, **{k: u32s(v) for k, v in n.items() if k in NS_FIRST})
        b, a = before.get(grp), after.get(grp)
        if grp == "io" and not permitted:
            REFUSED.add(pid)
            if n is not None:
                errors.append("%d: io sent to a caller procfs refuses (%s, state %s)" % (pid, before["base"]["comm"], chr(before["base"]["state"])))
            continue
        if n is None:
            errors.append("%d: group %s missing" % (pid, grp))
            continue
        for name in sorted(set(b) | set(n)):
            if (grp, name) in NOT_FILLED:
                if name in n:
                    errors.append("%d: %s.%s = %r sent, the module never fills it"
                                  % (pid, grp, name, n[name]))
                continue
            if grp == "stat" and name in GUARDED_STAT and not stat_ok:
                if name in n and stat_ok is False:
                    errors.append("%d: guarded stat.%s sent to a caller procfs refuses" % (pid, name))
                if name not in n:
                    continue
            if grp == "status" and name in ("cpus_allowed", "mems_allowed") and name in n:
                words = n[name]
                nvals = [int.from_bytes(words[i:i + 4], "little") for i in range(0, len(words), 4)]
                # procfs prints MAX_NUMNODES/nr_cpu_ids bits; compare without high zero words.
                if strip0(nvals) != strip0(b[name]):
                    errors.append("%d: %s.%s netlink %s procfs %s" % (pid, grp, name, nvals, b[name]))
                continue
            if grp == "cred" and name == "groups" and name in n:
                nv = [int.from_bytes(n[name][i:i + 4], "little") for i in range(0, len(n[name]), 4)]
                if nv != b[name][:1024]:
                    errors.append("%d: cred.groups netlink %s procfs %s" % (pid, nv, b[name]))
                continue
            if name not in n:
                errors.append("%d: %s.%s missing (procfs %r)" % (pid, grp, name, b.get(name)))
                continue
            if name not in b:
                errors.append("%d: %s.%s = %r sent, procfs has no such field" % (pid, grp, name, n[name]))
                continue
            if close_enough(name, n[name], b[name], a.get(name)):
                continue
            if name == "comm" and n["flags"] & PF_KTHREAD and (
                    b[name] != a.get(name) if BUILT_IN else b[name].startswith(n[name])):
                # procfs shows a kernel thread's full name (and a workqueue
                # worker's queue), kept where a module cannot reach them;
                # built in, task_diag sends them, and only a worker's name
                # that changed between the two readings is let go.
                continue
            if not fixture and name in VOLATILE:
                continue
            errors.append("%d: %s.%s netlink %r procfs %r then %r" % (pid, grp, name, n[name], b[name], a.get(name)))
    cmd = nl.get("cmdline", b"")
    if cmd != before["cmdline"][:CMDLINE_CAP] and cmd != after["cmdline"][:CMDLINE_CAP]:
        errors.append("%d: cmdline netlink %r procfs %r" % (pid, cmd[:80], before["cmdline"][:80]))


def run(scope, rounds):
    fixtures = spawn_fixtures()
    threaded = fixtures[4].pid
    target = {"task": threaded, "threads": threaded, "children": os.getpid()}.get(scope)
    fixture_pids = {p.pid for p in fixtures}
    for p in fixtures:
        fixture_pids.update(int(t) for t in os.listdir("/proc/%d/task" % p.pid))
    nested = nested_child(fixtures)
    if nested:
        fixture_pids.add(nested)
    nested_seen = 0
    me = os.getpid()
    client = tdnl.Client()
    errors, compared, fixtures_seen = [], 0, set()
    try:
        for rnd in range(rounds):
            before = procfs_scope(scope, target)
            # The task scope is tried as a dump and as a do.
            tasks = client.request(scope=tdnl.SCOPE[scope], pid=target, show=tdnl.SHOW_ALL,
                                   dump=not (scope == "task" and rnd % 2))
            after = procfs_scope(scope, target)
            pids = [t["pid"] for t in tasks]
            if pids != sorted(set(pids)):
                errors.append("pids not strictly ascending: %s" % pids[:50])
            got = {t["pid"]: t for t in tasks}
            stable = set(before) & set(after)
            missing = stable - set(got) - {me}
            if missing:
                errors.append("tasks alive throughout but not dumped: %s" % sorted(missing))
            # Nothing /proc does not show (e.g. tasks outside a pid namespace).
            extra = set(got) - set(before) - set(after)
            if extra:
                errors.append("dumped but never in /proc: %s" % sorted(extra))
            for pid in sorted(stable & set(got)):
                rec = procfs.read_task("/proc/%d" % pid)
                if pid == me or (rec and rec.get("tgid") == me):
                    continue
                compare(pid, got[pid], before[pid], after[pid], pid in fixture_pids, errors)
                if pid == nested:
                    check_nested(pid, got[pid], before[pid], errors)
                    nested_seen += 1
                compared += 1
                fixtures_seen.add(pid) if pid in fixture_pids else None
            if scope in ("task", "threads", "children") and not tasks:
                errors.append("empty dump for scope %s of %s" % (scope, target))
    finally:
        client.close()
        for p in fixtures:
            p.kill()
            p.wait()
    if nested and scope in ("all_processes", "all_threads") and nested_seen != rounds:
        errors.append("the nested pid namespace's task was compared in %d of %d rounds"
                      % (nested_seen, rounds))
    for e in errors[:60]:
        print("MISMATCH", e)
    print("compare_proc[%s] uid=%d: %d task records compared over %d rounds, %d fixture tasks, "
          "%d mismatches" % (scope, os.geteuid(), compared, rounds, len(fixtures_seen), len(errors)))
    print("  io refused by procfs (and absent from the dump) for %d tasks" % len(REFUSED))
    print("  a task of a nested pid namespace: %s" % (
        "pid %d, checked in %d rounds" % (nested, nested_seen) if nested
        else "not started (needs init-userns root)"))
    if not fixtures_seen:
        print("no fixture task was compared: the test itself is broken")
        return 1
    if os.geteuid() != 0 and scope in ("all_processes", "all_threads") and not REFUSED:
        print("an unprivileged caller was refused nothing: the permission path went untested")
        return 1
    return 1 if errors else 0


def main():
    """Each scope named on the command line in turn (one guest boot for all)."""
    rc = 0
    args, rounds = sys.argv[1:], 3
    if args[:1] == ["--rounds"] and len(args) > 1 and args[1].isdigit() and int(args[1]) >= 2:
        rounds, args = int(args[1]), args[2:]
    elif args[:1] == ["--rounds"]:
        print("usage: test_compare_proc.py [--rounds N (2 or more)] SCOPE...")
        return 2
    for scope in args or ["all_processes"]:
        REFUSED.clear()
        rc |= run(scope, rounds)
    return rc


if __name__ == "__main__":
    sys.exit(main())
