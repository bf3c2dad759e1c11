#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of task_diag_all through --replay of hand-built recordings.

The recordings come from make_stream.py, whose TASKS are the expected
values: JSON is checked with Python's json module, CSV with its csv module,
the table cell by cell and column by column, each against renderings of
TASKS written here from the documented output rules (task_diag_all.1; ps's
rules for its format specifiers, the ones tdps.1 states and vm_tdps checks
against procps ps), not against an earlier output of the tool. -p lists are
checked on this host's /proc. What would be a bug: any value,
key, quoting, escaping or alignment that differs; a broken or truncated
recording that does not give exit status 1 and one clear line (JSON object
with -j), or that crashes the tool (the sanitizer build runs these too).

Usage: test_cli.py TASK_DIAG_ALL MAN_PAGE CHECK   (CHECK: json csv table
pids errors fuzz usage)
"""
import csv
import errno
import grp
import io
import json
import os
import pwd
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "pylib"))
import make_stream  # noqa: E402
import tdcheck  # noqa: E402
from make_stream import TASKS  # noqa: E402
from tdcheck import check, failures  # noqa: E402

tdcheck.failures_only = True

TOOL = MAN = None
HZ = os.sysconf("SC_CLK_TCK")
TICK_NS = 10**9 // HZ
GROUPS = make_stream.GROUPS
MASKS = {"base.flags": 8, "status.sig_pending": 16, "status.sig_shared_pending": 16,
         "status.sig_blocked": 16, "status.sig_ignored": 16, "status.sig_caught": 16,
         "cred.cap_inheritable": 16, "cred.cap_permitted": 16, "cred.cap_effective": 16,
         "cred.cap_bounding": 16, "cred.cap_ambient": 16}
ADDRS = {"stat." + n for n in ("start_code", "end_code", "start_stack", "kstk_esp",
                               "kstk_eip", "start_data", "end_data", "start_brk",
                               "arg_start", "arg_end", "env_start", "env_end")}
BITMAPS = {"status.cpus_allowed", "status.mems_allowed"}


def run(*args, stdin=None, env=None):
    e = dict(os.environ, LC_ALL="C")
    e.pop("COLUMNS", None)
    e.update(env or {})
    p = subprocess.run([TOOL] + list(args), input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=e)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def argv_of(data):
    """cmdline bytes -> arguments, split at NUL (a final NUL ends the last)."""
    if not data:
        return []
    if data.endswith(b"\0"):
        data = data[:-1]
    return [a.decode(errors="replace") for a in data.split(b"\0")]


def words(ws):
    return list(ws)


def ranges(ws):
    bits = [i for i in range(32 * len(ws)) if ws[i // 32] >> (i % 32) & 1]
    out, i = [], 0
    while i < len(bits):
        j = i
        while j + 1 < len(bits) and bits[j + 1] == bits[j] + 1:
            j += 1
        out.append(str(bits[i]) if i == j else "%d-%d" % (bits[i], bits[j]))
        i = j + 1
    return ",".join(out)


def text_of(q, v):
    """A value as the table and CSV write it (CSV keeps control characters)."""
    if q == "cmdline":
        return " ".join(argv_of(v))
    if q == "base.state":
        return chr(v)
    if isinstance(v, bytes):
        return v.decode(errors="replace")
    if q in BITMAPS:
        return ranges(v)
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    if q in MASKS:
        return "0x%0*x" % (MASKS[q], v)
    if q in ADDRS:
        return "0x%x" % v if v else "0"
    if q == "status.umask":
        return "%04o" % v
    return str(v)


def for_table(s):
    """Item text in the table: control characters and U+FFFD (ill-formed UTF-8) become '?'."""
    return "".join("?" if (ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c == "\ufffd") else c
                   for c in s)


def ps_text_c(data):
    """ps's text in the C locale: a newline is a blank, a byte above 0x7f '?', a control '.'."""
    return "".join(" " if c == 0x0a else "?" if c >= 0x80 else "." if c < 0x20 or c == 0x7f
                   else chr(c) for c in data)


