#!/usr/bin/env python3
"""cache-runs.py - what each run of a program keeps of its kernels' wins when
the runs share one decision cache.

    cache-runs.py RAW REF_KERNELS_CSV [--min-gain 0.03]

RAW: a measure.py result directory with off and cached runs (one cache for
all of a program's cached runs, filled by the untimed run -1 first, so
cached run r is the program's run r + 2).  REF_KERNELS_CSV: analyze.py's
kernels.csv of a run that timed every fixed version (the best version and
its time per kernel).  Prints a Markdown table: per kernel whose best
version beats the original by --min-gain, the original (median of RAW's off
runs), the best version alone, then each run's kernel time and the share
of the gain it kept, (off - run) / (off - best), in run order (the untimed
first run included).  Python 3 standard library only.
"""
import argparse
import csv
import os
import statistics
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw')
    ap.add_argument('ref')
    ap.add_argument('--min-gain', type=float, default=0.03)
    a = ap.parse_args()
    ref = {(r['program'], r['kernel']): r for r in csv.DictReader(open(a.ref))}
    runs, off = defaultdict(dict), defaultdict(list)
    for r in csv.DictReader(open(os.path.join(a.raw, 'kernels.csv'))):
        k = (r['program'], r['kernel'])
        if r['mode'] == 'cached':
            runs[k][int(r['run'])] = int(r['gpu_ns']) / 1e6
        elif r['mode'] == 'off':
            off[k].append(int(r['gpu_ns']) / 1e6)
    print('| program | kernel | off ms | best | best ms | kept, run 1, 2, ... |')
    print('|---|---|---:|---|---:|---|')
    for k in sorted(runs):
        f = ref.get(k)
        if not f or not f['best_gain'] or float(f['best_gain']) < a.min_gain or not off[k]:
            continue
        o, b = statistics.median(off[k]), float(f['oracle_ms'])
        kept = ' '.join('%.0f%%' % (100 * (o - runs[k][i]) / (o - b)) for i in sorted(runs[k]))
        print('| %s | %s | %.4g | %s | %.4g | %s |' % (k[0], k[1][:40], o, f['best_tag'], b, kept))


if __name__ == '__main__':
    main()
