#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build task_diag raw recordings by hand, for task_diag_all --replay.

The messages are put together from the ABI alone: attribute numbers, the
group structs (members, types, hence offsets by natural alignment) and
their mask bits are parsed out of include/uapi/linux/task_diag.h here, not
taken from the library. The recording format is the one documented in
libtaskdiag/record.h:

  header  "TDIAGRAW" | u32 format (1) | u32 TASK_DIAG_FAMILY_VERSION
  record  u32 type | u32 length | payload   (1: request, 2: datagram)
  request u32 seq | u32 family | u32 scope | u32 pid | u32 groups

TASKS holds three tasks with known values; the golden tests compare what
task_diag_all prints against them, never against an earlier output of the
tool. Usage: make_stream.py DIR  (writes good.raw and the broken ones).
"""
import os
import re
import struct
import sys

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "uapi",
                      "linux", "task_diag.h")
CTYPES = {"__u8": "B", "__u16": "H", "__u32": "I", "__s32": "i", "__u64": "Q", "__s64": "q",
          "char": "c"}


class UAPI:
    """Constants, enums and group structs parsed from the uapi header."""

    def __init__(self, path=HEADER):
        text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
        self.consts = {}
        for name, val in re.findall(r"#define\s+(TASK_DIAG_\w+)\s+(\d+|\"\w+\")", text):
            self.consts[name] = val.strip('"') if val.startswith('"') else int(val)
        self.enums = {}
        for body in re.findall(r"enum\s*\w*\s*\{(.*?)\};", text, re.S):
            val = -1
            for entry in body.split(","):
                m = re.match(r"\s*(\w+)\s*(?:=\s*(.+?))?\s*$", entry, re.S)
                if not m:
                    continue
                name, expr = m.groups()
                val = eval(expr, {}, dict(self.enums)) if expr else val + 1
                self.enums[name] = val
        # group -> [(member, struct format char, count, offset)], and its size
        self.structs, self.sizes = {}, {}
        for grp, body in re.findall(r"struct\s+task_diag_(\w+)\s*\{(.*?)\};", text, re.S):
            off, members, align = 0, [], 1
            for ctype, name, count in re.findall(r"(\w+)\s+(\w+)(?:\[(\d+)\])?\s*;", body):
                fmt = CTYPES[ctype]
                size = struct.calcsize("=" + fmt)
                off = (off + size - 1) // size * size  # natural alignment
                members.append((name, fmt, int(count or 1), off))
                off += size * int(count or 1)
                align = max(align, size)
            self.structs[grp] = members
            self.sizes[grp] = (off + align - 1) // align * align

    def attr(self, name):
        return self.enums["TASK_DIAG_A_TASK_%s" % name.upper()]

    def bit(self, grp, member):
        return self.enums["TASK_DIAG_%s_F_%s" % (grp.upper(), member.upper())]


abi = UAPI()
SCOPE = {n[len("TASK_DIAG_SCOPE_"):].lower(): v for n, v in abi.enums.items()
         if n.startswith("TASK_DIAG_SCOPE_") and not n.endswith("_MAX")}


def nla(atype, payload):
    return struct.pack("=HH", 4 + len(payload), atype) + payload + b"\0" * ((-len(payload)) % 4)


FAMILY = 0x1d            # any id: the replay takes it from the request record
SEQ = 7
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_MULTI, NLM_F_CAPPED, NLM_F_ACK_TLVS = 2, 0x100, 0x200
PF_KTHREAD = 0x00200000
U64_MAX = (1 << 64) - 1

TASKS = [
    {   # a plain process, every group
        "pid": 1, "tgid": 1, "cmdline": b"/sbin/init\0splash\0",
        "base": {"ppid": 0, "pgid": 1, "sid": 1, "tracer_pid": 0, "tty_nr": 0, "tpgid": -1,
                 "state": ord("S"), "comm": b"init", "flags": 0x400100,
                 "start_time": 5 * 10**9, "num_threads": 1},
        "stat": {"minflt": 100, "cminflt": 2000, "majflt": 3, "cmajflt": 40,
                 "utime": 1234567890, "stime": 765432110, "cutime": 11 * 10**9,
                 "cstime": 22 * 10**9, "priority": 20, "nice": 0, "vsize": 10 << 20,
                 "rss": (4 << 20) + 512, "rsslim": U64_MAX, "start_code": 0x555500000000,
                 "end_code": 0x555500010000, "start_stack": 0x7ffd12345670, "kstk_esp": 0,
                 "kstk_eip": 0, "wchan": 1, "exit_signal": 17, "processor": 1,
                 "rt_priority": 0, "policy": 0, "blkio_delay": 0, "guest_time": 0,
                 "cguest_time": 0, "start_data": 0x555500020000, "end_data": 0x555500021000,
                 "start_brk": 0x555500400000, "arg_start": 0x7ffd12346000,
                 "arg_end": 0x7ffd12346011, "env_start": 0x7ffd12346011,
                 "env_end": 0x7ffd12347000, "exit_code": 0},
        "statm": {"size": 10 << 20, "resident": 4 << 20, "shared": 1 << 20, "text": 65536,
                  "lib": 0, "data": 2 << 20, "dt": 0, "locked": 0},
        "io": {"rchar": 1000, "wchar": 2000, "syscr": 10, "syscw": 20, "read_bytes": 4096,
               "write_bytes": 8192, "cancelled_write_bytes": 0},
        "status": {"umask": 0o022, "fdsize": 64, "vm_peak": 11 << 20, "vm_lck": 0, "vm_pin": 0,
                   "vm_hwm": 5 << 20, "vm_rss": 4 << 20, "rss_anon": 3 << 20,
                   "rss_file": 1 << 20, "rss_shmem": 0, "vm_data": 2 << 20, "vm_stk": 135168,
                   "vm_exe": 65536, "vm_lib": 1 << 20, "vm_pte": 49152, "vm_swap": 0,
                   "hugetlb_pages": 0, "core_dumping": 0, "thp_enabled": 1, "sigq_queued": 0,
                   "sigq_limit": 15000, "sig_pending": 0, "sig_shared_pending": 0,
                   "sig_blocked": 0x10000, "sig_ignored": 0x1000, "sig_caught": 0x1b5cba03,
                   "no_new_privs": 0, "seccomp": 0, "seccomp_filters": 0,
                   "cpus_allowed": [0xF], "mems_allowed": [1],
                   "voluntary_ctxt_switches": 1234, "nonvoluntary_ctxt_switches": 56},
        "cred": {"uid": 0, "euid": 0, "suid": 0, "fsuid": 0, "gid": 0, "egid": 0, "sgid": 0,
                 "fsgid": 0, "groups": [], "cap_inheritable": 0,
                 "cap_permitted": 0x1ffffffffff, "cap_effective": 0x1ffffffffff,
                 "cap_bounding": 0x1ffffffffff, "cap_ambient": 0, "ngroups": 0},
    },
    {   # a kernel thread, real-time: no cmdline, no io, no guarded stat fields
        "pid": 2, "tgid": 2,
        "base": {"ppid": 0, "pgid": 0, "sid": 0, "tracer_pid": 0, "tty_nr": 0, "tpgid": -1,
                 "state": ord("S"), "comm": b"kthreadd", "flags": PF_KTHREAD | 0x8040,
                 "start_time": 6 * 10**9, "num_threads": 1},
        "stat": {"minflt": 0, "cminflt": 0, "majflt": 0, "cmajflt": 0,
                 "utime": 90061 * 10**9 + 999999999, "stime": 0, "cutime": 0, "cstime": 0,
                 "priority": -51, "nice": 0, "vsize": 0, "rss": 0, "rsslim": U64_MAX,
                 "exit_signal": 0, "processor": 0, "rt_priority": 50, "policy": 1,
                 "blkio_delay": 0, "guest_time": 0, "cguest_time": 0},
        "statm": {"size": 0, "resident": 0, "shared": 0, "text": 0, "lib": 0, "data": 0,
                  "dt": 0, "locked": 0},
        "status": {"fdsize": 64, "sigq_queued": 0, "sigq_limit": 15000, "sig_pending": 0,
                   "sig_shared_pending": 0, "sig_blocked": 0, "sig_ignored": U64_MAX,
                   "sig_caught": 0, "no_new_privs": 0, "seccomp": 0, "seccomp_filters": 0,
                   "cpus_allowed": [0xFFFFFFFF, 0x1], "mems_allowed": [1],
                   "voluntary_ctxt_switches": 99, "nonvoluntary_ctxt_switches": 0},
        "cred": {"uid": 0, "euid": 0, "suid": 0, "fsuid": 0, "gid": 0, "egid": 0, "sgid": 0,
                 "fsgid": 0, "groups": [], "cap_inheritable": 0,
                 "cap_permitted": 0x1ffffffffff, "cap_effective": 0x1ffffffffff,
                 "cap_bounding": 0x1ffffffffff, "cap_ambient": 0, "ngroups": 0},
    },
    {   # awkward text everywhere, another user, a terminal, threads, nice -5
        "pid": 42, "tgid": 42,
        "cmdline": (b"/bin/we ird\0caf\xc3\xa9\0bad\xff\xfe\xe2\x82\0tab\there\0"
                    b"ctl\x01\x7f\xc2\x85\0line\xe2\x80\xa8sep\0quote\"comma,\0"
                    # a surrogate, an overlong '/', an emoji, a cut 4-byte sequence
                    b"u8\xed\xa0\x80\xc0\xaf\xf0\x9f\x98\x80\xf0\x9f\x98\0"),
        "base": {"ppid": 1, "pgid": 42, "sid": 42, "tracer_pid": 0,
                 "tty_nr": (136 << 8) | 3, "tpgid": 42, "state": ord("R"),
                 "comm": b'a"b,c\\d\te\x1b', "flags": 0x400000,
                 "start_time": 7 * 10**9, "num_threads": 4},
        "stat": {"minflt": 1, "cminflt": 2, "majflt": 3, "cmajflt": 4, "utime": 61 * 10**9,
                 "stime": 3600 * 10**9, "cutime": 0, "cstime": 0, "priority": 15, "nice": -5,
                 "vsize": 123456789, "rss": 7654321, "rsslim": 1 << 40,
                 "start_code": 1, "end_code": 1, "start_stack": 0, "kstk_esp": 0,
                 "kstk_eip": 0, "wchan": 0, "exit_signal": 17, "processor": 3,
                 "rt_priority": 0, "policy": 0, "blkio_delay": 10**9, "guest_time": 0,
                 "cguest_time": 0, "start_data": 0, "end_data": 0, "start_brk": 0,
                 "arg_start": 0, "arg_end": 0, "env_start": 0, "env_end": 0, "exit_code": 0},
        "statm": {"size": 123456512, "resident": 7651328, "shared": 4096, "text": 4096,
                  "lib": 0, "data": 8192, "dt": 0, "locked": 8192},
        "io": {"rchar": 2**63 + 5, "wchar": 0, "syscr": 1, "syscw": 0, "read_bytes": 0,
               "write_bytes": 0, "cancelled_write_bytes": 0},
        "status": {"umask": 0o077, "fdsize": 256, "vm_peak": 123456512, "vm_lck": 8192,
                   "vm_pin": 0, "vm_hwm": 7651328, "vm_rss": 7651328, "rss_anon": 7647232,
                   "rss_file": 4096, "rss_shmem": 0, "vm_data": 8192, "vm_stk": 4096,
                   "vm_exe": 4096, "vm_lib": 0, "vm_pte": 4096, "vm_swap": 0,
                   "hugetlb_pages": 0, "core_dumping": 0, "thp_enabled": 1, "sigq_queued": 2,
                   "sigq_limit": 15000, "sig_pending": 1 << 63, "sig_shared_pending": 0,
                   "sig_blocked": 0, "sig_ignored": 0, "sig_caught": 0, "no_new_privs": 1,
                   "seccomp": 2, "seccomp_filters": 3,
                   "cpus_allowed": [0b1011_0000_0001, 0, 0x80000000], "mems_allowed": [1],
                   "voluntary_ctxt_switches": 5, "nonvoluntary_ctxt_switches": 6,
                   # one pid namespace down, where it is 7; its session is led from above
                   "nstgid": [42, 7], "nspid": [42, 7], "nspgid": [42, 7], "nssid": [42, 0]},
        "cred": {"uid": 1000, "euid": 65534, "suid": 1000, "fsuid": 65534, "gid": 1000,
                 "egid": 65534, "sgid": 1000, "fsgid": 65534, "groups": [4, 5, 6],
                 "cap_inheritable": 0, "cap_permitted": 0, "cap_effective": 0,
                 "cap_bounding": 0x1ffffffffff, "cap_ambient": 0, "ngroups": 3},
    },
]

GROUPS = ("base", "stat", "statm", "io", "status", "cred")
SHOW_ALL = abi.consts.get("TASK_DIAG_SHOW_ALL") or sum(
    v for n, v in abi.enums.items() if n.startswith("TASK_DIAG_SHOW_"))
# Values a group carries as top-level attributes of their own, not struct members.
VARIABLE = {"comm": ("comm", "string"), "cpus_allowed": ("cpus_allowed", "u32s"),
            "mems_allowed": ("mems_allowed", "u32s"), "groups": ("groups", "u32s"),
            "nstgid": ("ns_tgid", "u32s"), "nspid": ("ns_pid", "u32s"),
            "nspgid": ("ns_pgid", "u32s"), "nssid": ("ns_sid", "u32s")}


def struct_payload(grp, values, tail=b""):
    """struct task_diag_<grp> with the members in @values set and their mask bits."""
    buf = bytearray(abi.sizes[grp])
    mask = 0
    for name, fmt, count, off in abi.structs[grp]:
        if name in values:
            struct.pack_into("=" + fmt, buf, off, values[name])
            mask |= 1 << abi.bit(grp, name)
    unknown = set(values) - {m[0] for m in abi.structs[grp]} - set(VARIABLE)
    if unknown:
        raise ValueError("%s: no members %s" % (grp, sorted(unknown)))
    struct.pack_into("=Q", buf, 0, mask)
    return bytes(buf) + tail


def task_attrs(task, extras=True):
    """The attributes of one reply message (after the genetlink header)."""
    out = b""
    if extras:
        out += nla(abi.attr("pad"), b"")
    out += nla(abi.attr("pid"), struct.pack("=I", task["pid"]))
    out += nla(abi.attr("tgid"), struct.pack("=I", task["tgid"]))
    for grp in GROUPS:
        if grp not in task:
            continue
        # a newer module's longer struct: the tail is ignored
        out += nla(abi.attr(grp), struct_payload(grp, task[grp], b"future!!" if extras else b""))
        for key, (attr, kind) in VARIABLE.items():
            if key not in task[grp]:
                continue
            v = task[grp][key]
            out += nla(abi.attr(attr), v + b"\0" if kind == "string" else
                       struct.pack("=%dI" % len(v), *v))
    if "cmdline" in task:
        out += nla(abi.attr("cmdline"), task["cmdline"])
    if "cmdline_len" in task:
        out += nla(abi.attr("cmdline_len"), struct.pack("=I", task["cmdline_len"]))
    if extras:
        out += nla(0x3f, struct.pack("=Q", 1))  # unknown top-level attribute
    return out


def nlmsg(mtype, flags, payload, seq=SEQ):
    return struct.pack("=IHHII", 16 + len(payload), mtype, flags, seq, 4242) + payload


def pad4(b):
    return b + b"\0" * ((-len(b)) % 4)


def task_msg(task, seq=SEQ, extras=True):
    genl = struct.pack("=BBH", abi.enums["TASK_DIAG_CMD_GET"], abi.consts["TASK_DIAG_FAMILY_VERSION"],
                       0)
    return pad4(nlmsg(FAMILY, NLM_F_MULTI, genl + task_attrs(task, extras), seq))


def done_msg(err=0, extack=None):
    payload = struct.pack("=i", err)
    flags = NLM_F_MULTI
    if extack is not None:
        flags |= NLM_F_ACK_TLVS
        payload += nla(1, extack.encode() + b"\0")
    return pad4(nlmsg(NLMSG_DONE, flags, payload))


def error_msg(err, extack):
    """NLMSG_ERROR, capped (the request's header only), with its extack."""
    req = struct.pack("=IHHII", 36, FAMILY, 0x301, SEQ, 0)
    payload = struct.pack("=i", err) + req + nla(1, extack.encode() + b"\0")
    return pad4(nlmsg(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, payload))


def header(magic=b"TDIAGRAW", fmt=1, version=None):
    if version is None:
        version = abi.consts["TASK_DIAG_FAMILY_VERSION"]
    return magic + struct.pack("=II", fmt, version)


def record(rtype, payload):
    return struct.pack("=II", rtype, len(payload)) + payload


def request(scope="all_processes", pid=0, groups=SHOW_ALL, seq=SEQ):
    return record(1, struct.pack("=IIIII", seq, FAMILY, SCOPE[scope], pid, groups))


def datagram(*msgs):
    return record(2, b"".join(msgs))


def system(realtime, uptime, boot_time, mem_total, hz=100, ncpu=4, page_size=4096):
    """The recording host (format 2): CLOCK_REALTIME and CLOCK_BOOTTIME in ns,
    btime in s, MemTotal in bytes, USER_HZ, CPUs, page size."""
    return record(3, struct.pack("=QQQQIIII", realtime, uptime, boot_time, mem_total, hz, ncpu,
                                 page_size, 0))


def good_stream():
    """Three tasks in two datagrams, a stale message of another request first."""
    stale = task_msg(TASKS[2], seq=SEQ - 1)
    return (header() + request() +
            datagram(stale, task_msg(TASKS[0]), task_msg(TASKS[1])) +
            datagram(task_msg(TASKS[2]), done_msg()))


def bad_streams():
    """name -> (bytes, what a correct reader does: 'ebadmsg', 'eversion' or 'esrch')."""
    good = good_stream()
    d1 = datagram(task_msg(TASKS[0]))
    bad_len = bytearray(task_msg(TASKS[0]))
    struct.pack_into("=I", bad_len, 0, len(bad_len) + 64)      # nlmsg_len past the end
    short_pid = (struct.pack("=BBH", 1, 2, 0) + nla(abi.attr("pid"), b"\1\0"))
    short_struct = (struct.pack("=BBH", 1, 2, 0) + nla(abi.attr("pid"), b"\1\0\0\0") +
                    nla(abi.attr("stat"), struct_payload("stat", TASKS[0]["stat"])[:-8]))
    over_attr = bytearray(task_msg(TASKS[0]))
    struct.pack_into("=H", over_attr, 20, 0xfff0)              # first nla_len too large
    return {
        "empty": (b"", "ebadmsg"),
        "bad_magic": (header(magic=b"NOTARAW!") + request() + d1, "ebadmsg"),
        "bad_format": (header(fmt=99) + request() + d1, "ebadmsg"),
        "bad_version": (header(version=77) + request() + d1, "eversion"),
        "version_1": (header(version=1) + request() + d1, "eversion"),
        "header_only": (header(), "ebadmsg"),
        "cut_header": (header()[:10], "ebadmsg"),
        "no_done": (header() + request() + d1, "ebadmsg"),
        "cut_record_header": (good[:len(header() + request()) + 5], "ebadmsg"),
        "cut_datagram": (good[:len(good) - 30], "ebadmsg"),
        "bad_record_type": (header() + request() + record(9, b"xxxx"), "ebadmsg"),
        "bad_request_len": (header() + record(1, b"\0" * 12) + d1, "ebadmsg"),
        "huge_datagram": (header() + request() + struct.pack("=II", 2, 1 << 20) + b"\0" * 64,
                          "ebadmsg"),
        "empty_datagram": (header() + request() + record(2, b""), "ebadmsg"),
        "nlmsg_len_past_end": (header() + request() + datagram(bytes(bad_len)), "ebadmsg"),
        "attr_too_long": (header() + request() + datagram(bytes(over_attr)), "ebadmsg"),
        "pid_two_bytes": (header() + request() +
                          datagram(pad4(nlmsg(FAMILY, NLM_F_MULTI, short_pid)), done_msg()),
                          "ebadmsg"),
        "struct_short_of_ver0": (header() + request() +
                                 datagram(pad4(nlmsg(FAMILY, NLM_F_MULTI, short_struct)),
                                          done_msg()), "ebadmsg"),
        "next_request_mid_dump": (header() + request() + d1 + request(seq=SEQ + 1) +
                                  datagram(done_msg()), "ebadmsg"),
        "esrch_done": (header() + request("task", 999999) +
                       datagram(done_msg(-3, "no such pid")), "esrch"),
        "esrch_error": (header() + request("task", 999999) +
                        datagram(error_msg(-3, "no such pid")), "esrch"),
    }


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "good.raw"), "wb") as f:
        f.write(good_stream())
    for name, (data, _) in bad_streams().items():
        with open(os.path.join(out, name + ".raw"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv)
