#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed task_diag requests are refused cleanly, and never hurt the module.

Runs in the guest (through scripts/vm-run), as root or as any user. It sends
requests that are wrong at every layer -- the generic netlink header (short,
unknown command, reserved bits), the attribute stream (unknown types, bad
lengths, NLA_F_NESTED garbage, trailing bytes), the policy (scope, pid and
show out of range) and the request's meaning (a pid missing or where none
belongs, a pid that names no task or no process, a scope that needs a dump
sent as a do) -- and checks that each one is answered with the expected
negative errno and, wherever the kernel is able to give one, a non-empty
extack message saying what was wrong. Then it sends 1,000 seeded random
garbage requests, each of which must get an error or a well-formed reply
within 10 s, and after each phase a valid dump of all processes must still
list this process. Every reply, whole dumps of all processes and all threads
included, is checked to carry each group struct at exactly its VER0 size,
with its __reserved bytes and every field whose mask bit is clear zero.

Any failure is a bug: a malformed request that is accepted, or refused with
another errno, breaks the ABI's promise that bad input is rejected with a
specific, explained error; a missing extack leaves users without the reason;
a hang, a malformed reply or a dump that stops working afterwards means the
module's state was damaged by the input (and a kernel warning makes vm-run
exit 120).

Replies are read with a reader of its own rather than tdnl.Client.recv_msgs:
that one assumes capped acks (it misreads the extack of an uncapped error,
which this socket gets) and ignores the errno an NLMSG_DONE can carry.

