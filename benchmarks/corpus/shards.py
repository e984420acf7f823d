#!/usr/bin/env python3
"""shards.py - deal the corpus's programs to N GPUs for gpu.sh --shard, by expected time.

    shards.py --pack DIR --runs-csv RUNS.csv [RUNS.csv...] [--gpus 4] [--runs 3]
              [--modes off,adaptive,cached,fixed,claims] [--reserve-s S] [--programs a,b]

A program's expected time is its median wall time of a run ('off' mode,
from earlier measure.py runs.csv files) times the runs the modes make:
--runs per mode, one per version for fixed (the versions in the packed
binary, orig included), the cached mode's untimed first run, two runs per
chosen kernel for claims.  Programs with no earlier run count --unknown-s
a run.  Longest first, each program goes to the GPU with the least time so
far (LPT); --reserve-s adds time to GPU 0 beforehand (tests run there
too).  Prints one line per GPU: the comma-separated programs, then '# <s>'
expected seconds, on stderr.  Python 3 standard library only.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


def run_seconds(paths):
    """requires measure.py runs.csv files; returns {program: median wall s of its off runs}"""
    walls = {}
    for p in paths:
        for r in measure.read_rows(p):
            if r['mode'] == 'off' and r['check'] == 'ok':
                walls.setdefault(r['program'], []).append(float(r['wall_s']))
    return {p: statistics.median(w) for p, w in walls.items()}


def runs_per_program(modes, runs, versions):
    """requires the mode names and the binary's version count; returns the runs measure.py makes"""
    n = 2  # the nvcc warm-up
    for m in modes:
        if m == 'fixed':
            n += runs * versions
        elif m == 'claims':
            n += 2 * runs
        else:
            n += runs
    return n + ('cached' in modes or 'fixed' in modes)


def lpt(costs, gpus, reserve):
    """requires {program: seconds}; returns [(seconds, [programs])] per GPU, longest first"""
    bins = [[reserve if i == 0 else 0.0, []] for i in range(gpus)]
    for p in sorted(costs, key=lambda p: -costs[p]):
        b = min(bins, key=lambda b: b[0])
        b[0] += costs[p]
        b[1].append(p)
    return bins


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pack', required=True, help='directory made by pack.sh (unpacked)')
    ap.add_argument('--runs-csv', nargs='+', required=True, help='earlier measure.py runs.csv')
    ap.add_argument('--gpus', type=int, default=4)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--modes', default='off,adaptive,cached,fixed,claims')
    ap.add_argument('--reserve-s', type=float, default=0.0)
    ap.add_argument('--unknown-s', type=float, default=3.0)
    ap.add_argument('--programs', default='', help='comma-separated subset')
    a = ap.parse_args()
    if a.gpus < 1:
        sys.exit('shards.py: --gpus must be at least 1')
    progs = [p[0] for p in measure.read_programs(os.path.join(a.pack, 'programs.txt'))]
    if a.programs:
        progs = [p for p in progs if p in a.programs.split(',')]
    wall = run_seconds(a.runs_csv)
    modes = a.modes.split(',')
    costs = {}
    for p in progs:
        binary = os.path.join(a.pack, 'src', p + '-cuda', 'orion')
        if not os.path.exists(binary):
            continue
        versions = 1 + len({t for ts in measure.binary_tags(binary).values() for t in ts})
        costs[p] = wall.get(p, a.unknown_s) * runs_per_program(modes, a.runs, versions)
    for secs, ps in lpt(costs, a.gpus, a.reserve_s):
        print(','.join(ps))
        print('# %.0f s' % secs, file=sys.stderr)


if __name__ == '__main__':
    main()
