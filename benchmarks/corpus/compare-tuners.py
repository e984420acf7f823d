#!/usr/bin/env python3
"""compare-tuners.py - two runtimes on the same programs, measured in one call.

    compare-tuners.py REF_KERNELS_CSV A_DIR:B_DIR [A_DIR:B_DIR ...] > out.md

Each A_DIR and B_DIR is analyze.py's output (programs.csv, kernels.csv) of
one gpu.sh run, A the old runtime and B the new one, both in the same call
(the same machine, interleaved per call).  REF_KERNELS_CSV is a kernels.csv
with every fixed version of the same device code (analyze.py of a run with
--modes fixed): it gives each kernel's original and best version timed
alone, so that "captured" is (orig - measured) / (orig - best) for the
kernels whose best version alone beats the original by >= 3 %.
Prints, per pair: the geometric means of adaptive/off and cached/off over
the programs of both, lulesh-style per-program rows where A and B differ by
more than 0.5 %, and the captured share of each >= 3 % win in one run
(adaptive) and with the decision cache (cached).  Standard library only.
"""
import statistics
import sys

from analyze import read_csv


def rows(path, key):
    """requires a CSV with the key columns; returns {key tuple: row}"""
    return {tuple(r[k] for k in key): r for r in read_csv(path)}


def main():
    if len(sys.argv) < 3 or any(':' not in a for a in sys.argv[2:]):
        sys.exit(__doc__)
    ref = rows(sys.argv[1], ('program', 'kernel'))
    print('| A | B | adaptive/off A | B | cached/off A | B |')
    print('|---|---|---:|---:|---:|---:|')
    pairs, diffs, wins = [], [], []
    for arg in sys.argv[2:]:
        a, b = arg.split(':')
        pa, pb = rows(a + '/programs.csv', ('program',)), rows(b + '/programs.csv', ('program',))
        both = sorted(set(pa) & set(pb))
        gm = lambda p, col: statistics.geometric_mean(float(p[k][col]) for k in both)
        print(f'| {a} | {b} | {gm(pa, "adaptive_over_off"):.4f} | {gm(pb, "adaptive_over_off"):.4f} '
              f'| {gm(pa, "cached_over_off"):.4f} | {gm(pb, "cached_over_off"):.4f} |')
        for k in both:
            for col in ('adaptive_over_off', 'cached_over_off'):
                x, y = float(pa[k][col]), float(pb[k][col])
                if abs(y / x - 1) > 0.005:
                    diffs.append(f'| {b} | {k[0]} | {col} | {x:.4f} | {y:.4f} |')
        ka, kb = rows(a + '/kernels.csv', ('program', 'kernel')), rows(b + '/kernels.csv',
                                                                     ('program', 'kernel'))
        for k in sorted(set(ka) & set(kb)):
            r = ref.get(k)
            if not r or not r['best_gain'] or float(r['best_gain']) < 0.03:
                continue
            o, best = float(r['orig_ms']), float(r['oracle_ms'])
            cap = lambda t: f'{100 * (o - float(t)) / (o - best):.0f} %' if t else '-'
            wins.append(f'| {b} | {k[0]} | {k[1][:40]} | {r["best_tag"]} {100 * float(r["best_gain"]):.1f} % '
                        f'| {cap(ka[k]["adaptive_ms"])} | {cap(kb[k]["adaptive_ms"])} '
                        f'| {cap(ka[k]["cached_ms"])} | {cap(kb[k]["cached_ms"])} |')
    print('\nPrograms whose ratio moved by more than 0.5 %:\n')
    print('| run | program | ratio | A | B |\n|---|---|---|---:|---:|')
    print('\n'.join(diffs))
    print('\nWins of >= 3 % (versions alone, REF): the share captured\n')
    print('| run | program | kernel | best alone | adaptive A | adaptive B | cached A | cached B |')
    print('|---|---|---|---|---:|---:|---:|---:|')
    print('\n'.join(wins))


if __name__ == '__main__':
    main()