Usage: test_bad_requests.py
"""
import errno
import os
import random
import socket
import struct
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdnl  # noqa: E402

NLM_F_ROOT, NLM_F_ATOMIC = 0x100, 0x400
NLM_F_CAPPED = 0x100  # in the flags of an NLMSG_ERROR
NLMSG_HDRLEN = 16
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000
TIMEOUT = 10
# Random requests after the cases: argv[1] (default 1000).
FUZZ_ITERATIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
FUZZ_SEED = 0x7A5D1A6
# PID_MAX_LIMIT of include/linux/threads.h on 64-bit (4 * 1024 * 1024):
# the largest pid the request policy admits.
PID_MAX_LIMIT = 4 * 1024 * 1024
NO_SUCH_PID = 4000000

A_SCOPE = tdnl.abi.enums["TASK_DIAG_A_TASK_SCOPE"]
A_PID = tdnl.abi.enums["TASK_DIAG_A_TASK_PID"]
A_SHOW = tdnl.abi.enums["TASK_DIAG_A_TASK_SHOW"]
A_PROCFS_FD = tdnl.abi.enums["TASK_DIAG_A_TASK_PROCFS_FD"]
# The filters and ran-since (request attributes too).
A_F = {n: tdnl.abi.enums["TASK_DIAG_A_TASK_" + n] for n in (
    "FILTER_PID", "FILTER_UID", "FILTER_EUID", "FILTER_CGROUP_ID", "FILTER_CGROUP_PATH",
    "FILTER_COMM", "RAN_SINCE", "RAN_SINCE_IDLE")}
A_REQ_MAX = max([A_SCOPE, A_PID, A_SHOW, A_PROCFS_FD] + list(A_F.values()))
CMD_GET = tdnl.abi.enums["TASK_DIAG_CMD_GET"]
# The VMA dump has its own test (test_vma.py); these requests are get's.
CMD_GET_VMA = tdnl.abi.enums["TASK_DIAG_CMD_GET_VMA"]
CMD_UNUSED = max(v for n, v in tdnl.abi.enums.items() if n.startswith("TASK_DIAG_CMD_")) + 1
SCOPE = tdnl.SCOPE
SCOPE_MAX = max(SCOPE.values())
SHOW_ALL = tdnl.SHOW_ALL
# Errors a garbage request may legitimately get.
FUZZ_ERRNOS = {errno.EINVAL, errno.ERANGE, errno.ESRCH, errno.EOPNOTSUPP, errno.EBADF,
               errno.ENOENT}


def u32(v):
    return struct.pack("=I", v)


def a_scope(v):
    return tdnl.nla(A_SCOPE, u32(v))


def a_pid(v):
    return tdnl.nla(A_PID, u32(v))


def a_show(v):
    return tdnl.nla(A_SHOW, u32(v))


def raw_nla(atype, payload, declared=None):
    """An attribute whose nla_len may lie about its payload."""
    ln = 4 + len(payload) if declared is None else declared
    return struct.pack("=HH", ln, atype) + payload + b"\0" * ((-len(payload)) % 4)


def ename(e):
    if e == errno.EOPNOTSUPP:
        return "EOPNOTSUPP"  # errorcode says ENOTSUP, its alias on Linux
    return errno.errorcode.get(e, str(e)) if e else "0"


class Reply:
    """The outcome of one request: errno 0 and messages, or errno > 0."""

    def __init__(self):
        self.errno = 0
        self.extack = ""
        self.msgs = []  # genl payloads (genlmsghdr + attributes)
        self.hang = False
        self.bad = ""  # a malformed reply


def parse_tlvs(buf):
    for at, val in tdnl.parse_attrs(buf):
        if at == tdnl.NLMSGERR_ATTR_MSG:
            return val.split(b"\0", 1)[0].decode(errors="replace")
    return ""


class Conn:
    """Raw requests over the tdnl.Client's socket, with an exact reader."""

    def __init__(self):
        self.client = tdnl.Client(rcvbuf=1 << 17)
        self.sock = self.client.sock
        self.sock.settimeout(TIMEOUT)
        self.family = self.client.family

    def next_seq(self):
        self.client.seq += 1
        return self.client.seq

    def exchange(self, payload=b"", dump=True, cmd=CMD_GET, version=1, reserved=0,
                 flags=None, genlhdr=None, mtype=None):
        """Send one request and read its whole answer.

        flags defaults to REQUEST|ACK, plus DUMP for a dump; genlhdr, when
        given, replaces the packed (cmd, version, reserved) header as is.
        """
        if flags is None:
            flags = tdnl.NLM_F_REQUEST | tdnl.NLM_F_ACK | (tdnl.NLM_F_DUMP if dump else 0)
        if genlhdr is None:
            genlhdr = struct.pack("=BBH", cmd, version, reserved)
        body = genlhdr + payload
        seq = self.next_seq()
        mtype = self.family if mtype is None else mtype
        self.sock.send(struct.pack("=IHHII", NLMSG_HDRLEN + len(body), mtype, flags, seq, 0)
                       + body)
        return self.read(seq, flags, cmd)

    def read(self, seq, flags, cmd=CMD_GET):
        rep = Reply()
        is_dump = (flags & tdnl.NLM_F_DUMP) == tdnl.NLM_F_DUMP
        want_ack = bool(flags & tdnl.NLM_F_ACK)
        got_reply = noop = False
        while True:
            try:
                data, _, mflags, _ = self.sock.recvmsg(1 << 17)
            except socket.timeout:
                rep.hang = True
                return rep
            if mflags & socket.MSG_TRUNC:
                rep.bad = "reply truncated by recvmsg"
                return rep
            off = 0
            while off + NLMSG_HDRLEN <= len(data):
                ln, mtype, mfl, mseq, _ = struct.unpack_from("=IHHII", data, off)
                if ln < NLMSG_HDRLEN or off + ln > len(data):
                    rep.bad = "netlink message of length %d at %d of %d" % (ln, off, len(data))
                    return rep
                msg = data[off:off + ln]
                off += (ln + 3) & ~3
                if mseq != seq:
                    continue  # left over from an earlier, abandoned exchange
                try:
                    if mtype == tdnl.NLMSG_ERROR:
                        rep.errno = -struct.unpack_from("=i", msg, 16)[0]
                        if mfl & tdnl.NLM_F_ACK_TLVS:
                            if mfl & NLM_F_CAPPED:
                                tlv = 20 + NLMSG_HDRLEN
                            else:
                                olen = struct.unpack_from("=I", msg, 20)[0]
                                tlv = 20 + ((olen + 3) & ~3)
                            rep.extack = parse_tlvs(msg[tlv:])
                        if rep.errno == 0 and not (got_reply or is_dump or want_ack):
                            rep.bad = "unrequested ack"
                        return rep
                    if mtype == tdnl.NLMSG_DONE:
                        if not is_dump:
                            rep.bad = "NLMSG_DONE answering a do"
                        if len(msg) >= 20:
                            rep.errno = -struct.unpack_from("=i", msg, 16)[0]
                            if mfl & tdnl.NLM_F_ACK_TLVS:
                                rep.extack = parse_tlvs(msg[20:])
                        return rep
                except (ValueError, struct.error) as e:
                    rep.bad = "malformed error/done message: %s" % e
                    return rep
                if mtype == tdnl.NLMSG_NOOP and is_dump and not rep.msgs and not noop:
                    # A dump's first datagram: one NLMSG_NOOP holding a
                    # genl header of the dump's command, no attribute.
                    noop = True
                    if (ln != NLMSG_HDRLEN + 4 or not mfl & tdnl.NLM_F_MULTI
                            or msg[16] != cmd):
                        rep.bad = "dump header %r, flags %#x" % (msg, mfl)
                        return rep
                    continue
                if mtype != self.family:
                    rep.bad = "message of type %d" % mtype
                    return rep
                rep.msgs.append(msg[16:])
                if is_dump and not mfl & tdnl.NLM_F_MULTI:
                    rep.bad = "dump reply without NLM_F_MULTI"
                    return rep
                if not is_dump:
                    if got_reply:
                        rep.bad = "more than one reply to a do"
                        return rep
                    got_reply = True
                    if not want_ack:
                        return rep

    @staticmethod
    def tasks(rep):
        """Decode the reply messages; raise ValueError when malformed."""
        out = []
        for m in rep.msgs:
            if len(m) < 4 or m[0] != CMD_GET:
                raise ValueError("reply with genl header %r" % m[:4])
            t = tdnl.decode("TASK", m[4:])
            if "pid" not in t or "tgid" not in t:
                raise ValueError("reply without pid or tgid: %r" % t)
            out.append(t)
        return out


