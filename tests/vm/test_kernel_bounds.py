#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bounds on the kernel work one reader can cause, in the guest (root).

A. The build-id budget. 1,000 crafted ET_DYN files (each distinct) carry
   256 PT_NOTE program headers, each over 16 KiB of 12-byte notes, with a
   real GNU build-id note at the very end of the last segment (readelf -n
   finds it: the file is valid ELF). One helper process maps all 1,000
   (after reading them once, so they are in the page cache) plus copies of
   /bin/true, /bin/ls and /bin/cat, and a control file whose build-id note
   is the first note of its first PT_NOTE segment (followed by thousands of
   tiny notes). A get-vma dump of that process with build ids, through a
   32 KiB receive buffer, must complete and list every one of the 1,004
   file mappings; the crafted files must have NO build id (the module's
   parse stops after 384 page-cache lookups; a build id there would mean
   the bound is gone and one reader can make the kernel do ~350,000
   lookups per file under the mmap lock), while the ordinary copies and
   the control carry exactly the build id readelf -n prints (a missing or
   different one would mean the budget cut a normal file short or the
   parse is wrong). The longest recvmsg() and the reader's context
   switches are printed, not asserted.

B. An execve() during a mem read. A target with 1 GiB of touched
   anonymous memory in 4,096 VMAs and 32 GiB only read (the zero page:
   8 million PTEs in 8,192 more VMAs, for a longer walk) is read (scope
   task, show mem) in one thread; while that read runs, the target execs a small shell. The dump
   must complete without error and report the target (with the old
   image's mem, or consistently without it), and the exec must complete.
   The new image must run before the dump returns (an order of events,
   not a time: with a module that walks under exec_update_lock the exec
   waits for the whole walk); the exec's duration and the dump's are
   printed, not asserted (TCG timings swing). A dump that errs, loses the target or
   shows another image's sums, or an exec that never completes, is a bug
   in the lock hand-off between the walk and the exec.

C. A do's mem walk under genetlink's cb_lock. uid 65534 maps 96 TiB of
   hugetlb memory with MAP_NORESERVE (no huge page behind it: 48 million
   2 MiB steps for the page walk, set up without a fault) and asks a do of
   its own process with mem: the do runs under cb_lock, where a family
   registration and every generic netlink request behind it would wait
   for it, so its walk must give up at the module's deadline (mem absent)
   and the do return within 1 s (a liveness bound, far above the 20 ms
   deadline); a dump of the same process, whose walk runs in its own
   recvmsg(), carries mem and shows how long the walk is (printed).

Usage: test_kernel_bounds.py [a[=N]] [b] [c] (all by default; a=N: N
crafted files rather than 1,000).
"""
import mmap
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import resource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdnl  # noqa: E402
from forked import drop_to, in_child  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("%s %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if (detail and not ok) else ""),
          flush=True)
    return bool(ok)


def readelf_build_id(path):
    r = subprocess.run(["readelf", "-h", "-n", "-W", path], capture_output=True, text=True)
    typ = re.search(r"^\s*Type:\s+(\S+)", r.stdout, re.M)
    bid = re.search(r"Build ID:\s+([0-9a-f]+)", r.stdout)
    if not typ or typ.group(1) not in ("EXEC", "DYN") or not bid:
        return None
    return bytes.fromhex(bid.group(1))


PHNUM = 256
SEG = 16 * 1024
EHSZ, PHSZ = 64, 56
PT_NOTE, ET_DYN = 4, 3


def gnu_note(bid):
    return struct.pack("=III", 4, len(bid), 3) + b"GNU\0" + bid


def tiny_notes(nbytes, tag):
    """nbytes of notes: one 16-byte note (4 bytes of desc: tag, which makes
    each file distinct) and then zeros, which are 12-byte empty notes
    (namesz 0, descsz 0, type 0)."""
    return struct.pack("=IIII", 0, 4, 0x777, tag) + b"\0" * (nbytes - 16)


def craft(idx, early):
    """A 64-bit ET_DYN ELF with PHNUM PT_NOTE headers. The first PHNUM-1
    point at one 16 KiB region of tiny notes; the last at a second one.
    Late: the build id ends the second region (16348 = 16 + 1361 * 12:
    it starts on a note boundary), past the budget. Early: the build id is
    the first note of the first region."""
    bid = struct.pack(">I", idx) + bytes((idx * 7 + i) & 0xff for i in range(16))
    hdr_end = EHSZ + PHNUM * PHSZ
    r1 = (hdr_end + 4095) & ~4095
    r2 = r1 + SEG
    g = gnu_note(bid)  # 36 bytes
    if early:
        reg1 = g + tiny_notes(SEG - len(g), idx)
        reg2 = tiny_notes(SEG, idx)
    else:
        reg1 = tiny_notes(SEG, idx)
        reg2 = tiny_notes(SEG - len(g), idx + 1) + g
    assert len(reg1) == SEG and len(reg2) == SEG
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    eh += struct.pack("=HHIQQQIHHHHHH", ET_DYN, 62, 1, 0, EHSZ, 0, 0, EHSZ, PHSZ,
                      PHNUM, 64, 0, 0)
    assert len(eh) == EHSZ
    ph = b""
    for i in range(PHNUM):
        off = r2 if i == PHNUM - 1 else r1
        ph += struct.pack("=IIQQQQQQ", PT_NOTE, 4, off, 0, 0, SEG, SEG, 4)
    data = eh + ph
    data += b"\0" * (r1 - len(data)) + reg1 + reg2
    return data, bid


HELPER = r"""
import mmap, os, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
keep = []
for p in sys.argv[1:]:
    with open(p, "rb") as f:
        f.read()
        keep.append(mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ))
