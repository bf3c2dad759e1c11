#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""task_diag_all --format prometheus and openmetrics, --aggregate and --textfile.

Usage: test_openmetrics.py TASK_DIAG_ALL CHECK [BACKEND]
  CHECK    values | aggregate | exited | golden | node_exporter | usage | om1
  BACKEND  procfs (default) or netlink (in a guest with the module)

The oracles: /proc/PID/stat, status and io, read here just before and just
after the tool, whose value must lie between the two (seconds are clock
ticks over CLK_TCK, the start time btime of /proc/stat plus starttime
ticks, as ps and process-exporter compute it; bytes are pages times the
page size and kB times 1024); the values of make_stream.py's hand-built
recordings (golden); promtool check metrics (Debian's prometheus package)
for the format and Prometheus' naming rules; Debian's node_exporter,
whose textfile collector parses the file and says so in
node_textfile_scrape_error. The text format is parsed here from its
published grammar (HELP and TYPE lines, label values with \\\\, \\" and \\n
escapes), not with the tool's own code.

What would be a bug:
- values: a fixture process's series (CPU by mode, memory by type, I/O,
  context switches, threads, start time, page faults) missing, extra or
  different from /proc; a label other than pid, comm, user (comm escaped,
  ill-formed UTF-8 as U+FFFD); a family without HELP and TYPE, or split;
  promtool rejecting the output; a process that lived through the dump
  missing from it;
- aggregate: --aggregate user, comm or user,comm not equal to the sums of
  the per-process output of the same (stopped) processes (the oldest start
  time, the number of processes);
- exited: with --textfile --interval --aggregate comm, a group's counters
  going down when one of its processes exits;
- golden: a value of a recording not printed as the documented metric;
  two comms that differ only in ill-formed bytes aggregated into two
  series with the same labels;
- node_exporter: the scrape not carrying the fixtures' metrics with /proc's
  values, node_textfile_scrape_error not 0 (and a file with a bad label
  value not making it 1, which shows that the check can fail);