class Runner:
    def __init__(self):
        self.conn = Conn()
        self.cases = 0
        self.failed = 0

    def result(self, name, ok, text):
        self.cases += 1
        if not ok:
            self.failed += 1
        print("%s %s: %s" % ("ok" if ok else "FAIL", name, text), flush=True)

    def expect(self, name, want, ext=True, **kw):
        """Send a request; want an errno (> 0) and, if ext, an extack.

        ext: True (any non-empty message), a string the message must
        contain (case-insensitive), or None where the kernel sets none.
        """
        rep = self.conn.exchange(**kw)
        got = "errno %s, extack '%s'" % (ename(rep.errno), rep.extack)
        if rep.hang:
            return self.result(name, False, "no answer within %d s" % TIMEOUT)
        if rep.bad:
            return self.result(name, False, "malformed answer (%s); %s" % (rep.bad, got))
        problems = []
        if rep.errno != want:
            problems.append("want errno %s" % ename(want))
        if ext and not rep.extack:
            problems.append("want an extack message")
        elif isinstance(ext, str) and ext.lower() not in rep.extack.lower():
            problems.append("want an extack mentioning '%s'" % ext)
        if problems:
            return self.result(name, False, "%s; got %s (%d replies)"
                               % (", ".join(problems), got, len(rep.msgs)))
        self.result(name, True, got)

    def expect_tasks(self, name, check, **kw):
        """Send a valid request; check(tasks) returns an error text or None."""
        rep = self.conn.exchange(**kw)
        if rep.hang:
            return self.result(name, False, "no answer within %d s" % TIMEOUT)
        if rep.bad or rep.errno:
            return self.result(name, False, "want success; got errno %s, extack '%s' %s"
                               % (ename(rep.errno), rep.extack, rep.bad))
        try:
            tasks = Conn.tasks(rep)
        except ValueError as e:
            return self.result(name, False, "malformed reply: %s" % e)
        err = check(tasks)
        if err:
            return self.result(name, False, err)
        self.result(name, True, "errno 0, %d tasks" % len(tasks))

    def valid_dump(self, name):
        me = os.getpid()

        def check(tasks):
            if not any(t["pid"] == me and t["tgid"] == me for t in tasks):
                return "own pid %d missing from %d tasks" % (me, len(tasks))
            return None
        self.expect_tasks(name, check, payload=a_scope(SCOPE["all_processes"])
                          + a_show(SHOW_ALL))


