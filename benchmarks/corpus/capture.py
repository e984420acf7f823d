#!/usr/bin/env python3
"""capture.py - how one Orion mode (split, say) does against the fixed
versions that analyze.py found, where that mode ran in other calls.

    capture.py --kernels KERNELS.csv --mode split RAW [RAW...] [--per-kernel] [--out FILE.md]

KERNELS.csv: analyze.py's per-kernel table (orig_ms, oracle_ms, best_tag,
best_gain from the fixed versions timed alone).  RAW: measure.py
directories with `off` and MODE runs; a program in several takes the last;
run -1 (the untimed run that fills a cache for mode cached) is no sample.
Per kernel, the mode's median GPU time is set against `off` of the same
runs, and the oracle is carried over as a ratio to the original:
    oracle/mode = (oracle_ms / orig_ms) * (off / mode)
    captured    = (off - mode) / (off - off * oracle_ms / orig_ms)
Prints the programs' mode/off (<= 1.01 is the do-no-harm bound), the
kernels of 1 ms or more (off's total, as analyze.py) at >= 0.98 x oracle, and
the wins (>= 3 %, as analyze.py counts them: any length) captured to 80 %.
--per-kernel: where RAW has measure.py's mode wins (alone:<tag>:<kernel>:
that kernel on its best version, every other kernel on the original), the
kernel's oracle and gain are those runs' median against off's, not
KERNELS.csv's (whose fixed:<tag> runs put every kernel on the tag), and a
win is one of >= 3 % that way.  Python 3 standard library only.
"""
import argparse
import csv
import os
import statistics
from collections import defaultdict

from analyze import emit, read_raw


def runs(raw, mode):
    """{program: {kernel: [ns per run]}} and {program: [total ns per run]} of mode in raw"""
    per, tot = defaultdict(lambda: defaultdict(list)), defaultdict(lambda: defaultdict(int))
    with open(os.path.join(raw, 'kernels.csv'), newline='') as f:
        for r in csv.DictReader(f):
            if r['mode'] == mode and int(r['run']) >= 0:  # run -1: the run that fills a cache
                per[r['program']][r['kernel']].append(int(r['gpu_ns']))
                tot[r['program']][r['run']] += int(r['gpu_ns'])
    return per, {p: list(v.values()) for p, v in tot.items()}


def alone(raws):
    """{(program, kernel, tag): [ns per run]} of the kernel in mode alone:<tag>:<kernel>"""
    out = defaultdict(list)
    for r in read_raw(raws, 'kernels'):
        m = r['mode'].split(':', 2)
        if m[0] == 'alone' and len(m) == 3 and m[2] == r['kernel'] and int(r['run']) >= 0:
            out[(r['program'], r['kernel'], m[1])].append(int(r['gpu_ns']))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+')
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--mode', default='split')
    ap.add_argument('--per-kernel', action='store_true',
                    help="oracles and wins from mode wins's runs where RAW has them")
    ap.add_argument('--out')
    a = ap.parse_args()
    solo = alone(a.raw) if a.per_kernel else {}
    off_k, mode_k, off_t, mode_t = {}, {}, {}, {}
    for raw in a.raw:
        ok, ot = runs(raw, 'off')
        mk, mt = runs(raw, a.mode)
        for p in set(ok) & set(mk):
            off_k[p], mode_k[p], off_t[p], mode_t[p] = ok[p], mk[p], ot[p], mt[p]
    med = statistics.median
    out = [f'# {a.mode} against off and the fixed versions (capture.py)', '',
           '| program | off ms | ' + a.mode + ' ms | ' + a.mode + '/off |', '|---|---:|---:|---:|']
    harm = []
    for p in sorted(off_t):
        o, m = med(off_t[p]) / 1e6, med(mode_t[p]) / 1e6
        out.append(f'| {p} | {o:.4g} | {m:.4g} | {m / o:.3f} |')
        harm += [p] if m > 1.01 * o else []
    sel, wins, rows = [], [], []
    with open(a.kernels, newline='') as f:
        for r in csv.DictReader(f):
            p, k = r['program'], r['kernel']
            if p not in off_k or not r['oracle_ms'] or not (off_k[p].get(k) and mode_k[p].get(k)):
                continue
            orig, oracle = float(r['orig_ms']), float(r['oracle_ms'])
            o, m = med(off_k[p][k]) / 1e6, med(mode_k[p][k]) / 1e6
            gain = float(r['best_gain'] or 0)
            if solo.get((p, k, r['best_tag'])):  # --per-kernel: the others on the original
                orig, oracle = o, min(o, med(solo[(p, k, r['best_tag'])]) / 1e6)
                gain = o / oracle - 1
            if float(r['off_ms'] or 0) >= 1:  # as analyze.py: the off runs' total
                sel.append((p, k, oracle / orig * o / m))
            if gain >= 0.03:
                cap = (o - m) / (o - o * oracle / orig)
                wins.append(cap)
                rows.append(f"| {p} | {k[:40]} | {r['best_tag']} | {gain:.1%} | {o:.4g} | {m:.4g} "
                            f"| {cap:.0%} | {r['captured'] and format(float(r['captured']), '.0%')} |")
    n = len(off_t)
    out += ['', f'* {a.mode} <= 1.01 x off: {n - len(harm)} of {n} programs'
            + (f" (over: {', '.join(harm)})" if harm else ''),
            f'* {a.mode} >= 0.98 x oracle on kernels >= 1 ms: '
            f'{sum(q >= 0.98 for *_, q in sel)} of {len(sel)}',
            f'* wins >= 3 %: {a.mode} captures >= 80 % on {sum(c >= 0.8 for c in wins)} of {len(wins)}',
            '', f'| program | kernel | best | gain | off ms | {a.mode} ms | {a.mode} captured | '
            'adaptive captured in KERNELS.csv |', '|---|---|---|---:|---:|---:|---:|---:|'] + rows
    emit(out, a.out)


if __name__ == '__main__':
    main()
