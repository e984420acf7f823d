#!/usr/bin/env python3
"""spill_table.py - the SASS rewrite's on-chip frame against local spills and
ptxas's shared-memory pragma, version by version, on corpus programs.

    spill_table.py --raw local=DIR --raw pragma=DIR --raw sass=DIR \\
                   --reports DIR [--out FILE.md] [--csv FILE.csv]

Each DIR is a measure.py result directory (or several, comma-separated) (benchmarks/corpus) of the same
programs built three ways, differing only in orion-ptxas's spill policy
(ORION_PTXAS_SPILL=off, pragma, partial), run with --modes fixed, so every
register-capped version ran alone (ORION_MODE=fixed:<tag>).  --reports: the
build reports of the `sass` build (build.sh --reports); they name the
versions the rewrite took and their placement (all slots on chip, or in
part: slots and bytes on chip and in local memory).

One row per rewritten version that ran: its median GPU time (ms) under each
policy, the spread of its runs ((max - min) / median, the largest of the
three), and local/sass and pragma/sass (above 1: the rewrite is faster).
Then the geometric means and the worst, over the versions placed in part
and over all.  Requires at least 3 ok runs of a version in every build.
"""
import argparse
import glob
import math
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'corpus'))
from analyze import Data  # noqa: E402
from spills import read_reports  # noqa: E402

POLICIES = ('local', 'pragma', 'sass')


def times(raws):
    """{(program, kernel, tag): [ms per ok run]} of the fixed runs in the
    comma-separated result directories raws."""
    out = {}
    for (p, mode), runs in Data(raws.split(',')).kt.items():
        if mode.startswith('fixed:'):
            for ks in runs.values():
                for k, (ns, _) in ks.items():
                    out.setdefault((p, k, mode[6:]), []).append(ns / 1e6)
    return out


def rewritten(reports):
    """{(program, kernel, tag): placement dict} of the versions the rewrite took."""
    fig = read_reports(sorted(glob.glob(os.path.join(reports, 'report.*.json'))))
    return {k: dict((e.get('spill') or {}).get('placement') or {}, registers=e.get('registers'))
            for k, e in fig.items() if (e.get('spill') or {}).get('path') == 'sass'}


def emit(text, path):
    """Print text, and write it to path (atomically) when one is given."""
    if path:
        with open(path + '.tmp', 'w') as f:
            f.write(text)
        os.replace(path + '.tmp', path)
    sys.stdout.write(text)


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--raw', action='append', default=[], metavar='POLICY=DIR')
    ap.add_argument('--reports', required=True)
    ap.add_argument('--out')
    ap.add_argument('--csv')
    a = ap.parse_args()
    raws = {}
    for x in a.raw:  # a policy given again adds its directories
        k, v = x.split('=', 1)
        raws[k] = raws[k] + ',' + v if k in raws else v
    if sorted(raws) != sorted(POLICIES):
        sys.exit('spill_table: give --raw local=DIR --raw pragma=DIR --raw sass=DIR')
    t = {p: times(raws[p]) for p in POLICIES}
    rw = rewritten(a.reports)
    if not rw:
        sys.exit(f'spill_table: {a.reports}: no rewritten version in the build reports')
    rows = []
    for key in sorted(rw):
        runs = [t[p].get(key, []) for p in POLICIES]
        if min(len(r) for r in runs) < 3:
            continue
        med = [statistics.median(r) for r in runs]
        spread = max((max(r) - min(r)) / m for r, m in zip(runs, med))
        pl = rw[key]
        rows.append(dict(program=key[0], kernel=key[1], tag=key[2], partial=bool(pl.get('partial')),
                         on_chip=pl.get('bytes_on_chip'), local=pl.get('bytes_local'),
                         local_ms=med[0], pragma_ms=med[1], sass_ms=med[2], spread=spread,
                         vs_local=med[0] / med[2], vs_pragma=med[1] / med[2]))
    if not rows:
        sys.exit('spill_table: no rewritten version ran 3 times in every build')
    lines = ['| program | kernel | version | placement (B/thread on chip + local) | local ms | '
             'pragma ms | sass ms | spread | local/sass | pragma/sass |',
             '|---|---|---|---|---:|---:|---:|---:|---:|---:|']
    for r in rows:
        where = f"{'part' if r['partial'] else 'all'}: {r['on_chip']} + {r['local']}"
        lines.append(f"| {r['program']} | `{r['kernel'][:48]}` | {r['tag']} | {where} | "
                     f"{r['local_ms']:.4f} | {r['pragma_ms']:.4f} | {r['sass_ms']:.4f} | "
                     f"{100 * r['spread']:.1f} % | {r['vs_local']:.3f} | {r['vs_pragma']:.3f} |")
    lines.append('')
    for name, sel in (('placed in part', [r for r in rows if r['partial']]), ('all rewritten', rows)):
        if not sel:
            continue
        lo = min(sel, key=lambda r: r['vs_local'])
        pr = min(sel, key=lambda r: r['vs_pragma'])
        lines.append(f"* {name}, {len(sel)} versions: local/sass geomean {geo([r['vs_local'] for r in sel]):.3f}"
                     f" (worst {lo['vs_local']:.3f}, {lo['program']} {lo['tag']}), faster on "
                     f"{sum(r['vs_local'] > 1 for r in sel)}; pragma/sass geomean "
                     f"{geo([r['vs_pragma'] for r in sel]):.3f} (worst {pr['vs_pragma']:.3f}, "
                     f"{pr['program']} {pr['tag']}), faster on {sum(r['vs_pragma'] > 1 for r in sel)}")
    text = '\n'.join(lines) + '\n'
    if a.csv:
        with open(a.csv + '.tmp', 'w') as f:
            cols = list(rows[0])
            f.write(','.join(cols) + '\n')
            for r in rows:
                f.write(','.join(f'{r[c]:.5g}' if isinstance(r[c], float) else str(r[c]) for c in cols) + '\n')
        os.replace(a.csv + '.tmp', a.csv)
    emit(text, a.out)


if __name__ == '__main__':
    main()
