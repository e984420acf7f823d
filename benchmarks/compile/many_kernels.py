#!/usr/bin/env python3
"""many_kernels.py - compile time and peak memory on one file of many kernels.

    many_kernels.py [--kernels 2000] [--runs 3] [--orion-cc build/bin/orion-cc]
                    [--jobs N] [--out results/many_kernels.csv]

Writes a .cu file of N small, distinct kernels (a loop of arithmetic each,
so that every one gets the full set of versions) into a temporary folder
and compiles it to an object (`-O3 --cuda-gpu-arch=sm_90 -c`) with
`orion-cc --no-orion` (clang 22 alone) and with `orion-cc`, alternating,
runs times each.  Prints, per compiler, the median wall time and the peak
resident memory of the largest process of the compile (getrusage of the
waited-for children: clang, cc1, ptxas one after another), and the ratios.
--jobs sets ORION_PTXAS_JOBS for the Orion build (default: unset, the
driver's own choice).  A CPU-time figure: the machine's load matters.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

KERNEL = """__global__ void k{i}(const float *__restrict__ a, float *__restrict__ b, int n, float s) {{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = {i}.0f;
  for (int j = t; j < n; j += gridDim.x * blockDim.x) {{
    float x = a[j];
    acc = acc * s + x * x - {c}.5f * x;
    if (acc > 1e6f) acc = acc * 1e-6f;
  }}
  if (t < n) b[t] = acc;
}}
"""


def source(n):
    return "".join(KERNEL.format(i=i, c=i % 7) for i in range(n))


def run_once(cmd, env):
    """(wall seconds, peak RSS in MiB of the largest process) of one run of cmd:
    wait4's resource usage covers the child and every process it waited for."""
    with tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            sys.exit(f"many_kernels: {' '.join(cmd)} failed (exit {p.returncode}):\n"
                     f"{err.read()[-2000:].decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--orion-cc", default=os.path.join(here, "..", "..", "build", "bin", "orion-cc"))
    ap.add_argument("--jobs", help="ORION_PTXAS_JOBS for the Orion build")
    ap.add_argument("--out", help="append one CSV row per compiler here")
    a = ap.parse_args()
    if a.kernels < 1 or a.runs < 1:
        ap.error("--kernels and --runs must be at least 1")
    cc = os.path.abspath(a.orion_cc)
    if not os.access(cc, os.X_OK):
        sys.exit(f"many_kernels: {cc}: not an executable (build Orion first)")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "many.cu")
        with open(src, "w") as f:
            f.write(source(a.kernels))
        base = ["-O3", "--cuda-gpu-arch=sm_90", "-c", src, "-o", os.path.join(tmp, "many.o")]
        env = dict(os.environ)
        env.pop("ORION_CC_REPORT", None)
        oenv = dict(env)
        if a.jobs is not None:
            oenv["ORION_PTXAS_JOBS"] = a.jobs
        builds = [("clang", [cc, "--no-orion"] + base, env), ("orion", [cc] + base, oenv)]
        res = {name: [] for name, _, _ in builds}
        for _ in range(a.runs):
            for name, cmd, e in builds:
                res[name].append(run_once(cmd, e))
    rows = []
    for name, _, _ in builds:
        walls = [w for w, _ in res[name]]
        peaks = [p for _, p in res[name]]
        rows.append((name, statistics.median(walls), min(walls), max(walls), max(peaks)))
        print(f"{name:6s} wall median {statistics.median(walls):7.2f} s (min {min(walls):.2f}, "
              f"max {max(walls):.2f}), peak RSS {max(peaks):7.1f} MiB")
    ratio_t = rows[1][1] / rows[0][1]
    print(f"orion/clang: time {ratio_t:.2f}x, peak memory {rows[1][4]:.0f} MiB "
          f"({a.kernels} kernels, {a.runs} runs, {os.cpu_count()} cores, ORION_PTXAS_JOBS="
          f"{a.jobs if a.jobs is not None else 'unset'})")
    if a.out:
        new = not os.path.exists(a.out)
        with open(a.out, "a") as f:
            if new:
                f.write("kernels,runs,cores,jobs,build,wall_median_s,wall_min_s,wall_max_s,peak_rss_mib\n")
            for name, med, lo, hi, peak in rows:
                f.write(f"{a.kernels},{a.runs},{os.cpu_count()},{a.jobs or ''},{name},"
                        f"{med:.2f},{lo:.2f},{hi:.2f},{peak:.1f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
