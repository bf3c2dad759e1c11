# SPDX-License-Identifier: GPL-2.0
"""Read /proc/PID/{stat,statm,io,status,cmdline} into the ABI's names and units.

This is the oracle the integration tests compare the module against: it
knows procfs's text formats and converts ticks, pages and kB into the
nanoseconds and bytes the ABI uses. Any field procfs does not show (or
refuses to show) is simply absent from the result.
"""
import os

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK_NS = 10**9 // os.sysconf("SC_CLK_TCK")

STAT_FIELDS = [
    ("base", "state"), ("base", "ppid"), ("base", "pgid"), ("base", "sid"),
    ("base", "tty_nr"), ("base", "tpgid"), ("base", "flags"),
    ("stat", "minflt"), ("stat", "cminflt"), ("stat", "majflt"), ("stat", "cmajflt"),
    ("stat", "utime"), ("stat", "stime"), ("stat", "cutime"), ("stat", "cstime"),
    ("stat", "priority"), ("stat", "nice"), ("base", "num_threads"), (None, "itrealvalue"),
    ("base", "start_time"), ("stat", "vsize"), ("stat", "rss"), ("stat", "rsslim"),
    ("stat", "start_code"), ("stat", "end_code"), ("stat", "start_stack"),
    ("stat", "kstk_esp"), ("stat", "kstk_eip"),
    (None, "signal"), (None, "blocked"), (None, "sigignore"), (None, "sigcatch"),
    ("stat", "wchan"), (None, "nswap"), (None, "cnswap"), ("stat", "exit_signal"),
    ("stat", "processor"), ("stat", "rt_priority"), ("stat", "policy"),
    ("stat", "blkio_delay"), ("stat", "guest_time"), ("stat", "cguest_time"),
    ("stat", "start_data"), ("stat", "end_data"), ("stat", "start_brk"),
    ("stat", "arg_start"), ("stat", "arg_end"), ("stat", "env_start"),
    ("stat", "env_end"), ("stat", "exit_code"),
]
TICKS = {"utime", "stime", "cutime", "cstime", "start_time", "blkio_delay",
         "guest_time", "cguest_time"}

STATM = ["size", "resident", "shared", "text", "lib", "data", "dt"]

STATUS_KB = {
    "VmPeak": "vm_peak", "VmLck": "vm_lck", "VmPin": "vm_pin", "VmHWM": "vm_hwm",
    "VmRSS": "vm_rss", "RssAnon": "rss_anon", "RssFile": "rss_file",
    "RssShmem": "rss_shmem", "VmData": "vm_data", "VmStk": "vm_stk",
    "VmExe": "vm_exe", "VmLib": "vm_lib", "VmPTE": "vm_pte", "VmSwap": "vm_swap",
    "HugetlbPages": "hugetlb_pages",
}
STATUS_INT = {
    "FDSize": "fdsize", "CoreDumping": "core_dumping", "THP_enabled": "thp_enabled",
    "NoNewPrivs": "no_new_privs", "Seccomp": "seccomp",
    "Seccomp_filters": "seccomp_filters",
    "voluntary_ctxt_switches": "voluntary_ctxt_switches",
    "nonvoluntary_ctxt_switches": "nonvoluntary_ctxt_switches",
}
STATUS_HEX = {
    "SigPnd": "sig_pending", "ShdPnd": "sig_shared_pending", "SigBlk": "sig_blocked",
    "SigIgn": "sig_ignored", "SigCgt": "sig_caught",
}
CRED_HEX = {
    "CapInh": "cap_inheritable", "CapPrm": "cap_permitted", "CapEff": "cap_effective",
    "CapBnd": "cap_bounding", "CapAmb": "cap_ambient",
}


# The NS* lines of status: the ABI's ns-tgid, ns-pid, ns-pgid, ns-sid arrays.
STATUS_NS = {"NStgid": "ns_tgid", "NSpid": "ns_pid", "NSpgid": "ns_pgid", "NSsid": "ns_sid"}


