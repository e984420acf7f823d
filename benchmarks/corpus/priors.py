#!/usr/bin/env python3
"""priors.py - the runtime's stake priors against what the versions cost.

  priors.py KERNELS_CSV RAW_DIR... [--min-ms F]

Before a candidate's first pair, liborionrt stakes on it a prior loss
(runtime/plan.c, orion_plan_risk): 0.03 for a register-capped version
that needs no more local memory than the original, 0.15 / 0.5 / 1 for one
that needs up to 32, 256 or more bytes more, and for a padding version half
the warps it gives up (0.05 at least).  Here each prior is set against the
version's measured loss: fixed:<tag> / fixed:orig - 1 of the kernel in
KERNELS_CSV (analyze.py's kernels.csv: `orig_ms`, `fixed` tag=ms, GPU time
per kernel, medians), the versions and priors read from the adaptive
runs' reports in RAW_DIR/traces/<program>.adaptive.*.json (measure.py
--traces).  Kernels whose original takes less than --min-ms (default 1) in
all are left out (their ratios are noise).

Prints, per kind of version and prior: versions, the median and 90th
percentile of the loss, how many lose more than the prior, how many win.
"""
import argparse
import csv
import glob
import json
import os
import statistics


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def priors(raws):
    """{(program, kernel): {tag: (kind, risk)}} from the adaptive reports."""
    out = {}
    for raw in raws:
        for path in glob.glob(os.path.join(raw, "traces", "*.adaptive.*.json")):
            program = os.path.basename(path).split(".")[0]
            with open(path) as f:
                rep = json.load(f)
            for c in rep.get("configs", []):
                vs = out.setdefault((program, c["kernel"]), {})
                for v in c.get("versions", []):
                    if v["tag"] != c.get("original") and "risk" in v:
                        vs[v["tag"]] = ("padding" if v.get("pad") else "registers", round(v["risk"], 3))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels")
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--min-ms", type=float, default=1.0)
    o = ap.parse_args()
    pri = priors(o.raw)
    rows = {}
    with open(o.kernels) as f:
        for r in csv.DictReader(f):
            try:
                orig = float(r["orig_ms"])
            except ValueError:
                continue
            if orig < o.min_ms:
                continue
            vs = pri.get((r["program"], r["kernel"]), {})
            for kv in r["fixed"].split():
                tag, ms = kv.split("=")
                if tag in vs:
                    rows.setdefault(vs[tag], []).append((float(ms) / orig - 1, r["program"], r["kernel"], tag))
    print("| version | prior | versions | median loss | 90th pct | lose more than the prior | win |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (kind, risk), xs in sorted(rows.items()):
        loss = [x for x, *_ in xs]
        over = sum(x > risk for x in loss)
        print(f"| {kind} | {risk:g} | {len(loss)} | {statistics.median(loss):+.3f} | "
              f"{quantile(loss, 0.9):+.3f} | {over} ({100 * over / len(loss):.0f} %) | "
              f"{sum(x < 0 for x in loss)} |")
    print()
    for (kind, risk), xs in sorted(rows.items()):
        worst = sorted(xs, reverse=True)[:3]
        print(f"{kind} {risk:g}, the worst: " +
              "; ".join(f"{p} {k[:40]} {t} {x:+.2f}" for x, p, k, t in worst))


if __name__ == "__main__":
    main()
