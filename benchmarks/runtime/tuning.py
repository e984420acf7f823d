#!/usr/bin/env python3
"""tuning.py - how well liborionrt's adaptive selection does on the
benchmark programs: Orion-Select, tuning included,
against the best version exhaustive search finds, kernel by kernel; and the
launches tuning takes.

For each program built with orion-cc (default inputs):
  exhaustive   ORION_MODE=exhaustive: every version timed (3 samples after a
               warm-up launch); its report names each kernel's fastest;
  best         ORION_MODE=fixed:<kernel>=<fastest>,...: the best versions
               from the first launch on, no tuning (Orion-Max);
  select       ORION_MODE=adaptive, no cache: Orion-Select, tuning included;
  cached       ORION_MODE=adaptive with a cache filled by a previous run.
best, select and cached run --rounds times each, the order rotated by one
per round; every run must pass the program's CPU check and print the same
output checksum.  Under --kerntime (the CUPTI library kerntime.c) each run
records the GPU start and end of every kernel execution, clones and split
chunks included, so each kernel's GPU time summed over the whole run
(every launch, tuning included) is known exactly, without timing calls in
the program:
  kernel GPU ms   per original kernel, the sum over all its executions
                  (its clones' and chunks' too) in one run;
  best/Select     median over rounds of best's sum over median of Select's:
                  >= 0.98 is "within 2 %";
  rounds          the same ratio round by round (paired runs), min..max;
and per program, as the program reports it:
  total ms        its event-timed section summed over all repetitions
                  (host waits of tuning included), medians over rounds.
Iterations come from Select's reports: timed tuning launches per
configuration (split chunks and probes count one each) and the program
launch at which the configuration settled.  One untraced Select run per
program (it also fills the cache) shows its choices beside the traced
runs', so a choice the tracer changed would show.

Writes PREFIX.md, PREFIX.csv (per kernel), PREFIX_programs.csv and
PREFIX_configs.csv; prints the Markdown.

usage: tuning.py --bin-dir DIR --kerntime kerntime.so [--programs a,b]
                 [--rounds 5] [--out PREFIX]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "eval"))
import benchlib  # noqa: E402

def base_kernel(name):
    """The original kernel of an execution (clones and the split clone:
    benchlib.clone_split)."""
    split = benchlib.clone_split(name)
    return split[0] if split else name


def read_kerntime(path):
    """{kernel: [gpu_ms, executions]} from a kerntime.c trace."""
    out, dropped = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("# dropped"):
                dropped = int(line.split()[2])
                continue
            start, end, _blocks, name = line.rstrip("\n").split("\t", 3)
            if name == "kerntime_warm":  # the tracer's own warm-up kernel
                continue
            k = out.setdefault(base_kernel(name), [0.0, 0])
            k[0] += (int(end) - int(start)) * 1e-6
            k[1] += 1
    if dropped is None:
        raise RuntimeError(f"{path}: trace not finished (no '# dropped' line)")
    if dropped:
        raise RuntimeError(f"{path}: CUPTI dropped {dropped} records")
    return out


def run(binary, env_extra, kerntime, tmp, report=False):
    """(RESULT fields, report or None, {kernel: [gpu_ms, n]} or None)."""
    env = dict(env_extra)
    trace = None
    if kerntime:
        trace = os.path.join(tmp, "kerntime.tsv")
        env["CUDA_INJECTION64_PATH"] = kerntime
        env["KERNTIME_OUT"] = trace
    r = benchlib.run_checked(binary, (), env, report)
    return r.fields, r.report, read_kerntime(trace) if trace else None


def med(xs):
    return statistics.median(xs) if xs else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--kerntime", default="", help="kerntime.so (CUPTI); without it, "
                    "program totals only")
    ap.add_argument("--programs", default="")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default="tuning")
    o = ap.parse_args()
    kt = os.path.abspath(o.kerntime) if o.kerntime else ""
    progs = benchlib.programs(o.bin_dir, o.programs)
    tmp = tempfile.mkdtemp(prefix="orion-tuning-")
    krows, prows, crows = [], [], []
    for prog in progs:
        b = os.path.join(o.bin_dir, prog)
        _, exh, _ = run(b, {"ORION_MODE": "exhaustive"}, "", tmp, True)
        best = {c["kernel"]: c["chosen"] for c in benchlib.tuned_configs(exh)}
        cache = os.path.join(tmp, prog + ".cache")
        # untraced Select, which fills the cache: its choices show whether
        # tracing changed Select's decisions
        _, fill, _ = run(b, {"ORION_MODE": "adaptive", "ORION_CACHE": cache}, "", tmp, True)
        untraced = {(c["kernel"], tuple(c["block"]), c["shmem"]): c["chosen"]
                    for c in fill["configs"]}
        envs = {"best": {"ORION_MODE": benchlib.fixed_mode(best)},
                "select": {"ORION_MODE": "adaptive"},
                "cached": {"ORION_MODE": "adaptive", "ORION_CACHE": cache}}
        order = list(envs)
        res = {m: [] for m in envs}
        reports = []
        for r in range(o.rounds):
            for m in order[r % 3:] + order[:r % 3]:
                fields, rep, kern = run(b, envs[m], kt, tmp, m == "select")
                res[m].append((fields, kern))
                if rep:
                    reports.append(rep)
        sums = {f["checksum"] for v in res.values() for f, _ in v}
        if len(sums) != 1:
            raise RuntimeError(f"{prog}: outputs differ between modes: {sorted(sums)}")
        tot = {m: med([float(f["total_ms"]) for f, _ in v]) for m, v in res.items()}
        prows.append((prog, tot["select"], tot["best"], tot["best"] / tot["select"],
                      tot["cached"], tot["best"] / tot["cached"]))
        # iterations, per tuned configuration, over Select's rounds
        for c in reports[-1]["configs"] if reports else []:
            if len(c["versions"]) < 2:
                continue
            same = [x for rep in reports for x in rep["configs"]
                    if x["kernel"] == c["kernel"] and x["block"] == c["block"]
                    and x["shmem"] == c["shmem"]]
            crows.append((prog, c["kernel"], "x".join(map(str, c["block"])),
                          " ".join(v["tag"] for v in c["versions"]),
                          "/".join(sorted({x["chosen"] for x in same})),
                          best.get(c["kernel"], "orig"),
                          untraced.get((c["kernel"], tuple(c["block"]), c["shmem"]), "-"),
                          statistics.mean(x["iterations"] for x in same),
                          statistics.mean(x.get("settled_at", 0) for x in same),
                          sum(1 for x in same if x["source"] != "tuned"), len(same)))
        if kt:
            kernels = sorted({k for _, kern in res["best"] for k in kern})
            for k in kernels:
                g = {m: [kern.get(k, [0.0, 0])[0] for _, kern in v] for m, v in res.items()}
                n = {m: med([kern.get(k, [0.0, 0])[1] for _, kern in v]) for m, v in res.items()}
                pair = [bb / ss for bb, ss in zip(g["best"], g["select"]) if ss > 0]
                krows.append((prog, k, n["best"], n["select"], med(g["select"]), med(g["best"]),
                              med(g["best"]) / med(g["select"]) if med(g["select"]) else 0,
                              min(pair) if pair else 0, max(pair) if pair else 0,
                              med(g["cached"]), med(g["best"]) / med(g["cached"])
                              if med(g["cached"]) else 0))
        print(f"{prog}: best/select total {prows[-1][3]:.3f}"
              + "".join(f"; {r[1][:28]} {r[6]:.3f}" for r in krows if r[0] == prog),
              file=sys.stderr)
    write(o, krows, prows, crows)


def write(o, krows, prows, crows):
    with open(o.out + ".csv", "w") as f:
        f.write("program,kernel,best_executions,select_executions,select_gpu_ms,best_gpu_ms,"
                "best_over_select,round_min,round_max,cached_gpu_ms,best_over_cached\n")
        for r in krows:
            f.write("%s,%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n" % r)
    with open(o.out + "_programs.csv", "w") as f:
        f.write("program,select_total_ms,best_total_ms,best_over_select_total,cached_total_ms,"
                "best_over_cached_total\n")
        for r in prows:
            f.write("%s,%.4f,%.4f,%.4f,%.4f,%.4f\n" % r)
    with open(o.out + "_configs.csv", "w") as f:
        f.write("program,kernel,block,versions,select_chose,exhaustive_best,untraced_select_chose,"
                "mean_iterations,mean_settled_at_launch,untuned_runs,runs\n")
        for r in crows:
            f.write("%s,%s,%s,%s,%s,%s,%s,%.2f,%.2f,%d,%d\n" % r)
    md = []
    if krows:
        md += ["Per kernel, GPU time summed over every execution of a whole run (tuning "
               "included), medians over %d rounds:" % o.rounds, "",
               "| program | kernel | executions best / Select | Select GPU ms | best GPU ms | "
               "best/Select | rounds | cached GPU ms | best/cached |",
               "|---|---|---|---:|---:|---:|---|---:|---:|"]
        for r in krows:
            md.append("| %s | `%s` | %d / %d | %.3f | %.3f | %.3f | %.3f–%.3f | %.3f | %.3f |"
                      % r)
        worst = min(krows, key=lambda r: r[6])
        md += ["", "Kernels within 2 %% of the best (best/Select >= 0.98): %d of %d; worst %.3f "
               "(%s `%s`)." % (sum(r[6] >= 0.98 for r in krows), len(krows), worst[6], worst[0],
                               worst[1]), ""]
    md += ["Per program, the program's own event-timed total over all repetitions, medians:", "",
           "| program | Select total ms | best total ms | best/Select | cached total ms | "
           "best/cached |", "|---|---:|---:|---:|---:|---:|"]
    for r in prows:
        md.append("| %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % r)
    md += ["", "Tuned configurations (more than one candidate), Select's runs:", "",
           "| program | kernel | block | candidates | Select chose | exhaustive best | "
           "Select untraced | timed tuning launches | settled at launch | runs not tuned |",
           "|---|---|---|---|---|---|---|---:|---:|---:|"]
    for r in crows:
        md.append("| %s | `%s` | %s | %s | %s | %s | %s | %.2f | %.2f | %d of %d |" % r)
    if crows:
        md += ["", "Mean over %d configurations: %.2f timed tuning launches (split chunks and "
               "probes count one each), settled at program launch %.2f." % (
                   len(crows), statistics.mean(r[7] for r in crows),
                   statistics.mean(r[8] for r in crows))]
    with open(o.out + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    sys.exit(main())
