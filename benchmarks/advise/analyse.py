#!/usr/bin/env python3
"""benchmarks/advise/analyse.py - tables from gpu_time.py's times.csv.

    analyse.py blocksize TIMES_CSV OUT_PREFIX ADVICE_CSV...
    analyse.py fixes TIMES_CSV OUT_PREFIX

Rows are taken from the packs whose name begins with "bs" (blocksize.sh's)
or "fx" (fixes-pack.sh's).  Per (program, variant, kernel): the median over rounds of the kernel's
GPU time in a run (rows of exit status 0), and the noise: the spread of
those rounds, (max - min) / median.

blocksize: one row per launch site of ADVICE_CSV (blocksize.sh): the time
at every size tried, the best size, and orion-advise's advised size and
the occupancy calculator's, each as time / best time (STATuner's error is
this ratio less 1).  fixes: per program the kernels' total and each kernel,
before (nvcc, original sources) and after (nvcc, orion-advise's fixes),
after / before.  Writes OUT_PREFIX.csv and OUT_PREFIX.md.
"""
import csv
import statistics
import sys
from collections import defaultdict


def medians(path, pack):
    """returns ({(program, variant, kernel): (median ns, noise, rounds)}, failures)"""
    per, fails = defaultdict(list), []
    for r in csv.DictReader(open(path)):
        if not r['pack'].startswith(pack):
            continue
        if r['rc'] != '0' or r['kernel'] == '-':
            fails.append((r['program'], r['variant'], r['round'], r['rc']))
            continue
        per[(r['program'], r['variant'], r['kernel'])].append(int(r['ns']))
    out = {}
    for k, v in per.items():
        m = statistics.median(v)
        out[k] = (m, (max(v) - min(v)) / m if m else 0.0, len(v))
    return out, fails


def write(prefix, head, rows, notes):
    with open(prefix + '.csv', 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)
    with open(prefix + '.md', 'w') as f:
        f.write('| ' + ' | '.join(head) + ' |\n|' + '---|' * len(head) + '\n')
        for r in rows:
            f.write('| ' + ' | '.join(str(c) for c in r) + ' |\n')
        for n in notes:
            f.write('\n' + n + '\n')


def group_line(name, ratios):
    """requires [(advised/best or None, calculator/best or None, advice changed the block)];
    returns one summary line for the sites of one advice file"""
    adv = [a for a, _, _ in ratios if a is not None]
    calc = [c for _, c, _ in ratios if c is not None]
    gm = lambda v: statistics.geometric_mean(v) if v else float('nan')
    changed = [a for a, _, ch in ratios if ch and a is not None]
    return (f'{name}: {len(ratios)} sites; advised/best geomean {gm(adv):.3f} (worst '
            f'{max(adv, default=float("nan")):.3f}; {len(changed)} sites where the advice changes '
            f'the block: geomean {gm(changed):.3f}); calculator/best geomean {gm(calc):.3f} over '
            f'{len(calc)} sites where its size ran (worst {max(calc, default=float("nan")):.3f})')


def blocksize(times, prefix, *advice):
    med, fails = medians(times, 'bs')
    rows, notes = [], []
    for path in advice:
        ratios = []
        for a in csv.DictReader(open(path)):
            ratios.append(site_row(a, med, rows))
        notes.append(group_line(path.rsplit('/', 1)[-1], [r for r in ratios if r]))
    head = ['program', 'kernel', 'site', 'size:median ms', 'best', 'advised', 'advised/best',
            'calculator', 'calculator/best', 'noise (max spread)']
    write(prefix, head, rows, notes + ([f'failed runs: {fails}'] if fails else []))


def site_row(a, med, rows):
    """appends launch site a's row to rows; returns (advised/best, calculator/best, changed) with
    None for a size that did not run, or None when the site has no timing"""
    t = {int(v): med[(p, v, k)] for (p, v, k) in med if p == a['program'] and k == a['kernel']}
    if not t:
        rows.append([a['program'], a['kernel'], a['site'], '-', '-', a['advised'], '-',
                     a['calculator'], '-', 'no timing'])
        return None
    best = min(t, key=lambda s: t[s][0])
    def ratio(s):
        return t[int(s)][0] / t[best][0] if int(s) in t else None
    def rel(s):
        return f'{ratio(s):.3f}' if ratio(s) is not None else 'not run'
    sizes = ' '.join(f'{s}:{t[s][0] / 1e6:.3f}' for s in sorted(t))
    noise = max(x[1] for x in t.values())
    rounds = min(x[2] for x in t.values())
    rows.append([a['program'], a['kernel'], a['site'], sizes, best, a['advised'], rel(a['advised']),
                 a['calculator'], rel(a['calculator']), f'{noise:.3f} (n>={rounds})'])
    return ratio(a['advised']), ratio(a['calculator']), a['advised'] != a['threads']


def fixes(times, prefix):
    med, fails = medians(times, 'fx')
    rows = []
    for p in sorted({k[0] for k in med}):
        ks = sorted({k[2] for k in med if k[0] == p})
        def one(k):
            b, a = med.get((p, 'before', k)), med.get((p, 'after', k))
            if not b or not a:
                return None
            return [p, k, f'{b[0] / 1e6:.3f}', f'{a[0] / 1e6:.3f}', f'{a[0] / b[0]:.3f}',
                    f'{b[1]:.3f}/{a[1]:.3f}', min(b[2], a[2])]
        tot_b = sum(med[(p, 'before', k)][0] for k in ks if (p, 'before', k) in med)
        tot_a = sum(med[(p, 'after', k)][0] for k in ks if (p, 'after', k) in med)
        rows.append([p, 'all kernels (sum of medians)', f'{tot_b / 1e6:.3f}', f'{tot_a / 1e6:.3f}',
                     f'{tot_a / tot_b:.3f}' if tot_b else '-', '', ''])
        rows += [r for r in map(one, ks) if r]
    head = ['program', 'kernel', 'before ms', 'after ms', 'after/before', 'noise before/after',
            'rounds']
    write(prefix, head, rows, [f'failed runs: {fails}'] if fails else [])


if __name__ == '__main__':
    if len(sys.argv) >= 5 and sys.argv[1] == 'blocksize':
        blocksize(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'fixes':
        fixes(*sys.argv[2:])
    else:
        sys.exit(__doc__)
