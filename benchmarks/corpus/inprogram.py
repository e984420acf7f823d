#!/usr/bin/env python3
"""inprogram.py - each version's time per launch inside the adaptive runs,
set against its time when the program ran on that version alone.

    inprogram.py --kernels KERNELS.csv RAW [RAW...] [--min-gain 0.03] [--min-launches 20]

KERNELS.csv: analyze.py's per-kernel table (launches, best_tag, best_gain,
`fixed`: each version's total GPU time under ORION_MODE=fixed:<tag>, which
puts every kernel of the program on that tag).  RAW: measure.py --traces
directories; each adaptive run's trace (traces/<program>.adaptive.<run>.tsv.gz)
names the version of every launch.  Per kernel with a win of --min-gain or
more and at least --min-launches launches, and per version with at least 5
launches in the adaptive runs: the mean CUPTI time of its launches there
("in") and its fixed total over the launches ("alone"), in us, and the best
version's gain both ways (orig / best - 1, as analyze.py's best_gain): alone,
of the fixed times; in the program, of the means; and, where RAW has
measure.py's mode wins (alone:<tag>:<kernel>: that kernel on its best
version, every other kernel on the original), the median kernel time of
the off runs over that of those runs.

Where a kernel's work is the same at every launch, the two agree unless the
other kernels' versions change its time: a fixed:<tag> run moves them all.
Where the work changes from launch to launch (a shrinking worklist), "in"
depends on which launches each version ran, and the columns do not compare.
A padding version runs the original's binary, so its launches read as the
original's.  Python 3 standard library only.
"""
import argparse
import csv
import glob
import os
import statistics
from collections import defaultdict

from analyze import read_csv
import tunesim


def in_program(raws, program, kernel):
    """{tag: (mean ns, launches)} of kernel's launches in program's adaptive runs"""
    tot, cnt = defaultdict(int), defaultdict(int)
    for raw in raws:
        for path in glob.glob(os.path.join(raw, 'traces', f'{program}.adaptive.*.tsv.gz')):
            per, _ = tunesim.read_trace(path)
            for ns, _, tag in per.get(kernel, []):
                tot[tag] += ns
                cnt[tag] += 1
    return {v: (tot[v] / cnt[v], cnt[v]) for v in tot}


def others_on_orig(rows, program, kernel, tag):
    """off's median kernel time over alone:<tag>:<kernel>'s in rows (kernels.csv), less 1;
    None without both"""
    off, alone = [], []
    for r in rows:
        if r['program'] == program and r['kernel'] == kernel and int(r['run']) >= 0:
            if r['mode'] == 'off':
                off.append(int(r['gpu_ns']))
            elif r['mode'] == 'alone:%s:%s' % (tag, kernel):
                alone.append(int(r['gpu_ns']))
    return statistics.median(off) / statistics.median(alone) - 1 if off and alone else None


def gain(orig, best):
    """orig / best - 1, as analyze.py's best_gain; None without both"""
    return orig / best - 1 if orig and best else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+')
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--min-gain', type=float, default=0.03)
    ap.add_argument('--min-launches', type=int, default=20)
    a = ap.parse_args()
    print('| program | kernel | best | gain alone | gain in the program | gain, the others on the original '
          '| versions: in / alone, us (launches in) |')
    print('|---|---|---|---:|---:|---:|---|')
    measured = [r for raw in a.raw for r in read_csv(os.path.join(raw, 'kernels.csv'))]
    with open(a.kernels, newline='') as f:
        for r in csv.DictReader(f):
            n = int(r['launches'] or 0)
            if float(r['best_gain'] or 0) < a.min_gain or n < a.min_launches or not r['fixed']:
                continue
            fixed = {t: float(ms) * 1e3 / n for t, ms in (x.split('=') for x in r['fixed'].split())}
            ip = {t: v for t, v in in_program(a.raw, r['program'], r['kernel']).items() if v[1] >= 5}
            best = r['best_tag']
            g_oo = others_on_orig(measured, r['program'], r['kernel'], best)
            if not ip and g_oo is None:
                continue
            g_in = gain(ip.get('orig', (0,))[0] / 1e3, ip.get(best, (0,))[0] / 1e3)
            cells = [f'{t} {ip[t][0] / 1e3:.1f} / {fixed[t]:.1f} ({ip[t][1]})' for t in sorted(ip) if t in fixed]
            pct = lambda g: '' if g is None else format(g, '.1%')
            print(f"| {r['program']} | {r['kernel'][:40]} | {best} | {pct(gain(fixed.get('orig'), fixed.get(best)))} "
                  f"| {pct(g_in)} | {pct(g_oo)} | {'; '.join(cells)} |")


if __name__ == '__main__':
    main()
