# SPDX-License-Identifier: GPL-2.0-or-later
# frames-deep.py CALLS DEPTH: CALLS calls of getppid(2) from a Python
# function DEPTH calls deep, for bench/run's cost of Python frames under
# -k; prints the loop's own time per call in ns: the thread's CPU time
# (start-up left out, and the time a busy machine keeps it from a core).
import os
import sys
import time


def down(depth, calls):
    if depth:
        return down(depth - 1, calls)
    t = time.thread_time_ns()
    for _ in range(calls):
        os.getppid()
    return (time.thread_time_ns() - t) / calls


calls, depth = int(sys.argv[1]), int(sys.argv[2])
sys.setrecursionlimit(depth + 100)
print("%.1f" % down(depth, calls))
