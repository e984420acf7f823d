#!/usr/bin/env python3
"""time-compile.py - the wall time of a build command, as a median of runs.

    time-compile.py [-n RUNS] [--clean CMD] [--label NAME] [--csv FILE] -- COMMAND...

Runs CMD (untimed; e.g. "make clean") and then COMMAND (timed, wall clock)
RUNS times (default 3) in the current directory, with COMMAND's output
discarded.  Prints one CSV line, label,runs,median_s,min_s,max_s,rc (and
appends it to FILE when --csv is given; a header line first if FILE is
new).  A failing COMMAND stops the runs: rc is its exit status and the
times are those of the runs before it (empty if none).  Exit status: 0, or
1 when COMMAND failed, 2 on a usage error.  Python 3 standard library.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HEADER = "label,runs,median_s,min_s,max_s,rc"


def run_once(command, clean):
    """requires command a list; returns (seconds, exit status)"""
    if clean:
        subprocess.run(clean, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    rc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.monotonic() - t0, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--runs", type=int, default=3)
    ap.add_argument("--clean", default="")
    ap.add_argument("--label", default="")
    ap.add_argument("--csv", default="")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd or a.runs < 1:
        ap.print_usage(sys.stderr)
        return 2
    times, rc = [], 0
    for _ in range(a.runs):
        t, rc = run_once(cmd, a.clean)
        if rc != 0:
            break
        times.append(t)
    fmt = lambda x: "%.2f" % x  # noqa: E731
    row = ",".join([a.label or " ".join(cmd), str(len(times)),
                    fmt(statistics.median(times)) if times else "",
                    fmt(min(times)) if times else "", fmt(max(times)) if times else "", str(rc)])
    print(row)
    if a.csv:
        new = not os.path.exists(a.csv)
        with open(a.csv, "a") as f:
            f.write((HEADER + "\n" if new else "") + row + "\n")
    return 1 if rc else 0


if __name__ == "__main__":
    sys.exit(main())
