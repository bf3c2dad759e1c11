#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Dumps work for every reader: small and large buffers, big tasks, readers
that go away, two readers on one socket.

Runs in the guest as root. What would be a bug:
- a 4 KiB reader of the fixed-size groups, a 32 KiB and a 1 MiB reader of
  every group getting different task sets, or any datagram truncated;
- a 1 MiB reader not getting batches (several tasks per datagram);
- a task with a 5000-byte command line and 1100 supplementary groups
  missing from a dump of every group, or its cmdline not capped at 4096
  bytes with cmdline_len its whole length (as /proc/PID/cmdline reads it),
  or cmdline_len sent with a cmdline that was not cut, or a do of that task
  with every group failing or differing from the dump, or ngroups not 1100
  with the first 1024 groups sent;
- the kernel logging anything (scripts/vm-run fails the run then) when a
  socket is closed mid-dump, a reader is killed mid-dump, or two threads
  read one socket.
"""
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import named as check, tally  # noqa: E402
import tdnl  # noqa: E402

FIXED = tdnl.SHOW["base"] | tdnl.SHOW["stat"] | tdnl.SHOW["statm"] | tdnl.SHOW["io"]


def dump(rcvbuf, show, scope="all_threads"):
    c = tdnl.Client(rcvbuf=rcvbuf)
    ts = c.request(scope=tdnl.SCOPE[scope], show=show)
    c.close()
    return ts, c


def main():
    groups = ",".join(str(g) for g in range(1, 1101))
    big = subprocess.Popen(["setpriv", "--groups=" + groups, "sh", "-c", "sleep 1000; :", "x" * 5000])
    sleepers = [subprocess.Popen(["sleep", "1000"]) for _ in range(40)]
    # Wait until setpriv has set the groups and started sh (slow under TCG).
    end = time.time() + 60
    while time.time() < end:
        try:
            if (open("/proc/%d/comm" % big.pid).read().strip() == "sh" and
                    all(open("/proc/%d/comm" % p.pid).read().strip() == "sleep" for p in sleepers)):
                break
        except OSError:
            pass
        time.sleep(0.2)
    time.sleep(0.5)
    try:
        small, c4 = dump(4096, FIXED)
        mid, c32 = dump(32768, tdnl.SHOW_ALL)
        large, c1m = dump(1 << 20, tdnl.SHOW_ALL)
        sets = [set(t["pid"] for t in x) for x in (small, mid, large)]
        check("4 KiB (fixed groups), 32 KiB and 1 MiB readers see the same tasks",
              sets[0] == sets[1] == sets[2], "%d / %d / %d tasks" % tuple(len(s) for s in sets))
        check("4 KiB reader: no datagram over 4 KiB", c4.max_datagram <= 4096,
              "largest %d bytes over %d datagrams" % (c4.max_datagram, c4.datagrams))
        per = len(large) / max(c1m.datagrams, 1)
        check("1 MiB reader gets batches", per >= 4,
              "%d tasks in %d datagrams (%.1f per datagram), largest %d bytes"
              % (len(large), c1m.datagrams, per, c1m.max_datagram))

        rec = [t for t in mid if t["pid"] == big.pid]
        ok = bool(rec)
        detail = "missing from the dump"
        if rec:
            r = rec[0]
            cmd, cred = r.get("cmdline", b""), r.get("cred", {})
            gl = [int.from_bytes(cred.get("groups", b"")[i:i + 4], "little")
                  for i in range(0, len(cred.get("groups", b"")), 4)]
            whole = open("/proc/%d/cmdline" % big.pid, "rb").read()
            ok = (len(cmd) == 4096 and cmd == whole[:4096] and len(whole) > 5000
                  and r.get("cmdline_len") == len(whole)
                  and cred.get("ngroups") == 1100 and gl == list(range(1, 1025)))
            detail = "cmdline %d bytes, cmdline_len %s (procfs %d), ngroups %s, %d groups sent" % (
                len(cmd), r.get("cmdline_len"), len(whole), cred.get("ngroups"), len(gl))
        check("a task with a 5000-byte cmdline and 1100 groups", ok, detail)
        # A do reply is sized from what it asks for: the largest task must fit.
        c = tdnl.Client(rcvbuf=1 << 16)
        try:
            one = c.request(scope=tdnl.SCOPE["task"], pid=big.pid, show=tdnl.SHOW_ALL, dump=False)
            same = (rec and len(one) == 1 and one[0].get("cmdline") == rec[0].get("cmdline")
                    and one[0]["cred"].get("groups") == rec[0]["cred"].get("groups")
                    and one[0].get("cmdline_len") == rec[0].get("cmdline_len"))
            detail = "%d replies" % len(one)
        except OSError as e:
            same, detail = False, str(e)
        c.close()
        check("a do of that task with every group carries the same cmdline and groups",
              same, detail)
        # cmdline_len goes with a cmdline cut at 4096 bytes, and only with one.
        bad = [t["pid"] for t in mid if "cmdline_len" in t and not (
            len(t.get("cmdline", b"")) == 4096 and t["cmdline_len"] > 4096)]
        check("cmdline_len only with a cut cmdline", not bad, "wrong for %s" % bad)

        # A socket closed mid-dump, by many readers in a row.
        for _ in range(200):
            c = tdnl.Client(rcvbuf=4096)
            c.send(c.family, tdnl.NLM_F_REQUEST | tdnl.NLM_F_DUMP,
                   tdnl.abi.enums["TASK_DIAG_CMD_GET"], 1,
                   tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_SHOW"],
                            tdnl.struct.pack("=I", tdnl.SHOW_ALL)))
            c.sock.recv(65536)
            c.close()
        check("200 sockets closed mid-dump", True)

        # Readers killed mid-dump.
        killed = 0
        for _ in range(20):
            p = subprocess.Popen([sys.executable, "-c",
                                  "import sys; sys.path.insert(0, %r)\nimport tdnl\n"
                                  "while True: tdnl.Client(4096).request(scope=2, show=%d)"
                                  % (os.path.dirname(os.path.abspath(__file__)), tdnl.SHOW_ALL)])
            time.sleep(0.3)
            p.send_signal(signal.SIGKILL)
            p.wait()
            killed += 1
        check("%d readers killed mid-dump" % killed, True)

        # Two threads reading one socket: replies interleave between them;
        # the kernel must not care (each may see errors or partial dumps).
        c = tdnl.Client(rcvbuf=32768)
        errs = []

        def reader():
            for _ in range(20):
                try:
                    c.request(scope=tdnl.SCOPE["all_threads"], show=tdnl.SHOW_ALL)
                except (OSError, ValueError) as e:
                    errs.append(type(e).__name__)
        c.sock.settimeout(5)
        ths = [threading.Thread(target=reader) for _ in range(2)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        c.close()
        check("two threads dumping on one socket", True, "%d requests saw errors (expected: "
              "they steal each other's replies)" % len(errs))
        after, _ = dump(32768, tdnl.SHOW_ALL)
        check("the family still answers", any(t["pid"] == os.getpid() for t in after))
    finally:
        for p in sleepers + [big]:
            p.kill()
            p.wait()
    failed = tally("readers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