def policy_cases():
    """(name, payload, errno, extack): refused by the request policy."""
    task = SCOPE["task"]
    garbage = bytes(range(0xF0, 0x100)) + b"\xff\xff\xff\xff"
    return [
        ("unknown attribute type %d" % (A_REQ_MAX + 1),
         tdnl.nla(A_REQ_MAX + 1, u32(1)), errno.EINVAL, True),
        ("attribute type 0", tdnl.nla(0, u32(1)), errno.EINVAL, True),
        # Requests and replies share one attribute set: reply-only ones are refused.
        ("reply-only attribute tgid in a request",
         a_scope(task) + a_pid(os.getpid()) + tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_TGID"],
                                                       u32(os.getpid())), errno.EINVAL, True),
        ("reply-only struct base in a request",
         tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_BASE"], bytes(tdnl.abi.structs["base"].size)),
         errno.EINVAL, True),
        ("reply-only base with NLA_F_NESTED in a request",
         tdnl.nla(tdnl.abi.enums["TASK_DIAG_A_TASK_BASE"] | NLA_F_NESTED, b""), errno.EINVAL, True),
        ("unknown attribute type 0x3fff", tdnl.nla(0x3FFF, b""), errno.EINVAL, True),
        ("valid attributes then unknown type",
         a_scope(task) + a_pid(os.getpid()) + tdnl.nla(A_REQ_MAX + 1, u32(0)), errno.EINVAL, True),
        ("scope 0", a_scope(0), errno.ERANGE, True),
        ("scope %d" % (SCOPE_MAX + 1), a_scope(SCOPE_MAX + 1), errno.ERANGE, True),
        ("scope 0xffffffff", a_scope(0xFFFFFFFF), errno.ERANGE, True),
        ("show bit 1<<20", a_show(1 << 20), errno.EINVAL, True),
        ("show all|%#x" % (SHOW_ALL + 1), a_show(SHOW_ALL | (SHOW_ALL + 1)), errno.EINVAL, True),
        ("show 0xffffffff", a_show(0xFFFFFFFF), errno.EINVAL, True),
        ("scope of 2 bytes", tdnl.nla(A_SCOPE, b"\x03\x00"), errno.EINVAL, True),
        ("scope of 8 bytes", tdnl.nla(A_SCOPE, struct.pack("=Q", task)), errno.EINVAL, True),
        ("scope of 0 bytes", tdnl.nla(A_SCOPE, b""), errno.EINVAL, True),
        ("pid of 2 bytes", a_scope(task) + tdnl.nla(A_PID, b"\x01\x00"), errno.EINVAL, True),
        ("show of 1 byte", tdnl.nla(A_SHOW, b"\x01"), errno.EINVAL, True),
        ("pid 0", a_scope(task) + a_pid(0), errno.ERANGE, True),
        ("pid %d" % (PID_MAX_LIMIT + 1), a_scope(task) + a_pid(PID_MAX_LIMIT + 1),
         errno.ERANGE, True),
        ("pid 0xffffffff", a_scope(task) + a_pid(0xFFFFFFFF), errno.ERANGE, True),
        ("scope u32 with NLA_F_NESTED", tdnl.nla(A_SCOPE | NLA_F_NESTED, u32(task)),
         errno.EINVAL, True),
        ("scope with NLA_F_NESTED and nested garbage",
         tdnl.nla(A_SCOPE | NLA_F_NESTED, tdnl.nla(1, u32(1)) + garbage), errno.EINVAL, True),
        ("unknown nest of garbage",
         tdnl.nla((A_REQ_MAX + 1) | NLA_F_NESTED, garbage), errno.EINVAL, True),
        ("nla_len 2 (shorter than its header)",
         a_scope(task) + raw_nla(A_PID, u32(1), declared=2), errno.EINVAL, True),
        ("nla_len past the end of the message",
         a_scope(task) + raw_nla(A_PID, u32(1), declared=200), errno.EINVAL, True),
        ("2 trailing bytes after the attributes", a_scope(task) + b"\x01\x00",
         errno.EINVAL, True),
    ]


