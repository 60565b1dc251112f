#!/usr/bin/env python3
"""Whole-process start-up: commands run in turn (A B A B ...), each N times.

usage: python3 bench/startup.py [--runs N] 'COMMAND A' 'COMMAND B' ...

Each run's CPU time (user + system, from wait4's rusage of the child, microsecond
resolution) and wall time; the table gives the median and the fastest per command, and each
command's median CPU relative to the first command's. Output goes to /dev/null.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import time


def one(argv):
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit("startup.py: %s exited %d" % (" ".join(argv), p.returncode))
    return ru.ru_utime + ru.ru_stime, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commands", nargs="+")
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    cmds = [shlex.split(c) for c in a.commands]
    res = {i: [] for i in range(len(cmds))}
    for _ in range(a.runs):
        for i, c in enumerate(cmds):
            res[i].append(one(c))
    base = statistics.median(x[0] for x in res[0])
    print("| command | CPU median [ms] | CPU fastest [ms] | wall median [ms] | wall fastest [ms] "
          "| CPU / first |")
    print("|---|---|---|---|---|---|")
    for i, c in enumerate(a.commands):
        cpu = [x[0] for x in res[i]]
        wall = [x[1] for x in res[i]]
        print("| `%s` | %.1f | %.1f | %.1f | %.1f | %.2f |" % (
            c, 1e3 * statistics.median(cpu), 1e3 * min(cpu), 1e3 * statistics.median(wall),
            1e3 * min(wall), statistics.median(cpu) / base))
    print("\n%d runs of each, in turn." % a.runs)


if __name__ == "__main__":
    main()
