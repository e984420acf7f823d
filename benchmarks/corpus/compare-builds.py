#!/usr/bin/env python3
"""compare-builds.py - two corpus measurements of different builds, kernel by
kernel: every fixed version's time alone, the oracle (best version) and the
adaptive runs, as ratios new/old.

    compare-builds.py OLD/kernels.csv NEW/kernels.csv [--tags-from REPORTS_GLOB]
                      [--only PROGRAM,...] > compare.md

kernels.csv is analyze.py's.  Only kernels in both files are compared;
--only keeps those programs.  A version that changed between the builds
shows as a ratio far from 1; the oracle and adaptive ratios say whether the
program lost anything.  The two runs must come from the same GPU model
(the tables are not comparable otherwise); the caller says which.
"""
import argparse
import csv
import math
import sys

from analyze import fixed_times  # the column's format, written there


def num(row, col):
    try:
        return float(row[col])
    except (KeyError, TypeError, ValueError):
        return None


def ratio(new, old):
    return f"{new / old:.3f}" if new is not None and old else ""


def load(path):
    with open(path, newline="") as f:
        return {(r["program"], r["kernel"]): r for r in csv.DictReader(f)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    old, new = load(a.old), load(a.new)
    only = set(filter(None, a.only.split(",")))
    keys = sorted(k for k in new if k in old and (not only or k[0] in only))
    if not keys:
        sys.exit("compare-builds.py: no kernel in both files")
    print("| program | kernel | versions new/old alone | oracle new/old | adaptive new/old | best old | best new |")
    print("|---|---|---|---:|---:|---|---|")
    logs = {"oracle": [], "adaptive": []}
    for k in keys:
        o, n = old[k], new[k]
        fo, fn = fixed_times(o), fixed_times(n)
        vers = " ".join(f"{t} {fn[t] / fo[t]:.3f}" for t in sorted(fn) if t in fo and fo[t] > 0 and t != "orig")
        ro, ra = ratio(num(n, "oracle_ms"), num(o, "oracle_ms")), ratio(num(n, "adaptive_ms"), num(o, "adaptive_ms"))
        for key, r in (("oracle", ro), ("adaptive", ra)):
            if r:
                logs[key].append(math.log(float(r)))
        print(f"| {k[0]} | `{k[1][:40]}` | {vers} | {ro} | {ra} | {o.get('best_tag', '')} | {n.get('best_tag', '')} |")
    for key, l in logs.items():
        if l:
            print(f"\n{key} new/old over {len(l)} kernels: geomean {math.exp(sum(l) / len(l)):.3f}, "
                  f"worst {math.exp(max(l)):.3f}, best {math.exp(min(l)):.3f}")


if __name__ == "__main__":
    main()
