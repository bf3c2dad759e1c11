#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""task_diag_all in the guest, as a new user would try it.

Usage: test_task_diag_all.py TASK_DIAG_ALL module|no-module [TEST_OPENMETRICS PROMTOOL]

With the module loaded (as root or any user), what would be a bug:
- `task_diag_all -j -s all` not parsing as JSON (one object per line, pids
  ascending), or a task's io numbers differing from /proc/PID/io read just
  before and just after (a value must lie between the two readings), or io
  present where /proc/PID/io refuses the caller or absent where it does not;
- the ps fields of -o differing from procps `ps -o` for the fixture tasks
  (sleeping, stopped, zombie, niced, threaded, another user's);
- `--verify` (all processes, all threads, one task, threads, children)
  finding a difference between the module and /proc;
- a recording (--dump-raw) that does not replay (--replay) to the very same
  output;
- a bad option not giving exit status 2 and a message, a pid that does not
  exist not giving exit status 5 (both backends);
- with TEST_OPENMETRICS, `-f prometheus` and `-f openmetrics` with `-b
  netlink` failing that test's values and om1 checks (the fixtures' metrics
  against /proc and promtool; OpenMetrics 1.0 against an OpenMetrics parser
  and the 0.0.4 text).
Without the module: `--backend netlink`, --verify and --dump-raw give exit status 3
and say the module is not loaded (as JSON too with -j); the default backend
falls back to /proc.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

TOOL = sys.argv[1]
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if detail else ""))
    sys.stdout.flush()


def run(*args):
    p = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def free_pid():
    pid_max = int(open("/proc/sys/kernel/pid_max").read())
    pid = pid_max - 1
    while os.path.exists("/proc/%d" % pid):
        pid -= 1
    return pid


def read_io(pid):
    try:
        with open("/proc/%d/io" % pid) as f:
            return {k.strip(): int(v) for k, v in (line.split(":") for line in f)}
    except (PermissionError, FileNotFoundError, ProcessLookupError):
        return None


def all_pids():
    return sorted(int(d) for d in os.listdir("/proc") if d.isdigit())


def spawn_fixtures():
    sleep = ["sleep", "1000"]
    procs = [subprocess.Popen(sleep), subprocess.Popen(["nice", "-n", "7"] + sleep)]
    stopped = subprocess.Popen(sleep)
    os.kill(stopped.pid, signal.SIGSTOP)
    procs.append(stopped)
    procs.append(subprocess.Popen(["sh", "-c", "sleep 0 & exec sleep 1000"]))  # a zombie child
    # I/O with known floors, then threads.
    procs.append(subprocess.Popen([sys.executable, "-c",
                                   "import os,threading,time\n"
                                   "os.read(os.open('/dev/zero', os.O_RDONLY), 123457)\n"
                                   "os.write(os.open('/dev/null', os.O_WRONLY), b'x' * 7777)\n"
                                   "[threading.Thread(target=time.sleep,args=(1000,),daemon=True)"
                                   ".start() for _ in range(3)]\n"
                                   "time.sleep(1000)", "arg one", "two"]))
    if os.geteuid() == 0:
        procs.append(subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534",
                                       "--clear-groups"] + sleep))
    # Settle: every fixture thread asleep (or stopped), the 4 threads there.
    end = time.time() + 60
    while time.time() < end:
        states = []
        for p in procs:
            for t in os.listdir("/proc/%d/task" % p.pid):
                try:
                    stat = open("/proc/%d/task/%s/stat" % (p.pid, t)).read()
                    states.append(stat[stat.rindex(")") + 2])
                except OSError:
                    pass
        if all(s in "STZ" for s in states) and len(os.listdir("/proc/%d/task" % procs[4].pid)) == 4:
            time.sleep(0.3)
            return procs
        time.sleep(0.2)
    raise SystemExit("fixture tasks did not settle")


