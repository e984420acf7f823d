#!/usr/bin/env python3
"""model_fit.py - how the placement model's threshold was chosen: each
candidate rule replayed on measured spill tables.

    model_fit.py --reports DIR SPILL.csv [SPILL.csv...] [--out FILE.md]

DIR: build reports (benchmarks/corpus/build.sh --reports) of a build whose
orion-ptxas has the model: each spilling version's reason names its counts
("model: L local accesses, G global loads").  SPILL.csv: spill_table.py's
tables (every version timed alone under local spills and under the rewrite
of policy partial, the rewrite's speed-up `vs_local`), joined on program,
kernel and tag (a table from an older build keeps its own code; the counts
are this build's).  Per rule, over the versions of each table: a rule picks
the rewrite (vs_local) or local memory (1.0); the geometric mean, the
versions on chip, those more than 2 % slower and faster than local spills,
and the worst.  Rules: the policy before the model (whole frames only), every
rewrite (partial), and L >= r * G for a range of r.  Python 3 standard
library only.
"""
import argparse
import csv
import glob
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'corpus'))
from analyze import emit  # noqa: E402
from spills import model_counts, read_reports  # noqa: E402

RATIOS = (0.5, 1.0, 1.5, 2.0, 3.0)


def counts(reports):
    """{(program, kernel, tag): (local accesses, global loads)} named by the model"""
    fig = read_reports(sorted(glob.glob(os.path.join(reports, 'report.*.json'))))
    return {key: c for key, e in fig.items() if (c := model_counts(e))}


def score(rows, pick):
    v = [float(r['vs_local']) if pick(r) else 1.0 for r in rows]
    g = math.exp(sum(math.log(x) for x in v) / len(v))
    return (f'{g:.4f} | {sum(1 for r in rows if pick(r))} | {sum(x < 0.98 for x in v)} '
            f'| {sum(x > 1.02 for x in v)} | {min(v):.3f}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--reports', required=True)
    ap.add_argument('spill', nargs='+')
    ap.add_argument('--out')
    a = ap.parse_args()
    lg = counts(a.reports)
    out = ['# The placement model: candidate rules on measured spill tables (model_fit.py)', '',
           '| table | versions | rule | local/rule geomean | on chip | slower > 2 % | faster > 2 % | worst |',
           '|---|---:|---|---:|---:|---:|---:|---:|']
    for path in a.spill:
        with open(path, newline='') as f:
            rows = [r for r in csv.DictReader(f) if (r['program'], r['kernel'], r['tag']) in lg]
        for r in rows:
            r['L'], r['G'] = lg[(r['program'], r['kernel'], r['tag'])]
        if not rows:
            continue
        name = os.path.dirname(path).split('results/')[-1] or path
        rules = [('whole frames only (the policy before)', lambda r: r['partial'] == 'False'),
                 ('every rewrite (partial)', lambda r: True)]
        rules += [(f'L >= {x:g} G', lambda r, x=x: r['L'] > 0 and r['L'] >= x * r['G']) for x in RATIOS]
        for label, pick in rules:
            out.append(f'| {name} | {len(rows)} | {label} | {score(rows, pick)} |')
    emit(out, a.out)


if __name__ == '__main__':
    main()
