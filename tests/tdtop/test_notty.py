#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tdtop without a terminal does what procps top does on this host.

top (not in batch mode) takes the terminal's settings from its standard
input first; where that is not a terminal it writes `top: failed tty get`
on stderr and exits 1, whatever its standard output is. So, for standard
input from /dev/null and from a pipe (`echo | top`), with standard output a
pipe, a file or a terminal, tdtop must exit with top's status, write top's
stderr with "top" read "tdtop", and write to standard output what top
writes there (nothing), within 10 s: a tdtop that loops without a terminal
fails on the time-out instead of hanging the test. With -b (batch) neither
needs a terminal: `-b -n 1` exits 0 and prints a frame with top's table
header. With a terminal on standard input and a pipe on standard output,
both keep running and quit on `q`, with the same status, leaving the
terminal's modes as they found them.

Usage: test_notty.py TDTOP
"""
import os
import pty
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from tdcheck import check, failures  # noqa: E402

TOP = "/usr/bin/top"
TIMEOUT = 10


def env():
    e = dict(os.environ, LC_ALL="C", TERM="xterm")
    e.pop("COLUMNS", None)
    return e


def run(argv, stdin, stdout):
    """(exit status or None on the time-out, stdout bytes, stderr bytes)"""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        master = None
        if stdout == "pty":
            master, slave = pty.openpty()
            so = slave
        elif stdout == "file":
            so = out
        else:
            so = subprocess.PIPE
        si = subprocess.PIPE if stdin == "pipe" else subprocess.DEVNULL
        p = subprocess.Popen(argv, stdin=si, stdout=so, stderr=err, env=env())
        if master is not None:
            os.close(slave)
        try:
            o, _ = p.communicate(input=b"\n" if stdin == "pipe" else None, timeout=TIMEOUT)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            o, _ = p.communicate()
            rc = None
        if stdout == "file":
            out.seek(0)
            o = out.read()
        elif stdout == "pty":
            o = b""
            os.set_blocking(master, False)
            try:
                while True:
                    chunk = os.read(master, 65536)
                    if not chunk:
                        break
                    o += chunk
            except OSError:
                pass
            os.close(master)
        err.seek(0)
        return rc, o or b"", err.read()


def check_no_tty(tdtop):
    for stdin in ("null", "pipe"):
        for stdout in ("pipe", "file", "pty"):
            what = "stdin %s, stdout %s" % (stdin, stdout)
            t_rc, t_out, t_err = run([TOP], stdin, stdout)
            d_rc, d_out, d_err = run([tdtop], stdin, stdout)
            if t_rc is None:
                check(False, "%s: the oracle: top still runs after %d s" % (what, TIMEOUT))
                continue
            check(d_rc is not None, "%s: tdtop has exited within %d s" % (what, TIMEOUT))
            if d_rc is None:
                continue
            want = t_err.replace(b"top: ", b"tdtop: ", 1)
            check(d_rc == t_rc and d_err == want,
                  "%s: exit %d and stderr %r, top: %d and %r" % (what, d_rc, d_err, t_rc, t_err))
            check(d_out == t_out, "%s: stdout %r, top's %r" % (what, d_out[:80], t_out[:80]))


def table_header(out):
    return [ln.split() for ln in out.decode("utf-8", "replace").splitlines()
            if ln.split()[:1] == ["PID"]][:1]


def check_batch(tdtop):
    for stdin in ("null", "pipe"):
        t_rc, t_out, _ = run([TOP, "-b", "-n", "1"], stdin, "pipe")
        d_rc, d_out, d_err = run([tdtop, "-b", "-n", "1", "--backend", "procfs"], stdin, "pipe")
        check(d_rc == t_rc == 0 and not d_err,
              "-b -n 1, stdin %s: exit %s (top %s), stderr %r" % (stdin, d_rc, t_rc, d_err))
        check(table_header(d_out) == table_header(t_out) != [],
              "-b -n 1, stdin %s: header %s, top's %s" %
              (stdin, table_header(d_out), table_header(t_out)))


def check_tty_in_pipe_out(tdtop):
    """stdin a terminal, stdout a pipe: the screen runs; q quits."""
    res = []
    for argv in ([TOP], [tdtop, "--backend", "procfs"]):
        master, slave = pty.openpty()
        modes = termios.tcgetattr(slave)
        p = subprocess.Popen(argv, stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env())
        time.sleep(1.5)
        running = p.poll() is None
        os.write(master, b"q")
        try:
            out, err = p.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        res.append((running, p.returncode, err, termios.tcgetattr(slave) == modes))
        os.close(slave)
        os.close(master)
    check(res[0] == (True, 0, b"", True), "the oracle: top with stdout a pipe runs, q exits 0 "
          "and leaves the terminal's modes as they were: %r" % (res[0],))
    check(res[1] == res[0], "stdin a terminal, stdout a pipe: tdtop %r, top %r" % (res[1], res[0]))


def main():
    tdtop = sys.argv[1]
    check_no_tty(tdtop)
    check_batch(tdtop)
    check_tty_in_pipe_out(tdtop)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
