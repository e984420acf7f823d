#!/usr/bin/env python3
"""tuning.py - how well liborionrt's adaptive selection does on the
benchmark programs (issue 4 acceptance): Orion-Select against the best
version found by exhaustive search, and the launches tuning took.

For each program built with orion-cc (default inputs):
  exhaustive   ORION_MODE=exhaustive: every version timed (3 samples after a
               warm-up launch); its report names each kernel's fastest;
  best         ORION_MODE=fixed:<kernel>=<fastest>,...: Orion-Max, the best
               versions from the first launch on, no tuning;
  select       ORION_MODE=adaptive, no cache: Orion-Select, tuning included;
  cached       ORION_MODE=adaptive with a cache filled by a previous run.
Each is run --repeat times, alternating, and the medians compared (every
run must pass the program's CPU check and print the same output checksum):
  kernel_ms    the program's own figure (median of its timed repetitions);
  total_ms     the sum over all its repetitions including the first (every
               launch, tuning included).
Writes CSV and Markdown; prints the Markdown.

usage: tuning.py --bin-dir DIR [--programs a,b] [--repeat 3] [--out PREFIX]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "eval"))
import benchlib  # noqa: E402


def run(binary, env_extra, report=False):
    """(RESULT fields, report JSON or None); raises unless the check passed."""
    r = benchlib.run_checked(binary, (), env_extra, report)
    return r.fields, r.report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--programs", default="")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="tuning")
    o = ap.parse_args()
    progs = benchlib.programs(o.bin_dir, o.programs)
    tmp = tempfile.mkdtemp(prefix="orion-tuning-")
    rows, kernel_rows = [], []
    for prog in progs:
        b = os.path.join(o.bin_dir, prog)
        _, exh = run(b, {"ORION_MODE": "exhaustive"}, True)
        best = {c["kernel"]: c["chosen"] for c in benchlib.tuned_configs(exh)}
        fixed = benchlib.fixed_mode(best) if best else "off"
        cache = os.path.join(tmp, prog + ".cache")
        run(b, {"ORION_MODE": "adaptive", "ORION_CACHE": cache})  # fills the cache
        res = {"best": [], "select": [], "cached": []}
        sel_report = None
        for _ in range(o.repeat):
            res["best"].append(run(b, {"ORION_MODE": fixed})[0])
            f, sel_report = run(b, {"ORION_MODE": "adaptive"}, True)
            res["select"].append(f)
            res["cached"].append(run(b, {"ORION_MODE": "adaptive", "ORION_CACHE": cache})[0])
        sums = {x["checksum"] for v in res.values() for x in v}
        if len(sums) != 1:
            raise RuntimeError(f"{prog}: outputs differ between versions: {sorted(sums)}")
        med = {m: {k: statistics.median(float(x[k]) for x in v) for k in ("kernel_ms", "total_ms")}
               for m, v in res.items()}
        iters = []
        for c in sel_report["configs"]:
            if len(c["versions"]) < 2:
                continue
            iters.append(c["iterations"])
            kernel_rows.append((prog, c["kernel"], "x".join(map(str, c["block"])),
                                " ".join(v["tag"] for v in c["versions"]), c["chosen"],
                                best.get(c["kernel"], "orig"), c["source"], c["iterations"],
                                c["launches"], c["split_launches"], c.get("settled_at", 0)))
        rows.append((prog, med["select"]["kernel_ms"], med["best"]["kernel_ms"],
                     med["best"]["kernel_ms"] / med["select"]["kernel_ms"],
                     med["select"]["total_ms"], med["best"]["total_ms"],
                     med["best"]["total_ms"] / med["select"]["total_ms"],
                     med["cached"]["total_ms"], med["best"]["total_ms"] / med["cached"]["total_ms"],
                     statistics.mean(iters) if iters else 0, len(iters)))
        print(f"{prog}: select/best kernel {rows[-1][3]:.3f} total {rows[-1][6]:.3f} "
              f"cached {rows[-1][8]:.3f} iterations {rows[-1][9]:.1f}", file=sys.stderr)
    with open(o.out + ".csv", "w") as f:
        f.write("program,select_kernel_ms,best_kernel_ms,best_over_select_kernel,select_total_ms,"
                "best_total_ms,best_over_select_total,cached_total_ms,best_over_cached_total,"
                "mean_iterations,tuned_configs\n")
        for r in rows:
            f.write("%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%d\n" % r)
    with open(o.out + "_kernels.csv", "w") as f:
        f.write("program,kernel,block,versions,select_chose,exhaustive_best,source,iterations,"
                "launches,split_launches,settled_at_launch\n")
        for r in kernel_rows:
            f.write("%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d\n" % r)
    md = ["| program | Select kernel ms | best kernel ms | best/Select | Select total ms | "
          "best total ms | best/Select (total, tuning incl.) | best/cached run (total) | "
          "mean tuning launches |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append("| %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.1f |" % (
            r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[8], r[9]))
    allit = [r[7] for r in kernel_rows]
    settled = [r[10] for r in kernel_rows if r[10] > 0]
    md.append("")
    md.append("Tuned configurations: %d; timed tuning launches (split chunks count one each): "
              "mean %.2f, max %d; settled within the program's launch number: mean %.2f, max %d "
              "(%d of %d settled)." % (
                  len(allit), statistics.mean(allit) if allit else 0, max(allit) if allit else 0,
                  statistics.mean(settled) if settled else 0, max(settled) if settled else 0,
                  len(settled), len(kernel_rows)))
    with open(o.out + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    sys.exit(main())
