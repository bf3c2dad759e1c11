# SPDX-License-Identifier: GPL-2.0
"""The kernel's own netlink client decodes task_diag from the spec alone.

  test_ynl.py TOOLS SPEC      (in the guest, as root, module loaded)

TOOLS is the folder tests/spec/kernel-netlink-tools.sh prints (Debian's
linux-source-6.12 unpacked: tools/net/ynl and Documentation/netlink). Runs
its cli.py with --spec SPEC (validated against the kernel's schema):

  - a dump of all processes (base and cred), compared with /proc read just
    before and just after it (tests/vm/procfs.py): for every task seen both
    times, each compared field that did not change in between must equal
    /proc's value and have its mask bit set; fixture processes (one of them
    as uid 65534 with supplementary groups) must all be in it;
  - a do of the task scope for one fixture (base, cred, cmdline): its
    argument vector and identity;
  - a dump of the threads scope for this process: exactly its threads;
  - a do that the kernel must refuse (scope task without pid) fails with
    the kernel's error.

Each dump begins with the module's NLMSG_NOOP header (a genl header and no
attribute), which cli.py, decoding every message as the family's, gives
as one empty record: exactly one, first.

The spec's own enums give the mask bits, so nothing here knows the layout:
if cli.py decodes the right values, the spec describes what the module
sends.
"""
import json
import os
import subprocess
import sys
import threading
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forked  # noqa: E402
import procfs  # noqa: E402

FIXTURE_GROUPS = [4, 20, 100]
PF_KTHREAD = 0x00200000
fails = 0


def ok(msg):
    print("ok   - " + msg)


def bad(msg):
    global fails
    fails += 1
    print("FAIL - " + msg)


class Ynl:
    def __init__(self, tools, spec):
        self.cli = os.path.join(tools, "tools", "net", "ynl", "cli.py")
        self.schema = os.path.join(tools, "Documentation", "netlink",
                                   "genetlink-legacy.yaml")
        self.spec = spec

    def run(self, mode, req):
        cmd = [sys.executable, self.cli, "--spec", self.spec,
               "--schema", self.schema, "--" + mode, "get",
               "--json", json.dumps(req), "--output-json",
               # so that a pad attribute (where nla_reserve_64bit aligns)
               # decodes; compare() fails on any other unknown one
               "--process-unknown"]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        return subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=600)

    def get(self, mode, req):
        p = self.run(mode, req)
        if p.returncode != 0:
            raise RuntimeError("cli.py --%s get %s: exit %d: %s%s"
                               % (mode, json.dumps(req), p.returncode,
                                  p.stdout[-2000:], p.stderr[-2000:]))
        out = json.loads(p.stdout)
        if mode == "dump":
            # A dump's first message is an NLMSG_NOOP holding only a genl
            # header (the module writes no task under cb_lock); cli.py
            # decodes every message as the family's: one empty record,
            # exactly one, first.
            if not out or out[0] != {} or {} in out[1:]:
                raise ValueError("cli.py --dump get %s: not one empty record (the "
                                 "NLMSG_NOOP header) first: %s" % (json.dumps(req),
                                                                    str(out[:2])[:300]))
            return out[1:]
        return out if isinstance(out, list) else [out]


def mask_bits(spec_path):
    """{group: {field: bit}} from the spec's <group>-f enums."""
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    bits = {}
    for d in spec["definitions"]:
        if d["type"] == "struct":
            e = [x for x in spec["definitions"]
                 if x["name"] == d["name"] + "-f"][0]
            bits[d["name"]] = {n.replace("-", "_"): i
                               for i, n in enumerate(e["entries"])}
    return bits


def flat(msg):
    """A decoded reply as {(group, field): value}, fields in C spelling."""
    out = {}
    for k, v in msg.items():
        k = k.replace("-", "_")
        if isinstance(v, dict):
            for f, x in v.items():
                out[(k, f.replace("-", "_"))] = x
        else:
            out[(None, k)] = v
    return out


