#!/usr/bin/env python3
"""colour_table.py - what slot colouring saves: every kernel the SASS rewrite
takes, its compressible-stack region per thread with and without colouring.

    colour_table.py ORION_SASS NAME=CUBIN... [--block N] [--out FILE.md]

Each CUBIN (named NAME in the table, e.g. the program) is rewritten with
`orion-sass rewrite --smem-frame --no-dynamic-smem --block N --partial
--colour` (N: 256 by default; the rewrite sizes a kernel without launch
bounds for N threads) into a scratch file; the `layouts` line of each
rewritten kernel gives the cstack region coloured and "(uncoloured X)".
One row per rewritten kernel, then how many are smaller coloured and the
total bytes per thread.  Nothing is timed: the figures are the rewrite's.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spill_table import emit  # noqa: E402

KERNEL = re.compile(r"^(\S+): rewritten: ")
LAYOUTS = re.compile(r"^\s+layouts \((\d+) functions?\): .*?cstack (\d+) B/thread(?: \(uncoloured (\d+)\))?")


def rows_of(sass, name, cubin, block):
    """[(name, kernel, functions, coloured, uncoloured)] of one cubin."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sass, "rewrite", "--smem-frame", "--no-dynamic-smem", "--block", str(block),
                            "--partial", "--colour", cubin, "-o", os.path.join(d, "out.cubin")],
                           capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"colour_table: {cubin}: orion-sass rewrite failed:\n{p.stderr}")
    out, kernel = [], None
    for line in p.stdout.splitlines():
        m = KERNEL.match(line)
        if m:
            kernel = m.group(1)
            continue
        m = LAYOUTS.match(line)
        if m and kernel:
            col = int(m.group(2))
            out.append((name, kernel, int(m.group(1)), col, int(m.group(3) or col)))
            kernel = None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sass")
    ap.add_argument("cubins", nargs="+", metavar="NAME=CUBIN")
    ap.add_argument("--block", type=int, default=256)
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = []
    for spec in a.cubins:
        name, _, cubin = spec.partition("=")
        if not cubin or not os.path.isfile(cubin):
            sys.exit(f"colour_table: '{spec}': expected NAME=CUBIN, an existing file")
        rows += rows_of(a.sass, name, cubin, a.block)
    if not rows:
        sys.exit("colour_table: no kernel was rewritten")
    lines = ["| program | kernel | functions | cstack B/thread coloured | uncoloured |", "|---|---|---:|---:|---:|"]
    lines += [f"| {n} | `{k[:60]}` | {f} | {c} | {u} |" for n, k, f, c, u in rows]
    smaller = [r for r in rows if r[3] < r[4]]
    lines += ["", f"* {len(rows)} rewritten kernels; smaller coloured: {len(smaller)}; "
              f"in all {sum(r[3] for r in rows)} B/thread coloured, {sum(r[4] for r in rows)} uncoloured"]
    emit("\n".join(lines) + "\n", a.out)


if __name__ == "__main__":
    main()
