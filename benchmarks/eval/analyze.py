#!/usr/bin/env python3
"""analyze.py - tables and plots from measure.py's results (Fig. 11-15).

usage: analyze.py --results DIR [--no-plots]

Reads DIR/raw.jsonl, DIR/discovery.json, DIR/env-*.json; writes into DIR:
  eval.csv      per program: every configuration's median times, Orion-Max /
                Orion-Min, Orion-Select, the ratios, tuning iterations,
                the chosen versions, energy per repetition, failed runs;
  kernels.csv   per tuned kernel: each version's registers, warps/SM and
                program time alone; the equal-speed low-resource choice
                (Fig. 12) and Select's choice;
  eval.md       the Markdown tables and the goals, met or missed;
  fig11_speedup.png, fig12_resources.png, fig13_energy.png,
  fig14_occupancy.png   (when matplotlib is importable).
The definitions are evalcore.py's.  Ratios are of medians from the same
rounds (the configurations alternate within each round).
"""
import argparse
import csv
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evalcore as ec  # noqa: E402


def load(d):
    rows = []
    with open(os.path.join(d, "raw.jsonl")) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    disc = {}
    if os.path.exists(os.path.join(d, "discovery.json")):
        with open(os.path.join(d, "discovery.json")) as f:
            disc = json.load(f)
    envs = []
    for p in sorted(glob.glob(os.path.join(d, "env-*.json"))):
        with open(p) as f:
            envs.append(json.load(f))
    return rows, disc, envs


def ratio(a, b):
    return a / b if a and b else None


def fmt(x, spec=".3f"):
    return "–" if x is None else format(x, spec)


def select_facts(rows):
    """From the select runs' reports: median tuning iterations per tuned
    configuration (mean over configurations), and the choice of the last round
    per kernel: {kernel: (tag, regs, warps, max_warps, orig_regs, orig_warps)}."""
    its, chosen = [], {}
    for r in rows:
        if r["config"] != "select" or r["phase"] != "time" or not r.get("report"):
            continue
        tuned = [c for c in r["report"] if len(c["versions"]) > 1]
        if tuned:
            its.append(statistics.mean(c["iterations"] for c in tuned))
        for c in tuned:
            o = next(v for v in c["versions"] if v["tag"] == c["original"])
            chosen[c["kernel"]] = (c["chosen"], c["chosen_regs"], c["chosen_warps"],
                                   c["max_warps"], o["regs"], o["warps"])
    return (statistics.median(its) if its else None), chosen