print("ready", flush=True)
sys.stdin.read()
"""


class TimedClient(tdnl.Client):
    def __init__(self, *a, **kw):
        self.recv_times = []
        super().__init__(*a, **kw)

    def read_datagram(self, seq):
        t = time.monotonic()
        try:
            return super().read_datagram(seq)
        finally:
            self.recv_times.append(time.monotonic() - t)


def case_a(N=1000):
    tmp = tempfile.mkdtemp(prefix="tdkb-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512m", "tmpfs", tmp], check=True)
    try:
        t0 = time.monotonic()
        crafted = {}
        for i in range(N):
            data, bid = craft(i + 1, early=False)
            p = os.path.join(tmp, "crafted-%04d" % i)
            with open(p, "wb") as f:
                f.write(data)
            os.chmod(p, 0o755)
            crafted[p] = bid
        data, cbid = craft(5000, early=True)
        control = os.path.join(tmp, "control")
        with open(control, "wb") as f:
            f.write(data)
        os.chmod(control, 0o755)
        ordinary = {}
        for b in ("/bin/true", "/bin/ls", "/bin/cat"):
            p = os.path.join(tmp, "copy-" + os.path.basename(b))
            shutil.copy(b, p)
            ordinary[p] = readelf_build_id(p)
        print("# A: wrote %d crafted files (%d bytes each) in %.2fs"
              % (N, len(data), time.monotonic() - t0), flush=True)
        # The oracle agrees the crafted files are well formed and have one.
        sample = [os.path.join(tmp, "crafted-0000"), os.path.join(tmp, "crafted-%04d" % (N - 1))]
        check("A: readelf finds the late build id in crafted files",
              all(readelf_build_id(p) == crafted[p] for p in sample),
              "; ".join("%s: %s" % (p, readelf_build_id(p)) for p in sample))
        check("A: readelf finds the control's build id", readelf_build_id(control) == cbid)
        check("A: the ordinary copies have a build id per readelf",
              all(v and len(v) >= 1 for v in ordinary.values()), str(ordinary))
        paths = list(crafted) + [control] + list(ordinary)
        helper = subprocess.Popen([sys.executable, "-c", HELPER] + paths,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            line = helper.stdout.readline()
            check("A: helper mapped all files", line.strip() == "ready", repr(line))
            c = TimedClient(rcvbuf=32768)
            c.recv_times, c.datagrams = [], 0
            ru0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.monotonic()
            err = None
            try:
                dump = c.vma_request(scope=tdnl.SCOPE["task"], pid=helper.pid,
                                     with_build_id=True)
            except (OSError, ValueError) as e:
                err, dump = e, {}
            dt = time.monotonic() - t0
            ru1 = resource.getrusage(resource.RUSAGE_SELF)
            check("A: the dump completes", err is None, str(err))
            vmas = dump.get(helper.pid, [])
            byname = {}
            for v in vmas:
                if v.get("name", "").startswith(tmp + "/"):
                    byname.setdefault(v["name"], []).append(v)
            missing = [p for p in paths if p not in byname]
            check("A: every one of the %d file mappings is listed" % len(paths),
                  not missing, "%d missing, e.g. %s" % (len(missing), missing[:3]))
            bad = [p for p in crafted for v in byname.get(p, []) if "build_id" in v]
            check("A: no crafted file (build id past the budget) has a build id", not bad,
                  "%d of %d do, e.g. %s" % (len(bad), N, bad[:3]))
            got = [v.get("build_id") for v in byname.get(control, [])]
            check("A: the control (early note) has its build id",
                  got and all(g == cbid for g in got),
                  "got %s, want %s" % ([g and g.hex() for g in got], cbid.hex()))
            badord = ["%s: %s want %s" % (p, [v.get("build_id") and v["build_id"].hex()
                                              for v in byname.get(p, [])], want.hex())
                      for p, want in ordinary.items()
                      if not byname.get(p) or any(v.get("build_id") != want for v in byname[p])]
            check("A: the ordinary copies carry readelf's build id", not badord,
                  "; ".join(badord))
            print("# A: dump %.3fs, %d VMAs, %d datagrams, longest recvmsg %.1f ms, "
                  "reader voluntary cs %d, involuntary cs %d"
                  % (dt, len(vmas), c.datagrams, 1000 * max(c.recv_times or [0]),
                     ru1.ru_nvcsw - ru0.ru_nvcsw, ru1.ru_nivcsw - ru0.ru_nivcsw), flush=True)
            c.close()
        finally:
            helper.stdin.close()
            helper.wait()
    finally:
        subprocess.run(["umount", tmp])
        os.rmdir(tmp)


TARGET = r"""
import mmap, os, sys, time
CH = 256 * 1024
keep = []
for i in range(4096):
    m = mmap.mmap(-1, CH + 4096, flags=mmap.MAP_PRIVATE)
    m[:CH] = b"\1" * CH
    keep.append(m)
