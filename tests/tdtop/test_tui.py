#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdtop's interactive screen, driven through tmux (send-keys, capture-pane).

Runs on the host with the procfs backend (no module needed). Fixtures: a
sleeper and a busy shell loop under names of their own (copies of sleep
and sh), and, as root, a sleeper of user nobody. Each key is checked by
what top's key does, read back from the screen or from /proc:

  P M T N      rows ordered by %CPU, RES, TIME+ (high to low), PID (high to low)
  R            the order reversed (PID low to high)
  > <          the sort column moved right (PID -> USER: names A-Z) and back
  u NAME       only that user's rows; u and a blank answer: everyone again
  i            idle tasks hidden (every row used CPU or is running); again: back
  c            the command line in place of the name; again: back
  H            threads: the Tasks line becomes a Threads line; again: back
  r PID N      the fixture's nice value becomes N (/proc/PID/stat)
  k PID        the fixture gets SIGTERM (its exit status)
  d SECS       the delay prompt shows the new delay when asked again
  resize       the screen fills the new size, no line wider than it
  q            tdtop exits

Usage: test_tui.py TDTOP
"""
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

failures = []
SOCK = "tdtop-test-%d" % os.getpid()
SESSION = "tdtop"


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCK] + list(args), capture_output=True, text=True,
                          check=check)


def screen():
    return tmux("capture-pane", "-p", "-t", SESSION).stdout.split("\n")


def keys(*k):
    tmux("send-keys", "-t", SESSION, *k)


def table(lines):
    """(header index, rows as field lists) of a screen."""
    for i, line in enumerate(lines):
        if re.match(r"^ *PID USER +PR +NI", line):
            rows = [l.split(None, 11) for l in lines[i + 1:] if l.strip()]
            return i, [r for r in rows if len(r) >= 11 and r[0].isdigit()]
    return None, []


def wait_for(what, cond, timeout=20):
    """Poll the screen until cond(lines) holds; fail with the last screen if not."""
    end = time.monotonic() + timeout
    lines = []
    while time.monotonic() < end:
        lines = screen()
        try:
            if cond(lines):
                return lines
        except (ValueError, IndexError):
            pass
        time.sleep(0.3)
    fail("%s; screen was:\n%s" % (what, "\n".join(lines)))
    return lines


def kib(s):
    m = re.match(r"^([\d.]+)([kmgtpe]?)$", s)
    return float(m.group(1)) * 1024 ** "kmgtpe".index(m.group(2) or "k")


def cs(s):
    m = re.match(r"^(\d+):(\d+)\.(\d+)$", s)
    return (int(m.group(1)) * 60 + int(m.group(2))) * 100 + int(m.group(3))


def ordered(col, conv, descending=True):
    def cond(lines):
        _, rows = table(lines)
        vals = [conv(r[col]) for r in rows]
        if len(vals) < 5:
            return False
        return vals == sorted(vals, reverse=descending)
    return cond


def nice_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[16])


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tdtop = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="tdtop_tui_")
    os.chmod(tmp, 0o755)
    sleeper_bin = os.path.join(tmp, "tdfixsleep")
    busy_bin = os.path.join(tmp, "tdfixbusy")
    shutil.copy("/bin/sleep", sleeper_bin)
    shutil.copy("/bin/sh", busy_bin)
    procs = []
    me = pwd.getpwuid(os.geteuid()).pw_name
    try:
        sleeper = subprocess.Popen([sleeper_bin, "1000"])
        busy = subprocess.Popen([busy_bin, "-c", "while :; do :; done"])
        procs += [sleeper, busy]
        other = None
        if os.geteuid() == 0:
            def as_nobody():
                os.setgid(65534)
                os.setgroups([])
                os.setuid(65534)
            other = subprocess.Popen([sleeper_bin, "2000"], preexec_fn=as_nobody)
            procs.append(other)
        tmux("new-session", "-d", "-s", SESSION, "-x", "150", "-y", "45",
             "exec env TERM=screen %s --backend procfs -d 1" % tdtop)

        wait_for("the summary and the column header",
                 lambda l: l[0].startswith("top - ") and l[1].startswith("Tasks:") and
                 table(l)[0] == 6)
        wait_for("default order: %CPU high to low", ordered(8, float))
        keys("N")
        wait_for("N: PID high to low", ordered(0, int))
        keys("R")
        wait_for("R: PID low to high", ordered(0, int, descending=False))
        keys("R")
        wait_for("R again: PID high to low", ordered(0, int))
        keys(">")
        wait_for("> from PID: USER A-Z", ordered(1, str, descending=False))
        keys("<")
        wait_for("< back to PID", ordered(0, int))
        keys("M")
        wait_for("M: RES high to low", ordered(5, kib))
        keys("T")
        wait_for("T: TIME+ high to low", ordered(10, cs))
        keys("P")
        wait_for("P: %CPU high to low", ordered(8, float))

        user = "nobody" if other else me
        keys("u")
        wait_for("u: the user prompt", lambda l: "Which user (blank for all)" in l[5])
        keys(user, "Enter")
        wait_for("u %s: only that user's rows" % user,
                 lambda l: table(l)[1] and all(r[1] == user for r in table(l)[1]) and
                 (not other or any(int(r[0]) == other.pid for r in table(l)[1])))
        keys("u")
        wait_for("u: the prompt again", lambda l: "Which user" in l[5])
        keys("Enter")
        wait_for("u blank: other users again", lambda l: any(r[1] != user for r in table(l)[1]))

        keys("N")   # high pids first: the fixtures, started last, are near the top
        wait_for("sleeper shown", lambda l: any(int(r[0]) == sleeper.pid for r in table(l)[1]))
        keys("i")
        wait_for("i: idle tasks hidden",
                 lambda l: table(l)[1] and
                 all(float(r[8]) > 0 or r[7] == "R" for r in table(l)[1]) and
                 not any(int(r[0]) == sleeper.pid for r in table(l)[1]))
        keys("i")
        wait_for("i again: idle tasks back",
                 lambda l: any(int(r[0]) == sleeper.pid for r in table(l)[1]))
        keys("c")
        wait_for("c: command lines",
                 lambda l: any(int(r[0]) == sleeper.pid and
                               r[11].startswith(sleeper_bin + " 1000") for r in table(l)[1]))
        keys("c")
        wait_for("c again: names",
                 lambda l: any(int(r[0]) == sleeper.pid and r[11] == "tdfixsleep"
                               for r in table(l)[1]))
        keys("H")
        wait_for("H: threads", lambda l: l[1].startswith("Threads:"))
        keys("H")
        wait_for("H again: processes", lambda l: l[1].startswith("Tasks:"))

        keys("r")
        wait_for("r: the pid prompt", lambda l: l[5].startswith("PID to renice [default pid = "))
        keys(str(sleeper.pid), "Enter")
        wait_for("r: the value prompt", lambda l: ("Renice PID %d to value" % sleeper.pid) in l[5])
        keys("7", "Enter")
        wait_for("r: the sleeper's NI column",
                 lambda l: any(int(r[0]) == sleeper.pid and r[3] == "7" for r in table(l)[1]))
        if nice_of(sleeper.pid) != 7:
            fail("r: /proc says nice %d, not 7" % nice_of(sleeper.pid))

        keys("d")
        wait_for("d: the delay prompt", lambda l: "Change delay from 1.0 to" in l[5])
        keys("0.5", "Enter")
        keys("d")
        wait_for("d: the new delay", lambda l: "Change delay from 0.5 to" in l[5])
        keys("Enter")

        keys("k")
        wait_for("k: the pid prompt", lambda l: l[5].startswith("PID to signal/kill [default pid = "))
        keys(str(sleeper.pid), "Enter")
        wait_for("k: the signal prompt",
                 lambda l: ("Send pid %d signal [15/sigterm]" % sleeper.pid) in l[5])
        keys("Enter")
        try:
            rc = sleeper.wait(timeout=10)
            if rc != -signal.SIGTERM:
                fail("k: the sleeper ended with %r, not SIGTERM" % rc)
        except subprocess.TimeoutExpired:
            fail("k: the sleeper is still alive")

        tmux("resize-window", "-t", SESSION, "-x", "90", "-y", "20")
        lines = wait_for("resize: 20 lines of at most 90 columns, 13 rows",
                         lambda l: len(l) >= 20 and table(l)[0] == 6 and
                         len(table(l)[1]) == 13)
        if any(len(x) > 90 for x in lines):
            fail("resize: a line wider than 90 columns")

        keys("q")
        end = time.monotonic() + 10
        while time.monotonic() < end and tmux("has-session", "-t", SESSION,
                                              check=False).returncode == 0:
            time.sleep(0.2)
        if tmux("has-session", "-t", SESSION, check=False).returncode == 0:
            fail("q: tdtop did not exit")
    finally:
        tmux("kill-server", check=False)
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("every key did what top's does")
    return 0


if __name__ == "__main__":
    sys.exit(main())