def expected_json(task, groups=GROUPS):
    exp = {"pid": task["pid"], "tgid": task["tgid"]}
    if "cmdline" in task and "cmdline" in groups:
        exp["cmdline"] = argv_of(task["cmdline"])
    for g in GROUPS:
        if g not in task or g not in groups:
            continue
        exp[g] = {}
        for n, v in task[g].items():
            if n == "state":
                v = chr(v)
            elif g + "." + n in BITMAPS:
                v = ranges(v)       # the range list, as the table and CSV show it
            elif isinstance(v, bytes):
                v = v.decode(errors="replace")
            exp[g][n] = v
    return exp


def check_json():
    path = os.path.join(WORK, "good.raw")
    rc, out, err = run("--replay", path, "-j")
    check(rc == 0 and not err, "json: exit %d, stderr %r" % (rc, err))
    lines = out.decode().splitlines()
    check(len(lines) == 3, "json: %d lines for 3 tasks" % len(lines))
    for task, line in zip(TASKS, lines):
        got = json.loads(line)
        exp = expected_json(task, GROUPS + ("cmdline",))
        check(got == exp, "json: pid %d\n  got      %s\n  expected %s" % (task["pid"], got, exp))
        # The key order: pid, tgid, cmdline, then the groups in ABI order.
        check(list(got) == list(exp), "json: key order %s" % list(got))
    # -s picks groups from a recording of every group.
    rc, out, _ = run("--replay", path, "-j", "-s", "cred,base")
    got = [json.loads(x) for x in out.decode().splitlines()]
    check(rc == 0 and got == [expected_json(t, ("base", "cred")) for t in TASKS],
          "json -s cred,base: %s" % got)
    # -o: flat members named as asked, absent ones left out.
    rc, out, _ = run("--replay", path, "-j", "-o", "pid,stat.utime,io.rchar,cmdline,groups")
    got = [json.loads(x) for x in out.decode().splitlines()]
    exp = []
    for t in TASKS:
        e = {"pid": t["tgid"], "stat.utime": t["stat"]["utime"]}
        if "io" in t:
            e["io.rchar"] = t["io"]["rchar"]
        if "cmdline" in t:
            e["cmdline"] = argv_of(t["cmdline"])
        e["groups"] = t["cred"]["groups"]
        exp.append(e)
    check(rc == 0 and got == exp, "json -o: %s\n  expected %s" % (got, exp))
    # The escapes themselves: control characters as \\uXXXX or short forms.
    raw = lines[2]
    check('"a\\"b,c\\\\d\\te\\u001b"' in raw, "json: comm escapes in %s" % raw)
    check('"ctl\\u0001\\u007f\\u0085"' in raw and '"line\\u2028sep"' in raw and
          '"bad\\ufffd\\ufffd\\ufffd"' in raw,
          "json: cmdline escapes in %s" % raw)
    # ps specifiers: numbers as numbers, "-" (nice of a real-time task) left
    # out, the rest as the text the table shows.
    rc, out, _ = run("--replay", path, "-j", "-o", "pid,ni,pri,rss,time,stat,tty,user=U")
    got = [json.loads(x) for x in out.decode().splitlines()]
    exp = []
    for t in TASKS:
        e = {"pid": t["tgid"], "ni": t["stat"]["nice"], "pri": 39 - t["stat"]["priority"],
             "rss": t["statm"]["resident"] // 1024, "time": ps_time(t), "stat": ps_stat(t),
             "tty": ps_tty(t["base"]["tty_nr"]), "U": user(t["cred"]["euid"])}
        if t["stat"]["policy"] not in (0, 3):
            del e["ni"]
        exp.append(e)
    check(rc == 0 and got == exp, "json -o ps: %s\n  expected %s" % (got, exp))
    # -q decodes and prints nothing.
    rc, out, err = run("--replay", path, "-q", "-s", "all")
    check(rc == 0 and out == b"" and err == "", "quiet: %d %r %r" % (rc, out, err))


