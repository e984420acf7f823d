#!/usr/bin/env python3
"""ceiling.py - the most any run-time tuner that needs evidence could keep of
each kernel's win in one cold run, from the launch count alone.

    ceiling.py --kernels KERNELS.csv [--pairs 4] [--split-ms MS] [--out FILE.md]

KERNELS.csv: analyze.py's per-kernel table (launches, off_ms, orig_ms,
oracle_ms, best_gain: each version timed alone over all its launches).

The idealised tuner knows which version is best and tests only that one,
never waits for a budget and never re-checks; it still needs evidence: the
original's first launch is cold (no sample), and P pairs of the best
version against the original take P + 1 launches of the original around
them, plus one launch per two pairs that moves the candidate to the other
parity of the launch count (runtime/tune.h, steps 1-3).  So the original
runs k = 2 + P + floor((P - 1) / 2) of the kernel's L launches (P = 4:
k = 7; P = 2: k = 4), every other launch the best version, each launch at
its mean time alone.  A single launch cannot be tuned at all (L <= k:
nothing kept) unless the launch is split into chunks (ORION_SPLIT=1):
with --split-ms, a kernel whose original takes at least MS a launch counts
as tuned within its first launch at no cost (everything kept: an upper
bound; runtime/plan.h has what chunks cost, 3-40 us a boundary, too much
for launches well under a millisecond).  Then, per kernel:
    kept        = (L - k) / L of the win                 (capture's ceiling)
    oracle/best = L * oracle / ((L - k) * oracle + k * orig)
Prints the do-no-harm acceptance counts (kernels of >= 1 ms at >= 0.98 x
oracle; wins of >= 3 % kept to >= 80 %) that no such tuner can exceed, and
the kernels that cap them.  Python 3 standard library only.
"""
import argparse
import csv

from analyze import emit


def ceiling(launches, pairs):
    """the original's launches k, and the share of the launches that can run the best version"""
    k = 2 + pairs + (pairs - 1) // 2
    return k, max(launches - k, 0) / launches if launches > 0 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--pairs', type=int, default=4)
    ap.add_argument('--split-ms', type=float, help='launches this long are tuned on chunks (an upper bound)')
    ap.add_argument('--out')
    a = ap.parse_args()
    if a.pairs < 1:
        ap.error('--pairs must be at least 1')
    sel, wins, rows = [], [], []
    with open(a.kernels, newline='') as f:
        for r in csv.DictReader(f):
            if not r['oracle_ms'] or not r['orig_ms'] or not r['launches']:
                continue
            n, orig, oracle = int(r['launches']), float(r['orig_ms']), float(r['oracle_ms'])
            k, share = ceiling(n, a.pairs)
            if a.split_ms is not None and orig / n >= a.split_ms:
                share = 1.0
            q = oracle / (share * oracle + (1 - share) * orig) if orig > 0 else 1.0
            gain = float(r['best_gain'] or 0)
            if float(r['off_ms'] or 0) >= 1:
                sel.append(q)
            if gain >= 0.03:
                wins.append(share)
            if (gain >= 0.03 and share < 0.8) or (float(r['off_ms'] or 0) >= 1 and q < 0.98):
                rows.append(f"| {r['program']} | {r['kernel'][:40]} | {n} | {r['best_tag']} | {gain:.1%} "
                            f"| {share:.0%} | {q:.3f} |")
    split = '' if a.split_ms is None else f', launches of >= {a.split_ms:g} ms split'
    out = [f'# The ceiling of one cold run: a tuner that needs {a.pairs} pairs{split} (ceiling.py)', '',
           f'* kernels of >= 1 ms at >= 0.98 x oracle: at most {sum(q >= 0.98 for q in sel)} of {len(sel)} '
           f'(the goal, 95 %: {-(-95 * len(sel) // 100)})',
           f'* wins of >= 3 % kept to >= 80 %: at most {sum(s >= 0.8 for s in wins)} of {len(wins)} '
           f'(the goal, 80 %: {-(-80 * len(wins) // 100)})', '',
           '| program | kernel | launches | best | gain | kept at most | oracle/select at most |',
           '|---|---|---:|---|---:|---:|---:|'] + rows
    emit(out, a.out)


if __name__ == '__main__':
    main()