# (ynl group, field) -> (procfs.read_task group, field); None: top level.
COMPARED = [
    ((None, "pid"), (None, "pid")),
    ((None, "tgid"), (None, "tgid")),
    ((None, "comm"), ("base", "comm")),
    (("base", "ppid"), ("base", "ppid")),
    (("base", "pgid"), ("base", "pgid")),
    (("base", "sid"), ("base", "sid")),
    (("base", "tracer_pid"), ("base", "tracer_pid")),
    (("base", "tty_nr"), ("base", "tty_nr")),
    (("base", "tpgid"), ("base", "tpgid")),
    (("base", "num_threads"), ("base", "num_threads")),
    (("base", "start_time"), ("base", "start_time")),
    (("cred", "uid"), ("cred", "uid")),
    (("cred", "euid"), ("cred", "euid")),
    (("cred", "suid"), ("cred", "suid")),
    (("cred", "fsuid"), ("cred", "fsuid")),
    (("cred", "gid"), ("cred", "gid")),
    (("cred", "egid"), ("cred", "egid")),
    (("cred", "sgid"), ("cred", "sgid")),
    (("cred", "fsgid"), ("cred", "fsgid")),
    (("cred", "ngroups"), ("cred", "ngroups")),
    (("cred", "cap_inheritable"), ("cred", "cap_inheritable")),
    (("cred", "cap_permitted"), ("cred", "cap_permitted")),
    (("cred", "cap_effective"), ("cred", "cap_effective")),
    (("cred", "cap_bounding"), ("cred", "cap_bounding")),
    (("cred", "cap_ambient"), ("cred", "cap_ambient")),
    ((None, "groups"), ("cred", "groups")),
]


def oracle_value(rec, key):
    g, f = key
    if g is None:
        return rec.get(f)
    return rec.get(g, {}).get(f)


def start_time_ns(value):
    # procfs counts clock ticks: compare at that resolution
    return value // procfs.TICK_NS


# The groups each compared key comes with (the show bit it needs).
SHOWN_WITH = {(None, "comm"): "base", (None, "groups"): "cred"}


def compare(where, msg, before, after, bits, counts, shown):
    got = flat(msg)
    unknown = [k for k in msg if k.startswith("UnknownAttr")]
    if unknown:
        bad("%s: attributes the spec does not know: %s" % (where, unknown))
    for ykey, pkey in COMPARED:
        if SHOWN_WITH.get(ykey, ykey[0] or "base") not in shown:
            continue
        b, a = oracle_value(before, pkey), oracle_value(after, pkey)
        if b is None or b != a:
            continue  # procfs does not show it, or it changed meanwhile
        v = got.get(ykey)
        if ykey == ("base", "start_time") and v is not None:
            v, b = start_time_ns(v), start_time_ns(b)
        if ykey[0] is not None:
            mask = got.get((ykey[0], "mask"), 0)
            if not mask >> bits[ykey[0]][ykey[1]] & 1:
                bad("%s: %s.%s has its mask bit clear (mask %#x)"
                    % (where, ykey[0], ykey[1], mask))
                continue
        if ykey == (None, "comm") and isinstance(v, str) and \
                before["base"].get("flags", 0) & PF_KTHREAD and b.startswith(v):
            # procfs composes a kernel thread's longer name (a workqueue
            # worker's queue), which a module cannot reach: task->comm only
            counts[0] += 1
        elif v != b:
            bad("%s: %s is %r, /proc says %r" % (where, ".".join(
                x for x in ykey if x), v, b))
        else:
            counts[0] += 1


def snapshot(dirfmt, ids):
    return {i: procfs.read_task(dirfmt % i) for i in ids}


def fixture_sleeper(uid=None, groups=()):
    r, w = os.pipe()  # close-on-exec: EOF once the child has exec'd
    pid = os.fork()
    if pid == 0:
        os.close(r)
        if uid is not None:
            forked.drop_to(uid, groups)
        os.execv(sys.executable, [sys.executable, "-c",
                                  "import time; time.sleep(600)",
                                  "arg with space", ""])
    os.close(w)
    os.read(r, 1)
    os.close(r)
    return pid


