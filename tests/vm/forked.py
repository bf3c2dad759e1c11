# SPDX-License-Identifier: GPL-2.0
"""Helpers for guest tests that change credentials or namespaces in a
forked child, so that the test process itself keeps root's."""
import os


def in_child(fn):
    """Run fn in a forked child; its repr()-able result comes back through a
    pipe. An exception in the child comes back as ("error", text)."""
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
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.waitpid(pid, 0)
    return eval(data.decode())


def drop_to(uid, groups=()):
    """Become uid (real, effective, saved; gid the same) with these groups."""
    os.setgroups(list(groups))
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
