#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""In-guest driver of benchmarks/vma (run as root in one guest boot).

  vma_guest.py TDVMABENCH TDSPAWN OUT.json [PROCS] [REPS] [query]

1. PROCS sleeping processes, each exec'd (sleep(1), so each maps its own
   files, as on a real system; forks of one program would share their
   struct files): every VMA of every process, read
   and parsed from /proc/PID/maps (tdvmabench maps) against the get-vma
   dump through libtaskdiag (tdvmabench lib), alternately, REPS runs each;
   the medians and their ratio.
2. One process with K VMAs for K = 8,000 ... 65,000: its get-vma dump with
   an 8 KiB and a 64 KiB receive buffer (tdvmabench rawone; the kernel
   sizes its skbs after the reader's buffer, at most 32 KiB), and its maps
   read with 4 KiB and 64 KiB read()s; time per VMA, which stays flat if
   reads are linear in VMAs.
3. 1,000 address lookups (tdvmabench query) in a small process (sleep(1),
   about 25 VMAs) and in one of 8,000 VMAs: maps read and parsed once then
   searched, PROCMAP_QUERY once per address (6.11+ only), and the module's
   address query through libtaskdiag (one batched request), REPS runs each
   alternately; the medians, per lookup, and the ratios. The three must
   find a VMA for the same number of addresses.
With "query" as the last argument, only part 3.
"""
import json
import statistics
import subprocess
import sys

import sleepers
from sleepers import run


def median_of(cmd, reps):
    rs = [run(cmd) for _ in range(reps)]
    return statistics.median(r["ns"] for r in rs), rs[0]


def lookups(bench, reps, res):
    """Part 3: 1,000 address lookups, three ways (see the top)."""
    import os
    n = 1000
    hows = ["maps", "lib"]
    rel = tuple(int(x) for x in os.uname().release.split(".")[:2])
    if rel >= (6, 11):
        hows.insert(1, "ioctl")
    res["lookups"] = []
    for label, cmd in (("sleep", ["sleep", "100000"]), ("8,000 VMAs", [bench, "hold", "8000"])):
        h = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if cmd[0] == "sleep":
            import time
            time.sleep(0.5)     # exec and the dynamic loader done
            pid = str(h.pid)
        else:
            pid = h.stdout.readline().split()[1]
        t = {m: [] for m in hows}
        found = {}
        for m in hows:
            run([bench, "query", m, pid, str(n), "3"])   # warm-up
        for _ in range(reps):
            for m in hows:
                r = run([bench, "query", m, pid, str(n), "3"])
                t[m].append(r["ns"])
                found[m] = r["vmas"]
        row = {"process": label, "lookups": n, "found": found}
        for m in hows:
            row[m + "_ns"] = statistics.median(t[m])
            row[m + "_per_lookup_ns"] = row[m + "_ns"] / n
        if len(set(found.values())) != 1:
            print("the lookups disagree: %r" % found)
            return 1
        msg = "%d lookups in %s (%d found): maps %.0f ns/lookup" % (
            n, label, found["maps"], row["maps_per_lookup_ns"])
        if "ioctl" in hows:
            row["ioctl_over_lib"] = row["ioctl_ns"] / row["lib_ns"]
            msg += ", PROCMAP_QUERY %.0f" % row["ioctl_per_lookup_ns"]
        row["maps_over_lib"] = row["maps_ns"] / row["lib_ns"]
        msg += ", get-vma query %.0f: maps/query %.2fx" % (row["lib_per_lookup_ns"],
                                                          row["maps_over_lib"])
        if "ioctl" in hows:
            msg += ", PROCMAP_QUERY/query %.2fx" % row["ioctl_over_lib"]
        print(msg, flush=True)
        res["lookups"].append(row)
        if cmd[0] == "sleep":
            h.kill()
        h.stdin.close()
        h.wait()
    return 0


def main(argv):
    bench, spawn, out = argv[1], argv[2], argv[3]
    procs = int(argv[4]) if len(argv) > 4 else 1000
    reps = int(argv[5]) if len(argv) > 5 else 7
    with open("/proc/sys/vm/max_map_count", "w") as f:
        f.write("262144")
    res = {"procs": procs, "reps": reps}
    if argv[-1] == "query":
        rc = lookups(bench, reps, res)
        with open(out, "w") as f:
            json.dump(res, f, indent=1)
        return rc
    sp = sleepers.start(procs)
    if not sp:
        return 1
    del spawn
    for m in ("maps", "lib"):        # warm-up
        run([bench, m])
    t = {"maps": [], "lib": []}
    for _ in range(reps):
        for m in ("maps", "lib"):
            r = run([bench, m])
            t[m].append(r["ns"])
            res["vmas_" + m] = r["vmas"]
    res["all_maps_ns"] = statistics.median(t["maps"])
    res["all_lib_ns"] = statistics.median(t["lib"])
    res["all_ratio"] = res["all_maps_ns"] / res["all_lib_ns"]
    print("all VMAs of %d processes (%d VMAs): maps %.1f ms, get-vma %.1f ms: %.1fx"
          % (procs, res["vmas_lib"], res["all_maps_ns"] / 1e6, res["all_lib_ns"] / 1e6,
             res["all_ratio"]), flush=True)
    sleepers.stop(sp)

    res["one"] = []
    for k in (8000, 16000, 32000, 65000):
        h = subprocess.Popen([bench, "hold", str(k)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        pid = h.stdout.readline().split()[1]
        row = {"vmas": k}
        for name, cmd in (("nl_8k", [bench, "rawone", pid, "8192"]),
                          ("nl_64k", [bench, "rawone", pid, "65536"]),
                          ("maps_4k", [bench, "mapsone", pid, "4096"]),
                          ("maps_64k", [bench, "mapsone", pid, "65536"])):
            run(cmd)
            ns, r = median_of(cmd, max(3, reps // 2))
            row[name + "_ns"] = ns
            row[name + "_per_vma_ns"] = ns / r["vmas"]
            row[name + "_datagrams"] = r["datagrams"]
            row["seen"] = r["vmas"]
        res["one"].append(row)
        print("one process, %d VMAs: get-vma %.0f ns/VMA (8 KiB, %d datagrams), %.0f ns/VMA "
              "(64 KiB, %d); maps %.0f ns/VMA (4 KiB reads), %.0f (64 KiB)"
              % (row["seen"], row["nl_8k_per_vma_ns"], row["nl_8k_datagrams"],
                 row["nl_64k_per_vma_ns"], row["nl_64k_datagrams"],
                 row["maps_4k_per_vma_ns"], row["maps_64k_per_vma_ns"]), flush=True)
        h.stdin.close()
        h.wait()
    one = res["one"]
    for key in ("nl_8k", "nl_64k", "maps_4k", "maps_64k"):
        res[key + "_linearity"] = one[-1][key + "_per_vma_ns"] / one[0][key + "_per_vma_ns"]
    res["one_ratio_64k"] = one[-1]["maps_64k_ns"] / one[-1]["nl_64k_ns"]
    print("per-VMA time at 65,000 over 8,000 VMAs (1.0 = linear): get-vma %.2f (8 KiB), "
          "%.2f (64 KiB); maps %.2f (4 KiB), %.2f (64 KiB)"
          % (res["nl_8k_linearity"], res["nl_64k_linearity"], res["maps_4k_linearity"],
             res["maps_64k_linearity"]))
    if lookups(bench, reps, res):
        return 1
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
