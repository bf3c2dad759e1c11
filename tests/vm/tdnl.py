# SPDX-License-Identifier: GPL-2.0
"""A small task_diag client written from the ABI alone, in pure Python.

It shares no code with the module or with libtaskdiag: it reads the
attribute numbers and types, and the layout of the group structs, out of
include/uapi/linux/task_diag.h, speaks generic netlink over a raw socket and
decodes replies by hand, so the integration tests can hold the module
against /proc with an independent oracle on both sides.

A task decodes to {"pid", "tgid", "base": {...}, "stat": {...}, ...,
"cmdline": bytes, "cmdline_len"}: each group struct becomes a dict of the
fields whose mask bit is set (a field withheld or not filled is absent),
and the variable-length attributes that go with a group are put in its
dict (comm in base, cpus_allowed, mems_allowed and the ns_* pid arrays in
status, groups in cred). The decoder is strict, since it is built from the same header as
the module: a struct of any size but its VER0 size, a mask bit with no
field, a field with its bit clear that is not zero, or __reserved bytes
that are not zero make it raise ValueError.
"""
import contextlib
import ctypes
import os
import re
import socket
import struct

NETLINK_GENERIC = 16
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
SOL_NETLINK = 270
NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE = 1, 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_VERSION = 1, 2, 3
NLA_TYPE_MASK = 0x3FFF

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "..", "include", "uapi", "linux", "task_diag.h")


# Member types of the structs: struct format and alignment.
CTYPES = {"__u8": "B", "char": "B", "__u16": "H", "__u32": "I", "__s32": "i",
          "__u64": "Q", "__s64": "q"}


class Struct:
    """The layout of one struct task_diag_<group>, computed from the header
    with the C rules (natural alignment), and the mask bit of each field."""

    def __init__(self, name, body, consts, enums):
        self.name = name
        self.fields = []  # (name, offset, fmt, bit or None for __reserved)
        off = align = 0
        for ctype, fname, count in re.findall(r"^\s*(\w+)\s+(\w+)(?:\[(\d+)\])?;", body, re.M):
            fmt = CTYPES[ctype]
            size = struct.calcsize("=" + fmt)
            off = (off + size - 1) // size * size
            align = max(align, size)
            n = int(count) if count else 1
            fmt = "%ds" % n if count else fmt
            bit = None
            if not fname.startswith("__") and self.fields:
                bit = enums["TASK_DIAG_%s_F_%s" % (name.upper(), fname.upper())]
            self.fields.append((fname, off, fmt, bit))
            off += size * n
        self.size = (off + align - 1) // align * align
        self.ver0 = consts["TASK_DIAG_%s_SIZE_VER0" % name.upper()]
        if self.size < self.ver0:
            raise ValueError("struct task_diag_%s: %d bytes, SIZE_VER0 %d"
                             % (name, self.size, self.ver0))
        if self.fields[0][:2] != ("mask", 0) or self.fields[0][2] != "Q":
            raise ValueError("struct task_diag_%s does not start with __u64 mask" % name)
        self.known = sum(1 << b for _, _, _, b in self.fields[1:] if b is not None)

    def problems(self, data):
        """What is wrong with a payload: a list of texts (empty if nothing)."""
        if len(data) != self.size:
            return ["%s: %d bytes, want %d (VER0)" % (self.name, len(data), self.size)]
        out = []
        mask = struct.unpack_from("=Q", data)[0]
        if mask & ~self.known:
            out.append("%s: mask %#x has bits with no field (%#x)"
                       % (self.name, mask, mask & ~self.known))
        for fname, off, fmt, bit in self.fields[1:]:
            raw = data[off:off + struct.calcsize("=" + fmt)]
            if (bit is None or not mask >> bit & 1) and any(raw):
                out.append("%s.%s: %s but bytes %s" % (
                    self.name, fname, "reserved" if bit is None else "mask bit clear",
                    raw.hex()))
        return out

    def decode(self, data):
        """The fields whose bit is set; ValueError if the payload is wrong."""
        bad = self.problems(data)
        if bad:
            raise ValueError("; ".join(bad))
        mask = struct.unpack_from("=Q", data)[0]
        return {fname: struct.unpack_from("=" + fmt, data, off)[0]
                for fname, off, fmt, bit in self.fields[1:]
                if bit is not None and mask >> bit & 1}


