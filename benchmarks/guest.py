#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The in-guest half of benchmarks/run: spawn each population, time every
method on it, count system calls, profile, and write raw results.

Started by benchmarks/run through scripts/vm-run (as root, task_diag.ko
loaded). Everything of one invocation happens in one guest boot, so the
ratios it yields compare figures of the same boot only.

    guest.py --bench DIR --out FILE [--scales SPEC] [--reps N] [--budget S]
             [--syscalls all|first|none] [--profile|--no-profile] [--tdps PATH]

SPEC is a comma-separated list of PROCSxTHREADS (default 1000x1,10000x1,
100x10,1000x10). Populations of the same shape grow in place: 10000x1 adds
9,000 processes to the 1,000 already there.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

PS_COLS = "pid,ppid,user,stat,ni,nlwp,vsz,rss,tty,time,comm"
PS_COLS_THREADS = "pid,lwp,ppid,user,stat,ni,nlwp,vsz,rss,tty,time,comm"
# Sleeping tasks spread over these users (daemon, bin, sys, nobody).
USERS = "1,2,3,65534"
# The BSD and the UNIX standard forms, measured next to procps_ps/tdps on the
# single-threaded populations (process scope): method suffix -> arguments.
PS_FORMS = {"aux": ["aux"], "ef": ["-ef"]}

LIB_METHODS = ["netlink_pid_only", "netlink_base_stat", "netlink_full", "netlink_full_bulk",
               "bpf_iter",
               "proc_status_raw", "proc_4files_parsed"]


def pin_task_iters(bench):
    """Pin the BPF task iterators where tdbench looks for them: the classic
    one (task_iter.bpf.o) and, where benchmarks/programs built it (6.7+),
    the open-coded one for the process scope. Returns (pinned, open_coded,
    tdbpf_pin's stderr)."""
    os.makedirs("/sys/fs/bpf", exist_ok=True)
    if not os.path.ismount("/sys/fs/bpf"):
        sh(["mount", "-t", "bpf", "bpf", "/sys/fs/bpf"])
    pin = "/sys/fs/bpf/tdbench"
    if os.path.exists(pin):
        shutil.rmtree(pin, ignore_errors=True)
    cmd = [os.path.join(bench, "tdbpf_pin"), os.path.join(bench, "task_iter.bpf.o"), pin]
    open_obj = os.path.join(bench, "task_iter_open.bpf.o")
    if os.path.exists(open_obj):
        cmd.append(open_obj)
    r = sh(cmd, check=False, capture_output=True, text=True)
    ok = r.returncode == 0
    return ok, ok and "procs: open-coded" in r.stdout, (r.stderr or "").strip()


def is_ps(method):
    """ps and tdps: whole-process figures only, their start-up included."""
    return method.startswith("procps_ps") or method.startswith("tdps")


def log(msg):
    print("[guest %7.1fs] %s" % (time.monotonic() - T0, msg), flush=True)


T0 = time.monotonic()


def sh(cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, **kw)


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


