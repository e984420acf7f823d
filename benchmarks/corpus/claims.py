#!/usr/bin/env python3
"""claims.py - the speedups liborionrt's report claims against the versions
timed alone.

    claims.py RAW [RAW...] [--tolerance 0.02]

RAW: measure.py result directories with off, adaptive and claims runs.  For
each kernel an adaptive run chose a version other than the original for,
the report's speedup (each run's) against the kernel's median GPU time in
the off runs over its median in the alone:<tag>:<kernel> runs (that
version alone, every other kernel on the original).  Prints a Markdown
table and how many claims fall within the tolerance (2 %) of that ratio.
Where RAW has the adaptive runs' traces (measure.py --traces), the table
also gives the in-run ratio: inside each adaptive run, the median CUPTI
time of the kernel's launches on the original over that on the chosen
version (median over runs).  A claim off the ratio alone but near the
in-run one is the program's context; one off both is the runtime's timing
(its events also time the host's submission on an idle stream).
Python 3 standard library only.
"""
import argparse
import csv
import os
import statistics
from collections import defaultdict

from tunesim import read_trace


def rows(raws, name):
    out = []
    for raw in raws:
        path = os.path.join(raw, name + '.csv')
        if os.path.exists(path):
            with open(path, newline='') as f:
                out += list(csv.DictReader(f))
    return out


def in_run(raws, program, kernel, tag):
    """the median over adaptive runs with traces of (median orig launch / median tag launch)
    of kernel, CUPTI time; None without traces"""
    ratios = []
    for raw in raws:
        d = os.path.join(raw, 'traces')
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.startswith(program + '.adaptive.') and f.endswith('.tsv.gz'):
                per, _ = read_trace(os.path.join(d, f))
                o = [ns for ns, _, t in per.get(kernel, []) if t == 'orig']
                c = [ns for ns, _, t in per.get(kernel, []) if t == tag]
                if o and c:
                    ratios.append(statistics.median(o) / statistics.median(c))
    return statistics.median(ratios) if ratios else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+')
    ap.add_argument('--tolerance', type=float, default=0.02)
    a = ap.parse_args()
    ok_runs = {(r['program'], r['mode'], r['run']) for r in rows(a.raw, 'runs')
               if r['check'] == 'ok'}
    ms = defaultdict(list)  # (program, mode, kernel) -> ms per ok run
    for r in rows(a.raw, 'kernels'):
        if (r['program'], r['mode'], r['run']) in ok_runs and r['run'] != '-1':
            ms[(r['program'], r['mode'], r['kernel'])].append(int(r['gpu_ns']) / 1e6)
    claims = defaultdict(list)
    for r in rows(a.raw, 'choices'):
        if r['mode'] == 'adaptive' and r['chosen'] not in ('orig', 'None', ''):
            claims[(r['program'], r['kernel'], r['chosen'])].append(float(r['speedup']))
    print('| program | kernel | chosen | claimed (each run) | off ms | alone ms | off / alone |'
          ' claim / measured | in-run | claim / in-run |')
    print('|---|---|---|---|---:|---:|---:|---:|---:|---:|')
    good = n = 0
    for (p, k, t), sp in sorted(claims.items()):
        off, alone = ms.get((p, 'off', k)), ms.get((p, 'alone:%s:%s' % (t, k), k))
        if not off or not alone:
            continue
        ratio = statistics.median(off) / statistics.median(alone)
        dev = statistics.median(sp) / ratio
        n += 1
        good += abs(dev - 1) <= a.tolerance
        ir = in_run(a.raw, p, k, t)
        print('| %s | %s | %s | %s | %.4g | %.4g | %.3f | %.3f | %s | %s |' % (
            p, k[:40], t, ' '.join('%.3f' % x for x in sp), statistics.median(off),
            statistics.median(alone), ratio, dev, '%.3f' % ir if ir else '',
            '%.3f' % (statistics.median(sp) / ir) if ir else ''))
    print('\nClaims within %.0f %% of the versions timed alone: %d of %d' % (
        100 * a.tolerance, good, n))


if __name__ == '__main__':
    main()
