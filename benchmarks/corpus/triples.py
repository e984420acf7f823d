#!/usr/bin/env python3
"""triples.py - the re-check triples of one kernel in CUPTI traces, as CUPTI timed them.

    triples.py --orig NAME --clone NAME TRACE.tsv...

TRACE: the file kerntime.so writes (KERNTIME_OUT: start ns, end ns, a
count, the kernel's name; one line per kernel execution).  NAME: the
mangled names of the original and of the chosen clone.  Among the
launches of those two, in start order, every original launch with a clone
launch on each side is a triple (a re-check, or a tuning pair); its ratio
is the original's time over the mean (geometric) of its two neighbours':
what a re-check pair should read.  Prints per trace the launch number
(1-based among the two kernels' launches) and ratio of each triple, then
the range over all.  Python 3 standard library only.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rechecks  # noqa: E402


def raw_launches(path):
    """requires path a kerntime trace; returns [(start ns, ms, name)] of its kernels in start order"""
    rows = []
    with open(path) as f:
        for line in f:
            x = line.rstrip('\n').split('\t')
            if len(x) == 4:
                rows.append((int(x[0]), (int(x[1]) - int(x[0])) / 1e6, x[3]))
    return sorted(rows)


def triples(path, orig, clone):
    """requires path a kerntime trace; returns [(launch number, ratio)]"""
    seq = [(ms, 1, 'orig' if name == orig else 'clone')
           for _, ms, name in raw_launches(path) if name in (orig, clone) and ms > 0]
    return [(i + 1, math.exp(-x)) for i, _, x in rechecks.triples(seq)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--orig', required=True, help="the original's mangled name")
    ap.add_argument('--clone', required=True, help="the chosen clone's mangled name")
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    every = []
    for path in a.traces:
        t = triples(path, a.orig, a.clone)
        every += [r for _, r in t]
        print('%s: %s' % (path, ' '.join('%d:%.3f' % x for x in t) or 'none'))
    if not every:
        sys.exit('triples.py: no triple of %s between launches of %s' % (a.orig, a.clone))
    print('%d triples, original / clone %.3f-%.3f' % (len(every), min(every), max(every)))


if __name__ == '__main__':
    main()
