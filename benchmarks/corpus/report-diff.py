#!/usr/bin/env python3
"""report-diff.py - what two builds decided differently, entry by entry, from
their build reports (orion-cc --orion-report; build.sh --reports).

    report-diff.py DIR_A DIR_B

DIR_A, DIR_B: directories of build reports, report.<program>.<pid>.json
(build.sh; keyed by program) or <program>.<build>.json (benchmarks/sass/
model-programs.sh; keyed by both).
Per ptxas entry (program and entry name): registers, warps/SM, shared
memory, block, status, spill path and on-chip placement.  Prints each entry
whose figures differ or that one side lacks, then the count.  Exit status 1
when any differs.  Python 3 standard library only.
"""
import glob
import json
import os
import sys


def decisions(d):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, '*.json'))):
        parts = os.path.basename(f).split('.')
        prog = parts[1] if parts[0] == 'report' else '.'.join(parts[:-1])
        with open(f) as fh:
            rep = json.load(fh)
        for b in rep.get('builds', []):
            for e in b.get('entries', []):
                s = e.get('spill') or {}
                out[(prog, e['name'])] = (e.get('registers'), e.get('warps'), e.get('smem'), e.get('block'),
                                          e.get('status'), s.get('path'), json.dumps(s.get('placement')))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    a, b = decisions(sys.argv[1]), decisions(sys.argv[2])
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    for k in diff:
        print(f'{k[0]} {k[1]}: {a.get(k)} -> {b.get(k)}')
    print(f'{len(diff)} of {len(set(a) | set(b))} entries differ')
    sys.exit(1 if diff else 0)


if __name__ == '__main__':
    main()
