#!/usr/bin/env python3
"""Direction agreement: max-live (OrionPass) vs ptxas's register count.

For every CUDA source in the repo's examples, tests and benchmarks
(examples/*.cu, test/lit/e2e/*.cu,
test/lit/pass/*.cu, benchmarks/programs/*.cu), compile the device side with
clang 22 + OrionPass (ORION_CC_REPORT collects each kernel's max-live, threshold
and predicted direction), assemble the PTX with ptxas -v, and compare the
predicted direction with the one ptxas's register count for the original
(uncapped) kernel implies: increasing iff registers >= threshold (the same
rule, Fig. 8, applied to the real allocation).

Usage: benchmarks/agreement/run.py [--build DIR] [--out DIR]
Writes DIR/agreement.csv and DIR/agreement.md (default: this directory) and
prints the agreement figure.  Needs no GPU.
"""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("--arch", default="sm_90")
    a = ap.parse_args()
    plugin = os.path.join(a.build, "lib", "OrionPass.so")
    if not os.path.exists(plugin):
        sys.exit(f"agreement: error: {plugin} not found; build first (scripts/setup.sh)")
    srcs = sorted(glob.glob(os.path.join(ROOT, "examples/*.cu")) +
                  glob.glob(os.path.join(ROOT, "test/lit/e2e/*.cu")) +
                  glob.glob(os.path.join(ROOT, "test/lit/pass/*.cu")) +
                  glob.glob(os.path.join(ROOT, "benchmarks/programs/*.cu")))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for src in srcs:
            rep = os.path.join(tmp, "report.jsonl")
            if os.path.exists(rep):
                os.remove(rep)
            ptx = os.path.join(tmp, "k.ptx")
            env = dict(os.environ, ORION_CC_REPORT=rep, ORION_MAX_VERSIONS="1")
            cmd = [a.clang, "-x", "cuda", f"--cuda-path={a.cuda}", f"--cuda-gpu-arch={a.arch}",
                   "-Wno-unknown-cuda-version", "--cuda-device-only", "-O3",
                   "-isystem", os.path.join(a.cuda, "include", "cccl"),
                   "-mllvm", "-nvvm-reflect-add=__CUDA_PREC_SQRT=1",
                   f"-fpass-plugin={plugin}", "-S", src, "-o", ptx]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"agreement: skipping {src}: clang failed:\n{r.stderr}", file=sys.stderr)
                continue
            r = subprocess.run([os.path.join(a.cuda, "bin", "ptxas"), f"-arch={a.arch}", "-v", ptx,
                                "-o", os.path.join(tmp, "k.cubin")], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"agreement: skipping {src}: ptxas failed:\n{r.stderr}", file=sys.stderr)
                continue
            regs, cur = {}, None
            for line in r.stderr.splitlines():
                m = re.search(r"Compiling entry function '([^']+)'", line)
                if m:
                    cur = m.group(1)
                m = re.search(r"Used (\d+) registers", line)
                if m and cur:
                    regs[cur] = int(m.group(1))
                    cur = None
            with open(rep) as f:
                for line in f:
                    k = json.loads(line)
                    name = k["kernel"]
                    if name not in regs:
                        continue
                    pred = k["direction"]
                    real = "increasing" if regs[name] >= k["threshold"] else "decreasing"
                    rows.append({
                        "source": os.path.relpath(src, ROOT), "kernel": name,
                        "max_live": k["max_live"], "ptxas_regs": regs[name],
                        "threshold": k["threshold"], "block": k["block"],
                        "predicted": pred, "ptxas_implied": real,
                        "agree": int(pred == real)})
    if not rows:
        sys.exit("agreement: error: no kernels compiled")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "agreement.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    n, ok = len(rows), sum(r["agree"] for r in rows)
    with open(os.path.join(a.out, "agreement.md"), "w") as f:
        f.write("# Direction agreement: max-live vs ptxas registers\n\n")
        f.write(f"Command: `benchmarks/agreement/run.py` (clang 22 + OrionPass, ptxas -v, {a.arch}).\n\n")
        f.write(f"**{ok} of {n} kernels agree ({100.0 * ok / n:.1f} %).**\n\n")
        f.write("| source | kernel | max-live | ptxas regs | threshold | block | predicted | ptxas implies |\n")
        f.write("|---|---|---:|---:|---:|---:|---|---|\n")
        for r in rows:
            mark = "" if r["agree"] else " **(differs)**"
            f.write(f"| {r['source']} | `{r['kernel']}` | {r['max_live']} | {r['ptxas_regs']} | "
                    f"{r['threshold']} | {r['block']} | {r['predicted']} | {r['ptxas_implied']}{mark} |\n")
    print(f"direction agreement: {ok}/{n} kernels = {100.0 * ok / n:.1f} %")


if __name__ == "__main__":
    main()