class ABI:
    """Names, values, types and struct layouts parsed from the uapi header."""

    def __init__(self, path=HEADER):
        text = open(path).read()
        self.consts = {}
        for name, val in re.findall(r"#define\s+(TASK_DIAG_\w+)\s+(\d+|\"\w+\")", text):
            self.consts[name] = val.strip('"') if val.startswith('"') else int(val)
        self.sets = {}  # set -> {value: (name, type)}
        self.enums = {}
        for body in re.findall(r"enum\s*\w*\s*\{(.*?)\};", text, re.S):
            val = -1
            # An attribute set's enum starts with its pad: TASK_DIAG_A_<SET>_PAD.
            first = re.search(r"TASK_DIAG_A_(\w+?)_PAD\b", body)
            for line in body.splitlines():
                m = re.match(r"\s*(TASK_DIAG_\w+)\s*(?:=\s*([^,]+))?,?\s*(?:/\*\s*(.*?)\s*\*/)?", line)
                if not m or m.group(1).startswith("__") or m.group(1).endswith("_MAX"):
                    continue
                name, expr, comment = m.groups()
                val = int(expr, 0) if expr and expr.strip().isdigit() else val + 1
                self.enums[name] = val
                a = first and re.match(r"TASK_DIAG_A_(%s)_(\w+)" % first.group(1), name)
                if a:
                    kind = "pad" if a.group(2) == "PAD" else re.split(r"[\s,:]", comment or "?")[0]
                    if re.search(r"\bstruct task_diag_\w+", comment or ""):
                        kind = "struct"
                    elif (comment or "").startswith("binary: array of u32"):
                        kind = "u32s"
                    self.sets.setdefault(a.group(1), {})[val] = (a.group(2).lower(), kind)
        self.structs = {}
        for name, body in re.findall(r"struct\s+task_diag_(\w+)\s*\{(.*?)\};", text, re.S):
            self.structs[name] = Struct(name, body, self.consts, self.enums)

    def attr(self, set_, name):
        return self.enums["TASK_DIAG_A_%s_%s" % (set_, name.upper())]


abi = ABI()
# The variable-length attributes that go with a group, decoded into its dict.
WITH_GROUP = {"comm": "base", "cpus_allowed": "status", "mems_allowed": "status",
              "groups": "cred", "ns_tgid": "status", "ns_pid": "status", "ns_pgid": "status",
              "ns_sid": "status"}


def built_in():
    """Is task_diag built into the running kernel (scripts/in-tree-kernel),
    rather than a loaded module? Built in, it makes procfs's exact checks and
    sends what a module cannot (kworker names, the gate area)."""
    try:
        with open("/proc/modules") as f:
            return not any(ln.split()[0] == "task_diag" for ln in f)
    except FileNotFoundError:
        return True


def nla(atype, payload):
    return struct.pack("=HH", 4 + len(payload), atype) + payload + b"\0" * ((-len(payload)) % 4)


def parse_attrs(buf):
    """(type, payload) pairs; raises ValueError on a malformed stream."""
    out, off = [], 0
    while off + 4 <= len(buf):
        ln, at = struct.unpack_from("=HH", buf, off)
        if ln < 4 or off + ln > len(buf):
            raise ValueError("bad attribute length %d at %d" % (ln, off))
        out.append((at & NLA_TYPE_MASK, buf[off + 4:off + ln]))
        off += (ln + 3) & ~3
    return out


