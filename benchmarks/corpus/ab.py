#!/usr/bin/env python3
"""ab.py - two Orion builds timed against each other (a pack-ab.sh pack).

    ab.py RAWDIR [--a NAME] [--b NAME] [--modes A,B] [--per-launch | --per-kernel [--min-ms X]]

Reads measure.py's runs.csv: mode `off` is build A, mode `clang` build B
(pack-ab.sh); --modes compares two other modes.  Prints per program the
median GPU kernel time of each, the spread ((max-min)/median), the runs
counted (output check passed) and A/B.  --per-launch: each run's time
divided by its launches (for programs whose work differs between runs).
--per-kernel: the same per kernel (kernels.csv, the runs whose check
passed), kernels under --min-ms (0.05) in both modes left out.
Python 3 standard library only.
"""
import argparse
import collections
import os

from analyze import med, read_csv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', help="measure.py's --out directory")
    ap.add_argument('--a', default='A', help='what build A is')
    ap.add_argument('--b', default='B', help='what build B is')
    ap.add_argument('--modes', default='off,clang', help="measure.py's modes of A and B")
    ap.add_argument('--per-launch', action='store_true', help='time per launch, in us')
    ap.add_argument('--per-kernel', action='store_true', help='one row per kernel')
    ap.add_argument('--min-ms', type=float, default=0.05, help='--per-kernel: smallest kernel')
    a = ap.parse_args()
    mode_a, mode_b = a.modes.split(',')
    ms = collections.defaultdict(list)
    runs = read_csv(os.path.join(a.raw, 'runs.csv'))
    ok = {(r['program'], r['mode'], r['run']) for r in runs if r['check'] == 'ok'}
    rows = read_csv(os.path.join(a.raw, 'kernels.csv')) if a.per_kernel else runs
    for r in rows:
        if (r['program'], r['mode'], r['run']) in ok and int(r['run']) >= 0:
            t = int(r['gpu_ns']) / 1e6
            if a.per_launch:
                t = 1e3 * t / max(1, int(r['launches']))
            name = (r['program'], r['kernel']) if a.per_kernel else (r['program'],)
            ms[(name, r['mode'])].append(t)
    unit = 'us a launch' if a.per_launch else 'ms'
    what = 'program | kernel' if a.per_kernel else 'program'
    print('| %s | %s %s | spread | runs | %s %s | spread | runs | A/B |' % (what, a.a, unit, a.b, unit))
    print('|---|' + ('---|' if a.per_kernel else '') + '---:|---:|---:|---:|---:|---:|---:|')
    for p in sorted({p for p, _ in ms}):
        xa, xb = ms[(p, mode_a)], ms[(p, mode_b)]
        if not xa or not xb:
            continue
        ma, mb = med(xa), med(xb)
        if a.per_kernel and max(ma, mb) < a.min_ms:
            continue
        print('| %s | %.4g | %.1f%% | %d | %.4g | %.1f%% | %d | %.3f |' % (
            ' | '.join(p), ma, 100 * (max(xa) - min(xa)) / ma, len(xa), mb,
            100 * (max(xb) - min(xb)) / mb, len(xb), ma / mb))


if __name__ == '__main__':
    main()
