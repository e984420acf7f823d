#!/usr/bin/env python3
"""pair_table.py - two builds of the SASS rewrite against each other, version
by version, where their placements differ (for example without and with
slot colouring, `orion-ptxas --orion-colour`).

    pair_table.py --raw A=DIRS --reports A=DIR --raw B=DIRS --reports B=DIR [--out FILE.md]

DIRS: measure.py result directories (comma-separated) of the build's
--modes fixed runs; DIR: its build reports (build.sh --reports).  One row
per rewritten version whose placement (slots and bytes on chip and in
local memory) differs between A and B and that ran at least 3 times in
both: the medians (ms), A/B (above 1: B is faster) and the bytes per
thread left in local memory; then the geometric mean and the range.
"""
import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spill_table import emit, rewritten, times  # noqa: E402


def pairs(specs, what):
    out = dict(s.split('=', 1) for s in specs if '=' in s)
    if len(out) != 2 or len(specs) != 2:
        sys.exit(f'pair_table: give --{what} twice, as NAME=...')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--raw', action='append', default=[])
    ap.add_argument('--reports', action='append', default=[])
    ap.add_argument('--out')
    a = ap.parse_args()
    raws, reps = pairs(a.raw, 'raw'), pairs(a.reports, 'reports')
    if sorted(raws) != sorted(reps):
        sys.exit('pair_table: --raw and --reports name different builds')
    na, nb = list(raws)
    t = {n: times(raws[n]) for n in raws}
    pl = {n: rewritten(reps[n]) for n in reps}
    rows = []
    for k in sorted(set(pl[na]) | set(pl[nb])):
        if pl[na].get(k) == pl[nb].get(k) or min(len(t[na].get(k, [])), len(t[nb].get(k, []))) < 3:
            continue
        ma, mb = statistics.median(t[na][k]), statistics.median(t[nb][k])
        rows.append((k, ma, mb, ma / mb, (pl[na].get(k) or {}).get('bytes_local'),
                     (pl[nb].get(k) or {}).get('bytes_local')))
    if not rows:
        sys.exit('pair_table: no version differs in placement and ran 3 times in both')
    lines = [f'| program | kernel | version | {na} ms | {nb} ms | {na}/{nb} | local B/thread {na} -> {nb} |',
             '|---|---|---|---:|---:|---:|---|']
    lines += [f'| {k[0]} | `{k[1][:48]}` | {k[2]} | {ma:.4f} | {mb:.4f} | {r:.3f} | {la} -> {lb} |'
              for k, ma, mb, r, la, lb in rows]
    g = math.exp(sum(math.log(r[3]) for r in rows) / len(rows))
    lines += ['', f'* {len(rows)} versions placed differently: {na}/{nb} geomean {g:.3f}, '
              f'range {min(r[3] for r in rows):.3f}-{max(r[3] for r in rows):.3f}']
    emit('\n'.join(lines) + '\n', a.out)


if __name__ == '__main__':
    main()