def decode(set_, payload):
    """Decode the attributes of one set into {name: value} (see the top)."""
    fmt = {"u8": "=B", "u32": "=I", "s32": "=i", "u64": "=Q"}
    res, seen = {}, set()
    for at, data in parse_attrs(payload):
        name, kind = abi.sets[set_].get(at, (None, None))
        if name is None or kind == "pad":
            continue
        if name in seen:
            raise ValueError("%s.%s twice" % (set_, name))
        seen.add(name)
        if kind in fmt:
            if len(data) != struct.calcsize(fmt[kind]):
                raise ValueError("%s.%s: %d bytes for %s" % (set_, name, len(data), kind))
            res[name] = struct.unpack(fmt[kind], data)[0]
        elif kind == "string":
            res[name] = data.split(b"\0", 1)[0].decode(errors="replace")
        elif kind == "struct":
            res[name] = abi.structs[name].decode(data)
        elif kind == "u32s":
            # kept as bytes (host order), but only whole u32s
            if len(data) % 4:
                raise ValueError("%s.%s: %d bytes for an array of u32" % (set_, name, len(data)))
            res[name] = bytes(data)
        else:
            res[name] = bytes(data)
    for name, group in WITH_GROUP.items():
        if name in res and group in res:
            res[group][name] = res.pop(name)
    return res


_libc = ctypes.CDLL(None, use_errno=True)
PR_GET_NO_NEW_PRIVS = 39


@contextlib.contextmanager
def _procfs_fd(fd):
    """The procfs-fd of a request (see Client.send_request())."""
    if fd == -1:
        yield None
    elif fd is not None or _libc.prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1:
        yield fd
    else:
        try:
            own = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            own = None  # refused (a sandbox): the module refuses the request then
        try:
            yield own
        finally:
            if own is not None:
                os.close(own)


class NetlinkError(OSError):
    def __init__(self, err, msg):
        super().__init__(err, "%s%s" % (os.strerror(err), ": " + msg if msg else ""))
        self.extack = msg


