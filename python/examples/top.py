#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A small top: the busiest processes over each interval, from two samples."""
import sys
import time

import taskdiag

interval = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
older = taskdiag.sample(["pid", "username", "name", "memory_info", "cpu_times"])
while True:
    time.sleep(interval)
    newer = taskdiag.sample(["pid", "username", "name", "memory_info", "cpu_times"])
    rows = sorted(taskdiag.diff(older, newer), key=lambda p: p.rates()["cpu"] or 0, reverse=True)
    print("\033[H\033[J%d processes (%s)\n%7s %-10s %6s %9s  %s"
          % (len(newer), newer.backend, "PID", "USER", "%CPU", "RSS(KiB)", "NAME"))
    for p in rows[:20]:
        print("%7d %-10.10s %6.1f %9d  %s" % (p.pid, p.username(), p.rates()["cpu"] or 0,
                                             p.memory_info().rss // 1024, p.name()))
    older = newer