- om1: -f openmetrics refused by prometheus_client's OpenMetrics 1.0
  parser (Debian's python3-prometheus-client), or not the same samples as
  -f prometheus of the same stopped processes, a counter family named with
  _total, a seconds or bytes family without its UNIT, # EOF not last; -f
  prometheus with OpenMetrics' lines or refused by promtool;
- usage: a bad option without exit status 2 and a message; an unwritable,
  missing or non-directory --textfile without a message and a non-zero exit;
  a written file left behind in pieces (a temporary file) or unreadable to
  others.
"""
import os
import pwd
import random
import socket
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
import tdcheck  # noqa: E402
from tdcheck import check, failures  # noqa: E402

tdcheck.failures_only = True

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = None
BACKEND = "procfs"
HZ = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
PREFIX = "taskdiag_process_"

# The documented families (docs/prometheus.md): name -> (type, label, series).
FAMILIES = {
    "cpu_seconds_total": ("counter", "mode", ("user", "system")),
    "memory_bytes": ("gauge", "memtype", ("resident", "virtual", "swapped")),
    "read_bytes_total": ("counter", None, None),
    "write_bytes_total": ("counter", None, None),
    "rchar_bytes_total": ("counter", None, None),
    "wchar_bytes_total": ("counter", None, None),
    "context_switches_total": ("counter", "ctxswitchtype", ("voluntary", "nonvoluntary")),
    "num_threads": ("gauge", None, None),
    "start_time_seconds": ("gauge", None, None),
    "major_page_faults_total": ("counter", None, None),
    "minor_page_faults_total": ("counter", None, None),
}
AGG_FAMILIES = dict(FAMILIES)
del AGG_FAMILIES["start_time_seconds"]
AGG_FAMILIES["oldest_start_time_seconds"] = ("gauge", None, None)
AGG_FAMILIES["num_procs"] = ("gauge", None, None)

# A fixture: comm from argv[1] (hex), CPU in both modes, read() and write(),
# argv[2] MiB touched (no transparent huge pages), argv[3] more threads; then
# it stops itself, so that its numbers hold still while the tool and the
# oracle read them.
FIXTURE = r"""
import ctypes, os, signal, sys, threading, time
libc = ctypes.CDLL(None)
libc.prctl(15, ctypes.c_char_p(bytes.fromhex(sys.argv[1])), 0, 0, 0)  # PR_SET_NAME
libc.prctl(41, 1, 0, 0, 0)  # PR_SET_THP_DISABLE: khugepaged would change a stopped RSS
t = time.process_time()
x = 0
while time.process_time() - t < 0.05:
    x += 1
fd = os.open("/dev/zero", os.O_RDONLY)
for _ in range(3000):
    os.read(fd, 4096)
os.write(os.open("/dev/null", os.O_WRONLY), b"y" * 12345)
buf = bytearray(int(sys.argv[2]) << 20)
for i in range(0, len(buf), 4096):
    buf[i] = 1
for _ in range(int(sys.argv[3])):
    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
os.kill(os.getpid(), signal.SIGSTOP)
time.sleep(1000)
"""


def run(*args, user=None):
    kw = {}
    if user is not None:
        kw = {"user": user, "group": user, "extra_groups": []}
    p = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd="/", **kw)
    return p.returncode, p.stdout.decode("utf-8", errors="strict"), \
        p.stderr.decode(errors="replace")


def tool_om(*args, fmt="prometheus"):
    """The tool's metrics, the 0.0.4 text by default (exit status 0 and
    nothing on stderr asked)."""
    rc, out, err = run("--backend", BACKEND, "--format", fmt, *args)
    check(rc == 0 and not err, "%s %s: exit %d, %r" % (fmt, args, rc, err))
    return out


# ---------------------------------------------------------------------------
# The text format, from its grammar

def unescape_label(s, i):
    """The label value starting after the opening quote at s[i:]; (value, next index)."""
    out = []
    while True:
        c = s[i]
        if c == "\\":
            n = s[i + 1]
            out.append({"\\": "\\", '"': '"', "n": "\n"}[n])
            i += 2
        elif c == '"':
            return "".join(out), i + 1
        elif c == "\n":
            raise ValueError("line feed in a label value")
        else:
            out.append(c)
            i += 1


def parse_sample(line):
    i = 0
    while i < len(line) and line[i] not in "{ ":
        i += 1
    name, labels = line[:i], {}
    if i < len(line) and line[i] == "{":
        i += 1
        while line[i] != "}":
            j = line.index("=", i)
            lname = line[i:j]
            if line[j + 1] != '"':
                raise ValueError("label %s not quoted" % lname)
            value, i = unescape_label(line, j + 2)
            if lname in labels:
                raise ValueError("label %s twice" % lname)
            labels[lname] = value
            if line[i] == ",":
                i += 1
        i += 1
    rest = line[i:].split()
    if len(rest) not in (1, 2):
        raise ValueError("no value in %r" % line)
    return name, labels, rest[0]


def parse_text(text):
    """Prometheus text format -> ({family: {"help", "type"}}, [(name, labels, value)])."""
    fams, samples, order = {}, [], []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                f = fams.setdefault(parts[2], {})
                f[parts[1].lower()] = parts[3] if len(parts) > 3 else ""
                if not order or order[-1] != parts[2]:
                    order.append(parts[2])
            continue
        name, labels, value = parse_sample(line)
        samples.append((name, labels, value))
        if not order or order[-1] != name:
            order.append(name)
    check(len(order) == len(set(order)), "a family is split: %s" % order)
    return fams, samples


def check_families(fams, samples, expect, what):
    """Every sample's family documented, with HELP and the documented TYPE."""
    ours = {n for n, _, _ in samples if n.startswith(PREFIX)}
    for n in ours:
        short = n[len(PREFIX):]
        check(short in expect, "%s: undocumented family %s" % (what, n))
        if short in expect:
            check(fams.get(n, {}).get("type") == expect[short][0] and fams[n].get("help"),
                  "%s: %s has %r, not HELP and TYPE %s" % (what, n, fams.get(n), expect[short][0]))
    seen = set()
    for name, labels, _ in samples:
        key = (name, tuple(sorted(labels.items())))
        check(key not in seen, "%s: series %s twice" % (what, key))
        seen.add(key)


def series_by_key(samples, keylabels):
    """{(labels of keylabels...): {(family, extra label value): Decimal}}"""
    out = {}
    for name, labels, value in samples:
        if not name.startswith(PREFIX):
            continue
        short = name[len(PREFIX):]
        key = tuple(labels.get(k) for k in keylabels)
        spec = AGG_FAMILIES.get(short) or FAMILIES.get(short)
        extra = labels.get(spec[1]) if spec and spec[1] else None
        check(set(labels) == set(keylabels) | ({spec[1]} if spec and spec[1] else set()),
              "%s: labels %s" % (name, sorted(labels)))
        out.setdefault(key, {})[(short, extra)] = Decimal(value)
    return out


