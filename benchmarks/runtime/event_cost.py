#!/usr/bin/env python3
"""event_cost.py - pair event_cost.cu's event times with kerntime's CUPTI
times: per configuration, what the events add to the kernel's own time, and
what each runtime-measurable estimate of that cost would have said.

    python3 event_cost.py e.tsv k.tsv > event_cost.md

e.tsv: event_cost's output; k.tsv: kerntime's trace of the same run.
"""
import statistics
import sys
from collections import defaultdict


def read_events(path):
    ev = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, med, low = line.rstrip("\n").split("\t")
            ev[name] = (float(med) * 1000, float(low) * 1000)
    return ev


def read_trace(path):
    """Median CUPTI duration (us) and grid per kernel name."""
    dur, grid = defaultdict(list), {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            start, end, blocks, name = line.rstrip("\n").split("\t")
            dur[name].append((int(end) - int(start)) / 1000)
            grid[name] = int(blocks)
    return {n: statistics.median(v) for n, v in dur.items()}, grid


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: event_cost.py EVENTS.tsv KERNTIME.tsv")
    ev, (cupti, grid) = read_events(argv[1]), read_trace(argv[2])
    empty = cupti.get("_Z5emptyv", 0.0)
    e1, e2 = ev["_Z5emptyv"][0], ev["_Z5emptyv*2"][0]
    print("| sample | blocks | events median (us) | CUPTI median (us) | events - CUPTI (us) |")
    print("|---|---|---|---|---|")
    costs = []
    for name, (med, _) in ev.items():
        if name == "none":
            print(f"| nothing between | - | {med:.2f} | - | - |")
            continue
        own = 2 * empty if name.endswith("*2") else cupti.get(name)
        if own is None:
            print(f"| {name} | - | {med:.2f} | missing | - |")
            continue
        print(f"| {name} | {grid.get(name.split('*')[0], '-')} | {med:.2f} | {own:.2f} | "
              f"{med - own:.2f} |")
        if name.startswith("_Z4spin"):
            costs.append(med - own)
    print()
    if costs:
        print(f"Cost over the spin kernels: median {statistics.median(costs):.2f} us, "
              f"range {min(costs):.2f} to {max(costs):.2f} us.")
    print(f"Estimates a runtime can take without CUPTI: nothing between {ev['none'][0]:.2f} us; "
          f"an empty kernel {e1:.2f} us; two empty kernels less one, 2*E1 - E2, "
          f"{2 * e1 - e2:.2f} us; an empty kernel less its CUPTI time {e1 - empty:.2f} us.")


if __name__ == "__main__":
    main(sys.argv)
