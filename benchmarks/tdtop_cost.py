#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The in-guest half of benchmarks/tdtop_cost: spawn the population, then
measure, round-robin, the CPU time (user + system, from wait4()) of
`top -b`, `tdtop -b --backend netlink` and `tdtop -b --backend procfs`
with -n 1 and -n K (default 5); per refresh = (nK - n1) / (K - 1): start-up
and the priming refresh cancel out. Medians of the rounds."""
import argparse
import json
import os
import statistics
import subprocess
import time

USERS = "1,2,3,65534"


def cpu_of(argv):
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        raise RuntimeError("%s: status %d" % (" ".join(argv), status))
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdspawn", required=True)
    ap.add_argument("--tdtop", required=True)
    ap.add_argument("--procs", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    for path, val in (("/proc/sys/kernel/pid_max", "4194304"),
                      ("/proc/sys/kernel/threads-max", "1000000"),
                      ("/proc/sys/kernel/randomize_va_space", "0")):
        with open(path, "w") as f:
            f.write(val)
    sp = subprocess.Popen([a.tdspawn, str(a.procs), "1", USERS], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
    if not sp.stdout.readline().startswith("ready"):
        raise SystemExit("tdspawn failed")
    time.sleep(2)
    tools = {
        "top": ["/usr/bin/top", "-b", "-d", "1"],
        "tdtop_netlink": [a.tdtop, "-b", "-d", "1", "--backend", "netlink"],
        "tdtop_procfs": [a.tdtop, "-b", "-d", "1", "--backend", "procfs"],
    }
    per = {t: [] for t in tools}
    for r in range(a.rounds):
        for t, argv in tools.items():
            one = cpu_of(argv + ["-n", "1"])
            many = cpu_of(argv + ["-n", str(a.frames)])
            per[t].append((many - one) / (a.frames - 1))
            print("round %d %-14s per refresh %.4f s CPU (n1 %.3f s, n%d %.3f s)" % (
                r, t, per[t][-1], one, a.frames, many), flush=True)
    tasks = len([d for d in os.listdir("/proc") if d.isdigit()])
    res = {"processes_in_guest": tasks, "rounds": a.rounds, "frames": a.frames,
           "per_refresh_cpu_s": {t: {"median": statistics.median(v), "runs": v}
                                 for t, v in per.items()}}
    top = res["per_refresh_cpu_s"]["top"]["median"]
    for t in ("tdtop_netlink", "tdtop_procfs"):
        res["ratio_%s_to_top" % t] = res["per_refresh_cpu_s"][t]["median"] / top
    print("processes %d" % tasks)
    for t in tools:
        print("%-14s %.4f s CPU per refresh (median of %d)" % (
            t, res["per_refresh_cpu_s"][t]["median"], a.rounds))
    print("tdtop (netlink) / top = %.3f;  tdtop (procfs) / top = %.3f" % (
        res["ratio_tdtop_netlink_to_top"], res["ratio_tdtop_procfs_to_top"]))
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    sp.stdin.close()
    sp.wait()


if __name__ == "__main__":
    main()
