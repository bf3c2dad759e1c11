# SPDX-License-Identifier: GPL-2.0
"""The guest tests' named checks: each printed as "ok NAME" or "FAIL NAME:
DETAIL" as it is made, counted, and summed up at the end."""

results = []


def check(name, ok, detail=""):
    """Print and count one check; returns ok."""
    results.append(bool(ok))
    print("%s %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if detail else ""),
          flush=True)
    return ok


def tally(what):
    """Print "WHAT: N checks, M failed"; returns M."""
    failed = results.count(False)
    print("%s: %d checks, %d failed" % (what, len(results), failed))
    return failed
