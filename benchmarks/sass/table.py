#!/usr/bin/env python3
"""table.py - Markdown table of benchmarks/sass/run.sh's CSV.

  table.py sass_bench.csv "<gpu, driver>"

Per kernel set: every variant's registers, shared and local bytes, blocks
and warps per SM at 128 threads, median kernel time, and its speed
relative to local-memory spills and to ptxas's pragma (time ratios from
the same bench run: > 1 means faster)."""
import csv
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    print("SASS rewrite benchmark on %s (benchmarks/sass/run.sh; medians of 5 rounds x 10 launches,"
          " variants alternating within each round)." % sys.argv[2])
    print()
    print("| set | variant | regs | smem B | local B/thread | blocks/SM | warps/SM | median ms |"
          " vs local | vs pragma | same output |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    sets = []
    for r in rows:
        if r["set"] not in sets:
            sets.append(r["set"])
    for s in sets:
        rs = [r for r in rows if r["set"] == s]
        t = {r["label"]: float(r["median_ms"]) for r in rs}
        for r in rs:
            ms = float(r["median_ms"])
            print("| %s | %s | %s | %s | %s | %s | %s | %.4f | %.3f | %.3f | %s |" % (
                s, r["label"], r["regs"], r["smem_bytes"], r["local_bytes"], r["blocks_per_sm"],
                r["warps_per_sm"], ms, t["local"] / ms, t["pragma"] / ms, r["same_output"]))
    print()
    wins = [s for s in sets if all(float(r["median_ms"]) > 0 for r in rows if r["set"] == s)]
    best = []
    for s in wins:
        t = {r["label"]: float(r["median_ms"]) for r in rows if r["set"] == s}
        rw = min(t["rw-cstack"], t.get("rw-sum", 1e9))
        best.append("%s: rewrite %.3fx local, %.3fx pragma" % (s, t["local"] / rw, t["pragma"] / rw))
    print("Goal (rewritten faster than both local spills and the pragma build): " +
          "; ".join(best) + ".")


if __name__ == "__main__":
    main()
