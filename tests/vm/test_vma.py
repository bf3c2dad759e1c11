#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The VMA dump (get-vma) against /proc/PID/maps and smaps, in the guest.

Run as root: test_vma.py [--lib DIR --tda PATH]. It raises vm.max_map_count
and reserves a few huge pages, starts a population (one process with file,
shared, deleted, newline-named, memfd, anonymous, PROT_NONE guard,
grows-down, mlocked and madvise()d mappings, thread stacks with their guard
pages and, where the kernel allows, hugetlb and named anonymous memory;
one with 65,000 VMAs), and then, as root and again as uid 65534 (which
starts a population of its own):

- every VMA of every process equals its /proc/PID/maps line, byte for byte
  as show_map_vma() prints it (a decoder of tdnl.py that shares nothing
  with the module), and its flags the VmFlags line of smaps; a process
  whose maps the reader may not open (EACCES) is absent from the dump, and
  a scope task request for it fails with EACCES;
- the filters (file-backed, exec) and an address range keep exactly the
  maps lines they name; a thread's pid gives its process's VMAs;
- the 65,000-VMA process reads the same with an 8 KiB and a 1 MiB receive
  buffer (resumed by address across hundreds of datagrams);
- bad requests fail with EINVAL (or the errno named) and an extack text;
- the address query (addrs): at every VMA's start, end - 1 and end, inside
  gaps, below the first VMA, above the last, in guard pages, unfiltered and
  with each filter, each answer is the maps line a text lookup of
  /proc/PID/maps finds (the first line ending above the address that
  passes the filter), and no-vma where none does; on a kernel with
  PROCMAP_QUERY (6.11+) also what that ioctl, called here directly,
  answers; a process whose maps the reader may not open is EACCES;
- a thread whose thread-group leader has exited: its pid reads its mm (the
  dump and the query equal /proc/TID/maps, not the empty maps of the
  leader);
- a process of 3,000 VMAs (three times the VMAs the module visits per hold
  of the mmap lock): the dump, the filtered dump and queries that skip
  across thousands of VMAs equal maps (the walk resumed by address after
  each lock drop).

With --quick: no 65,000-VMA process (the other kernels' run, where the
names, flags and permissions are what differs). With --lib-query PATH
(vma_lib): libtaskdiag's address query on netlink and procfs (the
PROCMAP_QUERY ioctl where the kernel has it, maps's text) against tdnl's;
--lib implies it.

With --lib and --tda (root and nobody): libtaskdiag's VMA iterator on the
netlink backend and on the procfs backend give the same records as
tdnl.py, and task_diag_all --maps -p PID prints, in its columns that pmap
-x also has (address, kbytes, mode, mapping), what procps pmap -x prints.

