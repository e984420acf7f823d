#!/usr/bin/env python3
"""pair-ratio.py - orion-cc's compile time over clang's, round by round.

    pair-ratio.py RAW.csv [--title TEXT]

Reads the lines corpus-time.sh --paired appended (time-compile.py's
columns: label,runs,median_s,min_s,max_s,rc; labels <program>:orion and
<program>:clang, one run each, alternating): the k-th orion line of a
program pairs with its k-th clang line.  Prints a Markdown table per
program: rounds, median seconds of each, the median of the rounds' ratios
orion/clang with their min and max, and the count over 2x; then the
geometric mean of the medians.  Failed runs (rc != 0) are left out with
their round.  Python 3 standard library only.
"""
import argparse
import collections
import csv
import math
import statistics
import sys


def rounds(path):
    """requires path a time-compile.py CSV; returns {program: [(orion_s, clang_s)]}"""
    runs = collections.defaultdict(lambda: {'orion': [], 'clang': []})
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            prog, _, build = row['label'].rpartition(':')
            if build not in ('orion', 'clang'):
                continue
            ok = row['rc'] == '0' and row['median_s']
            runs[prog][build].append(float(row['median_s']) if ok else None)
    out = {}
    for prog, r in runs.items():
        pairs = [(o, c) for o, c in zip(r['orion'], r['clang']) if o and c]
        if pairs:
            out[prog] = pairs
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', help="corpus-time.sh --paired's CSV")
    ap.add_argument('--title', default='Compile time, orion-cc / orion-cc --no-orion, paired rounds')
    a = ap.parse_args()
    try:
        data = rounds(a.raw)
    except (OSError, KeyError, ValueError) as e:
        print('pair-ratio.py: %s: %s' % (a.raw, e), file=sys.stderr)
        return 1
    if not data:
        print('pair-ratio.py: %s: no paired rounds' % a.raw, file=sys.stderr)
        return 1
    print('# %s\n' % a.title)
    print('| program | rounds | orion s | clang s | ratio (median) | min | max | rounds over 2x |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    meds = []
    for prog in sorted(data):
        p = data[prog]
        ratios = [o / c for o, c in p]
        m = statistics.median(ratios)
        meds.append(m)
        print('| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %d |' % (
            prog, len(p), statistics.median(o for o, _ in p), statistics.median(c for _, c in p),
            m, min(ratios), max(ratios), sum(r > 2 for r in ratios)))
    gm = math.exp(sum(math.log(m) for m in meds) / len(meds))
    print('\nGeometric mean of the medians: %.3f over %d programs; medians over 2x: %d.'
          % (gm, len(meds), sum(m > 2 for m in meds)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
