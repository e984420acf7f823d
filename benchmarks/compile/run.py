#!/usr/bin/env python3
"""Compile time: orion-cc against plain clang++ on the repo's kernels.

For each source (examples/*.cu, test/lit/e2e/*.cu, benchmarks/programs/*.cu)
compile to an object file with plain clang++ (the flags orion-cc adds for
nvcc compatibility included, so only Orion's own work differs) and with
orion-cc, alternating, --repeat times each; report the median wall time of
each and their ratio.  Ratios are taken in the same run; absolute times on a
shared 2-core machine mean little.

Usage: benchmarks/compile/run.py [--build DIR] [--repeat N] [--out DIR]
Writes compile.csv and compile.md into --out (default: this directory).
"""
import argparse
import csv
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def timed(cmd, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"compile: error: {' '.join(cmd)} failed:\n{r.stderr}")
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    a = ap.parse_args()
    orion_cc = os.path.join(a.build, "bin", "orion-cc")
    if not os.access(orion_cc, os.X_OK):
        sys.exit(f"compile: error: {orion_cc} not found; build first (scripts/setup.sh)")
    srcs = sorted(glob.glob(os.path.join(ROOT, "examples/*.cu")) +
                  glob.glob(os.path.join(ROOT, "test/lit/e2e/*.cu")) +
                  glob.glob(os.path.join(ROOT, "benchmarks/programs/*.cu")))
    common = ["-O3", "--cuda-gpu-arch=sm_90", "-c"]
    plain = [a.clang, "-x", "cuda", f"--cuda-path={a.cuda}", "-Wno-unknown-cuda-version",
             "-isystem", os.path.join(a.cuda, "include", "cccl"),
             "-mllvm", "-nvvm-reflect-add=__CUDA_PREC_SQRT=1"]
    rows = []
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORION_")}
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "x.o")
        for src in srcs:
            tp, to = [], []
            for _ in range(a.repeat):
                tp.append(timed(plain + common + [src, "-o", obj], env))
                to.append(timed([orion_cc] + common + [src, "-o", obj], env))
            mp, mo = statistics.median(tp), statistics.median(to)
            rows.append({"source": os.path.relpath(src, ROOT), "clang_s": round(mp, 3),
                         "orion_cc_s": round(mo, 3), "ratio": round(mo / mp, 2)})
            print(f"{rows[-1]['source']}: clang {mp:.2f}s orion-cc {mo:.2f}s ratio {mo / mp:.2f}")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "compile.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    gm = statistics.geometric_mean([r["ratio"] for r in rows])
    worst = max(r["ratio"] for r in rows)
    with open(os.path.join(a.out, "compile.md"), "w") as f:
        f.write("# Compile time: orion-cc / clang++ -O3 (sm_90, -c)\n\n")
        f.write(f"Command: `benchmarks/compile/run.py --repeat {a.repeat}`; medians, "
                f"{os.cpu_count()}-core machine.\n\n")
        f.write(f"**Geometric mean ratio {gm:.2f}x, worst {worst:.2f}x.**\n\n")
        f.write("| source | clang (s) | orion-cc (s) | ratio |\n|---|---:|---:|---:|\n")
        for r in rows:
            f.write(f"| {r['source']} | {r['clang_s']} | {r['orion_cc_s']} | {r['ratio']} |\n")
    print(f"geometric mean ratio {gm:.2f}x, worst {worst:.2f}x")


if __name__ == "__main__":
    main()
