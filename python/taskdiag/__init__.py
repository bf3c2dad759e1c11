# SPDX-License-Identifier: LGPL-2.1-or-later
"""taskdiag: every process's figures from the task_diag kernel module, the psutil way.

    import taskdiag
    for p in taskdiag.process_iter(["pid", "username", "cpu_times", "memory_info"]):
        print(p.info)

One call reads every process at once over netlink (or from /proc when the
module is not loaded, with a ProcfsFallbackWarning), in C, without the GIL.
Values that psutil has carry psutil's names and types (pid, name, cmdline,
status, username, uids, cpu_times, create_time, memory_info, io_counters,
...); every other task_diag item is there by its name (minflt, vm_swap,
cap_effective, ...: see ITEMS). Each Process holds the values of one read:
its methods return them, they do not read again.
"""
from collections import namedtuple

__all__ = [
    "Process", "Sample", "Diff", "process_iter", "sample", "diff", "pids", "pid_exists",
    "backend", "__version__", "version_info",
    "Error", "NoSuchProcess", "ZombieProcess", "AccessDenied", "TaskDiagError",
    "ModuleNotLoaded", "ProcfsFallbackWarning", "ATTRS", "ITEMS",
    "pcputimes", "pmem", "pio", "puids", "pgids", "pctxsw",
]


class Error(Exception):
    """Base class of the exceptions of this package."""


class _PidError(Error):
    def __init__(self, pid=None, name=None, msg=None):
        Error.__init__(self)
        self.pid = pid
        self.name = name
        self.msg = msg or "%s (pid=%s)" % (self._what, pid)

    def __str__(self):
        return self.msg


class NoSuchProcess(_PidError):
    """No process (or no longer one) with this pid."""
    _what = "process no longer exists"


class ZombieProcess(NoSuchProcess):
    """The process is a zombie (kept for psutil compatibility)."""


class AccessDenied(_PidError):
    """The kernel does not show this value to the caller (as /proc would refuse it)."""
    _what = "access denied"


class TaskDiagError(Error, OSError):
    """libtaskdiag failed: errno and the library's message (with the kernel's, if any)."""


class ModuleNotLoaded(TaskDiagError):
    """backend='netlink' was asked for and the task_diag module is not loaded."""


class ProcfsFallbackWarning(RuntimeWarning):
    """backend='auto' found no task_diag module and reads /proc instead (once per process)."""


# psutil's tuples, with psutil's names and fields.
pcputimes = namedtuple("pcputimes", "user system children_user children_system iowait")
pmem = namedtuple("pmem", "rss vms shared text lib data dirty")
pio = namedtuple("pio", "read_count write_count read_bytes write_bytes read_chars write_chars")
puids = namedtuple("puids", "real effective saved")
pgids = namedtuple("pgids", "real effective saved")
pctxsw = namedtuple("pctxsw", "voluntary involuntary")

from . import _taskdiag  # noqa: E402

_taskdiag._setup(NoSuchProcess, AccessDenied, TaskDiagError, ModuleNotLoaded,
                 ProcfsFallbackWarning, pcputimes, pmem, pio, puids, pgids, pctxsw)

from ._taskdiag import (ATTRS, ITEMS, Diff, Process, Sample, __version__,  # noqa: E402
                        backend, diff, pid_exists, pids, process_iter, sample)

# The project's version, as psutil's __version__ and version_info.
version_info = tuple(int(x) for x in __version__.split("."))