Each check would fail if the module got a VMA, a name, a flag, a
permission or a resume point wrong.
"""
import bisect
import ctypes
import errno
import os
import re
import stat
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdnl  # noqa: E402

NOBODY = 65534
MANY = 65000
MID = 3000
PAGE = os.sysconf("SC_PAGE_SIZE")
results = []
notes = []
QUICK = [False]
LIBQ = [None]      # --lib-query: vma_lib for the query's checks alone


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("%s %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if detail else ""),
          flush=True)
    return ok


# --- the population (a child process holding its mappings) ---

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.mlock.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                       ctypes.c_ulong]
PROT_NONE, PROT_R, PROT_W, PROT_X = 0, 1, 2, 4
MAP_SHARED, MAP_PRIVATE, MAP_ANON = 1, 2, 0x20
MAP_GROWSDOWN, MAP_HUGETLB = 0x100, 0x40000
MADV = {"MADV_RANDOM": 1, "MADV_SEQUENTIAL": 2, "MADV_DONTFORK": 10, "MADV_HUGEPAGE": 14,
        "MADV_NOHUGEPAGE": 15, "MADV_DONTDUMP": 16, "MADV_WIPEONFORK": 18,
        # 7.2+: VmFlags gu (VM_MAYBE_GUARD); EINVAL before
        "MADV_GUARD_INSTALL": 102}
PR_SET_VMA, PR_SET_VMA_ANON_NAME = 0x53564d41, 0


def mmap(length, prot, flags, fd=-1, off=0):
    addr = libc.mmap(None, length, prot, flags, fd, off)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap")
    return addr


def hold(kind, tmp):
    """Make the mappings of a population process, say what was made, wait."""
    made = []
    if kind == "leaderless":
        hold_leaderless()
        return
    if kind in ("many", "mid"):
        n = (MANY if kind == "many" else MID) // 2   # every other page read-only: 2 per step
        base = mmap(2 * n * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
        for i in range(n):
            libc.mprotect(base + 2 * i * PAGE, PAGE, PROT_R)
        made.append(kind)
    else:
        path = os.path.join(tmp, "mapped file")
        with open(path, "wb") as f:
            f.write(b"x" * 4 * PAGE)
        fd = os.open(path, os.O_RDWR)
        mmap(2 * PAGE, PROT_R, MAP_PRIVATE, fd, PAGE)
        mmap(PAGE, PROT_R | PROT_W, MAP_SHARED, fd, 0)
        mmap(PAGE, PROT_R | PROT_X, MAP_PRIVATE, fd, 2 * PAGE)
        os.close(fd)
        made.append("file")
        # deleted, and a name with a newline (maps writes \012)
        for name in ("deleted file", "new\nline"):
            p = os.path.join(tmp, name)
            with open(p, "wb") as f:
                f.write(b"y" * PAGE)
            fd = os.open(p, os.O_RDONLY)
            mmap(PAGE, PROT_R, MAP_PRIVATE, fd, 0)
            os.close(fd)
            if name.startswith("deleted"):
                os.unlink(p)
        made += ["deleted", "newline"]
        fd = os.memfd_create("td vma memfd")
        os.ftruncate(fd, PAGE)
        mmap(PAGE, PROT_R | PROT_W, MAP_SHARED, fd, 0)
        os.close(fd)
        made.append("memfd")
        a = mmap(8 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
        libc.mprotect(a + 2 * PAGE, PAGE, PROT_NONE)        # a guard in the middle
        made.append("anon+guard")
        mmap(2 * PAGE, PROT_R | PROT_W, MAP_SHARED | MAP_ANON)  # /dev/zero (deleted)
        made.append("shared anon")
        mmap(4 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON | MAP_GROWSDOWN)
        made.append("growsdown")
        a = mmap(2 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
        if libc.mlock(a, PAGE) == 0:
            made.append("mlock")
        for adv, num in MADV.items():
            a = mmap(4 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
            if libc.madvise(a + PAGE, 2 * PAGE, num) == 0:
                made.append(adv)
        a = mmap(2 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
        if libc.prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, a, 2 * PAGE,
                      ctypes.cast(ctypes.c_char_p(b"td-named"), ctypes.c_void_p).value) == 0:
            made.append("named anon")
        else:
            made.append("no named anon (prctl: %s)" % os.strerror(ctypes.get_errno()))
        try:
            mmap(2 << 20, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON | MAP_HUGETLB)
            made.append("hugetlb")
        except OSError as e:
            made.append("no hugetlb (mmap: %s)" % os.strerror(e.errno))
        # thread stacks: glibc puts a PROT_NONE guard page below each
        ev = threading.Event()
        for _ in range(2):
            threading.Thread(target=ev.wait, daemon=True).start()
        made.append("threads")
    print("ready " + ",".join(made), flush=True)
    sys.stdin.read()


def hold_leaderless():
    """A thread maps a page and lives on; the main thread (the leader)
    exits alone (the raw exit system call ends only the calling thread)."""
    def thread():
        mmap(3 * PAGE, PROT_R | PROT_W, MAP_PRIVATE | MAP_ANON)
        print("ready %d" % threading.get_native_id(), flush=True)
        sys.stdin.read()
        os._exit(0)
    threading.Thread(target=thread).start()
    time.sleep(0.2)
    libc.syscall(60, 0)     # SYS_exit on x86-64


def start_population(kind, tmp, user=None):
    cmd = [sys.executable, os.path.abspath(__file__), "--hold", kind, tmp]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline().split()
    if not line or line[0] != "ready":
        raise RuntimeError("population %s did not start" % kind)
    made = " ".join(line[1:]).split(",")
    return p, made


# --- the oracle ---

def read_maps(pid):
    """maps text, "EACCES", or None if the process is gone."""
    try:
        with open("/proc/%d/maps" % pid, "rb") as f:
            return f.read().decode(errors="surrogateescape")
    except PermissionError:
        return "EACCES"
    except (FileNotFoundError, ProcessLookupError):
        return None


def read_vmflags(pid):
    try:
        with open("/proc/%d/smaps" % pid) as f:
            return [set(ln.split()[1:]) for ln in f if ln.startswith("VmFlags:")]
    except (PermissionError, FileNotFoundError, ProcessLookupError):
        return None


def pids():
    return sorted(int(d) for d in os.listdir("/proc") if d.isdigit())


def lines(vmas):
    return [tdnl.vma_maps_line(v) for v in vmas]


def compare_all(c, who, focus, rcvbufs=None):
    """Every process: the dump equals maps (see the top). focus: pids that
    must be compared (the population)."""
    d1 = c.vma_request()
    maps = {pid: read_maps(pid) for pid in pids()}
    d2 = c.vma_request()
    compared = unstable = absent_ok = 0
    bad = []
    for pid in sorted(set(maps) | set(d1) | set(d2)):
        m = maps.get(pid)
        if m is None:
            continue
        if m == "EACCES":
            if pid in d1 or pid in d2:
                bad.append("pid %d: maps is EACCES but the dump has it" % pid)
            else:
                absent_ok += 1
            continue
        if d1.get(pid) != d2.get(pid):
            unstable += 1
            if pid in focus:
                bad.append("pid %d of the population changed between two dumps" % pid)
            continue
        got = lines(d1.get(pid, []))
        want = m.splitlines()
        if got != want:
            diff = [(g, w) for g, w in zip(got, want) if g != w][:3]
            bad.append("pid %d: %d lines vs maps %d; first differences %r"
                       % (pid, len(got), len(want), diff))
            continue
        compared += 1
        if len(want) < 5000:
            fl = read_vmflags(pid)
            if fl is not None and len(fl) == len(got) and d1.get(pid) == c.vma_request(
                    scope=tdnl.SCOPE["task"], pid=pid).get(pid, []):
                mine = [tdnl.vma_mnemonics(v["flags"]) for v in d1.get(pid, [])]
                if mine != fl:
                    i = next(i for i, (a, b) in enumerate(zip(mine, fl)) if a != b)
                    bad.append("pid %d VMA %s: flags %s, smaps VmFlags %s"
                               % (pid, got[i][:25], sorted(mine[i]), sorted(fl[i])))
        focus.discard(pid)
    check("%s: every process's VMAs equal its /proc/PID/maps" % who, not bad and not focus,
          "%d compared, %d unreadable and absent, %d changed between dumps%s%s"
          % (compared, absent_ok, unstable, "; " + "; ".join(bad[:5]) if bad else "",
             "; not compared: %s" % sorted(focus) if focus else ""))
    check("%s: almost every process compared" % who, unstable <= 3,
          "%d changed between two dumps" % unstable)


def filters_and_range(c, who, pid, tid):
    full = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid)[pid]
    want = read_maps(pid).splitlines()
    check("%s: scope task gives maps" % who, lines(full) == want)
    sub = c.vma_request(scope=tdnl.SCOPE["task"], pid=tid).get(pid)
    check("%s: a thread's pid gives its process's VMAs" % who, sub == full,
          "tid %d" % tid)

    def field(ln, i):
        return ln.split()[i]
    fb = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid,
                       filter_=tdnl.VMA_FILTER["file_backed"]).get(pid, [])
    check("%s: filter file-backed keeps the maps lines with an inode" % who,
          lines(fb) == [ln for ln in want if field(ln, 4) != "0"], "%d VMAs" % len(fb))
    ex = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid,
                       filter_=tdnl.VMA_FILTER["exec"]).get(pid, [])
    check("%s: filter exec keeps the maps lines with x" % who,
          lines(ex) == [ln for ln in want if field(ln, 1)[2] == "x"], "%d VMAs" % len(ex))
    both = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid,
                         filter_=tdnl.VMA_FILTER["exec"] | tdnl.VMA_FILTER["file_backed"])
    check("%s: both filters keep file-backed executable lines" % who,
          lines(both.get(pid, [])) == [ln for ln in want if field(ln, 1)[2] == "x"
                                      and field(ln, 4) != "0"])
    # a range that starts and ends inside VMAs
    mid = full[len(full) // 3]
    last = full[2 * len(full) // 3]
    lo, hi = mid["start"] + PAGE // 2, last["end"] - 1
    rng = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid, start=lo, end=hi).get(pid, [])
    spans = [tuple(int(x, 16) for x in field(ln, 0).split("-")) for ln in want]
    check("%s: the range [start, end) keeps the VMAs that overlap it" % who,
          lines(rng) == [ln for ln, (s, e) in zip(want, spans) if e > lo and s < hi],
          "%d VMAs in [%#x, %#x)" % (len(rng), lo, hi))
    allr = c.vma_request(start=lo, end=hi)
    check("%s: a range applies to every process of an all-processes dump" % who,
          all(v["end"] > lo and v["start"] < hi for vs in allr.values() for v in vs)
          and allr.get(pid) == rng)


def many(c, who, pid):
    want = read_maps(pid).splitlines()
    res = {}
    for buf in (8192, 1 << 20):
        k = tdnl.Client(rcvbuf=buf)
        res[buf] = (k.vma_request(scope=tdnl.SCOPE["task"], pid=pid).get(pid, []), k.datagrams)
        k.close()
    small, large = res[8192], res[1 << 20]
    check("%s: the 65,000-VMA process with an 8 KiB buffer equals maps" % who,
          lines(small[0]) == want and len(want) > MANY,
          "%d VMAs in %d datagrams" % (len(small[0]), small[1]))
    check("%s: ... and with a 1 MiB buffer the same, in fewer datagrams" % who,
          large[0] == small[0] and large[1] < small[1], "%d datagrams" % large[1])


def resume_after_exit(tmp):
    """A dump cut inside a process that exits before the next read goes on
    with the next process from its first VMA, not from where the gone one
    was cut: every VMA of the process started next after it is in the dump.
    (The cut must be where the module stopped: its 8 KiB buffers are filled
    a few ahead of the reader, far fewer than the 65,000 VMAs take.)"""
    big = start_population("many", tmp)[0]
    after = subprocess.Popen(["sleep", "1000"])
    try:
        prev, same = None, 0
        for _ in range(1000):   # until exec and the dynamic loader are done
            cur = read_maps(after.pid) or ""
            same = same + 1 if cur == prev and "libc" in cur else 0
            if same >= 3:
                break
            prev = cur
            time.sleep(0.05)
        want = read_maps(after.pid).splitlines()
        k = tdnl.Client(rcvbuf=8192)
        seq = k.send_vma_request(scope=tdnl.SCOPE["all_processes"])
        got, cut = {}, None
        for msg in k.recv_msgs(seq):
            pid, vmas = tdnl.decode_vma_msg(msg[4:])
            got.setdefault(pid, []).extend(vmas)
            if pid == big.pid and cut is None and vmas:
                cut = vmas[-1]["end"]
                big.kill()
                big.wait()  # reaped: its pid is free before the next read
        k.close()
        mine = lines(got.get(after.pid, []))
        check("a dump cut in a process that then exits resumes the next one at its start",
              cut is not None and after.pid > big.pid and mine == want,
              "cut at %#x; %d of %d VMAs of pid %d (%s)" % (
                  cut or 0, len(mine), len(want), after.pid,
                  "below the cut missing" if mine != want else "ok"))
    finally:
        after.kill()
        after.wait()
        big.kill()
        big.wait()


# --- the address query ---

A_ADDRS = tdnl.abi.attr("VMA", "addrs")
_E_QADDR = tdnl.abi.attr("VMA_ENTRY", "query_addr")
_E_NOVMA = tdnl.abi.attr("VMA_ENTRY", "no_vma")
MAX_ADDRS = 2048


def query(c, pid, addrs, filter_=None, with_build_id=False):
    """An address query: [(address, vma dict or None)], one per address.
    Strict: each entry carries query-addr, then either vma (and maybe name)
    or no-vma; the answers come in the order of addrs."""
    out = []
    for i in range(0, len(addrs), MAX_ADDRS):
        part = addrs[i:i + MAX_ADDRS]
        raw = tdnl.nla(A_ADDRS, struct.pack("=%dQ" % len(part), *part))
        for msg in c.vma_messages(scope=tdnl.SCOPE["task"], pid=pid, filter_=filter_,
                                  raw_attrs=raw, with_build_id=with_build_id):
            for at, data in tdnl.parse_attrs(msg[4:]):
                name = tdnl.abi.sets["VMA"].get(at, (None, None))[0]
                if name == "pid":
                    if struct.unpack("=I", data)[0] != tid_process(pid):
                        raise ValueError("query reply for pid %d" % struct.unpack("=I", data))
                    continue
                if name != "entry":
                    continue
                attrs = tdnl.parse_attrs(data)
                if not attrs or attrs[0][0] != _E_QADDR:
                    raise ValueError("an answer without query-addr first")
                qa = struct.unpack("=Q", attrs[0][1])[0]
                rest = attrs[1:]
                if [a for a, _ in rest] == [_E_NOVMA]:
                    out.append((qa, None))
                else:
                    if any(a == _E_NOVMA for a, _ in rest):
                        raise ValueError("no-vma with a vma")
                    body = b"".join(tdnl.nla(a, d) for a, d in rest)
                    out.append((qa, tdnl.decode_vma_entry(body)))
    if [a for a, _ in out] != list(addrs):
        raise ValueError("answers for %d of %d addresses, or out of order"
                         % (len(out), len(addrs)))
    return out


def tid_process(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            return int(next(ln for ln in f if ln.startswith("Tgid:")).split()[1])
    except (OSError, StopIteration):
        return pid


def maps_spans(text):
    """[(start, end, perms, inode, line)] of a maps text, without the gate
    area (x86's [vsyscall], listed last where the kernel was booted with
    it): no VMA of the mm, PROCMAP_QUERY and the module never answer it."""
    out = []
    for ln in text.splitlines():
        w = ln.split()
        if w[-1] == "[vsyscall]":
            continue
        s, e = (int(x, 16) for x in w[0].split("-"))
        out.append((s, e, w[1], int(w[4]), ln))
    return out


def text_lookup(spans, addr, filter_):
    """The oracle: the first maps line ending above addr that passes the
    filter (its inode column non-zero for file-backed, x for exec)."""
    key = (id(spans), filter_)
    if key not in _KEPT:
        kept = [sp for sp in spans
                if not (filter_ & tdnl.VMA_FILTER["file_backed"] and sp[3] == 0)
                and not (filter_ & tdnl.VMA_FILTER["exec"] and sp[2][2] != "x")]
        _KEPT[key] = (kept, [sp[1] for sp in kept])
    kept, ends = _KEPT[key]
    i = bisect.bisect_right(ends, addr)
    return kept[i][4] if i < len(kept) else None


_KEPT = {}


def probe_addrs(spans, full):
    """Addresses at the edges of every VMA, inside gaps, below the first,
    above the last, in guard (---p) pages, and the top of the range."""
    out = {0, spans[0][0] - 1 if spans[0][0] else 0, spans[-1][1], spans[-1][1] + PAGE,
           (1 << 47) - 1, 1 << 47, (1 << 64) - 1}
    step = 1 if full else max(1, len(spans) // 300)
    for i in range(0, len(spans), step):
        s, e, perms = spans[i][:3]
        out |= {s, s + 1, e - 1, e, (s + e) // 2 & ~(PAGE - 1)}
        if i + 1 < len(spans) and spans[i + 1][0] > e:
            out |= {e + (spans[i + 1][0] - e) // 2, spans[i + 1][0] - 1}
        if perms == "---p":
            out |= {s, s + PAGE // 2}
    return sorted(out)


# PROCMAP_QUERY (include/uapi/linux/fs.h of 6.11+), called directly.
class ProcmapQuery(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "size", "query_flags", "query_addr", "vma_start", "vma_end", "vma_flags",
        "vma_page_size", "vma_offset", "inode")] + \
        [(n, ctypes.c_uint32) for n in ("dev_major", "dev_minor", "vma_name_size",
                                         "build_id_size")] + \
        [("vma_name_addr", ctypes.c_uint64), ("build_id_addr", ctypes.c_uint64)]


PROCMAP_QUERY = (3 << 30) | (ctypes.sizeof(ProcmapQuery) << 16) | (ord("f") << 8) | 17
PMQ_R, PMQ_W, PMQ_X, PMQ_S, PMQ_COVERING_OR_NEXT, PMQ_FILE = 1, 2, 4, 8, 0x10, 0x20
libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]


def procmap_query(fd, addr, filter_):
    """The ioctl's answer: a vma-like dict, None (ENOENT), or "ENOTTY"."""
    name = ctypes.create_string_buffer(4096)
    q = ProcmapQuery(size=ctypes.sizeof(ProcmapQuery), query_addr=addr,
                     vma_name_size=4096, vma_name_addr=ctypes.addressof(name))
    q.query_flags = PMQ_COVERING_OR_NEXT | \
        (PMQ_FILE if filter_ & tdnl.VMA_FILTER["file_backed"] else 0) | \
        (PMQ_X if filter_ & tdnl.VMA_FILTER["exec"] else 0)
    if libc.ioctl(fd, PROCMAP_QUERY, ctypes.byref(q)) != 0:
        e = ctypes.get_errno()
        if e == errno.ENOENT:
            return None
        if e == errno.ENOTTY:
            return "ENOTTY"
        raise OSError(e, "PROCMAP_QUERY")
    perms = "".join(c if q.vma_flags & b else "-" for c, b in
                    (("r", PMQ_R), ("w", PMQ_W), ("x", PMQ_X))) + \
        ("s" if q.vma_flags & PMQ_S else "p")
    return {"start": q.vma_start, "end": q.vma_end, "offset": q.vma_offset,
            "inode": q.inode, "dev": (q.dev_major, q.dev_minor), "perms": perms,
            "name": name.value.decode(errors="surrogateescape") if q.vma_name_size else ""}