def analyze(d, plots=True):
    rows, disc, envs = load(d)
    progs = sorted({r["program"] for r in rows})
    table, krows, vrows, fails = [], [], [], []
    for prog in progs:
        pr = [r for r in rows if r["program"] == prog]
        for r in pr:
            if not (r["rc"] == 0 and r["fields"].get("check") == "PASS"):
                fails.append((prog, r["config"], r["phase"], r["round"], r["rc"],
                              r["fields"].get("check", "no RESULT")))
        med = ec.medians(pr)
        sums = sorted({s for m in med.values() for s in m["checksums"]})
        exh = (disc.get(prog) or {}).get("orion")
        mx, mn = ec.extremes(med)
        g = lambda c, k="kernel_ms": (med.get(c) or {}).get(k)  # noqa: E731
        fixed_tot = [m["total_ms"] for c, m in med.items() if ec.is_fixed(c) and m["total_ms"]]
        its, chosen = select_facts(pr)
        es = ec.equal_speed(med, exh) if exh else []
        en = ec.energy_per_rep(pr)
        e_n = (en.get("nvcc") or (None,))[0]
        lowcfg = es[0]["choice_cfg"] if len(es) == 1 else "lowres"
        row = {
            "program": prog, "class": ec.pclass(prog),
            "nvcc_ms": g("nvcc"), "clang_ms": g("clang"),
            "select_ms": g("select"), "select_total_ms": g("select", "total_ms"),
            "nvcc_total_ms": g("nvcc", "total_ms"), "clang_total_ms": g("clang", "total_ms"),
            "max_cfg": mx, "max_ms": g(mx) if mx else None,
            "max_total_ms": min(fixed_tot) if fixed_tot else None,
            "min_cfg": mn, "min_ms": g(mn) if mn else None,
            "orig_ms": g("v:orig"),
            "spill_build": (disc.get(prog) or {}).get("spill") if isinstance(
                (disc.get(prog) or {}).get("spill"), str) else
                ("measured" if g("spill:select") else "none"),
            "spill_select_ms": g("spill:select"), "spill_best_ms": g("spill:best"),
            "localspill_build": (disc.get(prog) or {}).get("localspill") if isinstance(
                (disc.get(prog) or {}).get("localspill"), str) else
                ("measured" if g("localspill:select") else "none"),
            "localspill_select_ms": g("localspill:select"),
            "localspill_best_ms": g("localspill:best"),
            "tuning_iterations": its,
            "chosen": " ".join(f"{ec.short_kernel(k)}={c[0]}({c[1]}r,{c[2]}/{c[3]}w)"
                               for k, c in sorted(chosen.items())) or "single version",
            "runs": sum(m["n"] for m in med.values()),
            "failed_runs": sum(m["fails"] for m in med.values()),
            "distinct_checksums": len(sums),
            "orion_checksums": len({r["fields"].get("checksum") for r in pr
                                    if r["config"] not in ("nvcc", "clang")
                                    and r["fields"].get("checksum")}),
            "energy_nvcc_mj": e_n,
            "energy_reps": "%d-%d" % en["nvcc"][1:3] if en.get("nvcc") else None,
            "energy_nvcc_delta_j": en["nvcc"][3] / 1000 if en.get("nvcc") else None,
            "energy_select_rel": ratio((en.get("select") or (None,))[0], e_n),
            "energy_max_rel": ratio((en.get(mx) or (None,))[0], e_n) if mx else None,
            "energy_lowres_rel": ratio((en.get(lowcfg) or (None,))[0], e_n),
        }
        row["select_over_max"] = ratio(row["max_ms"], row["select_ms"])
        row["select_over_max_total"] = ratio(row["max_total_ms"], row["select_total_ms"])
        row["speedup_nvcc"] = ratio(row["nvcc_ms"], row["select_ms"])
        row["speedup_nvcc_total"] = ratio(row["nvcc_total_ms"], row["select_total_ms"])
        row["speedup_clang"] = ratio(row["clang_ms"], row["select_ms"])
        row["speedup_clang_total"] = ratio(row["clang_total_ms"], row["select_total_ms"])
        row["max_over_nvcc"] = ratio(row["nvcc_ms"], row["max_ms"])
        row["min_over_nvcc"] = ratio(row["nvcc_ms"], row["min_ms"])
        row["spill_over_nvcc"] = ratio(row["nvcc_ms"], row["spill_select_ms"])
        row["spill_best_over_nvcc"] = ratio(row["nvcc_ms"], row["spill_best_ms"])
        row["localspill_over_nvcc"] = ratio(row["nvcc_ms"], row["localspill_select_ms"])
        row["localspill_best_over_nvcc"] = ratio(row["nvcc_ms"], row["localspill_best_ms"])
        table.append(row)
        for e in es:
            c = chosen.get(e["kernel"])
            sel_save = (1 - c[1] * c[2] / (c[4] * c[5])) if c else None
            krows.append({
                "program": prog, "class": ec.pclass(prog), "kernel": ec.short_kernel(e["kernel"]),
                "versions": " ".join(f"{t}:{r}r/{w}w={fmt(ms, '.4g')}"
                                     for t, r, w, _, ms in e["versions"]),
                "best": e["best_cfg"].split("=")[-1] if "=" in e["best_cfg"] else "orig",
                "best_ms": e["best_ms"], "equal_speed_choice": e["choice"],
                "choice_ms": e["choice_ms"], "slowdown": e["slowdown"],
                "saving": e["saving"], "select_choice": c[0] if c else None,
                "select_saving": sel_save,
                "select_slowdown": ratio(row["select_ms"], e["best_ms"]) - 1
                if len(es) == 1 and row["select_ms"] else None})
            for t, r, w, rt, ms in e["versions"]:
                mw = c[3] if c else 64
                vrows.append({"program": prog, "kernel": ec.short_kernel(e["kernel"]), "tag": t,
                              "regs": r, "warps": w, "occupancy": w / mw, "regs_x_threads": rt,
                              "ms": ms, "rel_best": ratio(ms, e["best_ms"])})
    write_csv(os.path.join(d, "eval.csv"), table)
    write_csv(os.path.join(d, "kernels.csv"), krows)
    write_csv(os.path.join(d, "versions.csv"), vrows)
    md = markdown(table, krows, fails, envs, len(rows))
    with open(os.path.join(d, "eval.md"), "w") as f:
        f.write(md)
    print(md)
    if plots:
        try:
            import matplotlib
            matplotlib.use("Agg")
        except ImportError:
            print("analyze.py: no matplotlib: no plots", file=sys.stderr)
            return 0
        import plots as pl
        pl.all_plots(d, table, krows, vrows)
    return 0


