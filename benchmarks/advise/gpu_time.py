#!/usr/bin/env python3
"""benchmarks/advise/gpu_time.py - time the programs of one or more packs
(blocksize.sh, fixes-pack.sh) on a GPU, each kernel's own GPU time.

    gpu_time.py --out times.csv [--rounds 3] [--deadline S] [--kerntime SO] PACK_DIR...

Each PACK_DIR holds runs.txt ("program variant kernel-prefix command..."
a line; the command runs in PACK_DIR/program), and kerntime.so with
libcupti (blocksize.sh's pack has them; --kerntime names one for every
pack) (benchmarks/runtime/kerntime.c: CUPTI's activity records, the GPU start and
end of every kernel).  Rounds are interleaved: round r runs every line of
every pack once, in file order, before round r + 1 starts, so drift over
the call falls on every variant alike.  Each run is traced through
CUDA_INJECTION64_PATH; per kernel (mangled name, beginning with the line's
prefix) the sum of its executions' GPU time over the run and their count
are one row of times.csv (pack, program, variant, round, kernel, ns,
launches, rc, wall_s); a run that fails or times out gives a row with
kernel "-" and its exit status.  No run starts once --deadline seconds
have passed since the start, so a call cut short still leaves whole rows.
"""
import argparse
import csv
import os
import subprocess
import sys
import time


def trace_totals(path, prefix):
    """requires a KERNTIME_OUT file; returns {kernel: [ns, launches]}"""
    per = {}
    with open(path) as f:
        for line in f:
            p = line.rstrip('\n').split('\t')
            if len(p) < 4 or line.startswith('#') or not p[3].startswith(prefix):
                continue
            e = per.setdefault(p[3], [0, 0])
            e[0] += int(p[1]) - int(p[0])
            e[1] += 1
    return per


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--deadline', type=float, default=1e9)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--kerntime', help="the tracer for every pack (default: each pack's own)")
    ap.add_argument('packs', nargs='+')
    a = ap.parse_args()
    start = time.time()
    runs = []
    for pk in a.packs:
        with open(os.path.join(pk, 'runs.txt')) as f:
            runs += [(pk, l.split()) for l in f if l.strip()]
    with open(a.out, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['pack', 'program', 'variant', 'round', 'kernel', 'ns', 'launches', 'rc', 'wall_s'])
        for r in range(a.rounds):
            for pk, (prog, variant, prefix, *cmd) in runs:
                if time.time() - start > a.deadline:
                    print(f'deadline: stopped in round {r}', file=sys.stderr)
                    return 0
                trace = os.path.abspath(f'{a.out}.trace')
                env = dict(os.environ, CUDA_INJECTION64_PATH=os.path.abspath(a.kerntime or os.path.join(pk, 'kerntime.so')),
                           KERNTIME_OUT=trace)
                t0 = time.time()
                try:
                    rc = subprocess.run(cmd, cwd=os.path.join(pk, prog), env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, timeout=a.timeout).returncode
                except subprocess.TimeoutExpired:
                    rc = 124
                wall = round(time.time() - t0, 3)
                name = os.path.basename(pk.rstrip('/'))
                per = trace_totals(trace, prefix) if rc == 0 and os.path.exists(trace) else {}
                for k, (ns, n) in sorted(per.items()):
                    w.writerow([name, prog, variant, r, k, ns, n, rc, wall])
                if not per:
                    w.writerow([name, prog, variant, r, '-', 0, 0, rc, wall])
                f.flush()
                if os.path.exists(trace):
                    os.remove(trace)
    return 0


if __name__ == '__main__':
    sys.exit(main())
