#!/usr/bin/env python3
"""shards.py - deal the corpus's programs to N GPUs for gpu.sh --shard, by expected time.

    shards.py --pack DIR --runs-csv RUNS.csv [RUNS.csv...] [--gpus 4] [--runs 3]
              [--modes off,adaptive,cached,fixed,claims] [--reserve-s S] [--slow 1.3]
              [--programs a,b]

A program's expected time is the runs the modes make times the median wall
time of a run.  The runs: --runs per mode, one per version for fixed (the
versions in the packed binary, orig included, or as many as an earlier
measurement timed, whichever is more: padding versions exist only at run
time), the cached mode's untimed first run, and for claims --runs per
kernel that an earlier adaptive run moved off the original (two where none
did).  The wall time: the median of the program's earlier runs in any
Orion mode (off, adaptive, fixed, ...; runs.csv files of measure.py), times
--slow (1.3: on a machine of four H200s, each measuring, a run took
1.1-1.9x its time alone); programs never run count --unknown-s.  Longest
first, each program goes to the GPU with the least time so far (LPT);
--reserve-s adds time to GPU 0 beforehand (tests run there too).  Prints
one line per GPU: the comma-separated programs, then '# <s>' expected
seconds, on stderr.  Python 3 standard library only.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


def history(paths):
    """requires measure.py runs.csv files (choices.csv beside each is read too); returns
    {program: (median wall s of its Orion runs, fixed versions timed, kernels claimed)}"""
    walls, fixed, claims = {}, {}, {}
    for p in paths:
        for r in measure.read_rows(p):
            if r['mode'] in ('nvcc', 'clang') or r['check'] != 'ok':
                continue
            walls.setdefault(r['program'], []).append(float(r['wall_s']))
            if r['mode'].startswith('fixed:'):
                fixed.setdefault(r['program'], set()).add(r['mode'])
        for r in measure.read_rows(os.path.join(os.path.dirname(p), 'choices.csv')):
            if r['mode'] == 'adaptive' and r['chosen'] not in ('orig', 'None', ''):
                claims.setdefault(r['program'], set()).add(r['kernel'])
    return {p: (statistics.median(w), len(fixed.get(p, ())), len(claims.get(p, ())))
            for p, w in walls.items()}


def runs_per_program(modes, runs, versions, claimed):
    """requires the mode names, the fixed versions to time and the kernels claims times
    (None: unknown); returns the runs measure.py makes"""
    n = 2  # the nvcc warm-up
    for m in modes:
        if m == 'fixed':
            n += runs * versions
        elif m == 'claims':
            n += runs * (2 if claimed is None else claimed)
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
    ap.add_argument('--unknown-s', type=float, default=3.0, help='wall s of a run never measured')
    ap.add_argument('--slow', type=float, default=1.3,
                    help='earlier wall times times this (several GPUs measuring at once)')
    ap.add_argument('--programs', default='', help='comma-separated subset')
    a = ap.parse_args()
    if a.gpus < 1:
        sys.exit('shards.py: --gpus must be at least 1')
    progs = [p[0] for p in measure.read_programs(os.path.join(a.pack, 'programs.txt'))]
    if a.programs:
        progs = [p for p in progs if p in a.programs.split(',')]
    hist = history(a.runs_csv)
    modes = a.modes.split(',')
    costs = {}
    for p in progs:
        binary = os.path.join(a.pack, 'src', p + '-cuda', 'orion')
        if not os.path.exists(binary):
            continue
        wall, timed, claimed = hist.get(p, (None, 0, None))
        versions = max(timed, 1 + len({t for ts in measure.binary_tags(binary).values()
                                       for t in ts}))
        n = runs_per_program(modes, a.runs, versions, claimed)
        costs[p] = n * (a.unknown_s if wall is None else wall * a.slow)
    for secs, ps in lpt(costs, a.gpus, a.reserve_s):
        print(','.join(ps))
        print('# %.0f s' % secs, file=sys.stderr)


if __name__ == '__main__':
    main()
