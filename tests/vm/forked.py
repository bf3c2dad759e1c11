# SPDX-License-Identifier: GPL-2.0
"""Helpers for guest tests that change credentials or namespaces in a
forked child, so that the test process itself keeps root's."""
import os


def start_child(fn):
    """Run fn in a forked child, beside the caller; join_child() of what this
    returns gets fn's repr()-able result, which comes back through a pipe.
    An exception in the child comes back as ("error", text)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = repr(fn())
        except Exception as e:  # report, never raise out of the child
            out = repr(("error", "%s: %s" % (type(e).__name__, e)))
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    return pid, r


def read_result(r):
    """The repr()-ed result written to pipe r, read to its end (r is
    closed): ("error", "no answer") when nothing was written."""
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    return eval(data.decode()) if data else ("error", "no answer")


def join_child(child):
    """Wait for a start_child() child; its result."""
    pid, r = child
    out = read_result(r)
    os.waitpid(pid, 0)
    return out


def in_child(fn):
    """Run fn in a forked child and wait for it: start_child(), join_child()."""
    return join_child(start_child(fn))


def drop_to(uid, groups=()):
    """Become uid (real, effective, saved; gid the same) with these groups."""
    os.setgroups(list(groups))
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