class Client:
    def __init__(self, rcvbuf=32768):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sock.bind((0, 0))
        self.rcvbuf = rcvbuf
        self.datagrams = 0  # datagrams received, and the largest, for the tests
        self.max_datagram = 0
        self.seq = 0
        self.family, self.version = self._resolve(abi.consts["TASK_DIAG_FAMILY_NAME"])
        if self.version != abi.consts["TASK_DIAG_FAMILY_VERSION"]:
            raise ValueError("task_diag family version %s, this client speaks %d"
                             % (self.version, abi.consts["TASK_DIAG_FAMILY_VERSION"]))

    def close(self):
        self.sock.close()

    def send(self, mtype, flags, cmd, version, payload):
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, 0) + payload
        self.sock.send(struct.pack("=IHHII", 16 + len(body), mtype, flags, self.seq, 0) + body)
        return self.seq

    def recv_msgs(self, seq):
        """Yield the genl payloads of one reply; raise NetlinkError on error."""
        while True:
            msgs, end = self.read_datagram(seq)
            yield from msgs
            if end:
                return

    def read_datagram(self, seq):
        """Receive one datagram: (the genl payloads in it for seq, whether
        the reply ended with it). Raises NetlinkError on an error."""
        data, _, flags, _ = self.sock.recvmsg(self.rcvbuf)
        if flags & socket.MSG_TRUNC:
            raise ValueError("datagram truncated by a %d-byte buffer" % self.rcvbuf)
        self.datagrams += 1
        self.max_datagram = max(self.max_datagram, len(data))
        msgs, off = [], 0
        while off + 16 <= len(data):
            ln, mtype, flags, mseq, _ = struct.unpack_from("=IHHII", data, off)
            if ln < 16 or off + ln > len(data):
                raise ValueError("truncated netlink message")
            msg = data[off:off + ln]
            off += (ln + 3) & ~3
            if mseq != seq or mtype == NLMSG_NOOP:
                # A dump's first datagram holds one NLMSG_NOOP and no task.
                continue
            if mtype in (NLMSG_DONE, NLMSG_ERROR):
                # DONE may carry a dump's error; ERROR is an ack or an error.
                err = -struct.unpack_from("=i", msg, 16)[0] if len(msg) >= 20 else 0
                if err == 0:
                    return msgs, True
                tlvs = 20
                if mtype == NLMSG_ERROR:
                    # errno, then the request's header (capped) or all of it.
                    tlvs = 20 + (16 if flags & NLM_F_CAPPED else
                                 struct.unpack_from("=I", msg, 20)[0])
                text = ""
                if flags & NLM_F_ACK_TLVS:
                    for at, val in parse_attrs(msg[tlvs:]):
                        if at == NLMSGERR_ATTR_MSG:
                            text = val.split(b"\0", 1)[0].decode()
                raise NetlinkError(err, text)
            msgs.append(msg[16:])
            if not flags & NLM_F_MULTI:
                return msgs, True
        return msgs, False

    def _resolve(self, name):
        seq = self.send(GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1,
                        nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        fid = ver = None
        for msg in self.recv_msgs(seq):
            for at, val in parse_attrs(msg[4:]):
                if at == CTRL_ATTR_FAMILY_ID:
                    fid = struct.unpack("=H", val)[0]
                elif at == CTRL_ATTR_VERSION:
                    ver = struct.unpack("=I", val)[0]
        return fid, ver

    def send_request(self, scope=None, pid=None, show=None, dump=True, raw_attrs=b"",
                     procfs_fd=None):
        """Send a get request; return its sequence number. procfs_fd None:
        as the library, a descriptor of /proc opened for the request if this
        process has no_new_privs (the module asks such a sender for one),
        else none; -1: none."""
        with _procfs_fd(procfs_fd) as procfs_fd:
            payload = raw_attrs
            for name, val in (("SCOPE", scope), ("PID", pid), ("SHOW", show),
                              ("PROCFS_FD", procfs_fd)):
                if val is not None:
                    payload += nla(abi.enums["TASK_DIAG_A_TASK_" + name],
                                   struct.pack("=I", val))
            flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
            return self.send(self.family, flags, abi.enums["TASK_DIAG_CMD_GET"],
                             abi.consts["TASK_DIAG_FAMILY_VERSION"], payload)

    def request(self, scope=None, pid=None, show=None, dump=True, raw_attrs=b"",
                procfs_fd=None):
        seq = self.send_request(scope, pid, show, dump, raw_attrs, procfs_fd)
        tasks = []
        for msg in self.recv_msgs(seq):
            t = decode("TASK", msg[4:])
            tasks.append(t)
        if not dump:
            # The ack that NLM_F_ACK asked for follows a do's reply.
            for _ in self.recv_msgs(seq):
                pass
        return tasks

    def send_vma_request(self, scope=None, pid=None, filter_=None, start=None, end=None,
                         raw_attrs=b"", procfs_fd=None, dump=True, with_build_id=False):
        """Send a get-vma request; return its sequence number. procfs_fd:
        as send_request()."""
        with _procfs_fd(procfs_fd) as procfs_fd:
            payload = raw_attrs
            if with_build_id:
                payload += nla(abi.enums["TASK_DIAG_A_VMA_WITH_BUILD_ID"], b"")
            for name, val, fmt in (("SCOPE", scope, "=I"), ("PID", pid, "=I"),
                                   ("PROCFS_FD", procfs_fd, "=I"), ("FILTER", filter_, "=I"),
                                   ("START", start, "=Q"), ("END", end, "=Q")):
                if val is not None:
                    payload += nla(abi.enums["TASK_DIAG_A_VMA_" + name], struct.pack(fmt, val))
            flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
            return self.send(self.family, flags, abi.enums["TASK_DIAG_CMD_GET_VMA"],
                             abi.consts["TASK_DIAG_FAMILY_VERSION"], payload)

    def vma_request(self, **kw):
        """A get-vma dump: {pid: [vma, ...]}, each vma the dict of struct vma's
        fields plus "name" when the entry has one. Messages of one process
        must be consecutive and their VMAs ascending and disjoint; pids must
        ascend (ValueError otherwise)."""
        return self._vma_dump(self.send_vma_request(**kw), [])

    def vma_messages(self, **kw):
        """The messages of a get-vma request (an address query)."""
        return list(self.recv_msgs(self.send_vma_request(**kw)))

    def _vma_dump(self, seq, got):
        out, last = {}, None
        for msg in self.recv_msgs(seq):
            got.append(1)
            pid, vmas = decode_vma_msg(msg[4:])
            if last is not None and pid != last:
                if pid < last or pid in out:
                    raise ValueError("pid %d after pid %d" % (pid, last))
            lst = out.setdefault(pid, [])
            for v in vmas:
                if lst and v["start"] < lst[-1]["end"]:
                    raise ValueError("pid %d: VMA %#x after one ending at %#x"
                                     % (pid, v["start"], lst[-1]["end"]))
                lst.append(v)
            last = pid
        return out


VMA_FIELDS = ("start", "end", "offset", "inode", "flags", "dev_major", "dev_minor")
# struct vma as one struct.Struct (its members, from the header, are
# contiguous): a VMA dump has tens of thousands of entries.
_VMA = abi.structs["vma"]
_VMA_LAYOUT = struct.Struct("=" + "".join(f for _, _, f, _ in _VMA.fields))
if _VMA_LAYOUT.size != _VMA.size or [n for n, _, _, _ in _VMA.fields[1:]] != list(VMA_FIELDS):
    raise ValueError("struct task_diag_vma is not what this client decodes")
_VMA_ALL = sum(1 << b for _, _, _, b in _VMA.fields[1:])
_E_VMA = abi.attr("VMA_ENTRY", "vma")
_E_NAME = abi.attr("VMA_ENTRY", "name")
_E_PAD = abi.attr("VMA_ENTRY", "pad")
_E_BID = abi.attr("VMA_ENTRY", "build_id")


def decode_vma_entry(data):
    """One entry nest: the dict of struct vma (every field: each has its
    mask bit in every reply), plus "name" and "build_id" (bytes). Strict:
    ValueError on a struct of another size, a mask not all set, a name not
    NUL-terminated, a build id not 1 to 20 bytes, an unknown or repeated
    attribute."""
    v = None
    off, n = 0, len(data)
    while off + 4 <= n:
        ln, at = struct.unpack_from("=HH", data, off)
        at &= NLA_TYPE_MASK
        if ln < 4 or off + ln > n:
            raise ValueError("get-vma entry: bad attribute length %d" % ln)
        body = data[off + 4:off + ln]
        if at == _E_VMA and v is None:
            if len(body) != _VMA.size:
                raise ValueError("get-vma: struct vma of %d bytes" % len(body))
            vals = _VMA_LAYOUT.unpack(body)
            if vals[0] != _VMA_ALL:
                raise ValueError("get-vma: mask %#x" % vals[0])
            v = dict(zip(VMA_FIELDS, vals[1:]))
        elif at == _E_NAME and v is not None and "name" not in v:
            if not body.endswith(b"\0") or b"\0" in body[:-1]:
                raise ValueError("get-vma: name %r" % body)
            v["name"] = body[:-1].decode(errors="surrogateescape")
        elif at == _E_BID and v is not None and "build_id" not in v:
            if not 1 <= len(body) <= 20:
                raise ValueError("get-vma: build id of %d bytes" % len(body))
            v["build_id"] = bytes(body)
        elif at != _E_PAD:
            raise ValueError("get-vma entry: attribute %d unexpected here" % at)
        off += (ln + 3) & ~3
    if v is None:
        raise ValueError("get-vma: an entry without its struct")
    return v


def decode_vma_msg(payload):
    """One get-vma reply message: (pid, [vma dicts]); strict like decode()."""
    pid, vmas = None, []
    for at, data in parse_attrs(payload):
        name, kind = abi.sets["VMA"].get(at, (None, None))
        if name == "pid":
            if pid is not None or len(data) != 4:
                raise ValueError("get-vma: bad or repeated pid")
            pid = struct.unpack("=I", data)[0]
        elif name == "entry":
            if pid is None:
                raise ValueError("get-vma: an entry before the pid")
            vmas.append(decode_vma_entry(data))
        elif kind != "pad":
            raise ValueError("get-vma: unexpected attribute %d in a reply" % at)
    if pid is None:
        raise ValueError("get-vma: a message without pid")
    return pid, vmas


# Bit n of struct vma's flags: the VmFlags mnemonic of smaps.
VMA_FLAG_MNEMONIC = {
    "READ": "rd", "WRITE": "wr", "EXEC": "ex", "SHARED": "sh", "MAYREAD": "mr",
    "MAYWRITE": "mw", "MAYEXEC": "me", "MAYSHARE": "ms", "GROWSDOWN": "gd",
    "PFNMAP": "pf", "LOCKED": "lo", "IO": "io", "SEQ_READ": "sr", "RAND_READ": "rr",
    "DONTCOPY": "dc", "DONTEXPAND": "de", "LOCKONFAULT": "lf", "ACCOUNT": "ac",
    "NORESERVE": "nr", "HUGETLB": "ht", "SYNC": "sf", "ARCH_1": "ar", "WIPEONFORK": "wf",
    "DONTDUMP": "dd", "SOFTDIRTY": "sd", "MIXEDMAP": "mm", "HUGEPAGE": "hg",
    "NOHUGEPAGE": "nh", "MERGEABLE": "mg", "UFFD_MISSING": "um", "UFFD_WP": "uw",
    "UFFD_MINOR": "ui", "SHADOW_STACK": "ss", "DROPPABLE": "dp", "SEALED": "sl",
    "ARM64_BTI": "bt", "MTE": "mt", "MAYBE_GUARD": "gu", "UFFD_RWP": "ur"}
VMA_FLAG_BIT = {mn: abi.enums["TASK_DIAG_VMA_FLAG_" + n] for n, mn in VMA_FLAG_MNEMONIC.items()}
VMA_FILTER = {n[len("TASK_DIAG_VMA_FILTER_"):].lower(): v for n, v in abi.enums.items()
              if n.startswith("TASK_DIAG_VMA_FILTER_")}


def vma_mnemonics(flags):
    """The set of VmFlags mnemonics a struct vma's flags stand for."""
    return {mn for mn, bit in VMA_FLAG_BIT.items() if flags >> bit & 1}


def vma_maps_line(v):
    """The /proc/PID/maps line of a decoded VMA, as show_map_vma() prints it."""
    f = vma_mnemonics(v["flags"])
    head = "%08x-%08x %s%s%s%s %08x %02x:%02x %d " % (
        v["start"], v["end"], "r" if "rd" in f else "-", "w" if "wr" in f else "-",
        "x" if "ex" in f else "-", "s" if "ms" in f else "p", v["offset"],
        v["dev_major"], v["dev_minor"], v["inode"])
    if "name" in v:
        # seq_pad(): spaces up to column 25 + 6 * sizeof(void *) - 1, then one
        head = head.ljust(72) + " " + v["name"]
    return head


SCOPE = {n[len("TASK_DIAG_SCOPE_"):].lower(): v for n, v in abi.enums.items()
         if n.startswith("TASK_DIAG_SCOPE_")}
SHOW = {n[len("TASK_DIAG_SHOW_"):].lower(): v for n, v in abi.enums.items()
        if n.startswith("TASK_DIAG_SHOW_")}
SHOW_ALL = sum(SHOW.values())


def main(argv):
    """Print every process the module reports, ps-style (used by scripts/demo
    until task_diag_all exists)."""
    scope = argv[1] if len(argv) > 1 else "all_processes"
    c = Client()
    print("task_diag family id %d, version %d" % (c.family, c.version))
    tasks = c.request(scope=SCOPE[scope], show=SHOW_ALL)
    c.close()
    print("%7s %7s %7s %1s %6s %10s %10s %-16s %s" % (
        "PID", "TGID", "PPID", "S", "UID", "RSS_KB", "CPU_MS", "COMM", "ARGS"))
    for t in tasks:
        b, st, cr = t.get("base", {}), t.get("stat", {}), t.get("cred", {})
        args = " ".join(t.get("cmdline", b"").rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace").split())
        print("%7d %7d %7d %1s %6d %10d %10d %-16s %s" % (
            t["pid"], t["tgid"], b.get("ppid", 0), chr(b.get("state", 63)), cr.get("euid", 0),
            st.get("rss", 0) // 1024, (st.get("utime", 0) + st.get("stime", 0)) // 10**6,
            b.get("comm", "?"), args[:60]))
    print("%d tasks (scope %s)" % (len(tasks), scope))


if __name__ == "__main__":
    import sys
    main(sys.argv)
