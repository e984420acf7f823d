#!/usr/bin/env python3
"""ab.py - two Orion builds timed against each other (a pack-ab.sh pack).

    ab.py RAWDIR [RAWDIR_B] [--a NAME] [--b NAME] [--modes A,B] [--choices]
          [--per-launch | --per-kernel [--min-ms X]]

Reads measure.py's runs.csv: mode `off` is build A, mode `clang` build B
(pack-ab.sh); --modes compares two other modes.  Prints per program the
median GPU kernel time of each, the spread ((max-min)/median), the runs
counted (output check passed) and A/B.  --per-launch: each run's time
divided by its launches (for programs whose work differs between runs).
--per-kernel: the same per kernel (kernels.csv, the runs whose check
passed), kernels under --min-ms (0.05) in both modes left out.  With
RAWDIR_B, mode B's runs come from that directory (two packs measured one
after the other, e.g. the same mode of two runtimes).  --choices: then the
kernels whose chosen versions differ between A and B, run by run.
Python 3 standard library only.
"""
import argparse
import collections
import os

from analyze import med, read_csv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', help="measure.py's --out directory")
    ap.add_argument('raw_b', nargs='?', help="mode B's directory (default: RAWDIR)")
    ap.add_argument('--choices', action='store_true', help='kernels whose choices differ')
    ap.add_argument('--a', default='A', help='what build A is')
    ap.add_argument('--b', default='B', help='what build B is')
    ap.add_argument('--modes', default='off,clang', help="measure.py's modes of A and B")
    ap.add_argument('--per-launch', action='store_true', help='time per launch, in us')
    ap.add_argument('--per-kernel', action='store_true', help='one row per kernel')
    ap.add_argument('--min-ms', type=float, default=0.05, help='--per-kernel: smallest kernel')
    a = ap.parse_args()
    mode_a, mode_b = a.modes.split(',')
    ms = collections.defaultdict(list)
    for raw, side, mode in ((a.raw, 'A', mode_a), (a.raw_b or a.raw, 'B', mode_b)):
        read_times(a, raw, mode, side, ms)
    print_table(a, ms)
    if a.choices:
        print_choices(a)


def read_times(a, raw, mode, side, ms):
    """requires raw a measure.py directory; adds its `mode` times to ms[(name, side)]"""
    runs = read_csv(os.path.join(raw, 'runs.csv'))
    ok = {(r['program'], r['mode'], r['run']) for r in runs if r['check'] == 'ok'}
    rows = read_csv(os.path.join(raw, 'kernels.csv')) if a.per_kernel else runs
    for r in rows:
        if r['mode'] == mode and (r['program'], r['mode'], r['run']) in ok and int(r['run']) >= 0:
            t = int(r['gpu_ns']) / 1e6
            if a.per_launch:
                t = 1e3 * t / max(1, int(r['launches']))
            name = (r['program'], r['kernel']) if a.per_kernel else (r['program'],)
            ms[(name, side)].append(t)


def print_table(a, ms):
    """requires ms from read_times; prints the Markdown table"""
    unit = 'us a launch' if a.per_launch else 'ms'
    what = 'program | kernel' if a.per_kernel else 'program'
    print('| %s | %s %s | spread | runs | %s %s | spread | runs | A/B |' % (what, a.a, unit, a.b, unit))
    print('|---|' + ('---|' if a.per_kernel else '') + '---:|---:|---:|---:|---:|---:|---:|')
    for p in sorted({p for p, _ in ms}):
        xa, xb = ms[(p, 'A')], ms[(p, 'B')]
        if not xa or not xb:
            continue
        ma, mb = med(xa), med(xb)
        if a.per_kernel and max(ma, mb) < a.min_ms:
            continue
        print('| %s | %.4g | %.1f%% | %d | %.4g | %.1f%% | %d | %.3f |' % (
            ' | '.join(p), ma, 100 * (max(xa) - min(xa)) / ma, len(xa), mb,
            100 * (max(xb) - min(xb)) / mb, len(xb), ma / mb))


def print_choices(a):
    """prints the kernels whose choices (choices.csv) differ between A and B"""
    mode_a, mode_b = a.modes.split(',')
    got = {}
    for raw, side, mode in ((a.raw, 'A', mode_a), (a.raw_b or a.raw, 'B', mode_b)):
        for r in read_csv(os.path.join(raw, 'choices.csv')):
            if r['mode'] == mode:
                got.setdefault((r['program'], r['kernel']), {}).setdefault(side, []).append(
                    (int(r['run']), r['chosen']))
    print('\nKernels whose choices differ (run by run; run -1 of mode cached fills the cache):\n')
    for (p, k), by in sorted(got.items()):
        ca, cb = (' '.join(c for _, c in sorted(by.get(s, []))) for s in 'AB')
        if ca != cb:
            print('* %s %s: %s %s; %s %s' % (p, k, a.a, ca, a.b, cb))


if __name__ == '__main__':
    main()
