#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What one write of task_diag_all's Prometheus metrics costs, in one guest
boot with a population of sleeping processes (benchmarks/tdspawn): the CPU
time (user + system, from wait4()) of `task_diag_all --format openmetrics`
per process and aggregated by user, with the module and with /proc, and the
size of the text; medians of R rounds, round-robin. Not part of the test
suite. Run it through scripts/vm-run:

  scripts/vm-run --mem 6G --cpus 2 --timeout 3000 -- /usr/bin/python3 \\
      benchmarks/openmetrics_cost.py --tdspawn BUILD/bench/tdspawn \\
      --tool BUILD/tools/task_diag_all [--procs 10000] [--rounds 5]
"""
import argparse
import os
import statistics
import subprocess
import time

USERS = "1,2,3,65534"


def cost(argv):
    with open("/dev/null", "w") as null:
        p = subprocess.Popen(argv, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        raise SystemExit("%s: status %d" % (" ".join(argv), status))
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdspawn", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--procs", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    for path, val in (("/proc/sys/kernel/pid_max", "4194304"),
                      ("/proc/sys/kernel/threads-max", "1000000")):
        with open(path, "w") as f:
            f.write(val)
    sp = subprocess.Popen([a.tdspawn, str(a.procs), "1", USERS], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
    if not sp.stdout.readline().startswith("ready"):
        raise SystemExit("tdspawn failed")
    time.sleep(2)
    t = a.tool
    runs = {
        "openmetrics_netlink": [t, "--backend", "netlink", "-f", "openmetrics"],
        "openmetrics_procfs": [t, "--backend", "procfs", "-f", "openmetrics"],
        "aggregate_user_netlink": [t, "--backend", "netlink", "-f", "openmetrics", "--aggregate", "user"],
        "aggregate_user_procfs": [t, "--backend", "procfs", "-f", "openmetrics", "--aggregate", "user"],
        "quiet_same_groups_netlink": [t, "--backend", "netlink", "-q", "-s", "base,stat,io,status,cred"],
    }
    per = {k: [] for k in runs}
    for r in range(a.rounds):
        for k, argv in runs.items():
            per[k].append(cost(argv))
            print("round %d %-26s %.3f s CPU" % (r, k, per[k][-1]), flush=True)
    procs = len([d for d in os.listdir("/proc") if d.isdigit()])
    size = {k: len(subprocess.run(runs[k], stdout=subprocess.PIPE).stdout)
            for k in ("openmetrics_netlink", "aggregate_user_netlink")}
    med = {k: statistics.median(v) for k, v in per.items()}
    print("processes in the guest: %d" % procs)
    for k, v in med.items():
        print("%-26s median %.3f s CPU (%.1f us per process)" % (k, v, v / procs * 1e6))
    print("procfs / netlink, per process: %.2f; aggregated: %.2f" % (
        med["openmetrics_procfs"] / med["openmetrics_netlink"],
        med["aggregate_user_procfs"] / med["aggregate_user_netlink"]))
    print("openmetrics / -q of the same groups (netlink): %.2f" % (
        med["openmetrics_netlink"] / med["quiet_same_groups_netlink"]))
    for k, v in size.items():
        print("%-26s %d bytes of text" % (k, v))
    sp.stdin.close()
    sp.wait()


if __name__ == "__main__":
    main()