class Bench:
    def __init__(self, args):
        self.a = args
        self.bench = args.bench
        self.tdbench = os.path.join(self.bench, "tdbench")
        self.results = []
        self.notes = []
        self.profile = None
        self.conditions = {}
        self.tdps = args.tdps if args.tdps and os.access(args.tdps, os.X_OK) else None
        self.checked = False
        self.consistency = []

    # -- set-up ------------------------------------------------------------
    def setup(self):
        if not os.path.ismount("/sys/kernel/tracing"):
            sh(["mount", "-t", "tracefs", "tracefs", "/sys/kernel/tracing"], check=False)
        # No ASLR while measuring: under TCG every new process's randomized
        # code addresses make QEMU translate the shared libraries' code
        # again, which made process start-up 2-3x slower and very noisy
        # here. It changes nothing in what a reading loop does.
        self.aslr = read("/proc/sys/kernel/randomize_va_space").strip()
        with open("/proc/sys/kernel/randomize_va_space", "w") as f:
            f.write("0")
        # On 6.7+ (task_iter_open.bpf.o built) bpf_iter's process scope is
        # the open-coded iterator, and the classic one is measured beside it
        # as bpf_iter_classic.
        self.bpf_ok, self.bpf_open, err = pin_task_iters(self.bench)
        has_open = os.path.exists(os.path.join(self.bench, "task_iter_open.bpf.o"))
        if self.bpf_ok and has_open and not self.bpf_open:
            self.notes.append("the open-coded task iterator did not load, bpf_iter is the classic "
                              "one in every scope: " + err[-500:])
        log("BPF iterators %s%s" % ("pinned" if self.bpf_ok else "NOT loaded",
                                    ", process scope open-coded" if self.bpf_open else ""))
        if not self.bpf_ok:
            self.notes.append("BPF iterator could not be loaded: " + err[-500:])
            log("BPF load failed: " + err[-500:])
        mem = [l for l in read("/proc/meminfo").splitlines() if l.startswith("MemTotal")]
        model = [l.split(":", 1)[1].strip() for l in read("/proc/cpuinfo").splitlines()
                 if l.startswith("model name")]
        self.conditions = {
            "kernel": platform.release(),
            "kernel_version": read("/proc/version").strip(),
            "cpus": os.cpu_count(),
            "cpu_model": model[0] if model else "",
            "mem_total": mem[0].split(":", 1)[1].strip() if mem else "",
            "cmdline": read("/proc/cmdline").strip(),
            "procps": sh(["ps", "--version"], capture_output=True, text=True).stdout.strip(),
            "pid_max": read("/proc/sys/kernel/pid_max").strip(),
            "threads_max": read("/proc/sys/kernel/threads-max").strip(),
            "users": USERS,
            "randomize_va_space": "0 during the run (was %s)" % self.aslr,
            "bpf_iterator_processes": ("open-coded (bpf_iter_task_new ALL_PROCS), classic as "
                                   "bpf_iter_classic" if self.bpf_open else
                                   "classic (iter/task)" if self.bpf_ok else "not loaded"),
        }
        self.perf = shutil.which("perf")
        if self.perf:
            r = sh([self.perf, "stat", "-x,", "-e", "raw_syscalls:sys_enter", "true"],
                   check=False, capture_output=True, text=True)
            if r.returncode != 0:
                self.notes.append("perf stat -e raw_syscalls:sys_enter failed: " + r.stderr.strip()[-300:])
                self.perf = None

    # -- one method ----------------------------------------------------------
    def cmd(self, method, threads):
        if method == "procps_ps":
            return ["ps", "-eL" if threads else "-e", "-o", PS_COLS_THREADS if threads else PS_COLS]
        if method == "tdps":
            return [self.tdps, "-eL" if threads else "-e", "-o",
                    PS_COLS_THREADS if threads else PS_COLS]
        for form, args in PS_FORMS.items():
            if method == "procps_ps_" + form:
                return ["ps"] + args
            if method == "tdps_" + form:
                return [self.tdps] + args
        c = [self.tdbench, "run", method]
        if threads:
            c.append("--threads")
        return c

    def check(self, threads):
        """Show that the BPF records and the netlink records agree: the same
        fields of the first tasks, from both, into the log and the results."""
        self.checked = True
        lines = []
        for m in ("netlink_base_stat", "bpf_iter"):
            r = sh(self.cmd(m, threads) + ["--print", "6"], check=False, capture_output=True,
                   text=True)
            lines += r.stderr.splitlines()[:6]
        # The same pids, later in the pid space: the population's own tasks.
        for line in lines:
            log("  check " + line)
        self.consistency = lines

    def run_plan(self, plan):
        """plan: {id: (runs, argv)}; returns {id: [run, ...]} (tdbench exec --plan)."""
        path = "/tmp/tdbench.plan"
        with open(path, "w") as f:
            for i, (reps, argv) in plan.items():
                f.write("\t".join([i, str(reps)] + list(argv)) + "\n")
        r = sh([self.tdbench, "exec", "--plan", path], check=False, capture_output=True, text=True)
        out = {}
        for line in r.stdout.splitlines():
            if line.startswith("{"):
                x = json.loads(line)
                out.setdefault(x["id"], []).append(x)
        return out

    def summarize(self, pop, method, threads, wp_runs, ip_runs, expected_tasks):
        """wp_runs: one read per process (whole-process figures); ip_runs: two
        reads per process, the second of which is the in-process figure (the
        first, cold one, is kept as in_process_cold)."""
        cmd = self.cmd(method, threads)
        wall = [x["wall_s"] for x in wp_runs]
        res = {
            "population": pop["name"],
            "procs": pop["procs"], "threads_per_proc": pop["threads"],
            "nominal_tasks": pop["procs"] * pop["threads"],
            "scope": "threads" if threads else "processes",
            "method": method,
            "command": " ".join(cmd),
            "repetitions": len(wp_runs),
            "whole_process": {
                "median_s": statistics.median(wall), "runs_s": wall,
                "utime_median_s": statistics.median(x["utime_s"] for x in wp_runs),
                "stime_median_s": statistics.median(x["stime_s"] for x in wp_runs),
            },
            "maxrss_kb": {"median": statistics.median(x["maxrss_kb"] for x in wp_runs),
                          "max": max(x["maxrss_kb"] for x in wp_runs + ip_runs)},
        }
        child = [x["child"] for x in ip_runs
                 if isinstance(x.get("child"), dict) and len(x["child"]["loop_s"]) >= 2]
        if child:
            res["repetitions"] = len(child)
            warm = [c["loop_s"][1] for c in child]
            cold = [c["loop_s"][0] for c in child]
            res["in_process"] = {
                "median_s": statistics.median(warm), "runs_s": warm,
                "utime_median_s": statistics.median(c["loop_utime_s"][1] for c in child),
                "stime_median_s": statistics.median(c["loop_stime_s"][1] for c in child),
            }
            res["in_process_cold"] = {"median_s": statistics.median(cold), "runs_s": cold}
            res["tasks"] = int(statistics.median(c["tasks"] for c in child))
            res["missing_items"] = child[-1].get("missing_items", 0)
        else:
            res["tasks"] = expected_tasks or res["nominal_tasks"]
            res["tasks_note"] = "tasks counted by netlink_pid_only in the same population"
        if method.startswith("bpf_iter"):
            res["iterator"] = ("open-coded" if method == "bpf_iter" and self.bpf_open and not threads
                               else "classic")
        ip = res.get("in_process", {}).get("median_s")
        log("  %-20s %-9s tasks %6d reps %2d in-process %s whole %.4fs rss %d KiB" % (
            method, res["scope"], res["tasks"], res["repetitions"],
            "%.4fs" % ip if ip is not None else "   -   ", res["whole_process"]["median_s"],
            res["maxrss_kb"]["max"]))
        return res

    def count_syscalls(self, cmd):
        out = "/tmp/perf-stat.txt"
        r = sh([self.perf, "stat", "-x,", "-e", "raw_syscalls:sys_enter", "-o", out, "--"] + cmd,
               check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            return None
        for line in read(out).splitlines():
            f = line.split(",")
            if len(f) > 2 and "raw_syscalls:sys_enter" in f[2]:
                try:
                    return int(f[0])
                except ValueError:
                    return None
        return None

    # -- populations -------------------------------------------------------
    def spawn(self, procs, threads):
        p = subprocess.Popen([os.path.join(self.bench, "tdspawn"), str(procs), str(threads), USERS],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = p.stdout.readline()
        if not line.startswith("ready"):
            p.kill()
            raise RuntimeError("tdspawn %d x %d failed" % (procs, threads))
        return p

    def settle(self):
        # Let the freshly made tasks go to sleep and the page cache settle.
        time.sleep(2)
        sh(["sync"], check=False)

    def run(self):
        self.setup()
        spawners = []
        shape = None
        have = 0
        for spec in self.a.scales.split(","):
            procs, threads = (int(x) for x in spec.lower().split("x"))
            if shape != threads:
                for sp in spawners:
                    sp.stdin.close()
                    sp.wait()
                spawners, have, shape = [], 0, threads
                time.sleep(1)
            if procs > have:
                t0 = time.monotonic()
                spawners.append(self.spawn(procs - have, threads))
                log("spawned %d x %d (now %d processes, %d tasks) in %.1fs" % (
                    procs - have, threads, procs, procs * threads, time.monotonic() - t0))
                have = procs
            self.settle()
            pop = {"name": "%dx%d" % (procs, threads), "procs": procs, "threads": threads,
                   "loadavg_before": read("/proc/loadavg").strip()}
            self.population(pop, threads > 1)
            pop["loadavg_after"] = read("/proc/loadavg").strip()
            self.conditions.setdefault("populations", []).append(pop)
            self.save()
        # The last population is left to the guest's power-off: taking down
        # 100,000 threads one by one takes minutes under TCG, and nothing is
        # measured after it.

    def population(self, pop, thread_heavy):
        first_of_kind = not any(r["threads_per_proc"] == pop["threads"] for r in self.results)
        scopes = [True, False] if thread_heavy else [False]
        for threads in scopes:
            methods = list(LIB_METHODS)
            if thread_heavy and not threads:
                # On a thread-heavy population the process scope is there for
                # the leaders-only comparison (netlink process scope vs the
                # BPF iterator that visits every thread).
                methods = ["netlink_pid_only", "netlink_base_stat", "netlink_full", "bpf_iter",
                           "proc_status_raw"]
            if not self.bpf_ok:
                methods.remove("bpf_iter")
            elif self.bpf_open and not threads:
                methods.insert(methods.index("bpf_iter") + 1, "bpf_iter_classic")
            if not thread_heavy or threads:
                if self.tdps:
                    methods.append("tdps")
                methods.append("procps_ps")
                if not thread_heavy:
                    for form in PS_FORMS:
                        if self.tdps:
                            methods.append("tdps_" + form)
                        methods.append("procps_ps_" + form)
            log("population %s, %s scope" % (pop["name"], "threads" if threads else "processes"))
            if not self.checked and self.bpf_ok:
                self.check(threads)
            # Warm every method up once (discarded; it also tells how long a
            # run takes), then run them round-robin, one run of each per
            # round (tdbench exec --plan), so that the background load of
            # this shared machine falls alike on every method. Each harness
            # method has two kinds of runs: "wp" reads once per process
            # (whole-process figure, exec to exit) and "ip" reads twice per
            # process, the second read being the in-process figure (warm: a
            # tool that samples periodically); ps and tdps have only "wp".
            warm = self.run_plan({m: (1, self.cmd(m, threads)) for m in methods})
            plan = {}
            for m in methods:
                runs = warm.get(m, [])
                if not runs or runs[0]["status"] != 0:
                    msg = "%s %s scope: %s failed: %s" % (
                        pop["name"], "threads" if threads else "processes", m,
                        json.dumps(runs[0]) if runs else "no result")
                    log("  " + msg)
                    self.notes.append(msg)
                    continue
                harness = not is_ps(m)
                once = runs[0]["wall_s"] * (3 if harness else 1)
                reps = int(max(self.a.min_reps, min(self.a.reps, self.a.budget // max(once, 1e-3))))
                plan["wp:" + m] = (reps, self.cmd(m, threads))
                if harness:
                    plan["ip:" + m] = (reps, self.cmd(m, threads) + ["--loops", "2"])
            log("  warm-up done: " + ", ".join(
                "%s %.2fs x%d" % (m, warm[m][0]["wall_s"], plan["wp:" + m][0])
                for m in methods if "wp:" + m in plan))
            got = self.run_plan(plan)
            counted = None
            for m in methods:
                if "wp:" + m not in plan:
                    continue
                wp = [x for x in got.get("wp:" + m, []) if x["status"] == 0]
                ip = [x for x in got.get("ip:" + m, []) if x["status"] == 0]
                want = plan["wp:" + m][0] * (2 if "ip:" + m in plan else 1)
                if len(wp) + len(ip) < want:
                    self.notes.append("%s %s: %d of %d runs failed" % (
                        pop["name"], m, want - len(wp) - len(ip), want))
                if not wp:
                    continue
                res = self.summarize(pop, m, threads, wp, ip, counted)
                if m == "netlink_pid_only":
                    counted = res["tasks"]
                self.results.append(res)
            self.save()
            want = self.a.syscalls == "all" or (self.a.syscalls == "first" and first_of_kind)
            if self.perf and want:
                base = self.count_syscalls([self.tdbench, "run", "noop"])
                for res in self.results:
                    if res["population"] != pop["name"] or res["scope"] != ("threads" if threads
                                                                             else "processes"):
                        continue
                    n = self.count_syscalls(res["command"].split())
                    if n is None:
                        continue
                    sub = base if not is_ps(res["method"]) and base else 0
                    res["syscalls"] = {"total": n, "startup_subtracted": sub,
                                       "per_task": (n - sub) / max(res["tasks"], 1)}
                    log("  syscalls %-20s %9d (%.2f per task)" % (
                        res["method"], n, res["syscalls"]["per_task"]))
                self.save()
        if self.a.profile and pop["threads"] == 1 and pop["procs"] == self.a.profile_procs:
            self.run_profile(pop)

    def run_profile(self, pop):
        """perf record -a -g around netlink_full; the reports are made on the
        host (benchmarks/run) from the copied perf.data and kallsyms."""
        if not self.perf:
            self.profile = {"error": "perf is not usable in the guest"}
            return
        t0 = time.monotonic()
        data = "/tmp/perf.data"
        cmd = [self.perf, "record", "-e", "cpu-clock", "-F", "2000", "-a", "-g", "-B", "-N",
               "-o", data, "--", self.tdbench, "run", "netlink_full", "--loops", "3"]
        r = sh(cmd, check=False, capture_output=True, text=True)
        if r.returncode != 0:
            self.profile = {"error": "perf record failed: " + r.stderr.strip()[-500:]}
            log("perf record failed: " + r.stderr.strip()[-300:])
            return
        shutil.copyfile(data, os.path.join(self.bench, "perf.data"))
        shutil.copyfile("/proc/kallsyms", os.path.join(self.bench, "kallsyms"))
        self.profile = {"population": pop["name"], "command": " ".join(cmd),
                        "perf_data": "perf.data", "kallsyms": "kallsyms"}
        log("profile recorded in %.1fs" % (time.monotonic() - t0))

    def save(self):
        doc = {"conditions": self.conditions, "notes": self.notes, "results": self.results,
               "consistency_check": self.consistency,
               "profile": {k: v for k, v in (self.profile or {}).items() if k != "reports"},
               "guest_elapsed_s": time.monotonic() - T0}
        tmp = self.a.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, self.a.out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--scales", default="1000x1,10000x1,100x10,1000x10,2000x10")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=20.0,
                    help="seconds of measured runs per method before the minimum applies")
    ap.add_argument("--syscalls", choices=["all", "first", "none"], default="all")
    ap.add_argument("--profile", action="store_true", default=True)
    ap.add_argument("--no-profile", dest="profile", action="store_false")
    ap.add_argument("--profile-procs", type=int, default=10000)
    ap.add_argument("--tdps", default="")
    a = ap.parse_args()
    a.outdir = os.path.dirname(os.path.abspath(a.out))
    b = Bench(a)
    try:
        b.run()
    finally:
        b.save()
    log("done")


if __name__ == "__main__":
    sys.exit(main())
