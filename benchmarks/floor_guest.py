#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""In-guest driver of benchmarks/floor (run as root, no module loaded).

  floor_guest.py BENCH_DIR FULL.ko PROCS ROUNDS CPU

PROCS exec'd sleeping processes; each round loads the real module and the
four floor modules of BENCH_DIR in turn (the order reversed every other
round), times get-vma (tdvmabench lib) and the mem group (tdmembench lib)
under each one that has it, and reads every maps and smaps_rollup
(tdvmabench maps, tdmembench rollup). Each timing is the fastest of 3
rounds in one process; the medians over ROUNDS, and the ratios, go to
BENCH_DIR/results.json.
"""
import json
import os
import statistics
import subprocess
import sys

import sleepers
from sleepers import run


def sh(*cmd):
    subprocess.run(cmd, check=True)


def main(argv):
    bdir, full, procs, rounds, cpu = argv[1], argv[2], int(argv[3]), int(argv[4]), argv[5]
    vb, mb = os.path.join(bdir, "tdvmabench"), os.path.join(bdir, "tdmembench")
    mods = {"full": full,
            "vma-floor": os.path.join(bdir, "vma-floor", "task_diag.ko"),
            "vma-reads": os.path.join(bdir, "vma-reads", "task_diag.ko"),
            "mem-floor": os.path.join(bdir, "mem-floor", "task_diag.ko"),
            "mem-reads": os.path.join(bdir, "mem-reads", "task_diag.ko")}
    sp = sleepers.start(procs)
    if not sp:
        return 1
    t = {k: [] for k in ("maps", "rollup", "vma_full", "vma_floor", "vma_reads", "mem_full",
                         "mem_floor", "mem_reads")}
    vmas = set()
    for r in range(rounds):
        order = list(mods) if r % 2 == 0 else list(reversed(mods))
        for name in order:
            sh("insmod", mods[name])
            try:
                if not name.startswith("mem-"):
                    run([vb, "lib"])
                    v = run([vb, "lib", "3"])
                    if name == "full":
                        vmas.add(v["vmas"])
                    elif v["vmas"]:
                        print("%s wrote %d VMAs: it is not a floor" % (name, v["vmas"]))
                        return 1
                    t["vma_" + name.split("-")[-1]].append(v["ns"])
                if not name.startswith("vma-"):
                    run([mb, "lib"])
                    m = run([mb, "lib", "3"])
                    if name.startswith("mem-") and m["sum"]:
                        print("%s summed a Pss: it is not a floor" % name)
                        return 1
                    t["mem_" + name.split("-")[-1]].append(m["ns"])
            finally:
                sh("rmmod", "task_diag")
        t["maps"].append(run([vb, "maps", "3"])["ns"])
        t["rollup"].append(run([mb, "rollup", "3"])["ns"])
    sleepers.stop(sp)
    res = {"procs": procs, "rounds": rounds, "cpu": cpu, "vmas": sorted(vmas)}
    for k, v in t.items():
        res[k + "_ns"] = statistics.median(v)
        res[k + "_all_ns"] = v
    ms = {k: res[k + "_ns"] / 1e6 for k in t}
    print("guest CPU %s, %d processes (%s VMAs), medians of %d rounds:"
          % (cpu, procs, "/".join(map(str, sorted(vmas))), rounds))
    print("  VMAs: maps %.1f ms, get-vma %.1f ms (%.1fx), vma-floor %.1f ms: "
          "at most %.1fx over maps on this walk"
          % (ms["maps"], ms["vma_full"], ms["maps"] / ms["vma_full"], ms["vma_floor"],
             ms["maps"] / ms["vma_floor"]))
    print("  VMAs: vma-reads %.1f ms (every field and name read, no entry written): "
          "at most %.1fx over maps for any encoding of them"
          % (ms["vma_reads"], ms["maps"] / ms["vma_reads"]))
    print("  mem: smaps_rollup %.1f ms, mem group %.1f ms (%.1fx), mem-floor %.1f ms: "
          "at most %.1fx over smaps_rollup on this walk"
          % (ms["rollup"], ms["mem_full"], ms["rollup"] / ms["mem_full"], ms["mem_floor"],
             ms["rollup"] / ms["mem_floor"]))
    print("  mem: mem-reads %.1f ms (each mapped page's flags, references and mapcount read, "
          "nothing summed): at most %.1fx over smaps_rollup for any exact Pss"
          % (ms["mem_reads"], ms["rollup"] / ms["mem_reads"]), flush=True)
    with open(os.path.join(bdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