def filter_cases(r, me):
    """The filters and ran-since: bad values, refused with a reason. The
    policy's range checks give ERANGE for an array length outside 4..4096
    bytes (as for an integer out of range) and for a flag with a payload,
    on 6.1 and 6.12 alike; the module's own checks EINVAL."""
    f = A_F
    u64 = lambda v: struct.pack("=Q", v)  # noqa: E731
    cases = [
        ("filter-pid of 0 bytes", tdnl.nla(f["FILTER_PID"], b""), errno.ERANGE, True),
        ("filter-pid of 3 bytes", tdnl.nla(f["FILTER_PID"], b"\x01\x00\x00"), errno.ERANGE, True),
        ("filter-pid of 6 bytes", tdnl.nla(f["FILTER_PID"], u32(1) + b"\x01\x00"),
         errno.EINVAL, "u32"),
        ("filter-pid of 1025 pids", tdnl.nla(f["FILTER_PID"], u32(1) * 1025), errno.ERANGE, True),
        ("filter-pid with pid 0", tdnl.nla(f["FILTER_PID"], u32(me) + u32(0)), errno.EINVAL,
         "pid"),
        ("filter-pid with pid %d" % (PID_MAX_LIMIT + 1),
         tdnl.nla(f["FILTER_PID"], u32(PID_MAX_LIMIT + 1)), errno.EINVAL, "pid"),
        ("filter-uid of 0 bytes", tdnl.nla(f["FILTER_UID"], b""), errno.ERANGE, True),
        ("filter-uid of 5 bytes", tdnl.nla(f["FILTER_UID"], u32(0) + b"\x00"), errno.EINVAL,
         "u32"),
        ("filter-euid of 4100 bytes", tdnl.nla(f["FILTER_EUID"], u32(0) * 1025), errno.ERANGE,
         True),
        ("filter-cgroup-id 0", tdnl.nla(f["FILTER_CGROUP_ID"], u64(0)), errno.ERANGE, True),
        ("filter-cgroup-id of 4 bytes", tdnl.nla(f["FILTER_CGROUP_ID"], u32(1)), errno.EINVAL,
         True),
        ("filter-cgroup-id that names no cgroup",
         tdnl.nla(f["FILTER_CGROUP_ID"], u64(0x7FFFFFFFFFFF)), errno.ENOENT, "cgroup"),
        ("filter-cgroup-path not absolute", tdnl.nla(f["FILTER_CGROUP_PATH"], b"a/b\0"),
         errno.EINVAL, "/"),
        ("filter-cgroup-path empty", tdnl.nla(f["FILTER_CGROUP_PATH"], b"\0"), errno.EINVAL, "/"),
        ("filter-cgroup-path without NUL", tdnl.nla(f["FILTER_CGROUP_PATH"], b"/abc"),
         errno.EINVAL, True),
        ("filter-cgroup-path of 4096 bytes",
         tdnl.nla(f["FILTER_CGROUP_PATH"], b"/" + b"a" * 4095 + b"\0"), errno.EINVAL, True),
        ("filter-cgroup-path that names no cgroup",
         tdnl.nla(f["FILTER_CGROUP_PATH"], b"/no-such-cgroup-tdbad\0"), errno.ENOENT, "cgroup"),
        ("filter-cgroup-id and filter-cgroup-path",
         tdnl.nla(f["FILTER_CGROUP_ID"], u64(1)) + tdnl.nla(f["FILTER_CGROUP_PATH"], b"/\0"),
         errno.EINVAL, "not both"),
        ("filter-comm empty", tdnl.nla(f["FILTER_COMM"], b"\0"), errno.EINVAL, "comm"),
        ("filter-comm of 64 bytes", tdnl.nla(f["FILTER_COMM"], b"c" * 64 + b"\0"), errno.EINVAL,
         True),
        ("filter-comm of 16 bytes (a comm has at most 15)",
         tdnl.nla(f["FILTER_COMM"], b"c" * 16 + b"\0"), errno.EINVAL, True),
        ("filter-comm without NUL", tdnl.nla(f["FILTER_COMM"], b"bash"), errno.EINVAL, True),
        ("ran-since of 4 bytes", tdnl.nla(f["RAN_SINCE"], u32(1)), errno.EINVAL, True),
        ("ran-since-idle without ran-since", tdnl.nla(f["RAN_SINCE_IDLE"], b""), errno.EINVAL,
         "ran-since"),
        ("ran-since-idle with a payload",
         tdnl.nla(f["RAN_SINCE"], u64(0)) + tdnl.nla(f["RAN_SINCE_IDLE"], u32(1)),
         errno.ERANGE, True),
    ]
    for name, payload, want, ext in cases:
        r.expect("%s [dump]" % name, want, ext=ext, payload=payload)
    # Filters need a dump: each one in a do is refused, saying so.
    for name, payload in (("filter-pid", tdnl.nla(f["FILTER_PID"], u32(me))),
                          ("filter-uid", tdnl.nla(f["FILTER_UID"], u32(os.getuid()))),
                          ("filter-comm", tdnl.nla(f["FILTER_COMM"], b"python3\0")),
                          ("ran-since", tdnl.nla(f["RAN_SINCE"], u64(0)))):
        r.expect("%s in a do" % name, errno.EINVAL, ext="dump", dump=False,
                 payload=a_scope(SCOPE["task"]) + a_pid(me) + payload)
    # Control: a valid filter finds this process.
    r.expect_tasks("control: filter-pid of this process [dump]",
                   lambda ts: None if [t["pid"] for t in ts] == [me]
                   else "want one reply for %d, got %r" % (me, [t["pid"] for t in ts]),
                   payload=tdnl.nla(f["FILTER_PID"], u32(me) + u32(NO_SUCH_PID)))