def public_items():
    """enum taskdiag_item of the public header, as CSV column names."""
    text = open(os.path.join(HERE, "..", "..", "include", "taskdiag", "taskdiag.h")).read()
    body = re.search(r"enum taskdiag_item \{(.*?)\};", text, re.S).group(1)
    names = []
    for item in re.findall(r"^\s*TASKDIAG_ITEM_(\w+),", body, re.M):
        if item == "_COUNT":
            continue
        g, _, n = item.partition("_")
        # mem: a group the replayed streams do not carry, named as the others
        if g.lower() in GROUPS + ("mem",):
            names.append("%s.%s" % (g.lower(), n.lower()))
        else:
            names.append(item.lower())
    return names


def check_csv():
    path = os.path.join(WORK, "good.raw")
    rc, out, err = run("--replay", path, "--csv")
    check(rc == 0 and not err, "csv: exit %d, stderr %r" % (rc, err))
    text = out.decode("utf-8")
    check(text.endswith("\n") and "\r\n" not in text, "csv: records end with LF")
    rc, out2, _ = run("--replay", path, "--crlf")
    check(rc == 0 and out2.decode("utf-8") == text.replace("\n", "\r\n"),
          "--crlf: the same records ending with CRLF")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], rows[1:]
    # Every item of the library, in the order of its public enum, named
    # group.name (the items of the task itself by their bare name).
    exp_header = public_items()
    check(header == exp_header, "csv header %s\n  expected %s" % (header, exp_header))
    check(len(body) == 3, "csv: %d rows" % len(body))
    for task, row in zip(TASKS, body):
        got = dict(zip(header, row))
        for q in header:
            g, _, n = q.partition(".")
            if not n:
                v = task.get(q)
            else:
                v = task.get(g, {}).get(n)
            exp = "" if v is None else text_of(q, v)
            check(got[q] == exp, "csv: pid %d %s = %r, expected %r" % (task["pid"], q, got[q], exp))
    # Quoting: a field with a quote, comma, CR or LF is quoted, quotes doubled.
    rc, out, _ = run("--replay", path, "--csv", "-o", "comm,pid,args")
    last = out.decode().split("\n")[3]
    args = TASKS[2]["cmdline"].rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")
    check(last == '"a""b,c\\d\te\x1b",42,"%s"' % args.replace('"', '""'),
          "csv: quoting of %r" % last)
    check("u8\ufffd\ufffd\ufffd\ufffd\ufffd\U0001f600\ufffd" in last,
          "csv: ill-formed UTF-8 in %r" % last)


TABLE_FIELDS = ["pid", "tid", "ppid", "user", "uid", "ruser", "group", "rss", "vsz", "stat",
                "s", "ni", "pri", "nlwp", "tty", "time", "comm", "args"]
HEADERS = {"pid": "PID", "tid": "TID", "ppid": "PPID", "user": "USER", "uid": "UID",
           "ruser": "RUSER", "group": "GROUP", "rss": "RSS", "vsz": "VSZ", "stat": "STAT",
           "s": "S", "ni": "NI", "pri": "PRI", "nlwp": "NLWP", "tty": "TT", "time": "TIME",
           "comm": "COMMAND", "args": "COMMAND"}
RIGHT = {"pid", "tid", "ppid", "uid", "rss", "vsz", "ni", "pri", "nlwp", "time"}


