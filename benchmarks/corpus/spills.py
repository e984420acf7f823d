#!/usr/bin/env python3
"""spills.py - do register-capped versions that spill ever win?  The build
report's ptxas figures of each clone against its time alone on the GPU.

    spills.py --kernels results/<run>/kernels.csv REPORT.json... [--out FILE.md]

REPORT.json: the build reports of `build.sh ... --builds orion --reports DIR`
(DIR/report.<program>.<pid>.json: the program is the second dot-separated
field of the name).  kernels.csv: analyze.py's, with
the `fixed` column (tag=ms of each version alone).

Prints one row per capped clone (spill stores + loads in bytes as ptxas
reported after Orion's spill handling, stack frame, registers of the clone
and of the original, the spill path, and orig_ms / clone_ms: above 1 the
clone is faster alone), sorted by spill bytes, then a summary by spill
class.
"""
import argparse
import csv
import glob
import json
import re
import sys

from analyze import fixed_times


def model_counts(entry):
    """(local accesses, global loads) that orion-ptxas's placement model named in a
    build report entry's spill reason or note, or None"""
    s = (entry or {}).get('spill') or {}
    m = re.search(r'model: (\d+) local accesses, (\d+) global loads', f"{s.get('reason')} {s.get('sass')}")
    return (int(m.group(1)), int(m.group(2))) if m else None


def placement(entry):
    """where the build put a report entry's frame: 'whole' or 'part' on chip, or 'local'"""
    s = (entry or {}).get('spill') or {}
    if s.get('path') != 'sass':
        return 'local'
    return 'part' if (s.get('placement') or {}).get('partial') else 'whole'


def read_reports(paths):
    fig = {}
    for f in paths:
        parts = f.split('/')[-1].split('.')
        if len(parts) < 3:
            sys.exit(f'spills: {f}: expected <x>.<program>.<y>.json')
        prog = parts[1]
        try:
            with open(f) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            sys.exit(f'spills: {f}: {e}')
        for b in d.get('builds', []):
            for e in b.get('entries', []):
                fig[(prog, e['kernel'], e['tag'])] = e
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--out')
    ap.add_argument('reports', nargs='+')
    a = ap.parse_args()
    fig = read_reports([p for r in a.reports for p in sorted(glob.glob(r))])
    times = {}
    with open(a.kernels) as fh:
        for r in csv.DictReader(fh):
            for t, ms in fixed_times(r).items():
                times[(r['program'], r['kernel'], t)] = ms
    rows = []
    for (p, k, t), e in fig.items():
        if not t.startswith('r'):
            continue
        o, v = times.get((p, k, 'orig')), times.get((p, k, t))
        if o is None or v is None or v <= 0:
            continue
        oe = fig.get((p, k, 'orig'), {})
        sp = (e.get('spill_stores') or 0) + (e.get('spill_loads') or 0)
        rows.append((sp, e.get('stack_frame') or 0, p, k, t, e.get('registers'),
                     oe.get('registers'), o / v, (e.get('spill') or {}).get('path')))
    rows.sort()
    out = ['| spill st+ld (B) | frame (B) | program | kernel | version | regs | orig regs | orig/version alone | spill path |',
           '|---:|---:|---|---|---|---:|---:|---:|---|']
    for sp, fr, p, k, t, rg, org, ratio, path in rows:
        out.append(f'| {sp} | {fr} | {p} | `{k[:40]}` | {t} | {rg} | {org} | {ratio:.3f} | {path} |')
    out.append('')
    for lo, hi in ((0, 0), (1, 100), (101, 10 ** 9)):
        sel = [r for r in rows if lo <= r[0] <= hi]
        wins = [r for r in sel if r[7] > 1.01]
        best = max((r[7] for r in sel), default=float('nan'))
        out.append(f'* spill {lo}-{hi if hi < 10 ** 9 else "..."} B: {len(sel)} versions, '
                   f'{len(wins)} faster than the original by > 1 % alone (best {best:.3f})')
    text = '\n'.join(out) + '\n'
    if a.out:
        with open(a.out, 'w') as fh:
            fh.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