def run_cases(r, tid):
    me = os.getpid()
    sc = SCOPE

    # Layer 1: the generic netlink header.
    for mode, dump in (("do", False), ("dump", True)):
        flags = tdnl.NLM_F_REQUEST | tdnl.NLM_F_ACK | (tdnl.NLM_F_DUMP if dump else 0)
        # The core answers these without a message (nlmsg_len short of
        # GENL_HDRLEN; unknown command), hence ext=None.
        r.expect("truncated genl header, 2 of 4 bytes [%s]" % mode, errno.EINVAL, ext=None,
                 genlhdr=struct.pack("=BB", CMD_GET, 1), flags=flags)
        r.expect("no genl header [%s]" % mode, errno.EINVAL, ext=None,
                 genlhdr=b"", flags=flags)
        for cmd in (0, CMD_UNUSED, 99, 255):
            r.expect("command %d [%s]" % (cmd, mode), errno.EOPNOTSUPP, ext=None,
                     cmd=cmd, dump=dump, payload=a_scope(sc["task"]) + a_pid(me))
        # resv_start_op = TASK_DIAG_CMD_GET: the core checks the header.
        for resv in (1, 0x8000):
            r.expect("genlmsghdr.reserved %#x [%s]" % (resv, mode), errno.EINVAL,
                     reserved=resv, dump=dump, payload=a_scope(sc["task"]) + a_pid(me))
    for extra in (NLM_F_ROOT, NLM_F_ATOMIC):
        r.expect("nlmsg_flags with %#x [do]" % extra, errno.EINVAL,
                 flags=tdnl.NLM_F_REQUEST | tdnl.NLM_F_ACK | extra,
                 dump=False, payload=a_scope(sc["task"]) + a_pid(me))

    # Layer 2: the attributes, against td_req_policy.
    for name, payload, want, ext in policy_cases():
        for mode, dump in (("do", False), ("dump", True)):
            r.expect("%s [%s]" % (name, mode), want, ext=ext, dump=dump, payload=payload)

    # Layer 3: the request's meaning, as td_parse_req() checks it.
    r.expect("no attributes (scope task) without pid [do]", errno.EINVAL, ext="pid",
             dump=False, payload=b"")
    r.expect("scope task without pid [do]", errno.EINVAL, ext="pid",
             dump=False, payload=a_scope(sc["task"]) + a_show(SHOW_ALL))
    for s in ("task", "threads", "children"):
        r.expect("scope %s without pid [dump]" % s, errno.EINVAL, ext="pid",
                 payload=a_scope(sc[s]) + a_show(SHOW_ALL))
    for s in ("all_processes", "all_threads"):
        r.expect("scope %s with pid [dump]" % s, errno.EINVAL, ext="pid",
                 payload=a_scope(sc[s]) + a_pid(me))
    r.expect("no scope (all_processes) with pid [dump]", errno.EINVAL, ext="pid",
             payload=a_pid(me))
    for s in ("all_processes", "all_threads", "threads", "children"):
        pid = a_pid(me) if s in ("threads", "children") else b""
        r.expect("scope %s without NLM_F_DUMP [do]" % s, errno.EINVAL, ext="dump",
                 dump=False, payload=a_scope(sc[s]) + pid)
    for pid in (NO_SUCH_PID, PID_MAX_LIMIT):
        r.expect("nonexistent pid %d, scope task [do]" % pid, errno.ESRCH, ext="pid",
                 dump=False, payload=a_scope(sc["task"]) + a_pid(pid))
        for s in ("task", "threads", "children"):
            r.expect("nonexistent pid %d, scope %s [dump]" % (pid, s), errno.ESRCH,
                     ext="pid", payload=a_scope(sc[s]) + a_pid(pid))
    for s in ("threads", "children"):
        r.expect("scope %s with non-leader thread %d [dump]" % (s, tid), errno.ESRCH,
                 ext="pid", payload=a_scope(sc[s]) + a_pid(tid))

    # procfs-fd: an open file of a procfs mount, nothing else.
    bad_fd = 999999  # below the fd limit's ceiling, and not open here
    try:
        os.fstat(bad_fd)
        raise RuntimeError("fd %d is open" % bad_fd)
    except OSError:
        pass
    not_proc = os.open("/dev/null", os.O_RDONLY)
    proc_fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
    for mode, dump in (("do", False), ("dump", True)):
        scope = a_scope(sc["task"]) + a_pid(me)
        r.expect("procfs-fd %d, not open [%s]" % (bad_fd, mode), errno.EBADF, ext="procfs-fd",
                 dump=dump, payload=scope + tdnl.nla(A_PROCFS_FD, u32(bad_fd)))
        r.expect("procfs-fd of /dev/null [%s]" % mode, errno.EINVAL, ext="procfs",
                 dump=dump, payload=scope + tdnl.nla(A_PROCFS_FD, u32(not_proc)))
        r.expect("procfs-fd 0x80000000 [%s]" % mode, errno.ERANGE, ext=True,
                 dump=dump, payload=scope + tdnl.nla(A_PROCFS_FD, u32(0x80000000)))
        r.expect("procfs-fd of 2 bytes [%s]" % mode, errno.EINVAL, ext=True,
                 dump=dump, payload=scope + tdnl.nla(A_PROCFS_FD, b"\x01\x00"))
    r.expect_tasks("control: procfs-fd of /proc [dump]",
                   lambda ts: None if [t["pid"] for t in ts] == [me]
                   else "want one reply for %d, got %r" % (me, ts),
                   payload=a_scope(sc["task"]) + a_pid(me) + tdnl.nla(A_PROCFS_FD, u32(proc_fd)))
    os.close(not_proc)
    os.close(proc_fd)

    # Controls: the same thread id is valid where a task is wanted, and the
    # process's threads include it, so the refusals above are about scope.
    r.expect_tasks("control: scope task with thread %d [do]" % tid,
                   lambda ts: None if [(t["pid"], t["tgid"]) for t in ts] == [(tid, me)]
                   else "want one reply for %d/%d, got %r" % (tid, me, ts),
                   dump=False, payload=a_scope(sc["task"]) + a_pid(tid))
    r.expect_tasks("control: scope threads of %d lists %d [dump]" % (me, tid),
                   lambda ts: None if tid in [t["pid"] for t in ts]
                   else "thread %d missing from %r" % (tid, [t["pid"] for t in ts]),
                   payload=a_scope(sc["threads"]) + a_pid(me))