def check_json_io(fixtures):
    before = {p: read_io(p) for p in all_pids()}
    rc, out, err = run("-j", "-s", "all")
    after = {p: read_io(p) for p in all_pids()}
    check("-j -s all exits 0", rc == 0 and not err, "exit %d %s" % (rc, err))
    tasks = []
    for line in out.splitlines():
        try:
            tasks.append(json.loads(line))
        except ValueError as e:
            check("-j line parses as JSON", False, "%s: %r" % (e, line[:200]))
            return
    pids = [t["pid"] for t in tasks]
    check("-j: one object per task, pids ascending", len(tasks) > 10 and pids == sorted(set(pids)),
          "%d tasks" % len(tasks))
    shape = all(isinstance(t.get("base"), dict) and isinstance(t.get("stat"), dict) and
                isinstance(t.get("cred"), dict) and isinstance(t["base"].get("comm"), str)
                for t in tasks)
    check("-j: groups are nested objects keyed by item names", shape)
    compared = bad = 0
    errors = []
    for t in tasks:
        pid = t["pid"]
        b, a = before.get(pid), after.get(pid)
        if pid not in before or pid not in after:
            continue            # started or exited meanwhile
        if b is None or a is None:
            if b is None and a is None and "io" in t and os.path.exists("/proc/%d" % pid):
                errors.append("%d: io sent, /proc/%d/io refused" % (pid, pid))
            continue
        if "io" not in t:
            errors.append("%d: /proc/%d/io readable, io missing" % (pid, pid))
            continue
        for k, v in t["io"].items():
            if not (min(b[k], a[k]) <= v <= max(b[k], a[k])):
                errors.append("%d: io.%s %d, /proc %d then %d" % (pid, k, v, b[k], a[k]))
        if set(t["io"]) != set(b):
            errors.append("%d: io keys %s, /proc %s" % (pid, sorted(t["io"]), sorted(b)))
        compared += 1
    bad = len(errors)
    for e in errors[:20]:
        print("  ", e)
    check("-j: io equals /proc/PID/io", bad == 0 and compared > 0,
          "%d tasks compared, %d differences" % (compared, bad))
    io_task = next((t for t in tasks if t["pid"] == fixtures[4].pid), None)
    check("-j: the fixture's reads and writes are counted",
          io_task is not None and io_task.get("io", {}).get("rchar", 0) >= 123457 and
          io_task["io"]["wchar"] >= 7777, str(io_task and io_task.get("io")))
    check("-j: cmdline is an array of arguments",
          io_task is not None and io_task.get("cmdline", [])[-2:] == ["arg one", "two"],
          str(io_task and io_task.get("cmdline")))


PS_FIELDS = ["pid", "ppid", "pgid", "sid", "uid", "user", "gid", "group", "stat", "s", "ni",
             "pri", "nlwp", "tty", "rss", "vsz", "%mem", "cls", "rtprio", "f", "comm", "args"]


def check_ps_fields(fixtures):
    pids = [p.pid for p in fixtures]
    ps = subprocess.run(["ps", "-o", ",".join(f + "=" for f in PS_FIELDS), "-p",
                         ",".join(map(str, pids))], stdout=subprocess.PIPE).stdout.decode()
    # -p takes ps's list (commas and blanks, repeated): exactly these tasks.
    half = len(pids) // 2
    rc, out, err = run("-o", ",".join(PS_FIELDS), "-p", ",".join(map(str, pids[:half])),
                       "-p", " ".join(map(str, pids[half:])))
    ours = {}
    for line in out.splitlines()[1:]:
        toks = line.split(None, len(PS_FIELDS) - 1)
        ours[int(toks[0])] = toks
    check("-p LIST shows exactly those tasks", sorted(ours) == sorted(pids),
          "%s, asked for %s" % (sorted(ours), sorted(pids)))
    diffs = []
    for line in ps.splitlines():
        toks = line.split(None, len(PS_FIELDS) - 1)
        got = ours.get(int(toks[0]))
        if got != toks:
            diffs.append("ps %s\n     task_diag_all %s" % (toks, got))
    for d in diffs:
        print("  ", d)
    check("-o ps fields equal procps ps for the fixtures", rc == 0 and not diffs and
          len(ps.splitlines()) == len(pids), "%d tasks, %d differ" % (len(pids), len(diffs)))
    # The default table is ps's -o pid,ppid,user,%cpu,rss,stat,time,args;
    # %cpu (the share of the time since it started) falls as a fixture
    # sleeps: it lies between two ps runs around it.
    default = ["pid", "ppid", "user", "%cpu", "rss", "stat", "time", "args"]

    def ps_default():
        out = subprocess.run(["ps", "-ww", "-o", ",".join(default), "-p",
                              ",".join(map(str, pids))],
                             stdout=subprocess.PIPE).stdout.decode()
        return [line.split(None, len(default) - 1) for line in out.splitlines()]
    before = ps_default()
    rc, out, err = run("-w", "-p", ",".join(map(str, pids)))
    after = ps_default()
    mine = [line.split(None, len(default) - 1) for line in out.splitlines()]
    ok = rc == 0 and len(mine) == len(before) == len(after) == len(pids) + 1
    for m, b, a in zip(mine, before, after) if ok else ():
        rest = [m[:3] + m[4:], b[:3] + b[4:], a[:3] + a[4:]]
        if m[3] == "%CPU":
            ok = ok and m == b
        else:
            ok = ok and rest[0] == rest[1] == rest[2] and \
                min(float(b[3]), float(a[3])) <= float(m[3]) <= max(float(b[3]), float(a[3]))
    check("the default table is ps's columns", ok,
          "ps %s\n     task_diag_all %s\n     ps %s" % (before, mine, after))


