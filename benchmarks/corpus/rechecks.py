#!/usr/bin/env python3
"""rechecks.py - the re-checks of the adaptive runs, as CUPTI timed them.

    rechecks.py RAW [RAW...]

RAW: measure.py directories with --traces.  Counts, over the adaptive
runs' reports, the configurations that chose a version other than the
original and those a re-check reverted (source "reverted").  Then, for
each reverted kernel, every run's triples in its trace (tuning pairs and
re-checks alike): an original launch between two launches of one other
version, with
x = (ln before + ln after) / 2 - ln original from CUPTI's times (x < 0:
the other version is faster); the runtime reverted when its own, event-timed
x showed less than half the 1 % margin.  Reports that count them
(timed_samples, gap_samples) also give the timed samples the GPU may have
idled inside (rt.c: timed), in all and per program.  Python 3 standard
library only.
"""
import glob
import json
import math
import os
import sys

from tunesim import read_trace


def triples(launches):
    """requires one kernel's [(ns, blocks, tag)] in launch order; returns [(index, tag, x)]"""
    out = []
    for i in range(1, len(launches) - 1):
        (a, _, ta), (o, _, to), (c, _, tc) = launches[i - 1:i + 2]
        if to == 'orig' and ta == tc != 'orig':
            out.append((i, ta, (math.log(a) + math.log(c)) / 2 - math.log(o)))
    return out


def main(raws):
    if not raws:
        sys.exit(__doc__.split('\n\n')[1])
    other, reverted, timed, gaps = 0, [], 0, {}
    for raw in raws:
        for f in sorted(glob.glob(os.path.join(raw, 'traces', '*.adaptive.*.json'))):
            with open(f) as fh:
                report = json.load(fh)
            prog = os.path.basename(f).split('.adaptive.')[0]
            for c in report.get('configs', []):
                timed += c.get('timed_samples', 0)
                if c.get('gap_samples'):
                    gaps[prog] = gaps.get(prog, 0) + c['gap_samples']
                other += c.get('chosen') != c.get('original') or c.get('source') == 'reverted'
                if c.get('source') == 'reverted':
                    reverted.append((raw, prog, c['kernel']))
    print(f'* adaptive choices other than the original (reverted included): {other}; '
          f'reverted by a re-check: {len(reverted)}')
    if timed:
        most = ', '.join(f'{p} {n}' for p, n in sorted(gaps.items(), key=lambda x: -x[1])[:10])
        print(f'* timed samples: {timed}; the GPU may have idled inside {sum(gaps.values())}'
              f'{" (" + most + ")" if most else ""}')
    for raw, prog, kernel in reverted:
        print(f'\n{prog} {kernel}: triples by CUPTI (launch, version, x)')
        for tsv in sorted(glob.glob(os.path.join(raw, 'traces', prog + '.adaptive.*.tsv.gz'))):
            per, _ = read_trace(tsv)
            shown = ', '.join(f'{i} {t} {x:+.4f}' for i, t, x in triples(per.get(kernel, [])))
            print(f'  {os.path.basename(tsv)}: {shown or "none"}')


if __name__ == '__main__':
    main(sys.argv[1:])
