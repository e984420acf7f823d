#!/usr/bin/env python3
"""spill_table.py - the SASS rewrite's on-chip frame against local spills and
ptxas's shared-memory pragma, version by version, on corpus programs.

    spill_table.py --raw local=DIR --raw pragma=DIR --raw sass=DIR \\
                   --reports DIR [--rewrite NAME] [--out FILE.md] [--csv FILE.csv]

Each DIR is a measure.py result directory (or several, comma-separated) (benchmarks/corpus) of the same
programs built three ways, differing only in orion-ptxas's spill policy
(ORION_PTXAS_SPILL=off, pragma, partial), run with --modes fixed, so every
register-capped version ran alone (ORION_MODE=fixed:<tag>).  --reports: the
build reports of the `sass` build (build.sh --reports); they name the
versions the rewrite took and their placement (all slots on chip, or in
part: slots and bytes on chip and in local memory).

Other builds may be named (--raw NAME=DIR, in the order of the columns),
and --rewrite names the one the reports are of (default sass): for
example local, partial and dynamic (ORION_PTXAS_SPILL=off, partial and
dynamic) with --rewrite dynamic.

One row per rewritten version that ran: its median GPU time (ms) under each
policy, the spread of its runs ((max - min) / median, the largest of all),
and local/sass and pragma/sass (above 1: the rewrite is faster).
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
    ap.add_argument('--rewrite', default='sass', metavar='NAME')
    ap.add_argument('--out')
    ap.add_argument('--csv')
    a = ap.parse_args()
    raws, names = {}, []
    for x in a.raw:  # a policy given again adds its directories
        k, v = x.split('=', 1)
        raws[k] = raws[k] + ',' + v if k in raws else v
        names += [k] if k not in names else []
    rw_name = a.rewrite
    others = [n for n in names if n != rw_name]
    if rw_name not in raws or not others:
        sys.exit(f'spill_table: give --raw NAME=DIR for {rw_name} and at least one other build')
    t = {p: times(raws[p]) for p in names}
    rw = rewritten(a.reports)
    if not rw:
        sys.exit(f'spill_table: {a.reports}: no rewritten version in the build reports')
    rows = []
    for key in sorted(rw):
        runs = {p: t[p].get(key, []) for p in names}
        if min(len(r) for r in runs.values()) < 3:
            continue
        med = {p: statistics.median(r) for p, r in runs.items()}
        spread = max((max(runs[p]) - min(runs[p])) / med[p] for p in names)
        pl = rw[key]
        row = dict(program=key[0], kernel=key[1], tag=key[2], partial=bool(pl.get('partial')),
                   on_chip=pl.get('bytes_on_chip'), local=pl.get('bytes_local'))
        row.update({f'{p}_ms': med[p] for p in names})
        row['spread'] = spread
        row.update({f'vs_{p}': med[p] / med[rw_name] for p in others})
        rows.append(row)
    if not rows:
        sys.exit('spill_table: no rewritten version ran 3 times in every build')
    lines = ['| program | kernel | version | placement (B/thread on chip + local) | ' +
             ''.join(f'{p} ms | ' for p in names) + 'spread | ' + ' | '.join(f'{p}/{rw_name}' for p in others) + ' |',
             '|---|---|---|---|' + '---:|' * (len(names) + 1 + len(others))]
    for r in rows:
        where = f"{'part' if r['partial'] else 'all'}: {r['on_chip']} + {r['local']}"
        lines.append(f"| {r['program']} | `{r['kernel'][:48]}` | {r['tag']} | {where} | " +
                     ''.join(f"{r[p + '_ms']:.4f} | " for p in names) + f"{100 * r['spread']:.1f} % | " +
                     ' | '.join(f"{r['vs_' + p]:.3f}" for p in others) + ' |')
    lines.append('')
    for name, sel in (('placed in part', [r for r in rows if r['partial']]), ('all rewritten', rows)):
        if not sel:
            continue
        parts = []
        for p in others:
            w = min(sel, key=lambda r: r['vs_' + p])
            parts.append(f"{p}/{rw_name} geomean {geo([r['vs_' + p] for r in sel]):.3f} (worst {w['vs_' + p]:.3f}, "
                         f"{w['program']} {w['tag']}), faster on {sum(r['vs_' + p] > 1 for r in sel)}")
        lines.append(f"* {name}, {len(sel)} versions: " + '; '.join(parts))
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
