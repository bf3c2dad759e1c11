# SPDX-License-Identifier: GPL-2.0
"""What the in-guest drivers of benchmarks/vma, mem and floor share: a
population of exec'd sleeping processes, and a benchmark program's
"key=value ..." output read as integers."""
import subprocess


def run(cmd):
    """Run @cmd; its output's key=value words as a dict of ints."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    return {k: int(v) for k, v in (w.split("=") for w in out)}


def start(n):
    """@n exec'd sleep(1) processes (each maps its own files and pages, as on
    a real system), or None if they did not start; stop() kills them."""
    sp = subprocess.Popen(["bash", "-c", 'for i in $(seq %d); do sleep 100000 & done; '
                           'echo ready; read x; kill $(jobs -p); wait' % n],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if not sp.stdout.readline().startswith("ready"):
        print("the population did not start")
        stop(sp)
        return None
    return sp


def stop(sp):
    sp.stdin.close()
    sp.wait()