def _read(path, mode="r"):
    # A comm or a Name: line need not be UTF-8: decoded as tdnl.py decodes
    # the module's strings (errors="replace"), so that the two compare.
    with open(path, mode, **({} if "b" in mode else {"errors": "replace"})) as f:
        return f.read()


def _bitmap_words(text):
    """A procfs mask such as 'ff,ffffffff' as a list of u32 words, low first."""
    return [int(w, 16) for w in reversed(text.strip().split(","))]


def read_task(dirpath):
    """One task's procfs view in ABI names and units, or None if it vanished."""
    rec = {"base": {}, "stat": {}, "statm": {}, "io": {}, "status": {}, "cred": {}}
    try:
        stat = _read(dirpath + "/stat")
        statm = _read(dirpath + "/statm")
        status = _read(dirpath + "/status")
        cmdline = _read(dirpath + "/cmdline", "rb")
    except (FileNotFoundError, ProcessLookupError):
        return None
    try:
        io = _read(dirpath + "/io")
    except PermissionError:
        io = None
    except (FileNotFoundError, ProcessLookupError):
        return None

    lp, rp = stat.index("("), stat.rindex(")")
    rec["pid"] = int(stat[:lp])
    rec["base"]["comm"] = stat[lp + 1:rp]
    for (grp, name), val in zip(STAT_FIELDS, stat[rp + 2:].split()):
        if grp is None:
            continue
        if name == "state":
            rec[grp][name] = ord(val)
            continue
        v = int(val)
        if name in TICKS:
            v *= TICK_NS
        elif name == "rss":
            v *= PAGE
        rec[grp][name] = v
    for name, val in zip(STATM, statm.split()):
        rec["statm"][name] = int(val) * PAGE
    if io is not None:
        for line in io.splitlines():
            k, v = line.split(":")
            rec["io"][k.strip()] = int(v)
    else:
        del rec["io"]

    for line in status.splitlines():
        k, _, v = line.partition(":")
        v = v.strip()
        if k in STATUS_KB:
            rec["status"][STATUS_KB[k]] = int(v.split()[0]) * 1024
        elif k in STATUS_INT:
            rec["status"][STATUS_INT[k]] = int(v)
        elif k in STATUS_HEX:
            rec["status"][STATUS_HEX[k]] = int(v, 16)
        elif k in CRED_HEX:
            rec["cred"][CRED_HEX[k]] = int(v, 16)
        elif k == "Umask":
            rec["status"]["umask"] = int(v, 8)
        elif k == "SigQ":
            q, lim = v.split("/")
            rec["status"]["sigq_queued"], rec["status"]["sigq_limit"] = int(q), int(lim)
        elif k == "Uid":
            for n, x in zip(("uid", "euid", "suid", "fsuid"), v.split()):
                rec["cred"][n] = int(x)
        elif k == "Gid":
            for n, x in zip(("gid", "egid", "sgid", "fsgid"), v.split()):
                rec["cred"][n] = int(x)
        elif k == "Groups":
            rec["cred"]["groups"] = [int(x) for x in v.split()]
            rec["cred"]["ngroups"] = len(rec["cred"]["groups"])
        elif k == "TracerPid":
            rec["base"]["tracer_pid"] = int(v)
        elif k == "Tgid":
            rec["tgid"] = int(v)
        elif k == "Cpus_allowed":
            rec["status"]["cpus_allowed"] = _bitmap_words(v)
        elif k == "Mems_allowed":
            rec["status"]["mems_allowed"] = _bitmap_words(v)
        elif k in STATUS_NS:
            # one id per pid-namespace level, from the reader's down
            rec["status"][STATUS_NS[k]] = [int(x) for x in v.split()]
    # statm's locked is status's VmLck (statm itself does not print it); a
    # task without an mm (no Vm lines) has statm's zeros.
    rec["statm"]["locked"] = rec["status"].get("vm_lck", 0)
    rec["cmdline"] = cmdline
    return rec
