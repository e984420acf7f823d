#!/usr/bin/env python3
"""parity.py - Orion's device code against nvcc's, per corpus program.

    parity.py PROGRAMS_CSV [--previous PROGRAMS_CSV] [--causes parity-causes.txt]
              [--out parity.md]

PROGRAMS_CSV is analyze.py's programs.csv of one measurement (GPU kernel
time, medians): nvcc, clang (orion-cc --no-orion), Orion off and Orion
adaptive of the build under test.  "Orion's previous plain build" is by
default the clang column (orion-cc --no-orion: clang's pipeline, the device
code Orion built before its code-generation defaults), or with --previous
the off column of another programs.csv.
--causes: lines `program<TAB or spaces>cause`, the named cause of a loss
against nvcc (# comments).  Writes a Markdown table: each time, the ratios to
nvcc, and for every program where Orion adaptive is more than 2 % slower than
nvcc its cause, or "not named" (the table says how many).  Then the checks:
adaptive within 2 % of nvcc (goal: 95 % of programs), adaptive against the
previous plain build (goal: never more than 1 % slower), and the geometric
mean of adaptive/nvcc.  Python 3 standard library only.
"""
import argparse
import math
import sys

from analyze import fmt, ratio, read_csv

LOSS = 1.02     # slower than nvcc by more than this: a loss that needs a cause
PREV = 1.01     # slower than the previous plain build by more than this: a regression


def read_programs(path):
    """requires analyze.py's programs.csv; returns {program: row}"""
    rows = read_csv(path)
    if not rows:
        sys.exit('parity.py: %s: no programs' % path)
    return {r['program']: r for r in rows}


def read_causes(path):
    """requires lines `program cause...`; returns {program: cause}"""
    causes = {}
    if not path:
        return causes
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                prog, *cause = line.split(None, 1)
                causes[prog] = cause[0] if cause else ''

    return causes


def num(row, key):
    v = row.get(key, '') if row else ''
    try:
        return float(v)
    except ValueError:
        return None


def table(progs, prev, causes):
    """returns the Markdown table lines and the per-program ratios"""
    lines = ['| program | nvcc ms | clang ms | off ms | adaptive ms | clang/nvcc | off/nvcc '
             '| adaptive/nvcc | adaptive/previous | cause of a loss > 2 % |',
             '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|']
    stats = []
    for p in sorted(progs):
        r = progs[p]
        nv, cl, off, ad = (num(r, k) for k in ('nvcc_ms', 'clang_ms', 'off_ms', 'adaptive_ms'))
        po = num(prev.get(p), 'off_ms') if prev else cl
        a_nv, a_prev = ratio(ad, nv), ratio(ad, po)
        cause = ''
        if a_nv is not None and a_nv > LOSS:
            cause = causes.get(p, 'not named')
        stats.append((p, a_nv, a_prev, cause, ratio(cl, nv)))
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            p, fmt(nv), fmt(cl), fmt(off), fmt(ad), fmt(ratio(cl, nv), '.3f'),
            fmt(ratio(off, nv), '.3f'), fmt(a_nv, '.3f'), fmt(a_prev, '.3f'), cause))
    return lines, stats


def checks(stats):
    """returns the check lines"""
    have = [s for s in stats if s[1] is not None]
    within = [s for s in have if s[1] <= LOSS]
    out = ['* Orion adaptive within 2 %% of nvcc: %d of %d programs (%.0f %%, goal 95 %%)'
           % (len(within), len(have), 100.0 * len(within) / max(1, len(have)))]
    unnamed = [s[0] for s in have if s[3] == 'not named']
    out.append('* Losses > 2 %% without a named cause: %d%s' % (
        len(unnamed), (' (' + ', '.join(unnamed) + ')') if unnamed else ''))
    if have:
        g = math.exp(sum(math.log(s[1]) for s in have) / len(have))
        out.append('* Geometric mean of adaptive/nvcc: %.3f' % g)
    cl = [s[4] for s in have if s[4]]
    if cl:
        g = math.exp(sum(math.log(x) for x in cl) / len(cl))
        out.append('* Geometric mean of clang/nvcc: %.3f (within 2 %%: %d of %d)'
                   % (g, sum(1 for x in cl if x <= LOSS), len(cl)))
    prev = [s for s in stats if s[2] is not None]
    if prev:
        worse = ['%s %.3f' % (s[0], s[2]) for s in prev if s[2] > PREV]
        out.append('* Adaptive against the previous plain build: more than 1 %% slower on %d of '
                   '%d%s' % (len(worse), len(prev), (': ' + ', '.join(worse)) if worse else ''))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('programs', help="analyze.py's programs.csv of the build under test")
    ap.add_argument('--previous', default='', help="programs.csv of Orion's previous build")
    ap.add_argument('--causes', default='', help='program cause lines')
    ap.add_argument('--out', default='-', help='the Markdown file (default: stdout)')
    a = ap.parse_args()
    progs = read_programs(a.programs)
    prev = read_programs(a.previous) if a.previous else {}
    lines, stats = table(progs, prev, read_causes(a.causes))
    prev_what = ('off of ' + a.previous) if a.previous else 'clang (orion-cc --no-orion)'
    text = '\n'.join(['# Device code: Orion against nvcc', '',
                      'GPU kernel time per program (ms, medians; analyze.py). clang = '
                      'orion-cc --no-orion; off and adaptive: the Orion build under ORION_MODE=off '
                      'and adaptive; previous: ' + prev_what + '.', ''] + lines +
                     ['', '## Checks', ''] + checks(stats)) + '\n'
    if a.out == '-':
        sys.stdout.write(text)
    else:
        with open(a.out, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