def write_csv(path, rows):
    with open(path + ".tmp", "w", newline="") as f:
        if rows:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            for r in rows:
                w.writerow({k: (f"{v:.5g}" if isinstance(v, float) else v) for k, v in r.items()})
    os.replace(path + ".tmp", path)


def goal_line(name, vals, goal, fmtspec=".3f"):
    vals = [(p, v) for p, v in vals if v is not None]
    if not vals:
        return f"* {name}: no data."
    miss = [(p, v) for p, v in vals if v < goal]
    worst = min(vals, key=lambda x: x[1])
    s = f"* {name} (goal ≥ {goal}): met on {len(vals) - len(miss)} of {len(vals)}; worst {worst[0]} {worst[1]:{fmtspec}}"
    if miss:
        s += "; missed: " + ", ".join(f"{p} {v:{fmtspec}}" for p, v in miss)
    return s + "."


def markdown(t, k, fails, envs, nall):
    L = []
    if envs:
        e = envs[0]
        L.append(f"Measured {e['date']} on {e['gpu']} (name, driver, power limit); "
                 f"{e['repeat']} rounds; program arguments '{e['args'] or '(default sizes)'}'; "
                 f"extra builds: {', '.join(e.get('extra_builds') or []) or 'none'}; "
                 f"energy wrapper: {'yes' if e['energy_wrapper'] else 'no'}.")
        L.append("")
    nruns = sum(r["runs"] + r["failed_runs"] for r in t)
    nf = sum(r["failed_runs"] for r in t)
    if fails:
        L.append(f"**{len(fails)} run(s) FAILED their check or exited non-zero** "
                 "(program, configuration, phase, round, rc, check):")
        L += [f"* {f}" for f in fails[:40]]
    else:
        L.append(f"All {nall} runs ({nruns} timed, the rest energy runs) passed "
                 f"their CPU check ({nf} failed).")
    multi = [r["program"] for r in t if r["orion_checksums"] > 1]
    L.append("Output checksums (FNV-1a of the checked outputs) of every orion-cc run of a program "
             "(every version, every mode) are " + (
                 "bit-identical for every program." if not multi else
                 "NOT identical for: " + ", ".join(multi) + ".") +
             " nvcc / clang / orion-cc differ in the last bits on: " +
             (", ".join(r["program"] for r in t if r["distinct_checksums"] > 1) or "none") +
             " (FMA contraction; the CPU check's tolerance judges).")
    L.append("")
    L.append("## Performance (Fig. 11): speedup over nvcc -O3 = nvcc ms / config ms")
    L.append("")
    L.append("| program | class | nvcc ms | clang | Orion-Min | Orion-Max | Orion-Select | "
             "Select incl. tuning (total) | spill=pragma Select | spill=off Select | spill=off Max | "
             "Select/Max | Select/Max total | "
             "Select/clang | tuning iters | chosen (regs, warps/SM) |")
    L.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    sp = lambda r, b, k: "= orion" if r[b + "_build"] == "identical" else fmt(r[k])  # noqa: E731
    for r in t:
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["program"], r["class"], fmt(r["nvcc_ms"], ".4g"),
            fmt(ratio(r["nvcc_ms"], r["clang_ms"])), fmt(r["min_over_nvcc"]),
            fmt(r["max_over_nvcc"]), fmt(r["speedup_nvcc"]), fmt(r["speedup_nvcc_total"]),
            sp(r, "spill", "spill_over_nvcc"), sp(r, "localspill", "localspill_over_nvcc"),
            sp(r, "localspill", "localspill_best_over_nvcc"), fmt(r["select_over_max"]), fmt(r["select_over_max_total"]),
            fmt(r["speedup_clang"]), fmt(r["tuning_iterations"], ".1f"), r["chosen"]))
    hi = [r for r in t if r["class"] == "high"]
    L.append("")
    L.append("Geometric means over the register-pressure class (%d programs): Orion-Select / nvcc "
             "%s (incl. tuning %s), Orion-Max / nvcc %s, Orion-Select / clang %s." % (
                 len(hi), fmt(ec.geomean([r["speedup_nvcc"] for r in hi])),
                 fmt(ec.geomean([r["speedup_nvcc_total"] for r in hi])),
                 fmt(ec.geomean([r["max_over_nvcc"] for r in hi])),
                 fmt(ec.geomean([r["speedup_clang"] for r in hi]))))
    L.append("")
    L.append("Goals:")
    L.append(goal_line("Orion-Select / Orion-Max, kernel time",
                       [(r["program"], r["select_over_max"]) for r in t], 0.98))
    L.append(goal_line("Orion-Select / Orion-Max, whole run incl. tuning",
                       [(r["program"], r["select_over_max_total"]) for r in t], 0.98))
    L.append(goal_line("Orion-Select / nvcc -O3, kernel time",
                       [(r["program"], r["speedup_nvcc"]) for r in t], 1.0))
    L.append(goal_line("Orion-Select / nvcc -O3, whole run incl. tuning",
                       [(r["program"], r["speedup_nvcc_total"]) for r in t], 1.0))
    L.append(goal_line("Orion-Select / clang -O3, kernel time",
                       [(r["program"], r["speedup_clang"]) for r in t], 1.0))
    L.append(goal_line("Orion-Select / clang -O3, whole run incl. tuning",
                       [(r["program"], r["speedup_clang_total"]) for r in t], 1.0))
    L.append("")
    L.append("## Resources at equal speed (Fig. 12), per tuned kernel")
    L.append("")
    L.append("Resident registers x threads per SM = registers x warps/SM x 32; saving against "
             "the original version; 'equal speed' = within 1 % of the fastest version alone.")
    L.append("")
    L.append("| program | class | kernel | versions: regs r / warps w = program ms alone | fastest | "
             "equal-speed choice | its slowdown | saving | Select chose | Select's saving |")
    L.append("|---|---|---|---|---|---|---:|---:|---|---:|")
    for r in k:
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["program"], r["class"], r["kernel"], r["versions"], r["best"],
            r["equal_speed_choice"], fmt(100 * r["slowdown"], ".2f") + " %",
            fmt(100 * r["saving"], ".1f") + " %", r["select_choice"] or "–",
            fmt(None if r["select_saving"] is None else 100 * r["select_saving"], ".1f") + " %"))
    low = [r for r in k if r["class"] == "low"]
    if low:
        L.append("")
        ok = [r for r in low if r["saving"] >= 0.2 and r["slowdown"] <= 0.01]
        L.append("Low-pressure class: %d of %d tuned kernels reach ≥ 20 %% saving at ≤ 1 %% "
                 "slowdown (mean saving %.1f %%; Select's own choices: mean %.1f %%)." % (
                     len(ok), len(low), 100 * statistics.mean(r["saving"] for r in low),
                     100 * statistics.mean(r["select_saving"] or 0 for r in low)))
    if any(r["energy_nvcc_mj"] for r in t):
        L.append("")
        L.append("## Energy (Fig. 13): GPU energy per repetition, relative to nvcc -O3")
        L.append("")
        L.append("Per repetition = (energy at HI repetitions - at LO) / (HI - LO), each one run "
                 "under benchmarks/eval/energy (NVML total energy, GPU 0); a repetition includes "
                 "the program's input reset (memsets, some host-to-device copies).  NVML's "
                 "counter moves in ~100 ms steps, so a figure whose nvcc dE is below ~500 J is "
                 "marked (~): its error is several percent or more.")
        L.append("")
        L.append("| program | LO-HI reps | nvcc dE J | nvcc mJ/rep | Orion-Select | Orion-Max | "
                 "equal-speed low-resource |")
        L.append("|---|---|---:|---:|---:|---:|---:|")
        for r in t:
            mark = " (~)" if r["energy_nvcc_delta_j"] is not None and \
                r["energy_nvcc_delta_j"] < 500 else ""
            L.append("| %s%s | %s | %s | %s | %s | %s | %s |" % (
                r["program"], mark, r["energy_reps"] or "–", fmt(r["energy_nvcc_delta_j"], ".0f"),
                fmt(r["energy_nvcc_mj"], ".1f"), fmt(r["energy_select_rel"]),
                fmt(r["energy_max_rel"]), fmt(r["energy_lowres_rel"])))
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--no-plots", action="store_true")
    o = ap.parse_args()
    return analyze(o.results, not o.no_plots)


if __name__ == "__main__":
    sys.exit(main())