def user(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def group(gid):
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def ps_time(t):
    s = (t["stat"]["utime"] // TICK_NS + t["stat"]["stime"] // TICK_NS) // HZ
    dd, hh, mm, ss = s // 86400, s // 3600 % 24, s // 60 % 60, s % 60
    return ("%d-" % dd if dd else "") + "%02d:%02d:%02d" % (hh, mm, ss)


def ps_stat(t):
    b, st, status = t["base"], t["stat"], t["status"]
    s = chr(b["state"])
    s += "<" if st["nice"] < 0 else ""
    s += "N" if st["nice"] > 0 else ""
    s += "L" if status.get("vm_lck") else ""
    s += "s" if b["sid"] == t["pid"] else ""          # a session leader
    s += "l" if b["num_threads"] > 1 else ""
    s += "+" if b["tpgid"] > 0 and b["pgid"] == b["tpgid"] else ""   # the foreground group
    return s


def ps_tty(nr):
    if not nr:
        return "?"
    major, minor = (nr >> 8) & 0xfff, (nr & 0xff) | ((nr >> 12) & 0xfff00)
    assert 136 <= major <= 143
    return "pts/%d" % (minor + (major - 136) * 256)


def expected_row(t):
    b, st, cr = t["base"], t["stat"], t["cred"]
    # ps's args: trailing NULs dropped, the others blanks, else [comm]; in the C locale.
    args = t.get("cmdline", b"").rstrip(b"\0").replace(b"\0", b" ")
    args = ps_text_c(args) if args else "[%s]" % ps_text_c(b["comm"])
    # rss: the resident pages of statm, as ps reads them (not stat's rss).
    return {"pid": str(t["tgid"]), "tid": str(t["pid"]), "ppid": str(b["ppid"]),
            "user": user(cr["euid"]), "uid": str(cr["euid"]), "ruser": user(cr["uid"]),
            "group": group(cr["egid"]), "rss": str(t["statm"]["resident"] // 1024),
            "vsz": str(st["vsize"] // 1024), "stat": ps_stat(t), "s": chr(b["state"]),
            "ni": str(st["nice"]) if st["policy"] in (0, 3) else "-",
            "pri": str(39 - st["priority"]), "nlwp": str(b["num_threads"]),
            "tty": ps_tty(b["tty_nr"]), "time": ps_time(t),
            "comm": ps_text_c(b["comm"]), "args": args}


def check_table():
    path = os.path.join(WORK, "good.raw")
    rc, out, err = run("--replay", path, "-o", ",".join(TABLE_FIELDS))
    check(rc == 0 and not err, "table: exit %d, stderr %r" % (rc, err))
    lines = out.decode().split("\n")
    check(lines[-1] == "" and len(lines) == 5, "table: %d lines" % (len(lines) - 1))
    lines = lines[:-1]
    n = len(TABLE_FIELDS)
    head = list(re.finditer(r"\S+", lines[0]))
    check([m.group() for m in head] == [HEADERS[f] for f in TABLE_FIELDS],
          "table header %r" % lines[0])
    for task, line in zip(TASKS, lines[1:]):
        check(line == line.rstrip(), "table: trailing blanks in %r" % line)
        toks = list(re.finditer(r"\S+", line))
        cells = toks[:n - 1] + [None]
        exp = expected_row(task)
        for i, f in enumerate(TABLE_FIELDS):
            if f == "args":
                text, start, end = line[toks[n - 1].start():], toks[n - 1].start(), len(line)
            else:
                text, start, end = cells[i].group(), cells[i].start(), cells[i].end()
            check(text == exp[f], "table: pid %d %s = %r, expected %r" % (task["pid"], f, text,
                                                                         exp[f]))
            if f in RIGHT:
                check(end == head[i].end(), "table: %s not right-aligned in %r" % (f, line))
            else:
                check(start == head[i].start(), "table: %s not left-aligned in %r" % (f, line))
    # Without -o: every item of the groups, headers are the upper-case names.
    rc, out, _ = run("--replay", path, "-s", "statm")
    lines = out.decode().splitlines()
    check(lines[0].split() == ["PID", "TGID", "SIZE", "RESIDENT", "SHARED", "TEXT", "LIB",
                               "DATA", "DT", "LOCKED"], "table -s statm header %r" % lines[0])
    for task, line in zip(TASKS, lines[1:]):
        exp = [str(task["pid"]), str(task["tgid"])] + [str(v) for v in task["statm"].values()]
        check(line.split() == exp, "table -s statm: %r, expected %s" % (line, exp))
    # Without -o or -s: ps's columns (task_diag_all.1), the command column
    # uncut when the output is no terminal, cut at COLUMNS when set.
    rc, out, _ = run("--replay", path)
    lines = out.decode().splitlines()
    check(rc == 0 and lines[0].split() == ["PID", "PPID", "USER", "%CPU", "RSS", "STAT", "TIME",
                                           "COMMAND"], "default table header %r" % lines[:1])
    for task, line in zip(TASKS, lines[1:]):
        exp = expected_row(task)
        toks = line.split(None, 7)
        check(toks[:3] == [exp["pid"], exp["ppid"], exp["user"]] and
              re.fullmatch(r"\d+(\.\d)?", toks[3]) is not None and
              toks[4:7] == [exp["rss"], exp["stat"], exp["time"]] and
              line[lines[0].index("COMMAND"):] == exp["args"],
              "default table: %r, expected %s" % (line, exp))
    # %CPU is the recording's CPU time over this host's uptime since the
    # task's start, so it moves between two runs (and with it the columns
    # after it): two runs are compared cell by cell, all but %CPU.
    def but_pcpu(row):
        cells = row.split(None, 7)
        return cells[:3] + cells[4:]

    def cut_of(c, l_):
        cc, ll = but_pcpu(c), but_pcpu(l_)
        return (len(cc) <= len(ll) and cc[:-1] == ll[:len(cc) - 1] and
                ll[len(cc) - 1].startswith(cc[-1]) and (len(c) == 50 or cc == ll))
    rc, out, _ = run("--replay", path, env={"COLUMNS": "50"})
    cut = out.decode().splitlines()
    check(len(cut) == len(lines) and all(len(c) <= 50 and cut_of(c, l_)
                                         for c, l_ in zip(cut, lines)),
          "COLUMNS=50: %s" % cut)
    rc, out, _ = run("--replay", path, "-w", env={"COLUMNS": "50"})
    wide = out.decode().splitlines()
    check(len(wide) == len(lines) and max(map(len, wide)) > 50 and
          all(but_pcpu(w) == but_pcpu(l_) for w, l_ in zip(wide, lines)),
          "-w: not cut %r" % out)
    # Widths and headers as ps takes them: NAME:WIDTH, NAME=HEADER.
    rc, out, _ = run("--replay", path, "-o", "pid:9,comm=Name")
    lines = out.decode().splitlines()
    check(rc == 0 and lines[0] == "      PID Name" and
          lines[1] == "        1 " + TASKS[0]["base"]["comm"].decode(),
          "-o pid:9,comm=Name: %r" % lines[:2])
    # In a UTF-8 locale ps keeps what is printable, and counts columns.
    rc, out, _ = run("--replay", path, "-o", "args,pid", env={"LC_ALL": "C.UTF-8"})
    lines = out.decode().splitlines()
    check(rc == 0 and lines[3].startswith("/bin/we ird caf\u00e9 bad?") and
          lines[3].endswith(" 42") and
          all(len(x) == len(lines[0]) for x in lines[1:]),
          "C.UTF-8 table: %r" % lines)
    # Absent values are "-" (pid 2: no io).
    rc, out, _ = run("--replay", path, "-o", "pid,io.rchar,rchar")
    check(out.decode().splitlines()[2].split() == ["2", "-", "-"],
          "table: absent values %r" % out.decode())


def check_host():
    """A recording of this version keeps its host's clocks: elapsed, start and
    %CPU are the recording host's, whatever this machine's uptime and date.
    TASKS[0] started 5 s after boot and used 2 s of CPU; the host recorded
    105 s of uptime at 2000000000 s since the epoch (btime 1999999895)."""
    now, up = 2000000000, 105
    path = os.path.join(WORK, "host.raw")
    stream = make_stream.good_stream()
    head = make_stream.header()
    with open(path, "wb") as f:
        f.write(make_stream.header(fmt=2) +
                make_stream.system(now * 10**9, up * 10**9, now - up, 8 << 30) +
                stream[len(head):])
    t0 = TASKS[0]
    start = now - up + t0["base"]["start_time"] // 10**9
    # ps's %CPU: utime and stime each cut to clock ticks (as /proc has them),
    # over the elapsed time, in tenths cut down: 1.23 + 0.76 s over 100 s
    cs = t0["stat"]["utime"] // 10**7 + t0["stat"]["stime"] // 10**7
    tenths = cs * 1000 // ((up - 5) * 100)
    want = {"etimes": str(up - 5), "etime": "01:40", "%cpu": "%d.%d" % divmod(tenths, 10),
            "lstart": time.strftime("%a %b %e %H:%M:%S %Y", time.gmtime(start)),
            "start": time.strftime("%H:%M:%S", time.gmtime(start))}
    fields = ["pid", "etimes", "etime", "%cpu", "start", "lstart"]
    rc, out, err = run("--replay", path, "--csv", "-o", ",".join(fields), env={"TZ": "UTC"})
    rows = {r["pid"]: r for r in csv.DictReader(io.StringIO(out.decode()))}
    got = rows.get(str(t0["pid"]), {})
    check(rc == 0 and not err and all(got.get(k) == v for k, v in want.items()),
          "replay with the recorded host: %s, want %s (exit %d, %r)" % (got, want, rc, err))
    # the oracle of the check: a recording without them uses this machine's
    rc, out, err = run("--replay", os.path.join(WORK, "good.raw"), "--csv", "-o",
                       ",".join(fields), env={"TZ": "UTC"})
    rows = {r["pid"]: r for r in csv.DictReader(io.StringIO(out.decode()))}
    check(rc == 0 and rows.get(str(t0["pid"]), {}).get("etimes") != want["etimes"],
          "a recording of format 1 replays with this machine's uptime: %s" % rows)


def check_pid_list():
    """-p as ps takes it, on this host's /proc (the procfs backend)."""
    me, parent = os.getpid(), os.getppid()
    for argv in (["-p", "%d,1" % me, "-p", "%d 1" % parent], ["-p", "1", "-p", str(parent),
                                                           "-p", str(me)]):
        rc, out, err = run("--backend", "procfs", "-o", "pid,ppid", *argv)
        rows = [line.split() for line in out.decode().splitlines()[1:]]
        exp = sorted({1, me, parent})
        check(rc == 0 and [int(r[0]) for r in rows] == exp and not err,
              "%s: %r, expected pids %s" % (argv, out, exp))
        check(all(int(r[1]) == int(open("/proc/%s/stat" % r[0]).read().rsplit(")", 1)[1]
                                   .split()[1]) for r in rows), "%s: ppid %r" % (argv, rows))
    gone = 1
    while os.path.exists("/proc/%d" % gone) or gone == 1:
        gone = random.randrange(2 ** 22 - 10000, 2 ** 22)
    rc, out, err = run("--backend", "procfs", "-o", "pid", "-p", "1,%d" % gone)
    check(rc == 5 and out.decode().split() == ["PID", "1"] and str(gone) in err and
          len(err.splitlines()) == 1, "-p 1,<gone>: %d %r %r" % (rc, out, err))
    for bad in ("1,,2", "1,x", ""):
        rc, out, err = run("-p", bad)
        check(rc == 2 and "not a pid" in err and not out, "-p %r: %d %r" % (bad, rc, err))


def check_errors():
    for name, (_, kind) in sorted(make_stream.bad_streams().items()):
        path = os.path.join(WORK, name + ".raw")
        for mode in ((), ("-j",), ("--csv",), ("-q",)):
            rc, out, err = run("--replay", path, "-s", "all", *mode)
            want = 5 if kind == "esrch" else 1
            check(rc == want, "%s %s: exit %d, expected %d (%s)" % (name, mode, rc, want, err))
            lines = err.splitlines()
            check(len(lines) == 1 and lines[0].startswith("task_diag_all: "),
                  "%s %s: stderr %r" % (name, mode, err))
            if kind == "esrch":
                check("pid 999999" in err and "no such process (kernel: no such pid)" in err,
                      "%s: message %r" % (name, err))
            elif kind == "eversion":
                check("ABI version" in err, "%s: message %r" % (name, err))
            else:
                check("truncated or corrupt" in err, "%s: message %r" % (name, err))
            if mode == ("-j",):
                objs = [json.loads(x) for x in out.decode().splitlines()]
                e = objs[-1] if objs else {}
                check(set(e) >= {"error", "errno"} and
                      e["errno"] == {"esrch": errno.ESRCH,
                                     "eversion": errno.EPROTONOSUPPORT}.get(kind, errno.EBADMSG),
                      "%s -j: error object %r" % (name, e))
                check(kind != "esrch" or e.get("extack") == "no such pid",
                      "%s -j: extack %r" % (name, e))
    rc, _, err = run("--replay", os.path.join(WORK, "does-not-exist.raw"))
    check(rc == 1 and "No such file or directory" in err, "missing file: %d %r" % (rc, err))


def check_fuzz():
    """Mutated recordings: any exit status of the table, never a crash."""
    good = make_stream.good_stream()
    rnd = random.Random(int(os.environ.get("TD_FUZZ_SEED", "5")))
    path = os.path.join(WORK, "fuzz.raw")
    counts = {}
    for i in range(int(os.environ.get("TD_FUZZ_RUNS", "400"))):
        data = bytearray(good)
        how = i % 4
        if how == 0:
            for _ in range(rnd.randint(1, 8)):
                data[rnd.randrange(16, len(data))] = rnd.randrange(256)
        elif how == 1:
            del data[rnd.randrange(len(data)):]
        elif how == 2:
            at = rnd.randrange(16, len(data))
            data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 16)))
        else:
            at = rnd.randrange(16, len(data) - 4)
            data[at:at + 4] = rnd.choice([b"\xff\xff\xff\xff", b"\0\0\0\0", b"\x04\0\x01\0",
                                          b"\0\0\1\0"])
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = run("--replay", path, "-j", "-s", "all")
        counts[rc] = counts.get(rc, 0) + 1
        if rc not in range(0, 6) or "Sanitizer" in err or "runtime error" in err:
            check(False, "fuzz %d (%s): exit %d: %s" % (i, how, rc, err[-2000:]))
            with open(os.path.join(WORK, "crash-%d.raw" % i), "wb") as f:
                f.write(data)
            continue
        for line in out.decode(errors="strict").splitlines():
            json.loads(line)
        if rc:
            check(len(err.splitlines()) == 1, "fuzz %d: stderr %r" % (i, err))
    print("fuzz: exit statuses %s" % counts)


def check_usage():
    rc, out, err = run("-h")
    check(rc == 0 and not err, "-h: %d %r" % (rc, err))
    usage = out.decode()
    man = open(MAN).read().replace("\\-", "-")
    longs_h = set(re.findall(r"--[a-z][a-z-]+", usage))
    longs_m = set(re.findall(r"--[a-z][a-z-]+", man))
    check(longs_h == longs_m, "options of -h %s and of the man page %s differ" %
          (sorted(longs_h - longs_m), sorted(longs_m - longs_h)))
    pairs = re.findall(r"^\s+(-[a-zA-Z]), (--[a-z-]+)( [A-Z]+)?", usage, re.M)
    singles = re.findall(r"^\s{6}(--[a-z-]+)( [A-Z]+)?", usage, re.M)
    good = os.path.join(WORK, "good.raw")
    for opts in [(s, l_, a) for s, l_, a in pairs] + [(None, l_, a) for l_, a in singles]:
        arg = {" PID": "1", " B": "procfs", " FILE": good, " FIELD": "pid", "": None}.get(
            opts[2], "base")
        for o in opts[:2]:
            if o is None:
                continue
            if o in ("--dump-raw",):
                argv = [o, os.path.join(WORK, "x.raw"), "-q"]
            elif o in ("--verify", "-a", "--all", "-A", "--all-threads", "-j", "--json",
                       "--csv", "-q", "--quiet", "-s", "--show", "-o", "--output"):
                argv = [o] + ([arg] if arg else []) + ["--replay", good]
            else:
                argv = [o] + ([arg] if arg else [])
            if o in ("--replay",):
                argv += ["-q"]
            rc, out, err = run(*argv)
            check("unknown option" not in err and "missing argument" not in err,
                  "%s from -h is not accepted: %s" % (argv, err))
    check(len(pairs) + len(singles) >= 16, "usage lists %d options" % (len(pairs) + len(singles)))
    for code, text in ((0, "0 ok"), (1, "1 error"), (2, "2 bad usage"), (3, "3 task_diag module"),
                       (4, "4 permission"), (5, "5 no such pid"), (6, "6 --verify")):
        check(text in usage, "-h does not document exit status %d" % code)
    # Usage errors: exit 2, one message, and a JSON object with -j.
    for argv, msg in ((["-x"], "unknown option -x"), (["--bogus"], "unknown option --bogus"),
                      (["-p"], "missing argument to -p"), (["--pid"], "missing argument to --pid"),
                      (["-p", "0"], "not a pid"), (["-p", "12x"], "not a pid"),
                      (["-s", "nope"], "unknown group 'nope'"), (["--backend", "x"], "unknown backend"),
                      (["-o", "nope"], "unknown field 'nope'"), (["-o", "pid,pid"], "twice"),
                      (["-p", "1", "-c", "2"], "exclusive"), (["stray"], "unexpected argument"),
                      (["--file-backed"], "--file-backed goes with --maps"),
                      (["--interval", "1", "-o", "pid"],
                       "--interval (without --textfile) does not take -o (--output)"),
                      (["--interval", "1", "--maps"], "does not take --maps"),
                      (["--count", "2"], "--count needs --interval"),
                      (["--replay", good, "-p", "1"], "--replay"),
                      (["--verify", "--backend", "procfs"], "--verify"),
                      (["--dump-raw", "x", "--backend", "procfs"], "--dump-raw"),
                      # one meaning per letter across the tools: -b is top's batch mode
                      (["-b", "procfs"], "the backend is --backend B")):
        rc, out, err = run(*argv)
        check(rc == 2 and msg in err and "--help" in err and out == b"",
              "%s: exit %d, %r" % (argv, rc, err))
        rc, out, err = run("-j", *argv)
        obj = json.loads(out.decode().splitlines()[-1]) if out else {}
        check(rc == 2 and msg in obj.get("error", "") and obj.get("errno") == errno.EINVAL,
              "-j %s: exit %d, %r" % (argv, rc, out))
    # One option table, three modes: --maps names what it does not take.
    for argv, msg in ((["--maps", "-s", "stat"], "--maps does not take -s (--show)"),
                      (["--maps", "-A"], "--maps does not take -A (--all-threads)"),
                      (["--maps", "--bogus"], "unknown option --bogus"),
                      (["--maps", "--addr", "1000"], "--addr needs -p with one pid"),
                      (["--maps", "-p", "1,2", "--addr", "1000"], "--addr needs -p with one pid"),
                      (["--maps", "-p", "1", "--addr", "1000,zz"], "'zz' is not a hex address"),
                      (["--maps", "-p", "1", "--addr", ","], "--addr: no address")):
        rc, out, err = run(*argv)
        check(rc == 2 and msg in err and "--help" in err and out == b"",
              "%s: exit %d, %r" % (argv, rc, err))
    rc, out, _ = run("--maps", "--help")
    check(rc == 0 and out.decode().startswith("Usage: task_diag_all --maps"),
          "--maps --help: %r" % out[:200])
    rc, out, _ = run("-V")
    check(rc == 0 and out.decode().startswith("task_diag_all "), "-V: %r" % out)
    rc, out, _ = run("-o", "help")
    names = out.decode()
    check(rc == 0 and all(re.search(r"^\s+%s\s" % re.escape(q), names, re.M)
                          for q in ("pid", "user", "stat.utime", "io.rchar", "cred.groups",
                                    "cmdline", "args")), "-o help: %r" % names[:300])
    # Without the module on this host, netlink asked for is exit 3.
    if not os.path.exists("/sys/module/task_diag"):
        for argv in (["--backend", "netlink"], ["--verify"], ["--dump-raw", os.path.join(WORK, "y")]):
            rc, out, err = run(*argv)
            check(rc == 3 and "module is not loaded" in err, "%s: %d %r" % (argv, rc, err))


def main():
    global TOOL, MAN, WORK
    TOOL, MAN, what = sys.argv[1], sys.argv[2], sys.argv[3]
    with tempfile.TemporaryDirectory() as WORK:
        make_stream.main(["make_stream.py", WORK])
        {"json": check_json, "csv": check_csv, "table": check_table, "errors": check_errors,
         "pids": check_pid_list, "host": check_host,
         "fuzz": check_fuzz, "usage": check_usage}[what]()
    print("%s: %d failures" % (what, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
