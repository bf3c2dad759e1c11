# SPDX-License-Identifier: GPL-2.0
"""ctypes declarations of libtaskdiag, for the guest tests that call the
library itself (hidepid's procfs-fd, the sampling API's ran-since)."""
import ctypes

BACKEND_NETLINK, BACKEND_PROCFS = 1, 2
SCOPE_ALL_PROCESSES, SCOPE_ALL_THREADS = 1, 2
GROUP_BASE, GROUP_STATUS = 1 << 0, 1 << 4


class Request(ctypes.Structure):
    """struct taskdiag_request of the current header (0.4: filters appended)."""
    _fields_ = [("scope", ctypes.c_int), ("pid", ctypes.c_int), ("groups", ctypes.c_uint32),
                ("npids", ctypes.c_uint32), ("pids", ctypes.c_void_p),
                ("uids", ctypes.c_void_p), ("euids", ctypes.c_void_p),
                ("nuids", ctypes.c_uint32), ("neuids", ctypes.c_uint32),
                ("cgroup_id", ctypes.c_uint64), ("cgroup_path", ctypes.c_char_p),
                ("comm", ctypes.c_char_p), ("flags", ctypes.c_uint32),
                ("ran_since", ctypes.c_uint64)]


def load(path):
    lib = ctypes.CDLL(path)
    lib.taskdiag_sample_task.restype = ctypes.c_void_p
    lib.taskdiag_sample_task.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.taskdiag_sample_count.restype = ctypes.c_size_t
    lib.taskdiag_sample_count.argtypes = [ctypes.c_void_p]
    lib.taskdiag_sample_idle_count.restype = ctypes.c_size_t
    lib.taskdiag_sample_idle_count.argtypes = [ctypes.c_void_p]
    lib.taskdiag_task_pid.argtypes = [ctypes.c_void_p]
    lib.taskdiag_task_get_u64.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                          ctypes.POINTER(ctypes.c_uint64)]
    lib.taskdiag_item_lookup.argtypes = [ctypes.c_char_p]
    lib.taskdiag_sample_take_since.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                               ctypes.c_void_p, ctypes.c_void_p]
    return lib