def check_verify(fixtures):
    threaded = fixtures[4].pid
    for args in ([], ["-A"], ["-p", str(threaded)], ["-t", str(threaded)],
                 ["-c", str(os.getpid())], ["-j", "-s", "base,stat"]):
        rc, out, err = run("--verify", *args)
        check("--verify %s exits 0" % " ".join(args), rc == 0,
              "exit %d\n%s%s" % (rc, out[-3000:], err[-1000:]))
        if args[:1] == ["-j"]:
            check("--verify -j prints only JSON", all(json.loads(x) is not None
                                                      for x in out.splitlines()))


def check_replay():
    d = tempfile.mkdtemp()
    raw = os.path.join(d, "dump.raw")
    for args in (["-j", "-s", "all", "-A"], ["--csv", "-s", "all"], ["-o", "pid,user,stat,args"]):
        rc, live, err = run("--dump-raw", raw, *args)
        rc2, replay, err2 = run("--replay", raw, *[a for a in args if a != "-A"])
        check("--dump-raw %s replays to the same output" % " ".join(args),
              rc == 0 and rc2 == 0 and live == replay and live.count("\n") > 10,
              "exit %d/%d %s %s" % (rc, rc2, err, err2))
    rc, out, err = run("--dump-raw", raw, "-p", str(free_pid()), "-j")
    rc2, out2, err2 = run("--replay", raw, "-j")
    check("a recorded error replays with the kernel's message",
          rc == 5 and rc2 == 5 and "kernel: no such pid" in err2 and
          json.loads(out2.splitlines()[-1]).get("extack") == "no such pid",
          "%d %d %s" % (rc, rc2, err2))


def check_usage_errors():
    for argv, msg in ((["-x"], "unknown option"), (["--pid"], "missing argument"),
                      (["-p", "abc"], "not a pid"), (["-s", "bogus"], "unknown group"),
                      (["-o", "bogus"], "unknown field"), (["--backend", "sctp"], "unknown backend")):
        rc, out, err = run(*argv)
        check("%s exits 2 with a message" % " ".join(argv), rc == 2 and msg in err, err)


def check_no_pid(backends):
    pid = free_pid()
    for b in backends:
        for opt in ("-p", "-t", "-c"):
            rc, out, err = run("--backend", b, opt, str(pid))
            check("--backend %s %s <free pid> exits 5" % (b, opt),
                  rc == 5 and "no such process" in err and str(pid) in err, "%d %s" % (rc, err))
    rc, out, err = run("-j", "-p", str(pid))
    obj = json.loads(out.splitlines()[-1]) if out else {}
    check("-j -p <free pid>: JSON error", rc == 5 and obj.get("errno") == 3, out)


def check_openmetrics(test, promtool):
    """-f prometheus and openmetrics --backend netlink: their own test, against /proc,
    promtool and an OpenMetrics parser."""
    for what in ("values", "om1"):
        p = subprocess.run([sys.executable, test, TOOL, what, "netlink"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=dict(os.environ, TD_PROMTOOL=promtool))
        check("metrics --backend netlink (test_openmetrics.py %s)" % what, p.returncode == 0,
              p.stdout.decode(errors="replace")[-3000:])


def main_module():
    fixtures = spawn_fixtures()
    try:
        rc, out, err = run("--backend", "netlink", "-o", "pid,comm")
        check("--backend netlink works", rc == 0 and len(out.splitlines()) > 10, err)
        check_json_io(fixtures)
        check_ps_fields(fixtures)
        check_verify(fixtures)
        check_replay()
        check_usage_errors()
        check_no_pid(("netlink", "procfs"))
        if len(sys.argv) > 4:
            check_openmetrics(sys.argv[3], sys.argv[4])
    finally:
        for p in fixtures:
            p.kill()
            p.wait()


def main_no_module():
    for argv in (["--backend", "netlink"], ["--verify"], ["--dump-raw", "/tmp/x.raw"]):
        rc, out, err = run(*argv)
        check("%s without the module exits 3" % " ".join(argv),
              rc == 3 and "task_diag kernel module is not loaded" in err and
              len(err.splitlines()) == 1, "%d %s" % (rc, err))
    rc, out, err = run("-j", "--backend", "netlink")
    obj = json.loads(out) if out else {}
    check("-j --backend netlink without the module: JSON error",
          rc == 3 and "not loaded" in obj.get("error", "") and obj.get("errno") == 65, out)
    rc, out, err = run("-o", "pid,comm")
    check("the default backend falls back to /proc",
          rc == 0 and any(line.split()[:1] == ["1"] for line in out.splitlines()), err)
    check_usage_errors()
    check_no_pid(("auto", "procfs"))


if __name__ == "__main__":
    if sys.argv[2] == "module":
        main_module()
    else:
        main_no_module()
    print("%d checks, %d failed" % (len(results), results.count(False)))
    sys.exit(0 if all(results) else 1)
