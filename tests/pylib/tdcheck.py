# SPDX-License-Identifier: GPL-2.0
"""What the tests' scripts share: a named check that is counted when it
fails, in the host tests' form (check) and the guest tests' (named, with
tally at the end), and a command run as ps and the tools are compared (C
locale, no COLUMNS from the caller's terminal, no standard input)."""
import os
import subprocess

failures = []
# Set by a test that makes thousands of checks: print the failures only.
failures_only = False


def check(ok, what):
    """Print "ok WHAT" or "FAIL WHAT"; a failure is kept in failures."""
    if not ok or not failures_only:
        print("%s %s" % ("ok" if ok else "FAIL", what), flush=True)
    if not ok:
        failures.append(what)
    return ok


results = []   # every check named() made, True or False


def named(name, ok, detail=""):
    """Print "ok NAME" or "FAIL NAME: DETAIL" and count it; returns ok."""
    results.append(bool(ok))
    print("%s %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if detail else ""),
          flush=True)
    if not ok:
        failures.append(name)
    return ok


def tally(what):
    """Print "WHAT: N checks, M failed" of named()'s checks; returns M."""
    failed = results.count(False)
    print("%s: %d checks, %d failed" % (what, len(results), failed))
    return failed


def env():
    """The environment the compared programs run in."""
    e = dict(os.environ, LC_ALL="C")
    e.pop("COLUMNS", None)
    return e


def run(argv, timeout=120):
    """(exit status, standard output, standard error) of argv."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
                       stdin=subprocess.DEVNULL, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