# A guard page after each chunk: separate VMAs (no merge)
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for m in keep:
    a = ctypes.addressof(ctypes.c_char.from_buffer(m))
    if libc.mprotect(ctypes.c_void_p(a + CH), 4096, 0):
        raise OSError(ctypes.get_errno(), "mprotect")
# 32 GiB more, only read: the zero page in 8 million PTEs (64 MiB of page
# tables, no memory), in 8,192 VMAs, for a walk long enough to overlap.
ZCH = 4 << 20
for i in range(8192):
    m = mmap.mmap(-1, ZCH + 4096, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
    m.madvise(mmap.MADV_NOHUGEPAGE)
    m.madvise(22, 0, ZCH)  # MADV_POPULATE_READ
    keep.append(m)
print("ready", flush=True)
sys.stdin.readline()
sys.stdout.write("%d\n" % time.time_ns())
sys.stdout.flush()
os.execv("/bin/sh", ["sh", "-c", "date +%s%N; read x"])
"""


def mem_read(pid, out, started=None):
    c = tdnl.Client()
    if started:
        started.set()
    out["w0"] = time.time_ns()
    out["t0"] = time.monotonic()
    try:
        out["tasks"] = c.request(scope=tdnl.SCOPE["task"], pid=pid, show=tdnl.SHOW["mem"],
                                 dump=True)
    except (OSError, ValueError) as e:
        out["err"] = e
    out["t1"] = time.monotonic()
    out["w1"] = time.time_ns()
    c.close()


def case_b():
    t0 = time.monotonic()
    tgt = subprocess.Popen([sys.executable, "-c", TARGET], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    try:
        line = tgt.stdout.readline()
        check("B: target ready", line.strip() == "ready", repr(line))
        st = open("/proc/%d/status" % tgt.pid).read()
        print("# B: target set up in %.2fs; %s" % (time.monotonic() - t0, ", ".join(
            " ".join(l.split()) for l in st.splitlines() if l.startswith(("VmPTE", "VmRSS")))),
            flush=True)
        # A first read, undisturbed: how long a walk takes here.
        base = {}
        mem_read(tgt.pid, base)
        bd = base["t1"] - base["t0"]
        bm = (base.get("tasks") or [{}])[0].get("mem") or {}
        check("B: an undisturbed read has the target's mem", "err" not in base and
              bm.get("rss", 0) >= 1 << 30, "%s %s" % (base.get("err"), bm.get("rss")))
        print("# B: undisturbed mem read %.3fs, rss %d" % (bd, bm.get("rss", 0)), flush=True)
        out = {}
        started = threading.Event()
        th = threading.Thread(target=mem_read, args=(tgt.pid, out, started))
        th.start()
        # The reader is about to send (it holds the interpreter's lock until
        # its sendmsg() blocks in the walk); a tenth of an undisturbed read
        # later the walk is going.
        started.wait(60)
        time.sleep(bd / 10)
        tgt.stdin.write("go\n")
        tgt.stdin.flush()
        th.join(600)
        before = tgt.stdout.readline()
        after = tgt.stdout.readline()
        check("B: the dump during the exec completes without error",
              not th.is_alive() and "err" not in out, str(out.get("err")))
        tasks = out.get("tasks") or []
        mem = tasks[0].get("mem") if tasks else None
        check("B: the dump reports the target once",
              len(tasks) == 1 and tasks[0].get("pid") == tgt.pid,
              "%s" % [t.get("pid") for t in tasks])
        check("B: its mem is the old image's, or absent",
              mem is None or mem.get("rss", 0) >= 1 << 30,
              "rss %s" % (mem and mem.get("rss")))
        try:
            tb, ta = int(before), int(after)
        except ValueError:
            tb = ta = None
        check("B: the exec completed", tb is not None and ta >= tb, "%r %r" % (before, after))
        # The walk runs without exec_update_lock: the exec, called a tenth
        # into it, does not wait for it, so the new image runs while the
        # dump is still walking (an order of events in one run, not a time;
        # a module that walks under the lock makes the exec wait for the
        # whole walk, and the new image starts after the dump returned).
        check("B: the new image ran before the dump returned (the exec did not wait)",
              tb is not None and ta < out["w1"],
              "new image at %.3fs, dump returned at %.3fs from its start"
              % (((ta or 0) - out["w0"]) / 1e9, (out["w1"] - out["w0"]) / 1e9))
        dd = out["t1"] - out["t0"]
        if tb is not None:
            ex = (ta - tb) / 1e9
            print("# B: exec %.3fs (exec to date's start), dump during it %.3fs, "
                  "exec/dump %.2f, mem %s"
                  % (ex, dd, ex / dd if dd else 0,
                     "old image rss %d" % mem["rss"] if mem else "absent"), flush=True)
            print("# B: timeline from the dump's start: exec called at %.3fs, new image ran "
                  "at %.3fs, dump returned at %.3fs"
                  % ((tb - out["w0"]) / 1e9, (ta - out["w0"]) / 1e9,
                     (out["w1"] - out["w0"]) / 1e9), flush=True)
    finally:
        try:
            tgt.stdin.close()
        except OSError:
            pass
        try:
            tgt.wait(60)
        except subprocess.TimeoutExpired:
            tgt.kill()
            tgt.wait()


HUGE_TARGET = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
# PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_HUGETLB
p = libc.mmap(None, int(sys.argv[1]) << 40, 3, 0x02 | 0x20 | 0x4000 | 0x40000, -1, 0)
if p in (None, ctypes.c_void_p(-1).value):
    print("mmap failed: %s" % os.strerror(ctypes.get_errno()), flush=True)
    sys.exit(1)
print("ready", flush=True)
sys.stdin.read()
"""


def case_c(tib=96):
    """A do with mem runs under genetlink's cb_lock: its page walk gives up
    at the module's deadline. uid 65534 maps tib TiB of hugetlb memory with
    MAP_NORESERVE (no huge page behind it: 48 M steps of 2 MiB for the walk,
    set up without a single fault) and asks a do of its own process with
    mem; a dump of the same (its walk runs in its own recvmsg()) is the
    control that the walk is long."""
    tgt = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", HUGE_TARGET, str(tib)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = tgt.stdout.readline()
        if not check("C: a %d TiB MAP_HUGETLB|MAP_NORESERVE mapping" % tib,
                     line.strip() == "ready", repr(line)):
            return

        def read(dump):
            drop_to(65534)
            c = tdnl.Client()
            t0 = time.monotonic()
            t = c.request(scope=tdnl.SCOPE["task"], pid=tgt.pid,
                          show=tdnl.SHOW["base"] | tdnl.SHOW["mem"], dump=dump)
            return time.monotonic() - t0, "mem" in t[0]
        do_s, do_mem = in_child(lambda: read(False))
        dump_s, dump_mem = in_child(lambda: read(True))
        print("# C: do %.3f s (mem %s), dump %.3f s (mem %s)" % (do_s, do_mem, dump_s, dump_mem),
              flush=True)
        check("C: the dump (its walk in its own recvmsg()) carries mem", dump_mem)
        check("C: the do (under cb_lock) gives the walk up: no mem, and it returns within "
              "1 s, a fraction of the dump's %.2f s" % dump_s,
              not do_mem and do_s < 1.0 and do_s < dump_s / 2,
              "do %.3f s, mem %s" % (do_s, do_mem))
    finally:
        tgt.kill()
        tgt.wait()


def main():
    t0 = time.monotonic()
    print("# kernel %s" % os.uname().release, flush=True)
    # "a=N": case A with N crafted files rather than 1,000 (the debug
    # kernel's run: the same parse path, a tenth of KASAN's time)
    parts = dict(p.partition("=")[::2] for p in sys.argv[1:] or ["a", "b", "c"])
    if "a" in parts:
        case_a(int(parts["a"] or 1000))
    if "b" in parts:
        case_b()
    if "c" in parts:
        case_c()
    print("# total %.1fs" % (time.monotonic() - t0), flush=True)
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