def struct_checks(r):
    """Every struct in a dump: exactly VER0 bytes, reserved bytes and the
    fields whose mask bit is clear zero, no mask bit without a field, each
    group asked for present (io only where permitted)."""
    # the structs of task records (struct vma belongs to get-vma)
    groups = [n for n in tdnl.abi.structs if "TASK_DIAG_A_TASK_" + n.upper() in tdnl.abi.enums]
    a_type = {tdnl.abi.enums["TASK_DIAG_A_TASK_" + n.upper()]: n for n in groups}
    for scope in ("all_processes", "all_threads"):
        for show_name, show in (("all groups", SHOW_ALL),
                                ("stat alone", tdnl.SHOW["stat"])):
            rep = r.conn.exchange(payload=a_scope(SCOPE[scope]) + a_show(show))
            name = "struct sizes and zero bytes, scope %s, %s" % (scope, show_name)
            if rep.hang or rep.bad or rep.errno:
                r.result(name, False, "dump failed: errno %s %s" % (ename(rep.errno), rep.bad))
                continue
            problems, structs, io, mem = [], 0, 0, 0
            # io (guarded) and mem (no mm: kernel threads) may be absent
            want = {n for n in groups if show & tdnl.SHOW[n] and n not in ("io", "mem")}
            for m in rep.msgs:
                got, pid = [], None
                for at, data in tdnl.parse_attrs(m[4:]):
                    if at == A_PID:
                        pid = struct.unpack("=I", data)[0]
                    if at not in a_type:
                        continue
                    got.append(a_type[at])
                    structs += 1
                    problems += ["pid %s: %s" % (pid, p)
                                 for p in tdnl.abi.structs[a_type[at]].problems(data)]
                io += got.count("io")
                mem += got.count("mem")
                if sorted(got) != sorted(set(got)) or not want <= set(got):
                    problems.append("pid %s: structs %s, want each of %s once"
                                    % (pid, got, sorted(want)))
                if not show & tdnl.SHOW["io"] and "io" in got:
                    problems.append("pid %s: io not asked for" % pid)
            if show & tdnl.SHOW["io"] and not io:
                problems.append("no task carried io")
            if show & tdnl.SHOW["mem"] and not mem:
                problems.append("no task carried mem")
            for p in problems[:20]:
                print("  " + p)
            r.result(name, not problems and len(rep.msgs) > 0,
                     "%d tasks, %d structs, %d problems" % (len(rep.msgs), structs, len(problems)))


def threads_scope_checks(r):
    """The threads scope lists exactly /proc/self/task, for a process of a
    few threads (the module walks its thread list) and of 300 (it walks
    the namespace's pids)."""
    me = os.getpid()
    stop = threading.Event()
    extra = []
    for want in (0, 300):
        old = threading.stack_size(64 * 1024)
        while len(extra) < want:
            t = threading.Thread(target=stop.wait, daemon=True)
            t.start()
            extra.append(t)
        threading.stack_size(old)
        listed = sorted(int(x) for x in os.listdir("/proc/self/task"))
        r.expect_tasks("scope threads of a process with %d threads [dump]" % len(listed),
                       lambda ts: None if [t["pid"] for t in ts] == listed
                       and all(t["tgid"] == me for t in ts)
                       else "want %s, got %s" % (listed, [t["pid"] for t in ts]),
                       payload=a_scope(SCOPE["threads"]) + a_pid(me) + a_show(tdnl.SHOW["base"]))
    stop.set()
    for t in extra:
        t.join()


