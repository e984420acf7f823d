#!/usr/bin/env python3
"""cap-floor.py - register-capped versions below a floor of max-live: did
any of them win?  The evidence for select.c's cap floor.

    cap-floor.py --kernels results/<run>/kernels.csv REPORT.json... [--pct 30,35,40,45,50]

REPORT.json: build reports (`build.sh ... --builds orion --reports DIR`,
DIR/report.<program>.<pid>.json) of a build WITHOUT the floor, so that every
capped version Fig. 8 picks is listed with the kernel's max-live estimate.
kernels.csv: analyze.py's, with each version's time alone (`fixed`).
For each floor (percent of max-live) prints how many capped versions fall
below it, how many of those were timed alone, and those faster than their
original by more than 1 % (orig_ms / version_ms), then every timed win
with its cap as a percentage of max-live.  Python 3 standard library only.
"""
import argparse
import csv
import glob
import json
import sys

from analyze import fixed_times


def versions(paths):
    """requires build reports; returns [(program, kernel, max_live, cap)]"""
    out = []
    for f in paths:
        parts = f.split('/')[-1].split('.')
        if len(parts) < 3:
            sys.exit('cap-floor.py: %s: expected <x>.<program>.<y>.json' % f)
        try:
            with open(f) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            sys.exit('cap-floor.py: %s: %s' % (f, e))
        for k in d.get('kernels', []):
            for v in k.get('versions', []):
                if not v.get('pad') and v.get('max_regs'):
                    out.append((parts[1], k['kernel'], k['max_live'], v['max_regs']))
    return sorted(set(out))


def gains(path):
    """requires analyze.py's kernels.csv; returns {(program, kernel prefix): {tag: ms}}"""
    t = {}
    with open(path, newline='') as fh:
        for r in csv.DictReader(fh):
            t[(r['program'], r['kernel'])] = fixed_times(r)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--pct', default='30,35,40,45,50')
    ap.add_argument('reports', nargs='+')
    a = ap.parse_args()
    vs = versions([p for r in a.reports for p in sorted(glob.glob(r))])
    t = gains(a.kernels)
    rows = []
    for p, k, ml, cap in vs:
        g = None
        for (tp, tk), ms in t.items():
            if tp == p and k.startswith(tk) and ms.get('orig') and ms.get('r%d' % cap):
                g = ms['orig'] / ms['r%d' % cap]
        rows.append((p, k, ml, cap, g))
    print('%d capped versions, %d timed alone' % (len(rows), sum(r[4] is not None for r in rows)))
    print('\n| floor (% of max-live) | versions below | timed | faster by > 1 % |')
    print('|---:|---:|---:|---|')
    for pct in (int(x) for x in a.pct.split(',')):
        low = [r for r in rows if 100 * r[3] < pct * r[2]]
        wins = ['%s r%d (%.0f %%, %.3f)' % (r[0], r[3], 100.0 * r[3] / r[2], r[4])
                for r in low if r[4] and r[4] > 1.01]
        print('| %d | %d | %d | %s |' % (pct, len(low), sum(r[4] is not None for r in low),
                                         ', '.join(wins) or 'none'))
    print('\nEvery version faster than its original by > 1 % alone:\n')
    print('| program | kernel | max-live | cap | cap / max-live | orig / version |')
    print('|---|---|---:|---:|---:|---:|')
    for r in sorted(rows, key=lambda r: r[3] / r[2]):
        if r[4] and r[4] > 1.01:
            print('| %s | `%s` | %d | %d | %.0f %% | %.3f |' % (r[0], r[1][:40], r[2], r[3],
                                                             100.0 * r[3] / r[2], r[4]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
