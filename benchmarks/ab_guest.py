#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest side of benchmarks/ab: two versions of task_diag, one boot.

Spawns the population (--threads: processes of that many threads), then
for each round loads one version's module, runs tdbench's netlink methods
once each with that version's library, and unloads it; the versions
alternate old, new, new, old, ... so that a drift of the host's load falls
alike on both. Each tdbench run reads
twice and the second (warm) read counts, as in benchmarks/run.

With --peers, each turn also times the peers that benchmarks/run's
in-process targets for this population name (the /proc walkers and the BPF
iterator, which no module changes; with the new version's library), and
the output adds each version's target ratios against the peers' runs of
every turn, by medians and by fastest runs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guest import USERS, pin_task_iters  # noqa: E402  (as benchmarks/run)
from report import TARGETS as RUN_TARGETS  # noqa: E402

METHODS = ["netlink_pid_only", "netlink_base_stat", "netlink_full", "netlink_full_bulk",
           "ran_since"]
# A label that is not a tdbench method: the method and its arguments. A
# ran-since dump of sleeping processes 200 ms after the last one keeps a
# handful of tasks: its time is what the tasks it leaves out cost.
VARIANTS = {"ran_since": ["netlink_full", "--ran-since-ms", "200"]}


def ab_targets(threaded, open_coded):
    """benchmarks/run's in-process speed targets (report.py's TARGETS) that
    this population checks, as (name, numerator, denominator): those of the
    single-threaded population, or with @threaded the thread-heavy one's;
    where bpf_iter is the open-coded iterator (@open_coded), each target on
    bpf_iter again against the classic one. A method that is not one of
    METHODS is a peer, which no module changes."""
    out = []
    for name, num, den, _scope, tpp, _op, _limit, basis in RUN_TARGETS:
        if basis != "in_process" or (tpp > 1) != threaded:
            continue
        out.append((name, num, den))
        if open_coded and "bpf_iter" in (num, den):
            classic = [("bpf_iter_classic" if x == "bpf_iter" else x) for x in (num, den)]
            out.append((name.replace("bpf_iter", "bpf_iter_classic"), *classic))
    return out


def ab_peers(targets):
    """The peers @targets name, in order."""
    peers = []
    for _name, num, den in targets:
        peers += [x for x in (num, den) if x not in METHODS and x not in peers]
    return peers


def version(spec):
    ko, lib, name = spec.split(":", 2)
    return {"ko": ko, "lib": lib, "name": name}


def check_lib(bench, v):
    """tdbench must load this version's libtaskdiag (its RUNPATH yields to
    LD_LIBRARY_PATH): else both columns would measure one library."""
    env = dict(os.environ, LD_LIBRARY_PATH=v["lib"])
    out = subprocess.run(["ldd", os.path.join(bench, "tdbench")], env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    want = os.path.realpath(v["lib"])
    for line in out.splitlines():
        if "libtaskdiag.so" in line and "=>" in line:
            got = os.path.dirname(os.path.realpath(line.split("=>")[1].split()[0]))
            if got == want:
                return
            sys.exit("ab: tdbench loads libtaskdiag from %s, not %s" % (got, want))
    sys.exit("ab: tdbench does not link libtaskdiag:\n" + out)


def pin_bpf(bench):
    """Pin the BPF task iterators (benchmarks/guest.py's pin_task_iters());
    return whether bpf_iter is the open-coded iterator (the classic one is
    then pinned beside it)."""
    ok, open_coded, err = pin_task_iters(bench)
    has_open = os.path.exists(os.path.join(bench, "task_iter_open.bpf.o"))
    if not ok:
        sys.exit("ab: the BPF iterators do not load: " + err[-500:])
    if has_open and not open_coded:
        sys.exit("ab: the open-coded task iterator did not load: " + err[-500:])
    return has_open


def run_method(bench, v, label):
    env = dict(os.environ, LD_LIBRARY_PATH=v["lib"])
    args = VARIANTS.get(label, [label])
    out = subprocess.run([os.path.join(bench, "tdbench"), "run", args[0], "--loops", "2"]
                         + args[1:],
                         env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    # Items absent for some tasks (no mm, no fs, ...): the same for both
    # versions, which the table shows.
    return r["loop_s"][-1], r["tasks"], r["missing_items"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--old", type=version, required=True)
    ap.add_argument("--new", type=version, required=True)
    ap.add_argument("--procs", type=int, default=10000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--peers", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()

    check_lib(a.bench, a.old)
    check_lib(a.bench, a.new)
    with open("/proc/sys/kernel/randomize_va_space", "w") as f:
        f.write("0")
    sp = subprocess.Popen([os.path.join(a.bench, "tdspawn"), str(a.procs), str(a.threads),
                           USERS],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if not sp.stdout.readline().startswith("ready"):
        print("tdspawn failed", file=sys.stderr)
        return 1
    time.sleep(2)
    targets = ab_targets(a.threads > 1, pin_bpf(a.bench)) if a.peers else []
    peers = ab_peers(targets)

    times = {(v, m): [] for v in ("old", "new") for m in METHODS}
    times.update({("peer", m): [] for m in peers})
    tasks = {}
    order = []
    for r in range(a.rounds):
        order += ["old", "new"] if r % 2 == 0 else ["new", "old"]
    for i, which in enumerate(order):
        v = getattr(a, which)
        subprocess.run(["insmod", v["ko"]], check=True)
        try:
            # Each version gets a warm-up read after its insmod.
            run_method(a.bench, v, "netlink_full")
            for m in METHODS:
                t, n, miss = run_method(a.bench, v, m)
                times[(which, m)].append(t)
                tasks[(which, m)] = (n, miss)
            for m in peers:
                t, n, _ = run_method(a.bench, a.new, m)
                times[("peer", m)].append(t)
                tasks[("peer", m)] = (n, 0)
        finally:
            subprocess.run(["rmmod", "task_diag"], check=True)
        print("[ab %3.0f%%] %s done" % (100.0 * (i + 1) / len(order), v["name"]),
              file=sys.stderr, flush=True)
    sp.stdin.close()

    med = {k: statistics.median(x) for k, x in times.items()}
    res = {"procs": a.procs, "threads": a.threads, "rounds": a.rounds, "old": a.old["name"],
           "new": a.new["name"],
           "runs": {"%s/%s" % k: x for k, x in times.items()},
           "tasks_absent_items": {"%s/%s" % k: x for k, x in tasks.items()},
           "median_s": {"%s/%s" % k: x for k, x in med.items()}}
    print("%d processes x %d threads, %d runs per version and method, one boot; medians of "
          "the warm read" % (a.procs, a.threads, a.rounds))
    # The fastest run beside the median: TCG's swings only ever add time.
    print("| method | tasks (old/new) | items absent (old/new) | %s ms | %s ms | new/old "
          "| fastest new/old |" % (a.old["name"], a.new["name"]))
    print("|---|---:|---:|---:|---:|---:|---:|")
    for m in METHODS:
        o, n = med[("old", m)], med[("new", m)]
        print("| %s | %d/%d | %d/%d | %.1f | %.1f | %.2f | %.2f |"
              % (m, tasks[("old", m)][0], tasks[("new", m)][0], tasks[("old", m)][1],
                 tasks[("new", m)][1], o * 1e3, n * 1e3, n / o,
                 min(times[("new", m)]) / min(times[("old", m)])))
    for which in ("old", "new"):
        pid = med[(which, "netlink_pid_only")]
        print("%s: netlink_full/netlink_pid_only %.1f, netlink_base_stat/netlink_pid_only %.1f"
              % (getattr(a, which)["name"], med[(which, "netlink_full")] / pid,
                 med[(which, "netlink_base_stat")] / pid))
    if peers:
        print("\npeers, every turn of both versions (%d runs each; median, fastest): %s"
              % (len(times[("peer", peers[0])]),
                 ", ".join("%s %.1f ms, %.1f ms (%d tasks)"
                           % (m, med[("peer", m)] * 1e3, min(times[("peer", m)]) * 1e3,
                              tasks[("peer", m)][0]) for m in peers)))
        # The fastest runs beside the medians: a slow phase of the host
        # lengthens some runs of either side, never shortens one.
        fast = {k: min(x) for k, x in times.items()}
        print("| target | %s | %s | %s, fastest runs | %s, fastest runs |"
              % (a.old["name"], a.new["name"], a.old["name"], a.new["name"]))
        print("|---|---:|---:|---:|---:|")
        ratios = {}
        for name, num, den in targets:
            row = []
            for stat in (med, fast):
                for which in ("old", "new"):
                    val = [stat[("peer" if x in peers else which, x)] for x in (num, den)]
                    row.append(val[0] / val[1])
            ratios[name] = row
            print("| %s | %.2f | %.2f | %.2f | %.2f |" % (name, *row))
        res["target_ratios"] = ratios
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
