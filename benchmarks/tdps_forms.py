#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A quick comparison of procps ps and tdps in one guest boot (not part of
benchmarks/run): spawns PROCS sleeping processes with tdspawn, checks that
both print the same number of lines, then times N runs of each form, ps and
tdps alternately, output to /dev/null, and prints the medians (and the
fastest runs) of the wall-clock time and of the CPU time (user + system) of
each, and their ratios; --perf adds a perf profile of each tdps form. With
--old OLD_TDPS (another build of tdps, copied into BUILD so that the guest
sees it), that one runs in turn with the two and is compared with this one
(old / new), in the same boot, with the same module, the order of the two
reversed every other round. Run it in the guest:

    cmake --build build --target tdspawn tdps
    scripts/vm-run --mem 6G --timeout 900 -- \\
        python3 benchmarks/tdps_forms.py BUILD N PROCS [--perf] [--old PATH]

with BUILD the absolute build folder (tools/tdps, bench/tdspawn in it).
"""
import os, subprocess, sys, time, statistics, shutil
B = sys.argv[1]          # build dir
N = int(sys.argv[2]) if len(sys.argv) > 2 else 7
PROCS = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
TDPS = os.path.join(B, "tools/tdps")
OLD = sys.argv[sys.argv.index("--old") + 1] if "--old" in sys.argv else None
COLS = "pid,ppid,user,stat,ni,nlwp,vsz,rss,tty,time,comm"
with open("/proc/sys/kernel/randomize_va_space", "w") as f:
    f.write("0")
p = subprocess.Popen([os.path.join(B, "bench/tdspawn"), str(PROCS), "1", "1,2,3,65534"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
print(p.stdout.readline().strip(), flush=True)
time.sleep(2)
pairs = [("-e -o", ["-e", "-o", COLS]), ("aux", ["aux"]), ("-ef", ["-ef"])]
tools = [("ps", "ps"), ("tdps", TDPS)] + ([("old", OLD)] if OLD else [])


def t(argv):
    """Wall-clock and CPU (user + system) seconds of one run."""
    t0 = time.monotonic()
    with open("/dev/null", "w") as dn:
        child = subprocess.Popen(argv, stdout=dn)
        _, status, ru = os.wait4(child.pid, 0)
    if status:
        raise SystemExit("%s: exit status %#x" % (" ".join(argv), status))
    return time.monotonic() - t0, ru.ru_utime + ru.ru_stime


for name, args in pairs:
    # same bytes?
    a = subprocess.run(["ps"] + args, capture_output=True).stdout
    b = subprocess.run([TDPS] + args, capture_output=True).stdout
    print("%s: ps %d lines, tdps %d lines, %s" % (name, a.count(b"\n"), b.count(b"\n"),
          "identical" if a == b else "DIFFER"), flush=True)
    wall = {k: [] for k, _ in tools}
    cpu = {k: [] for k, _ in tools}
    for i in range(N):
        # ps first, the tdps builds in turn reversed every other round
        for k, path in tools[:1] + (tools[1:] if i % 2 == 0 else tools[:0:-1]):
            w, c = t([path] + args)
            wall[k].append(w)
            cpu[k].append(c)
    mw = {k: statistics.median(v) for k, v in wall.items()}
    fw = {k: min(v) for k, v in wall.items()}
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    print("%-6s ps median %.3fs  tdps median %.3fs  ratio %.2f  (n=%d)"
          % (name, mw["ps"], mw["tdps"], mw["ps"] / mw["tdps"], N), flush=True)
    print("       fastest: ps %.3fs tdps %.3fs ratio %.2f; CPU medians: ps %.3fs tdps %.3fs ratio %.2f"
          % (fw["ps"], fw["tdps"], fw["ps"] / fw["tdps"], mc["ps"], mc["tdps"], mc["ps"] / mc["tdps"]),
          flush=True)
    if OLD:
        print("       old tdps: median %.3fs fastest %.3fs CPU %.3fs; old / tdps: median %.3f "
              "fastest %.3f CPU %.3f"
              % (mw["old"], fw["old"], mc["old"], mw["old"] / mw["tdps"], fw["old"] / fw["tdps"],
                 mc["old"] / mc["tdps"]), flush=True)
perf = shutil.which("perf")
if perf and "--perf" in sys.argv:
    for name, args in pairs:
        d = "/tmp/perf-%s.data" % name.replace(" ", "").replace("-", "")
        subprocess.run([perf, "record", "-q", "-e", "cpu-clock", "-F", "4000", "-g", "-o", d, "--", TDPS] + args,
                       stdout=subprocess.DEVNULL)
        r = subprocess.run([perf, "report", "-i", d, "--no-children", "--stdio", "-g", "none",
                            "--percent-limit", "1.5", "--sort", "dso,sym"], capture_output=True, text=True)
        print("=== perf tdps %s" % name)
        print("\n".join(l for l in r.stdout.splitlines() if l and not l.startswith("#")))
        print(r.stderr[-500:])
p.stdin.close(); p.wait()