def find_tool(name):
    """promtool, prometheus-node-exporter: as CMake found them, where scripts/setup
    unpacks them, or on PATH."""
    env = os.environ.get({"promtool": "TD_PROMTOOL"}.get(name, "TD_NODE_EXPORTER"), "")
    if os.access(env, os.X_OK):
        return env
    cache = os.environ.get("TASK_DIAG_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "task_diag")
    dirs = [os.path.join(cache, "prometheus", "usr", "bin")] + \
        os.environ.get("PATH", "").split(":")
    for d in dirs:
        path = os.path.join(d, name)
        if os.access(path, os.X_OK):
            return path
    raise SystemExit("%s is in neither %s nor PATH: scripts/setup fetches it" % (name, dirs[0]))


def promtool(text, what):
    p = subprocess.run([find_tool("promtool"), "check", "metrics"], input=text.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check(p.returncode == 0 and not p.stdout.strip(),
          "%s: promtool check metrics: %d %s" % (what, p.returncode, p.stdout.decode()[:2000]))


# ---------------------------------------------------------------------------
# The oracle: /proc

def btime():
    for line in open("/proc/stat"):
        if line.startswith("btime "):
            return int(line.split()[1])
    raise SystemExit("no btime in /proc/stat")


def label_text(b):
    """What a label value holds for bytes @b: UTF-8, U+FFFD for ill-formed parts."""
    return b.decode("utf-8", errors="replace")


def user_name(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def proc_series(pid):
    """A process's expected labels and series, from /proc."""
    stat = open("/proc/%d/stat" % pid, "rb").read()
    comm = stat[stat.index(b"(") + 1:stat.rindex(b")")]
    f = stat[stat.rindex(b")") + 2:].split()
    field = lambda n: int(f[n - 3])  # noqa: E731 (stat(5)'s field numbers)
    status = {}
    for line in open("/proc/%d/status" % pid, "rb"):
        k, _, v = line.decode(errors="replace").partition(":")
        status[k] = v.split()
    s = {
        ("cpu_seconds_total", "user"): Decimal(field(14)) / HZ,
        ("cpu_seconds_total", "system"): Decimal(field(15)) / HZ,
        ("memory_bytes", "resident"): Decimal(field(24) * PAGE),
        ("memory_bytes", "virtual"): Decimal(field(23)),
        ("num_threads", None): Decimal(field(20)),
        ("start_time_seconds", None): btime() + Decimal(field(22)) / HZ,
        ("major_page_faults_total", None): Decimal(field(12)),
        ("minor_page_faults_total", None): Decimal(field(10)),
        ("context_switches_total", "voluntary"): Decimal(status["voluntary_ctxt_switches"][0]),
        ("context_switches_total", "nonvoluntary"):
            Decimal(status["nonvoluntary_ctxt_switches"][0]),
    }
    if "VmSwap" in status:
        s[("memory_bytes", "swapped")] = Decimal(int(status["VmSwap"][0]) * 1024)
    try:
        io = dict(line.split(": ") for line in open("/proc/%d/io" % pid).read().splitlines())
        for k in ("rchar", "wchar", "read_bytes", "write_bytes"):
            name = {"rchar": "rchar_bytes_total", "wchar": "wchar_bytes_total"}.get(
                k, k + "_total")
            s[(name, None)] = Decimal(io[k])
    except PermissionError:
        pass
    labels = (str(pid), label_text(comm), user_name(int(status["Uid"][1])))
    return labels, s


def close_enough(got, before, after, key):
    """Between /proc's readings before and after the tool's; for the module's
    nanoseconds, within a clock tick above (procfs rounds down to ticks)."""
    lo, hi = min(before, after), max(before, after)
    if BACKEND != "procfs" and key[0] in ("cpu_seconds_total", "start_time_seconds"):
        hi += Decimal(1) / HZ
        return lo <= got < hi
    return lo <= got <= hi


def snapshot(procs):
    """/proc's view of the fixtures, read before the tool's."""
    return {p.pid: proc_series(p.pid)[1] for p in procs}


def compare_process(per_pid, pid, what, before):
    labels, want = proc_series(pid)
    got = per_pid.get(labels)
    if not check(got is not None, "%s: no series with labels %s (pids: %s)" %
                 (what, labels, [k for k in per_pid if k[0] == str(pid)])):
        return
    check(set(got) == set(want), "%s: pid %d has %s, /proc %s" %
          (what, pid, sorted(got, key=str), sorted(want, key=str)))
    for k in want:
        if k in got:
            check(close_enough(got[k], before.get(k, want[k]), want[k], k),
                  "%s: pid %d %s = %s, /proc says %s before, %s after" %
                  (what, pid, k, got[k], before.get(k), want[k]))


# ---------------------------------------------------------------------------
# Fixtures

def spawn(comm, mib=4, threads=0, uid=None):
    kw = {}
    if uid is not None:
        kw = {"user": uid, "group": uid, "extra_groups": []}
    p = subprocess.Popen(["/usr/bin/python3", "-c", FIXTURE, comm.hex(), str(mib), str(threads)],
                         cwd="/", **kw)
    p.comm = comm
    return p


def settle(procs):
    """Until every thread of every fixture is stopped."""
    end = time.time() + 120
    while time.time() < end:
        states = []
        for p in procs:
            for t in os.listdir("/proc/%d/task" % p.pid):
                try:
                    stat = open("/proc/%d/task/%s/stat" % (p.pid, t), "rb").read()
                    states.append(stat[stat.rindex(b")") + 2:stat.rindex(b")") + 3])
                except OSError:
                    states.append(b"?")
        if states and all(s == b"T" for s in states):
            return
        time.sleep(0.1)
    raise SystemExit("the fixtures did not stop")


def stop_all(procs):
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def tag():
    return "%04x" % random.randrange(1 << 16)


def other_uid():
    return 65534 if os.geteuid() == 0 else None


# ---------------------------------------------------------------------------
# Checks

def check_values():
    t = tag()
    weird = b'q"b\\' + b"\n" + t[:2].encode() + b"\xff\xc3"   # quote, backslash, LF, bad UTF-8
    procs = [spawn(b"tdom-" + t.encode(), mib=8, threads=3), spawn(weird, mib=2),
             spawn(b"tdom-u" + t.encode(), uid=other_uid())]
    try:
        settle(procs)
        before = {int(d) for d in os.listdir("/proc") if d.isdigit()}
        snap = snapshot(procs)
        out = tool_om()
        after = {int(d) for d in os.listdir("/proc") if d.isdigit()}
        promtool(out, "all processes")
        fams, samples = parse_text(out)
        check_families(fams, samples, FAMILIES, "all processes")
        per_pid = series_by_key(samples, ("pid", "comm", "user"))
        for p in procs:
            compare_process(per_pid, p.pid, "all processes", snap[p.pid])
        pids = {int(k[0]) for k in per_pid}
        check(before & after <= pids, "processes that lived through the dump are missing: %s" %
              sorted((before & after) - pids)[:20])
        # -p: the same values, only those processes.
        snap = snapshot(procs)
        out = tool_om("-p", ",".join(str(p.pid) for p in procs))
        promtool(out, "-p")
        per_pid = series_by_key(parse_text(out)[1], ("pid", "comm", "user"))
        check({int(k[0]) for k in per_pid} == {p.pid for p in procs},
              "-p: pids %s" % sorted(per_pid))
        for p in procs:
            compare_process(per_pid, p.pid, "-p", snap[p.pid])
    finally:
        stop_all(procs)


def sums(per_pid, keyidx):
    """The documented aggregate of per-process series, by the labels at @keyidx."""
    out = {}
    for labels, series in per_pid.items():
        key = tuple(labels[i] for i in keyidx)
        g = out.setdefault(key, {("num_procs", None): Decimal(0)})
        g[("num_procs", None)] += 1
        for (fam, extra), v in series.items():
            if fam == "start_time_seconds":
                k = ("oldest_start_time_seconds", None)
                g[k] = min(g.get(k, v), v)
            else:
                g[(fam, extra)] = g.get((fam, extra), Decimal(0)) + v
    return out


def check_aggregate():
    t = tag()
    agg, oth = b"tdom-a" + t.encode(), b"tdom-o" + t.encode()
    nobody = other_uid()
    procs = [spawn(agg, mib=4, threads=2), spawn(agg, mib=6), spawn(agg, uid=nobody),
             spawn(oth, mib=3, uid=nobody)]
    try:
        settle(procs)
        plist = ",".join(str(p.pid) for p in procs)
        snap = snapshot(procs)
        per_pid = series_by_key(parse_text(tool_om("-p", plist))[1], ("pid", "comm", "user"))
        for p in procs:
            compare_process(per_pid, p.pid, "per process", snap[p.pid])
        for by, keys, idx in (("user", ("user",), (2,)), ("comm", ("comm",), (1,)),
                              ("user,comm", ("user", "comm"), (2, 1)),
                              ("comm,user", ("user", "comm"), (2, 1))):
            out = tool_om("-p", plist, "--aggregate", by)
            promtool(out, "--aggregate " + by)
            fams, samples = parse_text(out)
            check_families(fams, samples, AGG_FAMILIES, "--aggregate " + by)
            got = series_by_key(samples, keys)
            want = sums(per_pid, idx)
            check(got == want, "--aggregate %s: %s, the per-process sums %s" % (by, got, want))
        # Over every process: the fixtures' comm is theirs alone.
        out = tool_om("--aggregate", "comm")
        promtool(out, "--aggregate comm, all processes")
        got = series_by_key(parse_text(out)[1], ("comm",))
        want = sums(per_pid, (1,))
        for comm in (agg, oth):
            key = (comm.decode(),)
            check(got.get(key) == want[key], "--aggregate comm: %s: %s, the sums %s" %
                  (comm, got.get(key), want[key]))
    finally:
        stop_all(procs)


def read_versions(path, seen):
    """The file's content when its inode is new (the tool renamed a new one in), else None."""
    try:
        st = os.stat(path)
        if st.st_ino in seen:
            return None
        text = open(path).read()
    except FileNotFoundError:
        return None
    seen.add(st.st_ino)
    return text


def check_exited():
    t = tag()
    comm = b"tdom-x" + t.encode()
    procs = [spawn(comm, mib=4, threads=1), spawn(comm, mib=2)]
    d = tempfile.mkdtemp(prefix="tdom-")
    path = os.path.join(d, "task_diag.prom")
    tool = None
    try:
        settle(procs)
        tool = subprocess.Popen([TOOL, "--backend", BACKEND, "--textfile", d, "--interval", "0.3",
                                 "--count", "200", "--aggregate", "comm"], cwd="/")
        key, seen, first, later = (comm.decode(),), set(), None, None
        end = time.time() + 120
        while time.time() < end and later is None and tool.poll() is None:
            text = read_versions(path, seen)
            if text is None:
                time.sleep(0.05)
                continue
            g = series_by_key(parse_text(text)[1], ("comm",)).get(key, {})
            if first is None and g.get(("num_procs", None)) == 2:
                first = g
                procs[1].kill()
                procs[1].wait()
            elif first is not None and g.get(("num_procs", None)) == 1:
                later = g
        check(first is not None and later is not None,
              "--textfile: no version with the group of 2, then of 1: %s %s" % (first, later))
        if first and later:
            for k, v in first.items():
                if k[0].endswith("_total"):
                    check(later.get(k, -1) >= v, "%s of the group went down from %s to %s "
                          "when a process exited" % (k, v, later.get(k)))
            check(later[("memory_bytes", "resident")] < first[("memory_bytes", "resident")],
                  "the gauge memory_bytes did not drop without the process: %s, %s" %
                  (first, later))
            check(not [n for n in os.listdir(d) if n != "task_diag.prom"],
                  "--textfile left %s" % os.listdir(d))
    finally:
        if tool and tool.poll() is None:
            tool.terminate()
            check(tool.wait() == 0, "--textfile: exit %s on SIGTERM" % tool.returncode)
        stop_all(procs)
        for n in os.listdir(d):
            os.unlink(os.path.join(d, n))
        os.rmdir(d)


def check_golden():
    sys.path.insert(0, os.path.join(HERE, "..", "cli"))
    import make_stream as ms
    work = tempfile.mkdtemp(prefix="tdom-")
    good = os.path.join(work, "good.raw")
    with open(good, "wb") as f:
        f.write(ms.good_stream())
    rc, out, err = run("--replay", good, "--format", "prometheus")
    check(rc == 0 and not err, "--replay good.raw: %d %r" % (rc, err))
    promtool(out, "--replay good.raw")
    fams, samples = parse_text(out)
    check_families(fams, samples, FAMILIES, "--replay")
    got = series_by_key(samples, ("pid", "comm", "user"))
    bt = btime()
    want = {}
    for task in ms.TASKS:
        b, st = task["base"], task["stat"]
        s = {("cpu_seconds_total", "user"): Decimal(st["utime"]) / 10**9,
             ("cpu_seconds_total", "system"): Decimal(st["stime"]) / 10**9,
             ("memory_bytes", "resident"): Decimal(st["rss"]),
             ("memory_bytes", "virtual"): Decimal(st["vsize"]),
             ("num_threads", None): Decimal(b["num_threads"]),
             ("start_time_seconds", None): bt + Decimal(b["start_time"]) / 10**9,
             ("major_page_faults_total", None): Decimal(st["majflt"]),
             ("minor_page_faults_total", None): Decimal(st["minflt"]),
             ("context_switches_total", "voluntary"):
                 Decimal(task["status"]["voluntary_ctxt_switches"]),
             ("context_switches_total", "nonvoluntary"):
                 Decimal(task["status"]["nonvoluntary_ctxt_switches"])}
        if "vm_swap" in task["status"]:
            s[("memory_bytes", "swapped")] = Decimal(task["status"]["vm_swap"])
        if "io" in task:
            for k, n in (("rchar", "rchar_bytes_total"), ("wchar", "wchar_bytes_total"),
                         ("read_bytes", "read_bytes_total"), ("write_bytes", "write_bytes_total")):
                s[(n, None)] = Decimal(task["io"][k])
        want[(str(task["pid"]), label_text(b["comm"]), user_name(task["cred"]["euid"]))] = s
    check(got == want, "--replay: %s\nnot the recording's %s" % (got, want))
    # Hostile comms: two that differ only in ill-formed bytes are one group.
    tasks = []
    for pid, comm in ((100, b'q"b\\\nx\xff'), (101, b'q"b\\\nx\xfe'), (102, b"cut\xe2\x82")):
        task = dict(ms.TASKS[0], pid=pid, tgid=pid)
        task["base"] = dict(task["base"], comm=comm)
        tasks.append(task)
    stream = os.path.join(work, "comm.raw")
    with open(stream, "wb") as f:
        f.write(ms.header() + ms.request() +
                ms.datagram(*[ms.task_msg(t) for t in tasks], ms.done_msg()))
    for agg in ((), ("--aggregate", "comm")):
        rc, out, err = run("--replay", stream, "--format", "prometheus", *agg)
        check(rc == 0 and not err, "--replay comm.raw %s: %d %r" % (agg, rc, err))
        promtool(out, "--replay comm.raw %s" % (agg,))
        fams, samples = parse_text(out)
        check_families(fams, samples, AGG_FAMILIES if agg else FAMILIES, "comm.raw")
        comms = sorted({s[1]["comm"] for s in samples})
        check(comms == sorted({label_text(t["base"]["comm"]) for t in tasks}),
              "comm labels %r" % comms)
        if agg:
            n = {s[1]["comm"]: s[2] for s in samples if s[0] == PREFIX + "num_procs"}
            check(n == {label_text(b'q"b\\\nx\xff'): "2", label_text(b"cut\xe2\x82"): "1"},
                  "num_procs by comm: %r" % n)
    for n in os.listdir(work):
        os.unlink(os.path.join(work, n))
    os.rmdir(work)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape(port):
    p = subprocess.run(["curl", "-sf", "--max-time", "20", "http://127.0.0.1:%d/metrics" % port],
                       stdout=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", errors="strict")


def scrape_error(text):
    vals = [v for n, _, v in parse_text(text)[1] if n == "node_textfile_scrape_error"]
    return vals[0] if len(vals) == 1 else vals


def check_node_exporter():
    t = tag()
    weird = b'n"e\\' + b"\n" + t[:2].encode() + b"\xff"
    procs = [spawn(b"tdom-n" + t.encode(), mib=5, threads=2), spawn(weird),
             spawn(b"tdom-v" + t.encode(), uid=other_uid())]
    d = tempfile.mkdtemp(prefix="tdom-")
    os.chmod(d, 0o755)
    port = free_port()
    ne = subprocess.Popen([find_tool("prometheus-node-exporter"), "--collector.disable-defaults",
                           "--collector.textfile", "--collector.textfile.directory", d,
                           "--web.listen-address", "127.0.0.1:%d" % port],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/")
    try:
        settle(procs)
        end = time.time() + 60
        while time.time() < end and scrape(port)[0] != 0 and ne.poll() is None:
            time.sleep(0.2)
        rc, text = scrape(port)
        if not check(rc == 0, "node_exporter does not answer on port %d: %s" %
                     (port, ne.stderr.read().decode() if ne.poll() is not None else "")):
            return
        snap = snapshot(procs)
        rc, out, err = run("--backend", BACKEND, "--textfile", d, "--interval", "1", "--count", "2")
        check(rc == 0 and not err, "--textfile --interval 1 --count 2: %d %r" % (rc, err))
        check(os.listdir(d) == ["task_diag.prom"], "the directory holds %s" % os.listdir(d))
        check(os.stat(os.path.join(d, "task_diag.prom")).st_mode & 0o777 == 0o644,
              "task_diag.prom is not 0644")
        rc, text = scrape(port)
        check(rc == 0, "scrape failed")
        check(scrape_error(text) == "0", "node_textfile_scrape_error %s" % scrape_error(text))
        fams, samples = parse_text(text)
        check_families(fams, samples, FAMILIES, "scrape")
        per_pid = series_by_key([s for s in samples if s[0].startswith(PREFIX)],
                                ("pid", "comm", "user"))
        for p in procs:
            compare_process(per_pid, p.pid, "scrape", snap[p.pid])
        mt = [s for s in samples if s[0] == "node_textfile_mtime_seconds"]
        check(len(mt) == 1 and mt[0][1].get("file", "").endswith("task_diag.prom"),
              "node_textfile_mtime_seconds: %s" % mt)
        # The check can fail: the same label unescaped breaks the file.
        bad = os.path.join(d, "bad.prom")
        with open(bad, "w") as f:
            f.write('# TYPE x gauge\nx{comm="%s"} 1\n' % label_text(weird))
        rc, text = scrape(port)
        check(rc == 0 and scrape_error(text) == "1",
              "an unescaped comm did not make node_textfile_scrape_error 1: %s" %
              scrape_error(text))
        os.unlink(bad)
    finally:
        ne.terminate()
        ne.wait()
        stop_all(procs)
        for n in os.listdir(d):
            os.unlink(os.path.join(d, n))
        os.rmdir(d)


def check_usage():
    d = tempfile.mkdtemp(prefix="tdom-")
    os.chmod(d, 0o755)
    f = os.path.join(d, "plain")
    open(f, "w").close()
    for argv, msg in ((["--format", "nope"], "unknown format 'nope'"),
                      (["-f", "xml"], "unknown format 'xml'"),
                      (["-f", "openmetrics", "--aggregate", "pidx"], "unknown label 'pidx'"),
                      (["--aggregate", "user"], "--aggregate goes with --format prometheus or openmetrics"),
                      (["-f", "openmetrics", "--aggregate", ","], "--aggregate: no label"),
                      (["-f", "openmetrics", "-A"], "not with -A"),
                      (["-f", "openmetrics", "-t", "1"], "not with -A or -t"),
                      (["-f", "openmetrics", "-o", "pid"], "not with -o"),
                      (["-f", "openmetrics", "-s", "io"], "not with -s"),
                      (["-f", "openmetrics", "--interval", "1"], "needs --textfile"),
                      (["-f", "prometheus", "-o", "pid"], "--format prometheus reports"),
                      (["--textfile", d, "--count", "2"], "--count needs --interval"),
                      (["--textfile", d, "--interval", "0"], "--interval: '0'"),
                      (["--textfile", d, "--interval", "x"], "--interval: 'x'"),
                      (["--textfile", d, "--interval", "1", "--count", "0"], "--count: '0'"),
                      (["--textfile", d, "--csv"], "--textfile writes the prometheus format"),
                      (["--textfile", d, "-f", "openmetrics"], "-f prometheus (or no -f)"),
                      (["--textfile"], "missing argument to --textfile"),
                      (["--textfile", ""], "--textfile needs a directory")):
        rc, out, err = run(*argv)
        check(rc == 2 and msg in err and not out, "%s: exit %d, %r" % (argv, rc, err))
    check(os.listdir(d) == ["plain"], "a bad command line wrote %s" % os.listdir(d))
    # Directories it cannot write to: an error that names it, a non-zero exit.
    cases = [(os.path.join(d, "missing"), None), (f, None)]
    if os.geteuid() == 0:
        cases.append((d, 65534))  # root's 0755 directory, as nobody
    else:
        os.chmod(d, 0o555)
        cases.append((d, None))
    for path, user in cases:
        rc, out, err = run("--backend", BACKEND, "--textfile", path, user=user)
        check(rc != 0 and path in err and "cannot" in err and not out,
              "--textfile %s (uid %s): exit %d, %r" % (path, user, rc, err))
    os.chmod(d, 0o755)
    check(os.listdir(d) == ["plain"], "an unwritable --textfile left %s" % os.listdir(d))
    os.unlink(f)
    os.rmdir(d)


def om1_families(text, what):
    """OpenMetrics 1.0 text, parsed by prometheus_client's OpenMetrics parser
    (which refuses a missing # EOF, a UNIT that does not end the name, a
    counter sample without _total): {family: (type, unit, help)} and the
    samples as (name, labels, value), or None if it refused it."""
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    try:
        fams = list(text_string_to_metric_families(text))
    except ValueError as e:
        check(False, "%s: the OpenMetrics parser refused it: %s" % (what, e))
        return None, None
    meta = {f.name: (f.type, f.unit, f.documentation) for f in fams}
    samples = [(x.name, x.labels, x.value) for f in fams for x in f.samples]
    return meta, samples


def check_om1():
    """-f openmetrics (OpenMetrics 1.0) against -f prometheus (0.0.4) of the
    same stopped processes: accepted by an OpenMetrics parser, the same
    samples, families named without _total for counters, a UNIT for the
    seconds and bytes ones, # EOF last; -f prometheus accepted by promtool
    and without OpenMetrics' lines."""
    t = tag()
    procs = [spawn(b"tdom-m" + t.encode(), mib=4, threads=2), spawn(b"tdom-n" + t.encode())]
    try:
        settle(procs)
        plist = ",".join(str(p.pid) for p in procs)
        for extra in ([], ["--aggregate", "comm"]):
            what = " ".join(["-p", plist] + extra)
            prom = tool_om("-p", plist, *extra)
            om = tool_om("-p", plist, *extra, fmt="openmetrics")
            promtool(prom, "-f prometheus " + what)
            check("# EOF" not in prom and "# UNIT" not in prom,
                  "-f prometheus %s: OpenMetrics' # EOF or # UNIT in the 0.0.4 text" % what)
            check(om.endswith("\n# EOF\n"), "-f openmetrics %s: # EOF is not last" % what)
            meta, om_samples = om1_families(om, "-f openmetrics " + what)
            if meta is None:
                continue
            fams, samples = parse_text(prom)
            want_meta = {}
            for name, f in fams.items():
                base = name[:-len("_total")] if f["type"] == "counter" else name
                unit = next((u for u in ("seconds", "bytes") if base.endswith("_" + u)), "")
                want_meta[base] = (f["type"], unit, f["help"])
            check(meta == want_meta, "-f openmetrics %s: families %s, want (from the 0.0.4 "
                  "text) %s" % (what, sorted(meta.items()), sorted(want_meta.items())))
            def norm(xs):
                # the parser gives floats: the 0.0.4 text's values read as floats too
                return sorted((n, sorted(lab.items()), float(v)) for n, lab, v in xs)
            got, want = norm(om_samples), norm(samples)
            check(got == want and len(got) > 10,
                  "-f openmetrics %s: %d samples, the 0.0.4 text's %d, first difference %s" %
                  (what, len(got), len(want),
                   next(((a, b) for a, b in zip(got, want) if a != b), None)))
        # no process (the children of a fixture, which has none): # EOF alone
        rc, out, err = run("--backend", BACKEND, "-f", "openmetrics", "-c", str(procs[1].pid))
        check(rc == 0 and out == "# EOF\n",
              "-f openmetrics of no process: %r (exit %d, %r)" % (out, rc, err))
    finally:
        stop_all(procs)


def main(argv):
    global TOOL, BACKEND
    TOOL = os.path.abspath(argv[1])
    if len(argv) > 3:
        BACKEND = argv[3]
    {"values": check_values, "aggregate": check_aggregate, "exited": check_exited,
     "golden": check_golden, "node_exporter": check_node_exporter,
     "usage": check_usage, "om1": check_om1}[argv[2]]()
    print("%s: %d failures" % (argv[2], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
