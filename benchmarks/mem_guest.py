#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""In-guest driver of benchmarks/mem (run as root in one guest boot).

  mem_guest.py TDMEMBENCH OUT.json [PROCS] [REPS]

PROCS sleeping processes, each exec'd (sleep(1), so each maps its own
files and pages, as on a real system), plus the guest's own: the sums of
smaps_rollup of every process read and parsed from /proc/PID/smaps_rollup
(tdmembench rollup), through libtaskdiag's procfs backend (tdmembench
procfs) and as the module's mem group through its netlink backend
(tdmembench lib), alternately, REPS runs of each (each the fastest of 3
rounds in one process); the medians and the ratios.
"""
import json
import statistics
import sys

import sleepers
from sleepers import run


def main(argv):
    bench, out = argv[1], argv[2]
    procs = int(argv[3]) if len(argv) > 3 else 1000
    reps = int(argv[4]) if len(argv) > 4 else 7
    res = {"procs": procs, "reps": reps}
    sp = sleepers.start(procs)
    if not sp:
        return 1
    modes = ("rollup", "procfs", "lib", "statm")
    for m in modes:        # warm-up
        run([bench, m])
    t = {m: [] for m in modes}
    for _ in range(reps):
        for m in modes:
            r = run([bench, m, "3"])
            t[m].append(r["ns"])
            res["procs_" + m] = r["procs"]
    for m in modes:
        res[m + "_ns"] = statistics.median(t[m])
    res["ratio_rollup"] = res["rollup_ns"] / res["lib_ns"]
    res["ratio_procfs"] = res["procfs_ns"] / res["lib_ns"]
    print("smaps_rollup of %d processes: read+parse %.1f ms, libtaskdiag procfs %.1f ms, "
          "mem group %.1f ms: %.1fx over smaps_rollup, %.1fx over the procfs backend"
          % (res["procs_lib"], res["rollup_ns"] / 1e6, res["procfs_ns"] / 1e6,
             res["lib_ns"] / 1e6, res["ratio_rollup"], res["ratio_procfs"]), flush=True)
    print("the statm group of the same processes (no page walk): %.1f ms"
          % (res["statm_ns"] / 1e6), flush=True)
    sleepers.stop(sp)
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
