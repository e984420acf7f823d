#!/usr/bin/env python3
"""model_table.py - orion-ptxas's placement model (policy auto) against
local spills and against the policy before it, on every spilling version.

    model_table.py --raw local=DIR --raw auto=DIR --raw old=DIR \\
                   --reports auto=DIR --reports old=DIR [--one-assembly] [--out FILE.md] [--csv FILE.csv]

Each DIR of --raw: measure.py result directories (comma-separated) of the
same programs built three ways, run with --modes fixed (every version
alone): local (ORION_PTXAS_SPILL=off), auto (the default, with the model)
and old (the default before the model: whole frames wherever they fit).
--reports NAME=DIR: the build reports of that build (build.sh --reports).

A row per register-capped version that spills or keeps a frame in the
auto build: what each build did with it (local memory, the whole frame on
chip, or part of it; the model's counts of local accesses and global
loads), its median GPU time under the three builds, the spread of its runs
((max - min) / median, the largest of the three), and local/auto and
local/old (above 1: faster than local spills).  Then, over those versions,
the geometric means, the worst, and how many run more than 2 % slower or
faster than local spills.  A version needs 3 ok runs in every build.
--one-assembly: the auto build as the default policy makes it now, which
assembles no version a second time: a version the report says was
"assembled at .maxnreg" for its base register counts as local memory, with
the local build's time (the same code).  Python 3 standard library only.
"""
import argparse
import csv
import os
import statistics

from spill_table import emit, geo, times
from spills import model_counts, placement, read_reports


def what(entry):
    """local, whole or part, and the model's counts, from a build report entry"""
    c = model_counts(entry)
    return placement(entry) + (f' ({c[0]}/{c[1]})' if c else '')


def spilling(entry):
    return entry.get('tag') != 'orig' and (entry.get('stack_frame') or (entry.get('spill') or {}).get('path') == 'sass'
                                           or ((entry.get('spill') or {}).get('before') or {}).get('stack_frame'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--raw', action='append', default=[], metavar='NAME=DIR')
    ap.add_argument('--reports', action='append', default=[], metavar='NAME=DIR')
    ap.add_argument('--one-assembly', action='store_true')
    ap.add_argument('--out')
    ap.add_argument('--csv')
    a = ap.parse_args()
    raw = dict(x.split('=', 1) for x in a.raw)
    rep = {n: read_reports(sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.json')))
           for n, d in (x.split('=', 1) for x in a.reports)}
    if set(raw) != {'local', 'auto', 'old'} or set(rep) != {'auto', 'old'}:
        ap.error('--raw local, auto and old; --reports auto and old')
    t = {n: times(d) for n, d in raw.items()}
    rows = []
    for key, e in sorted(rep['auto'].items()):
        ms = {n: t[n].get(key, []) for n in raw}
        if not spilling(e) or any(len(v) < 3 for v in ms.values()):
            continue
        med = {n: statistics.median(v) for n, v in ms.items()}
        spread = max((max(v) - min(v)) / statistics.median(v) for v in ms.values())
        auto = what(e)
        if a.one_assembly and 'assembled at .maxnreg' in str((e.get('spill') or {}).get('reason')):
            auto, med['auto'] = 'local (a second assembly)', med['local']
        rows.append(dict(program=key[0], kernel=key[1], tag=key[2], old=what(rep['old'].get(key)),
                         auto=auto, local_ms=med['local'], old_ms=med['old'], auto_ms=med['auto'],
                         spread=spread, vs_local_auto=med['local'] / med['auto'],
                         vs_local_old=med['local'] / med['old']))
    out = ['# The placement model against local spills and the policy before it (model_table.py)', '',
           '| program | kernel | version | old | auto (model: local accesses / global loads) | local ms '
           '| old ms | auto ms | spread | local/old | local/auto |', '|---|---|---|---|---|---:|---:|---:|---:|---:|---:|']
    for r in rows:
        out.append(f"| {r['program']} | `{r['kernel'][:40]}` | {r['tag']} | {r['old']} | {r['auto']} "
                   f"| {r['local_ms']:.4f} | {r['old_ms']:.4f} | {r['auto_ms']:.4f} | {r['spread']:.1%} "
                   f"| {r['vs_local_old']:.3f} | {r['vs_local_auto']:.3f} |")
    out.append('')
    for name in ('old', 'auto'):
        v = [r['vs_local_' + name] for r in rows]
        moved = [r for r in rows if not r[name].startswith('local')]
        worst = min(rows, key=lambda r: r['vs_local_' + name]) if rows else None
        out.append(f"* {name}: {len(moved)} of {len(rows)} versions on chip; local/{name} geomean {geo(v):.3f} "
                   f"over all, {geo([r['vs_local_' + name] for r in moved]):.3f} over those on chip; "
                   f"slower than local by > 2 %: {sum(x < 0.98 for x in v)}, faster by > 2 %: "
                   f"{sum(x > 1.02 for x in v)}; worst {worst and worst['vs_local_' + name]:.3f} "
                   f"({worst and worst['program']} {worst and worst['tag']})")
    emit('\n'.join(out) + '\n', a.out)
    if a.csv and rows:
        with open(a.csv + '.tmp', 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator='\n')
            w.writeheader()
            w.writerows(rows)
        os.replace(a.csv + '.tmp', a.csv)


if __name__ == '__main__':
    main()