def fuzz_attr(rng, me, tid):
    """One attribute, sometimes plausible, often not."""
    roll = rng.random()
    if roll < 0.45:
        atype = rng.randint(0, A_REQ_MAX + 1)
    elif roll < 0.6:
        atype = rng.randint(0, 0x3FFF)
    else:
        atype = rng.randint(1, A_REQ_MAX)
    if rng.random() < 0.1:
        atype |= rng.choice((NLA_F_NESTED, NLA_F_NET_BYTEORDER))
    if rng.random() < 0.5:
        # A u32 with a value near the interesting ones.
        t = atype & 0x3FFF
        if t == A_SCOPE:
            v = rng.randint(0, SCOPE_MAX + 1)
        elif t == A_PID:
            v = rng.choice((0, 1, me, tid, NO_SUCH_PID, PID_MAX_LIMIT, PID_MAX_LIMIT + 1,
                            rng.randint(0, 0xFFFFFFFF)))
        elif t == A_SHOW:
            v = rng.choice((0, SHOW_ALL, rng.randint(0, SHOW_ALL), 1 << rng.randint(0, 31)))
        else:
            v = rng.randint(0, 0xFFFFFFFF)
        payload = u32(v)
    else:
        n = rng.choice((0, 1, 2, 3, 4, 5, 8, rng.randint(0, 64)))
        payload = bytes(rng.getrandbits(8) for _ in range(n))
    declared = None
    if rng.random() < 0.08:
        declared = rng.choice((0, 1, 3, rng.randint(0, 0xFFFF)))
    return raw_nla(atype, payload, declared)


def fuzz(r, tid):
    rng = random.Random(FUZZ_SEED)
    me = os.getpid()
    errs, valid, failures = {}, 0, []
    for i in range(FUZZ_ITERATIONS):
        payload = b"".join(fuzz_attr(rng, me, tid) for _ in range(rng.randint(0, 6)))
        if rng.random() < 0.05:
            payload += bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3)))
        dump = rng.random() < 0.6
        kw = dict(payload=payload, dump=dump)
        roll = rng.random()
        if roll < 0.05:
            kw["cmd"] = rng.choice([c for c in range(256) if c != CMD_GET_VMA])
        elif roll < 0.08:
            kw["reserved"] = rng.randint(1, 0xFFFF)
        elif roll < 0.10:
            kw["genlhdr"] = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 3)))
            kw["payload"] = b""
        elif roll < 0.13:
            kw["version"] = rng.randint(0, 255)
        rep = r.conn.exchange(**kw)
        what = None
        if rep.hang:
            what = "no answer within %d s" % TIMEOUT
        elif rep.bad:
            what = "malformed answer: %s" % rep.bad
        elif rep.errno:
            if rep.errno not in FUZZ_ERRNOS:
                what = "unexpected errno %s, extack '%s'" % (ename(rep.errno), rep.extack)
            errs[rep.errno] = errs.get(rep.errno, 0) + 1
        else:
            try:
                Conn.tasks(rep)
                valid += 1
            except ValueError as e:
                what = "malformed reply: %s" % e
        if what:
            failures.append("iteration %d (%s, %s): %s"
                            % (i, "dump" if dump else "do",
                               (kw.get("genlhdr", b"") + payload).hex(), what))
            if rep.hang:
                break  # the socket is wedged; the final dump says more
    for f in failures[:20]:
        print("  fuzz: " + f)
    summary = "%d valid replies, errors %s" % (
        valid, ", ".join("%s %d" % (ename(e), n) for e, n in sorted(errs.items())))
    if failures:
        r.result("fuzz %d payloads (seed %#x)" % (FUZZ_ITERATIONS, FUZZ_SEED), False,
                 "%d bad answers; %s" % (len(failures), summary))
    else:
        r.result("fuzz %d payloads (seed %#x)" % (FUZZ_ITERATIONS, FUZZ_SEED), True, summary)


def main():
    r = Runner()
    # A thread that is not the group leader, alive for the whole test.
    stop = threading.Event()
    ready = threading.Event()
    box = {}

    def worker():
        box["tid"] = threading.get_native_id()
        ready.set()
        stop.wait()
    th = threading.Thread(target=worker, daemon=True)
    th.start()
    ready.wait()
    tid = box["tid"]
    print("# pid %d, thread %d, uid %d, family id %d"
          % (os.getpid(), tid, os.getuid(), r.conn.family), flush=True)
    try:
        r.valid_dump("valid dump before the bad requests")
        struct_checks(r)
        threads_scope_checks(r)
        run_cases(r, tid)
        filter_cases(r, os.getpid())
        r.valid_dump("valid dump after the bad requests")
        fuzz(r, tid)
        r.valid_dump("valid dump after the fuzzing")
    finally:
        stop.set()
        th.join()
    print("bad_requests: %d cases, %d failed" % (r.cases, r.failed))
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
