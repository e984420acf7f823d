#!/usr/bin/env python3
"""merge-raw.py - measure.py result directories joined into one, leaving out
the programs a later build changed.

    merge-raw.py OUTDIR RAWDIR[:CHANGED[,CHANGED...]][@MODE[,MODE...]]...

Each RAWDIR's kernels.csv, runs.csv, tags.csv and choices.csv go to
OUTDIR/<n>/ (n = its position), without the rows of programs that any
CHANGED file (changed.sh output: `<program> same|differs|missing`) marks
`differs`: their device code is no longer the build under test, and a later
RAWDIR holds their runs.  @MODEs: only the rows of those modes (files with
a mode column), e.g. a pack-ab.sh measurement without its `clang` mode,
which timed another Orion build.  analyze.py OUTDIR/* then reads them as one
measurement.  Python 3 standard library only.
"""
import csv
import os
import shutil
import sys

NAMES = ('kernels', 'runs', 'tags', 'choices')


def changed(paths):
    """requires changed.sh outputs; returns the programs marked differs"""
    out = set()
    for p in paths:
        with open(p) as f:
            out |= {w[0] for w in (line.split() for line in f) if len(w) == 2 and w[1] == 'differs'}
    return out


def copy(raw, dst, drop, modes):
    """requires a measure.py --out directory; copies it to dst without drop,
    only the rows of modes where given"""
    os.makedirs(dst, exist_ok=True)
    for name in NAMES:
        src = os.path.join(raw, name + '.csv')
        if not os.path.exists(src):
            continue
        with open(src, newline='') as f, open(os.path.join(dst, name + '.csv'), 'w',
                                              newline='') as g:
            rows = csv.reader(f)
            w = csv.writer(g)
            head = next(rows)
            m = head.index('mode') if modes and 'mode' in head else -1
            w.writerow(head)
            w.writerows(r for r in rows
                        if r and r[0] not in drop and (m < 0 or r[m] in modes))
    if os.path.exists(os.path.join(raw, 'programs.txt')):
        shutil.copy(os.path.join(raw, 'programs.txt'), dst)


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        sys.exit(__doc__.strip())
    out = sys.argv[1]
    for i, spec in enumerate(sys.argv[2:], 1):
        spec, _, modes = spec.partition('@')
        raw, _, lists = spec.partition(':')
        if not os.path.isdir(raw):
            sys.exit('merge-raw.py: %s: not a directory' % raw)
        drop = changed([p for p in lists.split(',') if p])
        copy(raw, os.path.join(out, str(i)), drop, {m for m in modes.split(',') if m})
        print('merge-raw.py: %s -> %s/%d (%d programs left out)' % (raw, out, i, len(drop)))


if __name__ == '__main__':
    main()