def as_pmq(v):
    """The fields PROCMAP_QUERY gives, of one of our answers (its name not
    escaped: the ioctl copies d_path() as is, maps writes a newline \\012)."""
    ln = tdnl.vma_maps_line(v)
    return {"start": v["start"], "end": v["end"], "offset": v["offset"], "inode": v["inode"],
            "dev": (v["dev_major"], v["dev_minor"]), "perms": ln.split()[1],
            "name": v.get("name", "").replace("\\012", "\n")}


def has_procmap_query():
    rel = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", os.uname().release).groups())
    return rel >= (6, 11)


def queries(c, who, pid, full=True, spans=None):
    """The address query against a text lookup of maps and PROCMAP_QUERY."""
    text = read_maps(pid)
    spans = spans or maps_spans(text)
    addrs = probe_addrs(spans, full)
    fd = os.open("/proc/%d/maps" % pid, os.O_RDONLY)
    try:
        for fname, fl in (("unfiltered", 0), ("file-backed", tdnl.VMA_FILTER["file_backed"]),
                          ("exec", tdnl.VMA_FILTER["exec"]),
                          ("file-backed exec", tdnl.VMA_FILTER["file_backed"] |
                           tdnl.VMA_FILTER["exec"])):
            got = query(c, pid, addrs, fl or None)
            bad = []
            nones = 0
            for a, v in got:
                want = text_lookup(spans, a, fl)
                mine = tdnl.vma_maps_line(v) if v else None
                nones += v is None
                if mine != want:
                    bad.append("%#x: %r, maps %r" % (a, mine, want))
            check("%s: pid %d, %s: %d queried addresses answered as maps's text lookup"
                  % (who, pid, fname, len(addrs)), not bad and nones > 0,
                  "%d no-vma%s" % (nones, "; " + "; ".join(bad[:3]) if bad else ""))
            if not has_procmap_query():
                continue
            bad = []
            for a, v in got:
                want = procmap_query(fd, a, fl)
                mine = as_pmq(v) if v else None
                if mine != want:
                    bad.append("%#x: %r, PROCMAP_QUERY %r" % (a, mine, want))
            check("%s: pid %d, %s: every answer equals PROCMAP_QUERY's" % (who, pid, fname),
                  not bad, "; ".join(bad[:3]))
    finally:
        os.close(fd)