def test_dump(ynl, bits, fixtures):
    pids = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    before = snapshot("/proc/%d", pids)
    reply = ynl.get("dump", {"scope": "all-processes",
                             "show": ["base", "cred"]})
    after = snapshot("/proc/%d", pids)
    counts = [0]
    seen = set()
    for msg in reply:
        pid = msg.get("pid")
        seen.add(pid)
        if before.get(pid) and after.get(pid):
            compare("dump pid %s" % pid, msg, before[pid], after[pid], bits,
                    counts, ("base", "cred"))
    missing = [p for p in fixtures if p not in seen]
    if missing:
        bad("dump: fixture processes %s missing" % missing)
    gone = [p for p in pids if before.get(p) and after.get(p)
            and p not in seen and before[p]["pid"] == before[p]["tgid"]]
    if gone:
        bad("dump: live processes %s missing" % gone)
    if counts[0] < 20 * len(fixtures):
        bad("dump: only %d values compared" % counts[0])
    else:
        ok("dump of %d processes: %d values equal /proc's, fixtures present"
           % (len(reply), counts[0]))


def test_do(ynl, bits, pid):
    before = procfs.read_task("/proc/%d" % pid)
    reply = ynl.get("do", {"scope": "task", "pid": pid,
                           "show": ["base", "cred", "cmdline"]})
    after = procfs.read_task("/proc/%d" % pid)
    if len(reply) != 1 or reply[0].get("pid") != pid:
        bad("do: expected one reply for pid %d, got %r" % (pid, reply))
        return
    counts = [0]
    compare("do pid %d" % pid, reply[0], before, after, bits, counts,
            ("base", "cred"))
    want = after["cmdline"].hex()
    if reply[0].get("cmdline") != want:
        bad("do: cmdline %r, /proc says %r" % (reply[0].get("cmdline"), want))
    elif reply[0].get("groups") != FIXTURE_GROUPS or \
            reply[0].get("cred", {}).get("uid") != 65534:
        bad("do: the uid 65534 fixture shows uid %r groups %r"
            % (reply[0].get("cred", {}).get("uid"), reply[0].get("groups")))
    else:
        ok("do of pid %d: %d values, cmdline, uid and groups equal /proc's"
           % (pid, counts[0]))


def test_threads(ynl, bits):
    stop = threading.Event()
    threads = [threading.Thread(target=stop.wait) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        me = os.getpid()
        tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % me))
        before = snapshot("/proc/%d/task/%%d" % me, tids)
        reply = ynl.get("dump", {"scope": "threads", "pid": me,
                                 "show": ["base"]})
        after = snapshot("/proc/%d/task/%%d" % me, tids)
    finally:
        stop.set()
        for t in threads:
            t.join()
    got = sorted(m.get("pid") for m in reply)
    if got != tids or any(m.get("tgid") != me for m in reply):
        bad("threads: tids %s, /proc/%d/task has %s" % (got, me, tids))
        return
    counts = [0]
    for m in reply:
        compare("thread %d" % m["pid"], m, before[m["pid"]],
                after[m["pid"]], bits, counts, ("base",))
    ok("threads of pid %d: tids %s, %d values equal /proc's"
       % (me, got, counts[0]))


def test_refused(ynl):
    p = ynl.run("do", {"scope": "task", "show": ["base"]})
    if p.returncode == 0:
        bad("a do of scope task without pid succeeded: %s" % p.stdout[:500])
    elif "error" not in (p.stdout + p.stderr).lower():
        bad("a refused do printed no error: %s %s" % (p.stdout, p.stderr))
    else:
        ok("a do of scope task without pid is refused: %s"
           % (p.stdout + p.stderr).strip().splitlines()[-1][:160])


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: test_ynl.py TOOLS SPEC\n")
        return 2
    ynl = Ynl(argv[1], argv[2])
    bits = mask_bits(argv[2])
    fixtures = [fixture_sleeper(), fixture_sleeper(65534, FIXTURE_GROUPS)]
    time.sleep(0.2)
    try:
        test_dump(ynl, bits, fixtures)
        test_do(ynl, bits, fixtures[1])
        test_threads(ynl, bits)
        test_refused(ynl)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        bad(str(e))
    finally:
        for p in fixtures:
            os.kill(p, 9)
            os.waitpid(p, 0)
    if fails:
        print("test_ynl: %d failure(s)" % fails)
        return 1
    print("test_ynl: cli.py decodes task_diag as /proc shows it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
