#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A quick comparison of procps ps and tdps in one guest boot (not part of
benchmarks/run): spawns PROCS sleeping processes with tdspawn, checks that
both print the same number of lines, then times N runs of each form, ps and
tdps alternately, output to /dev/null, and prints the medians and ratios;
--perf adds a perf profile of each tdps form. Run it in the guest:

    cmake --build build --target tdspawn tdps
    scripts/vm-run --mem 6G --timeout 900 -- \
        python3 benchmarks/tdps_forms.py BUILD N PROCS [--perf]

with BUILD the absolute build folder (tools/tdps, bench/tdspawn in it).
"""
import os, subprocess, sys, time, statistics, shutil
B = sys.argv[1]          # build dir
N = int(sys.argv[2]) if len(sys.argv) > 2 else 7
PROCS = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
TDPS = os.path.join(B, "tools/tdps")
COLS = "pid,ppid,user,stat,ni,nlwp,vsz,rss,tty,time,comm"
with open("/proc/sys/kernel/randomize_va_space", "w") as f:
    f.write("0")
p = subprocess.Popen([os.path.join(B, "bench/tdspawn"), str(PROCS), "1", "1,2,3,65534"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
print(p.stdout.readline().strip(), flush=True)
time.sleep(2)
pairs = [("-e -o", ["-e", "-o", COLS]), ("aux", ["aux"]), ("-ef", ["-ef"])]
def t(argv):
    t0 = time.monotonic()
    with open("/dev/null", "w") as dn:
        r = subprocess.run(argv, stdout=dn)
    return time.monotonic() - t0, r.returncode
for name, args in pairs:
    # same bytes?
    a = subprocess.run(["ps"] + args, capture_output=True).stdout
    b = subprocess.run([TDPS] + args, capture_output=True).stdout
    print("%s: ps %d lines, tdps %d lines, %s" % (name, a.count(b"\n"), b.count(b"\n"),
          "identical" if a == b else "DIFFER"), flush=True)
    ps, td = [], []
    for i in range(N):
        ps.append(t(["ps"] + args)[0]); td.append(t([TDPS] + args)[0])
    mp, mt = statistics.median(ps), statistics.median(td)
    print("%-6s ps median %.3fs  tdps median %.3fs  ratio %.2f  (n=%d)" % (name, mp, mt, mp / mt, N), flush=True)
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