def leaderless(c, tmp):
    """A thread whose leader has exited: its pid reads its own mm."""
    cmd = [sys.executable, os.path.abspath(__file__), "--hold", "leaderless", tmp]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        tid = int(p.stdout.readline().split()[1])
        for _ in range(200):
            if read_maps(p.pid) == "":
                break
            time.sleep(0.05)
        want = read_maps(tid)
        check("the leaderless fixture: the leader's maps is empty, thread %d's is not" % tid,
              read_maps(p.pid) == "" and want)
        got = c.vma_request(scope=tdnl.SCOPE["task"], pid=tid)
        check("a thread whose leader exited: scope task on its pid gives /proc/TID/maps",
              list(got) == [p.pid] and lines(got[p.pid]) == want.splitlines(),
              "%d of %d lines, pids %s" % (len(got.get(p.pid, [])), len(want.splitlines()),
                                           list(got)))
        spans = maps_spans(want)
        ans = query(c, tid, [s for s, _, _, _, _ in spans])
        check("... and the address query on it answers from that mm",
              [tdnl.vma_maps_line(v) if v else None for _, v in ans] ==
              [ln for *_, ln in spans])
        got = c.vma_request(scope=tdnl.SCOPE["task"], pid=p.pid)
        check("... while the leader's pid gives its (empty) maps", not got.get(p.pid))
    finally:
        p.stdin.close()
        p.wait()


