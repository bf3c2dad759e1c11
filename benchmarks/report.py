#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The host half of benchmarks/run: turn the guest's raw results into
results.json, results.md and a plot (gnuplot, from Debian).

    report.py --raw RAW.json --host HOST.json --outdir DIR
"""
import argparse
import json
import os
import shutil
import subprocess

# (numerator, denominator, basis): every ratio compares two methods of the
# same population and scope, measured in the same guest boot.
RATIOS = [
    ("proc_status_raw", "netlink_base_stat", "in_process"),
    ("proc_4files_parsed", "netlink_full", "in_process"),
    ("proc_4files_parsed", "netlink_full_bulk", "in_process"),
    ("netlink_base_stat", "bpf_iter", "in_process"),
    ("procps_ps", "tdps", "whole_process"),
    ("procps_ps_aux", "tdps_aux", "whole_process"),
    ("procps_ps_ef", "tdps_ef", "whole_process"),
    ("netlink_full", "netlink_pid_only", "in_process"),
    ("netlink_full_bulk", "netlink_pid_only", "in_process"),
    ("bpf_iter", "netlink_base_stat", "in_process"),
    ("proc_status_raw", "netlink_base_stat", "whole_process"),
    ("proc_4files_parsed", "netlink_full", "whole_process"),
    ("procps_ps", "netlink_full", "whole_process"),
    # 6.7+, process scope: the classic iterator against the open-coded one
    ("bpf_iter_classic", "bpf_iter", "in_process"),
]

# The speed targets (10,000 processes unless said; in-process unless said),
# checked where the population allows.
TARGETS = [
    ("netlink_base_stat / bpf_iter <= 1", "netlink_base_stat", "bpf_iter",
     "processes", 1, "<=", 1.0, "in_process"),
    ("proc_status_raw / netlink_base_stat >= 15", "proc_status_raw", "netlink_base_stat",
     "processes", 1, ">=", 15.0, "in_process"),
    ("proc_4files_parsed / netlink_full >= 30", "proc_4files_parsed", "netlink_full",
     "processes", 1, ">=", 30.0, "in_process"),
    ("netlink_full / netlink_pid_only <= 3", "netlink_full", "netlink_pid_only",
     "processes", 1, "<=", 3.0, "in_process"),
    ("process scope, thread-heavy population: leaders-only bpf_iter / netlink_base_stat >= 3",
     "bpf_iter", "netlink_base_stat", "processes", 10, ">=", 3.0, "in_process"),
    ("procps_ps / tdps >= 16 (whole process, same columns)", "procps_ps", "tdps",
     "processes", 1, ">=", 16.0, "whole_process"),
]

METHOD_ORDER = ["proc_status_raw", "proc_4files_parsed", "procps_ps", "tdps", "procps_ps_aux", "tdps_aux",
                "procps_ps_ef", "tdps_ef", "netlink_pid_only",
                "netlink_base_stat", "netlink_full", "netlink_full_bulk", "bpf_iter",
                "bpf_iter_classic"]


def fig(res, basis):
    b = res.get(basis)
    return b["median_s"] if b else None


def enrich(res):
    tasks = max(res["tasks"], 1)
    for basis in ("in_process", "whole_process"):
        b = res.get(basis)
        if b:
            b["per_task_us"] = b["median_s"] / tasks * 1e6
            b["tasks_per_s"] = tasks / b["median_s"] if b["median_s"] > 0 else None


def ratios(results):
    out = []
    groups = {}
    for r in results:
        groups.setdefault((r["population"], r["scope"]), {})[r["method"]] = r
    for (pop, scope), ms in groups.items():
        for num, den, basis in RATIOS:
            if num in ms and den in ms and fig(ms[num], basis) and fig(ms[den], basis):
                a, b = fig(ms[num], basis), fig(ms[den], basis)
                out.append({"population": pop, "scope": scope, "ratio": "%s/%s" % (num, den),
                            "basis": basis, "value": a / b, "numerator_s": a,
                            "denominator_s": b})
    return out


def targets(results, rat):
    out = []
    for name, num, den, scope, tpp, op, limit, basis in TARGETS:
        for r in rat:
            pr = [x for x in results if x["population"] == r["population"]][0]
            if (r["ratio"] != "%s/%s" % (num, den) or r["basis"] != basis
                    or r["scope"] != scope):
                continue
            if (tpp == 1) != (pr["threads_per_proc"] == 1):
                continue
            if tpp == 1 and pr["procs"] < 10000:
                continue
            ok = r["value"] <= limit if op == "<=" else r["value"] >= limit
            out.append({"target": name, "population": r["population"], "scope": scope,
                        "value": r["value"], "limit": "%s %g" % (op, limit), "met": ok})
    return out


def ms(v):
    if v is None:
        return "-"
    return "%.1f" % (v * 1e3) if v >= 0.01 else "%.2f" % (v * 1e3)


def num(v, fmt="%.1f"):
    return "-" if v is None else fmt % v


def pop_label(r):
    kind = "processes" if r["threads_per_proc"] == 1 else "processes x %d threads" % (
        r["threads_per_proc"])
    return "%s %s" % ("{:,}".format(r["procs"]), kind)


def markdown(doc):
    c = doc["conditions"]
    lines = ["# task_diag benchmark results", ""]

    lines.append("Command: `%s`  " % doc["command"])
    lines.append("Date: %s, source %s  " % (doc["date"], c.get("source", "?")))
    lines.append("Guest: kernel %s, qemu accel **%s**, %s vCPUs, %s (guest MemTotal %s), "
                 "procps %s, ASLR off while measuring (kernel.randomize_va_space %s).  " % (
                     c.get("kernel"), c.get("qemu_accel"), c.get("cpus"), c.get("guest_mem"),
                     c.get("mem_total"), c.get("procps", "").replace("ps from procps-ng ", ""),
                     c.get("randomize_va_space", "?")))
    lines.append("BPF peer, process scope: %s; thread scope: classic (iter/task).  " % (
        c.get("bpf_iterator_processes", "classic (iter/task)")))
    lines.append("Host: %s, %s cores, load average %s before and %s after; "
                 "%s other qemu guests running when the run started.  " % (
                     c.get("host_kernel"), c.get("host_cpus"), c.get("host_loadavg_before"),
                     c.get("host_loadavg_after"), c.get("host_other_qemu")))
    lines.append("All figures below come from **one guest boot**; medians of the runs shown "
                 "(one discarded warm-up run each, then methods run round-robin). TCG timings swing "
                 "by tens of percent between boots and with the host's load: compare the "
                 "ratios, not the absolute times.")
    lines.append("")
    lines.append("In-process: the reading loop only (handle opened, buffers allocated), the "
                 "second read in the same process (a tool that samples periodically); "
                 "'1st read' is the first, cold one of the same processes. "
                 "Whole process: fork+exec to exit of a process that reads once, as a user "
                 "starting the tool sees it. "
                 "Syscalls per task: `perf stat -e raw_syscalls:sys_enter` in a separate "
                 "run, start-up (a `tdbench run noop`) subtracted for the harness methods "
                 "(ps counts include its start-up). Peak RSS: the reader's `ru_maxrss`.")
    lines.append("")
    groups = []
    for r in doc["results"]:
        key = (r["population"], r["scope"])
        if key not in groups:
            groups.append(key)
    for pop, scope in groups:
        rs = [r for r in doc["results"] if r["population"] == pop and r["scope"] == scope]
        rs.sort(key=lambda r: METHOD_ORDER.index(r["method"])
                if r["method"] in METHOD_ORDER else 99)
        lines.append("## %s, %s scope" % (pop_label(rs[0]), "per-thread" if scope == "threads"
                                           else "per-process"))
        lines.append("")
        lines.append("| method | tasks | runs | in-process ms | µs/task | tasks/s | user/sys ms "
                     "| 1st read ms | whole-process ms | syscalls/task | peak RSS KiB |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rs:
            ip = r.get("in_process")
            wp = r["whole_process"]
            us = ("%s/%s" % (ms(ip["utime_median_s"]), ms(ip["stime_median_s"]))) if ip else "-"
            sc = r.get("syscalls", {}).get("per_task")
            cold = r.get("in_process_cold", {}).get("median_s")
            label = r["method"] + (" (%s)" % r["iterator"] if r.get("iterator") else "")
            lines.append("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                label, r["tasks"], r["repetitions"], ms(ip["median_s"]) if ip else "-",
                num(ip["per_task_us"]) if ip else num(wp["per_task_us"]) + " (whole)",
                num(ip["tasks_per_s"], "%.0f") if ip else num(wp["tasks_per_s"], "%.0f") +
                " (whole)", us, ms(cold), ms(wp["median_s"]), num(sc, "%.2f"),
                r["maxrss_kb"]["max"]))
        rr = [x for x in doc["ratios"] if x["population"] == pop and x["scope"] == scope]
        if rr:
            lines.append("")
            lines.append("Ratios (same boot): " + "; ".join(
                "%s = **%.1f**%s" % (x["ratio"], x["value"],
                                     " (whole process)" if x["basis"] == "whole_process" else "")
                for x in rr))
        lines.append("")
    if doc["targets"]:
        lines.append("## Speed targets")
        lines.append("")
        lines.append("| target | population | measured | limit | met |")
        lines.append("|---|---|---:|---|---|")
        for t in doc["targets"]:
            lines.append("| %s | %s | %.2f | %s | %s |" % (t["target"], t["population"],
                                                          t["value"], t["limit"],
                                                          "yes" if t["met"] else "**no**"))
        lines.append("")
    if doc.get("notes"):
        lines.append("## Notes")
        lines.append("")
        for n in doc["notes"]:
            lines.append("- " + n.replace("\n", " "))
        lines.append("")
    if doc.get("consistency_check"):
        lines.append("## Consistency check (netlink_base_stat and bpf_iter, first tasks)")
        lines.append("")
        lines.append("```")
        lines += doc["consistency_check"]
        lines.append("```")
        lines.append("")
    if doc.get("profile") and doc["profile"].get("command"):
        lines.append("Profile of netlink_full (%s): `profile_netlink_full.txt`, from `%s`." % (
            doc["profile"].get("population"), doc["profile"]["command"]))
        lines.append("")
    lines.append("Plot: `results.svg` (time per task against the number of tasks, log scales).")
    lines.append("")
    return "\n".join(lines)


def plot(doc, outdir):
    gp = shutil.which("gnuplot")
    if not gp:
        return "gnuplot not found: no plot"
    series = {}
    for r in doc["results"]:
        if r["threads_per_proc"] > 1 and r["scope"] == "processes":
            continue  # the leaders-only comparison is in the tables
        b = r.get("in_process") or r["whole_process"]
        key = (r["scope"], r["method"] + ("" if r.get("in_process") else " (whole process)"))
        series.setdefault(key, []).append((r["tasks"], b["per_task_us"]))
    datdir = os.path.join(outdir, "plot")
    os.makedirs(datdir, exist_ok=True)
    plots = {"processes": [], "threads": []}
    for (scope, name), pts in sorted(series.items()):
        fn = os.path.join(datdir, "%s_%s.dat" % (scope, name.split()[0]))
        with open(fn, "w") as f:
            for x, y in sorted(pts):
                f.write("%d %.4f\n" % (x, y))
        plots[scope].append((fn, name))
    script = os.path.join(datdir, "results.gp")
    with open(script, "w") as f:
        f.write("set terminal svg size 1200,520 dynamic font 'sans,11'\n")
        f.write("set output '%s'\n" % os.path.join(outdir, "results.svg"))
        f.write("set multiplot layout 1,2 title 'task\\_diag benchmarks (one TCG guest boot, "
                "kernel %s): time per task, medians'\n" % doc["conditions"].get("kernel"))
        f.write("set logscale xy\nset grid\nset key outside bottom center horizontal "
                "maxrows 4 font ',9'\n")
        f.write("set xlabel 'tasks read'\nset ylabel 'microseconds per task'\n")
        tpp = sorted({r["threads_per_proc"] for r in doc["results"] if r["scope"] == "threads"})
        for scope, title in (("processes", "per process (single-threaded processes)"),
                             ("threads", "per thread (%s threads per process)" % (
                                 "/".join(str(t) for t in tpp) or "-"))):
            f.write("set title '%s'\n" % title)
            if not plots[scope]:
                f.write("set label 1 'no data' at graph 0.5,0.5\nplot NaN notitle\n"
                        "unset label 1\n")
                continue
            f.write("plot " + ", \\\n  ".join(
                "'%s' using 1:2 with linespoints lw 2 title '%s'" % (fn, name.replace("_", "\\_"))
                for fn, name in plots[scope]) + "\n")
        f.write("unset multiplot\n")
    r = subprocess.run([gp, script], capture_output=True, text=True)
    if r.returncode != 0:
        return "gnuplot failed: " + r.stderr[-300:]
    # A PNG too, where gnuplot has cairo.
    png = script.replace(".gp", "_png.gp")
    with open(script) as f:
        text = f.read()
    text = text.replace("set terminal svg size 1200,520 dynamic font 'sans,11'",
                        "set terminal pngcairo size 1400,620 font 'sans,10'")
    text = text.replace(os.path.join(outdir, "results.svg"), os.path.join(outdir, "results.png"))
    with open(png, "w") as f:
        f.write(text)
    subprocess.run([gp, png], capture_output=True, text=True)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--host", required=True)
    ap.add_argument("--outdir", required=True)
    a = ap.parse_args()
    with open(a.raw) as f:
        raw = json.load(f)
    with open(a.host) as f:
        host = json.load(f)
    results = raw["results"]
    for r in results:
        enrich(r)
    rat = ratios(results)
    doc = {
        "schema": 1,
        "command": host.get("command"),
        "date": host.get("date"),
        "conditions": dict(raw.get("conditions", {}), **host.get("conditions", {})),
        "notes": raw.get("notes", []) + host.get("notes", []),
        "results": results,
        "ratios": rat,
        "targets": targets(results, rat),
        "profile": raw.get("profile"),
        "consistency_check": raw.get("consistency_check", []),
        "guest_elapsed_s": raw.get("guest_elapsed_s"),
    }
    err = plot(doc, a.outdir)
    if err:
        doc["notes"].append(err)
    with open(os.path.join(a.outdir, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(a.outdir, "results.md"), "w") as f:
        f.write(markdown(doc))
    print(markdown(doc))


if __name__ == "__main__":
    main()