def lock_breaks(c, tmp):
    """3,000 VMAs: every walk crosses the module's per-lock-hold bound."""
    p = start_population("mid", tmp)[0]
    try:
        want = read_maps(p.pid).splitlines()
        full = c.vma_request(scope=tdnl.SCOPE["task"], pid=p.pid).get(p.pid, [])
        check("3,000 VMAs: the dump equals maps across lock drops",
              lines(full) == want and len(want) > MID, "%d lines" % len(want))
        ex = c.vma_request(scope=tdnl.SCOPE["task"], pid=p.pid,
                           filter_=tdnl.VMA_FILTER["exec"]).get(p.pid, [])
        check("3,000 VMAs: the exec-filtered dump (thousands skipped) equals maps",
              lines(ex) == [ln for ln in want if ln.split()[1][2] == "x"], "%d" % len(ex))
        spans = maps_spans("\n".join(want))
        lo = [s for s, e, perms, ino, ln in spans if ino == 0 and perms == "r--p"]
        addrs = sorted(set(lo[::97] + [lo[0], lo[len(lo) // 2]]))
        fl = tdnl.VMA_FILTER["file_backed"]
        got = query(c, p.pid, addrs, fl)
        check("3,000 VMAs: file-backed queries from inside the anonymous run (thousands "
              "of VMAs skipped) answer as maps's text lookup",
              [tdnl.vma_maps_line(v) if v else None for _, v in got] ==
              [text_lookup(spans, a, fl) for a in addrs], "%d addresses" % len(addrs))
    finally:
        p.stdin.close()
        p.wait()


def expect_err(c, name, want, **kw):
    try:
        c.vma_request(**kw)
    except tdnl.NetlinkError as e:
        return check("bad request: %s -> %s" % (name, errno.errorcode[want]),
                     e.errno == want and (e.extack or want in (errno.EOPNOTSUPP,)),
                     "got %s, extack %r" % (errno.errorcode.get(e.errno), e.extack))
    return check("bad request: %s -> %s" % (name, errno.errorcode[want]), False, "accepted")


def bad_requests(c):
    S = tdnl.SCOPE
    expect_err(c, "end not above start", errno.EINVAL, start=0x2000, end=0x2000)
    expect_err(c, "end below start", errno.EINVAL, start=0x3000, end=0x1000)
    expect_err(c, "unknown filter bit", errno.EINVAL, filter_=1 << 7)
    expect_err(c, "scope threads", errno.EINVAL, scope=S["threads"], pid=1)
    expect_err(c, "scope all-threads", errno.EINVAL, scope=S["all_threads"])
    expect_err(c, "scope task without pid", errno.EINVAL, scope=S["task"])
    expect_err(c, "pid with all-processes", errno.EINVAL, pid=1)
    # the policy's range check (NLA_POLICY_RANGE) answers ERANGE, as for get
    expect_err(c, "scope 0", errno.ERANGE, scope=0)
    expect_err(c, "scope past the enum", errno.ERANGE, scope=99)
    expect_err(c, "pid of no process", errno.ESRCH, scope=S["task"], pid=4000000)
    expect_err(c, "an attribute of replies (entry)", errno.EINVAL,
               raw_attrs=tdnl.nla(tdnl.abi.attr("VMA", "entry"), b""))
    expect_err(c, "an unknown attribute", errno.EINVAL, raw_attrs=tdnl.nla(60, b"\0" * 4))
    expect_err(c, "a short start", errno.EINVAL,
               raw_attrs=tdnl.nla(tdnl.abi.attr("VMA", "start"), b"\0" * 4))
    expect_err(c, "with-build-id carrying a payload (a flag)", errno.ERANGE,
               raw_attrs=tdnl.nla(tdnl.abi.attr("VMA", "with_build_id"), b"\0" * 4))
    # the address query
    me = os.getpid()
    q8 = tdnl.nla(A_ADDRS, b"\0" * 8)
    expect_err(c, "addrs with all-processes", errno.EINVAL, raw_attrs=q8)
    expect_err(c, "addrs with scope task and no pid", errno.EINVAL, scope=S["task"],
               raw_attrs=q8)
    expect_err(c, "addrs with start", errno.EINVAL, scope=S["task"], pid=me, start=0,
               raw_attrs=q8)
    expect_err(c, "addrs with end", errno.EINVAL, scope=S["task"], pid=me, end=1 << 40,
               raw_attrs=q8)
    expect_err(c, "addrs of 12 bytes (not a multiple of 8)", errno.EINVAL, scope=S["task"],
               pid=me, raw_attrs=tdnl.nla(A_ADDRS, b"\0" * 12))
    expect_err(c, "zero addresses", errno.ERANGE, scope=S["task"], pid=me,
               raw_attrs=tdnl.nla(A_ADDRS, b""))
    expect_err(c, "2,049 addresses (above the limit)", errno.ERANGE, scope=S["task"],
               pid=me, raw_attrs=tdnl.nla(A_ADDRS, b"\0" * 8 * (MAX_ADDRS + 1)))
    expect_err(c, "addrs for a pid of no process", errno.ESRCH, scope=S["task"],
               pid=4000000, raw_attrs=q8)
    expect_err(c, "addrs with an unknown filter bit", errno.EINVAL, scope=S["task"],
               pid=me, filter_=1 << 5, raw_attrs=q8)
    check("2,048 addresses (the limit) are answered",
          len(query(c, me, list(range(0, MAX_ADDRS * PAGE, PAGE)))) == MAX_ADDRS)
    try:
        c.vma_request(scope=S["task"], pid=1, dump=False)
        check("bad request: get-vma without NLM_F_DUMP -> EOPNOTSUPP", False, "accepted")
    except tdnl.NetlinkError as e:
        check("bad request: get-vma without NLM_F_DUMP -> EOPNOTSUPP",
              e.errno == errno.EOPNOTSUPP, errno.errorcode.get(e.errno))
    # and the socket still works
    check("a request after the bad ones works", os.getpid() in c.vma_request())


def unreadable(c, who, pid):
    """A process whose maps the reader may not open: absent, and EACCES."""
    if not check("%s: fixture pid %d's maps is EACCES" % (who, pid), read_maps(pid) == "EACCES"):
        return
    check("%s: it is absent from an all-processes dump" % who, pid not in c.vma_request())
    expect_err(c, "%s: scope task on it" % who, errno.EACCES, scope=tdnl.SCOPE["task"], pid=pid)
    expect_err(c, "%s: an address query on it" % who, errno.EACCES, scope=tdnl.SCOPE["task"],
               pid=pid, raw_attrs=tdnl.nla(A_ADDRS, b"\0" * 8))


# --- the library, task_diag_all and pmap ---

def lib_backends(lib, who, pids_):
    """libtaskdiag's iterator, netlink and procfs backends, against tdnl."""
    c = tdnl.Client()
    wants = {pid: c.vma_request(scope=tdnl.SCOPE["task"], pid=pid).get(pid, []) for pid in pids_}
    for backend in ("netlink", "procfs"):
        for pid in pids_:
            want = wants[pid]
            out = subprocess.run([lib, backend, str(pid)], capture_output=True, text=True)
            got = [ln for ln in out.stdout.splitlines()]
            exp = ["%x %x %x %d %x %x %x %s" % (v["start"], v["end"], v["offset"], v["inode"],
                                                v["dev_major"], v["dev_minor"],
                                                v["flags"] & BACKEND_FLAGS[backend],
                                                v.get("name", "")) for v in want]
            check("%s: libtaskdiag %s backend, pid %d: the records of tdnl" % (who, backend, pid),
                  out.returncode == 0 and got == exp,
                  "%d vs %d records%s" % (len(got), len(exp), "; " + out.stderr.strip()
                                          if out.returncode else ""))
    c.close()


def by_path(v):
    """Whether the procfs backend can read v's build id: its name is the
    path of the mapped file still (regular, same device and inode)."""
    name = v.get("name", "")
    if not v["inode"] or not name.startswith("/") or name.endswith(" (deleted)") \
            or "\\012" in name:
        return False
    try:
        st = os.stat(name)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_ino == v["inode"] and \
        (os.major(st.st_dev), os.minor(st.st_dev)) == (v["dev_major"], v["dev_minor"])


def lib_build_ids(lib, who, pid):
    """TASKDIAG_VMA_BUILD_ID through libtaskdiag: netlink gives tdnl's build
    ids, procfs the same wherever maps's name is still the mapped file's
    path (none elsewhere); the dump and the address query alike."""
    c = tdnl.Client()
    want = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid, with_build_id=True).get(pid, [])
    c.close()
    env = dict(os.environ, VMA_LIB_BUILD_ID="1")
    for backend in ("netlink", "procfs"):
        exp = []
        for v in want:
            bid = v.get("build_id") if backend == "netlink" or by_path(v) else None
            exp.append("%x %x %x %d %x %x %x %s %s" % (
                v["start"], v["end"], v["offset"], v["inode"], v["dev_major"], v["dev_minor"],
                v["flags"] & BACKEND_FLAGS[backend], bid.hex() if bid else "-",
                v.get("name", "")))
        out = subprocess.run([lib, backend, str(pid)], capture_output=True, text=True, env=env)
        check("%s: libtaskdiag %s backend, pid %d: build ids" % (who, backend, pid),
              out.returncode == 0 and out.stdout.splitlines() == exp,
              "%d of %d lines%s" % (sum(a == b for a, b in zip(out.stdout.splitlines(), exp)),
                                    len(exp), "; " + out.stderr.strip() if out.returncode else ""))
        out = subprocess.run([lib, "query", backend, str(pid), "0"] +
                             ["%x" % v["start"] for v in want],
                             capture_output=True, text=True, env=env)
        check("%s: libtaskdiag's query, %s, pid %d: build ids" % (who, backend, pid),
              out.returncode == 0 and
              out.stdout.splitlines() == ["%x %s" % (v["start"], e) for v, e in zip(want, exp)],
              out.stderr.strip())
    check("%s: pid %d has build ids to compare" % (who, pid),
          any("build_id" in v for v in want) and any(by_path(v) for v in want))


# The procfs backend reads maps only: r, w, x and s (bits 0, 1, 2 and 7).
BACKEND_FLAGS = {"netlink": (1 << 64) - 1, "procfs": 0x87}


def lib_query(lib, who, pid):
    """libtaskdiag's address query, netlink and procfs (PROCMAP_QUERY where
    the kernel has it, and maps's text), against tdnl's query."""
    c = tdnl.Client()
    addrs = probe_addrs(maps_spans(read_maps(pid)), False)
    for fl in (0, tdnl.VMA_FILTER["file_backed"], tdnl.VMA_FILTER["exec"]):
        want = query(c, pid, addrs, fl or None)
        for backend, arg in (("netlink", ""), ("procfs", ""), ("procfs", ",text")):
            out = subprocess.run([lib, "query", backend, str(pid), "%d%s" % (fl, arg)] +
                                 ["%x" % a for a in addrs], capture_output=True, text=True)
            m = BACKEND_FLAGS[backend]
            exp = ["%x %s" % (a, "%x %x %x %d %x %x %x %s" % (
                v["start"], v["end"], v["offset"], v["inode"], v["dev_major"], v["dev_minor"],
                v["flags"] & m, v.get("name", "")) if v else "none") for a, v in want]
            got = out.stdout.splitlines()
            check("%s: libtaskdiag's query, %s%s, filter %d, pid %d: tdnl's answers"
                  % (who, backend, arg or (" (PROCMAP_QUERY)" if backend == "procfs" and
                                           has_procmap_query() else ""), fl, pid),
                  out.returncode == 0 and got == exp,
                  "%d of %d lines%s" % (sum(a == b for a, b in zip(got, exp)), len(exp),
                                        "; " + out.stderr.strip() if out.returncode else ""))
    # 2,500 addresses (repeated, unsorted): two requests of the netlink
    # backend, one request message above a page
    many_ = (addrs[::-1] * (2500 // len(addrs) + 1))[:2500]
    want = query(c, pid, many_)
    for backend in ("netlink", "procfs"):
        out = subprocess.run([lib, "query", backend, str(pid), "0"] + ["%x" % a for a in many_],
                             capture_output=True, text=True)
        exp = ["%x %s" % (a, "%x %x" % (v["start"], v["end"]) if v else "none")
               for a, v in want]
        got = [" ".join(ln.split()[:3]) if not ln.endswith(" none") else ln
               for ln in out.stdout.splitlines()]
        check("%s: libtaskdiag's query, %s, 2,500 addresses: tdnl's answers" % (who, backend),
              out.returncode == 0 and got == exp, "%d of %d lines%s" % (
                  sum(a == b for a, b in zip(got, exp)), len(exp),
                  "; " + out.stderr.strip() if out.returncode else ""))
    out = subprocess.run([lib, "query", "procfs", "4000000", "0", "0"], capture_output=True,
                         text=True)
    check("%s: libtaskdiag's query on procfs for no process fails" % who,
          out.returncode == 1 and "no such process" in out.stderr, out.stderr.strip())
    c.close()


def pmap_compare(tda, who, pid):
    """task_diag_all --maps against pmap -x: address, kbytes, mode, mapping."""
    p = subprocess.run(["pmap", "-x", str(pid)], capture_output=True, text=True)
    t = subprocess.run([tda, "--maps", "-p", str(pid)], capture_output=True, text=True)

    def rows(text, skip):
        out = []
        for ln in text.splitlines()[skip:]:
            w = ln.split(None, 5)
            if len(w) >= 5 and re.fullmatch(r"[0-9a-f]{16}", w[0]):
                out.append((w[0], w[1], w[4], w[5] if len(w) > 5 else ""))
        return out
    a, b = rows(p.stdout, 2), rows(t.stdout, 2)
    check("%s: task_diag_all --maps -p %d matches pmap -x (address, kbytes, mode, mapping)"
          % (who, pid), p.returncode == 0 and t.returncode == 0 and a == b and len(a) > 10,
          "%d rows vs %d; %r" % (len(b), len(a), [(x, y) for x, y in zip(a, b) if x != y][:2]
                                 or t.stderr.strip()))


def tda_build_ids(tda, who, pid):
    """task_diag_all --maps --build-id: each row of a file-backed VMA ends
    in tdnl's build id of it (netlink) or, on procfs, where the path is
    still the mapped file's; the other rows end in their mapping."""
    c = tdnl.Client()
    want = c.vma_request(scope=tdnl.SCOPE["task"], pid=pid, with_build_id=True).get(pid, [])
    c.close()
    for backend in ("netlink", "procfs"):
        t = subprocess.run([tda, "--maps", "-p", str(pid), "--backend", backend, "--build-id"],
                           capture_output=True, text=True)
        rows = t.stdout.splitlines()[2:-2]
        exp = [(v.get("build_id") if backend == "netlink" or by_path(v) else None)
               for v in want]
        got = [bytes.fromhex(r.split()[-1]) if re.search(r"  [0-9a-f]{2,40}$", r) else None
               for r in rows]
        check("%s: task_diag_all --maps --build-id (%s), pid %d: tdnl's build ids"
              % (who, backend, pid), t.returncode == 0 and got == exp and any(exp),
              "%d of %d rows%s" % (sum(a == b for a, b in zip(got, exp)), len(exp),
                                   "; " + t.stderr.strip() if t.returncode else ""))


def tda_query(tda, who, pid):
    """task_diag_all --maps -p PID --addr: one row per address, the start
    and size of tdnl's answer, or none."""
    c = tdnl.Client()
    addrs = probe_addrs(maps_spans(read_maps(pid)), False)[:200]
    want = ["%016x %s" % (a, "%016x %d" % (v["start"], (v["end"] - v["start"]) >> 10)
                          if v else "none") for a, v in query(c, pid, addrs)]
    c.close()
    for backend in ("netlink", "procfs"):
        t = subprocess.run([tda, "--maps", "-p", str(pid), "--backend", backend, "--addr",
                            ",".join("%x" % a for a in addrs)], capture_output=True, text=True)
        got = [" ".join(ln.split()[:3]) if not ln.endswith(" none") else ln
               for ln in t.stdout.splitlines()[1:]]
        check("%s: task_diag_all --maps -p %d --addr (%s): the query's answers" % (who, pid,
                                                                                  backend),
              t.returncode == 0 and got == want, "%d of %d rows%s" % (
                  sum(a == b for a, b in zip(got, want)), len(want), "; " + t.stderr.strip()
                  if t.returncode else ""))
    t = subprocess.run([tda, "--maps", "--addr", "1000"], capture_output=True, text=True)
    check("%s: task_diag_all --maps --addr without -p is a usage error (2)" % who,
          t.returncode == 2 and "--addr" in t.stderr, t.stderr.strip())


# --- build ids ---

GNU_BID_NOTE = struct.pack("=III", 4, 20, 3) + b"GNU\0"


def readelf_build_id(path):
    """The oracle: binutils' readelf. The build id the module must give for
    this file: readelf's "Build ID" where the ELF header's type is EXEC or
    DYN (the kernel's rule), else None; "unreadable" if readelf cannot open
    it."""
    r = subprocess.run(["readelf", "-h", "-n", "-W", path], capture_output=True, text=True)
    if "No such file" in r.stderr or "Permission denied" in r.stderr:
        return "unreadable"
    typ = re.search(r"^\s*Type:\s+(\S+)", r.stdout, re.M)
    bid = re.search(r"Build ID:\s+([0-9a-f]+)", r.stdout)
    if not typ or typ.group(1) not in ("EXEC", "DYN") or not bid:
        return None
    return bytes.fromhex(bid.group(1))


def pmq_build_id(fd, addr):
    """PROCMAP_QUERY's build id of the VMA covering addr: bytes, None, or
    "ENOTTY" where the kernel has no PROCMAP_QUERY."""
    bid = ctypes.create_string_buffer(64)
    q = ProcmapQuery(size=ctypes.sizeof(ProcmapQuery), query_addr=addr,
                     build_id_size=64, build_id_addr=ctypes.addressof(bid))
    if libc.ioctl(fd, PROCMAP_QUERY, ctypes.byref(q)) != 0:
        e = ctypes.get_errno()
        if e == errno.ENOTTY:
            return "ENOTTY"
        raise OSError(e, "PROCMAP_QUERY")
    return bid.raw[:q.build_id_size] if q.build_id_size else None


def bid_fixtures(tmp):
    """Files mapped by this process, with the build id each must show:
    copies of /bin/true as is, with its build id's bytes changed, with the
    note's type changed (no build id), with the ELF type changed to ET_REL
    (none: the kernel's rule), a text file (none), and a copy unlinked once
    mapped. Returns ({path: expected}, keep-alive objects)."""
    import mmap as pymmap
    orig = open("/bin/true", "rb").read()
    at = orig.find(GNU_BID_NOTE)
    if at < 0:
        raise RuntimeError("/bin/true has no 20-byte GNU build-id note")
    want = orig[at + 16:at + 36]
    flipped = bytes(b ^ 0x5a for b in want)
    variants = {
        "same": (orig, want),
        "flipped": (orig[:at + 16] + flipped + orig[at + 36:], flipped),
        "notype": (orig[:at + 8] + struct.pack("=I", 0x1234) + orig[at + 12:], None),
        "rel": (orig[:16] + struct.pack("=H", 1) + orig[18:], None),
        "text": (b"not an ELF file\n" * 300, None),
        "deleted": (orig, want),
    }
    expect, keep = {}, []
    for name, (data, bid) in variants.items():
        path = os.path.join(tmp, "bid-" + name)
        with open(path, "wb") as f:
            f.write(data)
        f = open(path, "rb")
        keep.append((f, pymmap.mmap(f.fileno(), 0, prot=pymmap.PROT_READ)))
        if name == "deleted":
            os.unlink(path)
            path += " (deleted)"
        expect[path] = bid
    return expect, keep


def build_ids(c, who, tmp):
    """with-build-id: every file-backed VMA of every process the caller may
    read carries the build id readelf finds in its file (and nothing else
    does); the fixtures; the address query's answers; without the flag no
    build id; on 6.12, PROCMAP_QUERY's build id for each VMA of this
    process."""
    me = os.getpid()
    expect, keep = bid_fixtures(tmp)
    plain = c.vma_request(scope=tdnl.SCOPE["all_processes"])
    check("%s: no build id without with-build-id" % who,
          not any("build_id" in v for vs in plain.values() for v in vs))
    dump = c.vma_request(scope=tdnl.SCOPE["all_processes"], with_build_id=True)
    cache, bad, files, skipped = {}, [], set(), set()
    for pid, vmas in dump.items():
        for v in vmas:
            got = v.get("build_id")
            name = v.get("name", "")
            if not v["inode"]:
                if got is not None:
                    bad.append("pid %d %s: a build id without a file" % (pid, tdnl.vma_maps_line(v)))
                continue
            if name in expect:
                want = expect[name]
            elif not name.startswith("/") or name.endswith(" (deleted)"):
                skipped.add(name)
                continue
            else:
                if name not in cache:
                    try:
                        st = os.stat(name)
                        same = (st.st_ino, os.major(st.st_dev), os.minor(st.st_dev)) == \
                            (v["inode"], v["dev_major"], v["dev_minor"])
                    except OSError:
                        same = False
                    cache[name] = readelf_build_id(name) if same else "other file"
                want = cache[name]
                if want in ("unreadable", "other file"):
                    skipped.add(name)
                    continue
            files.add(name)
            if got != want:
                bad.append("pid %d %s: build id %s, readelf %s"
                           % (pid, tdnl.vma_maps_line(v), got and got.hex(), want and want.hex()))
    mine = dump.get(me, [])
    seen = {v.get("name"): v.get("build_id") for v in mine}
    check("%s: the fixtures' build ids" % who,
          all(p in seen and seen[p] == b for p, b in expect.items()),
          "; ".join("%s: %s (want %s)" % (p, seen.get(p, "no VMA"), b)
                    for p, b in expect.items() if seen.get(p, "x") != b))
    check("%s: each file-backed VMA's build id is readelf's" % who, not bad,
          "%d files, %d left out (unreadable, replaced, deleted, pseudo); %s"
          % (len(files), len(skipped), "; ".join(bad[:5])))
    with_bid = [v for v in mine if "build_id" in v]
    check("%s: this process has VMAs with and without a build id" % who,
          with_bid and len(with_bid) < len(mine), "%d of %d" % (len(with_bid), len(mine)))
    # The VMAs of the mm: not the gate area, which a built-in task_diag
    # dumps as maps lists it, and which no address query answers.
    mine = [v for v in mine if v.get("name") != "[vsyscall]"]
    ans = query(c, me, [v["start"] for v in mine], with_build_id=True)
    check("%s: the address query's build ids are the dump's" % who,
          [a[1].get("build_id") for a in ans] == [v.get("build_id") for v in mine])
    ans = query(c, me, [v["start"] for v in mine])
    check("%s: the address query sends none without the flag" % who,
          not any("build_id" in a[1] for a in ans))
    if has_procmap_query():
        fd = os.open("/proc/self/maps", os.O_RDONLY)
        try:
            diff = []
            for v in mine:
                p = pmq_build_id(fd, v["start"])
                if p != v.get("build_id"):
                    diff.append("%s: PROCMAP_QUERY %s, get-vma %s"
                                % (tdnl.vma_maps_line(v), p and p.hex(),
                                   v.get("build_id") and v["build_id"].hex()))
        finally:
            os.close(fd)
        check("%s: build ids equal PROCMAP_QUERY's, VMA by VMA (%d)" % (who, len(mine)),
              not diff, "; ".join(diff[:5]))
    for f, m in keep:
        m.close()
        f.close()


def run(who, tmp, lib, tda, extra_focus=(), unreadable_pids=()):
    pop, made = start_population("mix", tmp)
    notes.append("%s population: %s" % (who, ", ".join(made)))
    print("# " + notes[-1], flush=True)
    c = tdnl.Client()
    tid = max(int(t) for t in os.listdir("/proc/%d/task" % pop.pid))
    focus = {pop.pid} | set(extra_focus)
    compare_all(c, who, focus)
    filters_and_range(c, who, pop.pid, tid)
    t0 = time.time()
    queries(c, who, pop.pid, full=not QUICK[0])
    notes.append("%s: the address query's checks took %.0f s" % (who, time.time() - t0))
    t0 = time.time()
    build_ids(c, who, tmp)
    notes.append("%s: the build-id checks took %.0f s" % (who, time.time() - t0))
    for pid in unreadable_pids:
        unreadable(c, who, pid)
    if lib:
        lib_backends(lib, who, [pop.pid] + list(extra_focus[:1]))
    if lib or LIBQ[0]:
        lib_build_ids(lib or LIBQ[0], who, pop.pid)
    if lib or LIBQ[0]:
        t0 = time.time()
        lib_query(lib or LIBQ[0], who, pop.pid)
        notes.append("%s: the library's query checks took %.0f s" % (who, time.time() - t0))
    if tda:
        pmap_compare(tda, who, pop.pid)
        tda_query(tda, who, pop.pid)
        tda_build_ids(tda, who, pop.pid)
    c.close()
    pop.stdin.close()
    pop.wait()
    return pop


def main(argv):
    if argv[:1] == ["--hold"]:
        hold(argv[1], argv[2])
        return 0
    lib = tda = None
    if "--lib" in argv:
        lib = argv[argv.index("--lib") + 1]
    if "--tda" in argv:
        tda = argv[argv.index("--tda") + 1]
    QUICK[0] = "--quick" in argv
    if "--lib-query" in argv:
        LIBQ[0] = argv[argv.index("--lib-query") + 1]
    if "--user-part" in argv:
        tmp = argv[argv.index("--user-part") + 1]
        roots = [int(x) for x in argv[argv.index("--root-pids") + 1].split(",")]
        run("nobody", tmp, lib, tda, unreadable_pids=roots)
        c = tdnl.Client()
        bad_requests(c)
        for n in notes[1:]:
            print("# " + n)
        return 0 if all(results) else 1

    if os.getuid() != 0:
        print("FAIL: run as root in the guest (it drops privileges itself)")
        return 1
    with open("/proc/sys/vm/max_map_count", "w") as f:
        f.write("262144")
    try:
        with open("/proc/sys/vm/nr_hugepages", "w") as f:
            f.write("4")
    except OSError as e:
        notes.append("nr_hugepages: %s" % e)
    tmp = "/tmp/td_vma_root"
    os.makedirs(tmp, exist_ok=True)
    quick = "--quick" in argv
    QUICK[0] = quick
    big = subprocess.Popen(["sleep", "1000"], stdin=subprocess.PIPE) if quick else \
        start_population("many", tmp)[0]
    try:
        if not quick:
            c = tdnl.Client()
            many(c, "root", big.pid)
            c.close()
        run("root", tmp, lib, tda, extra_focus=() if quick else (big.pid,))
        bad_requests(tdnl.Client())
        c = tdnl.Client()
        t0 = time.time()
        leaderless(c, tmp)
        lock_breaks(c, tmp)
        notes.append("the leaderless and 3,000-VMA checks took %.0f s" % (time.time() - t0))
        c.close()
        utmp = "/tmp/td_vma_nobody"
        os.makedirs(utmp, exist_ok=True)
        os.chown(utmp, NOBODY, NOBODY)
        cmd = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups",
               sys.executable, os.path.abspath(__file__), "--user-part", utmp,
               "--root-pids", "%d,1" % big.pid] + (["--quick"] if quick else [])
        if lib:
            cmd += ["--lib", lib]
        if tda:
            cmd += ["--tda", tda]
        if LIBQ[0]:
            cmd += ["--lib-query", LIBQ[0]]
        t0 = time.time()
        rc = subprocess.run(cmd).returncode
        check("the unprivileged part passed", rc == 0, "%.0f s" % (time.time() - t0))
        if not quick:
            resume_after_exit(tmp)
    finally:
        big.stdin.close()
        if quick:
            big.kill()
        big.wait()
    for n in notes:
        print("# " + n)
    print("vma: %d checks, %d failed" % (len(results), results.count(False)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
