#!/usr/bin/env python3
"""tuning_cost.py - where Orion-Select's whole-run time goes, repetition by
repetition, against the best fixed configuration.

For each program, --rounds rounds, in each (order rotated by one per round):
  max      the fastest fixed configuration of an earlier evaluation (its
           ORION_MODE, from <eval-results>/raw.jsonl: Orion-Max);
  select   ORION_MODE=adaptive, no cache, the build in --bins;
  old      the same with the build in --old-bins (optional: another runtime);
each under the LD_PRELOAD shim reptimes.c, which prints the program's event
time of every repetition (the warm-up first).  Then one select run with
ORION_DEBUG=1 (not timed: the trace is written while tuning) for the
runtime's tuning trace, and with --exhaustive, ORION_MODE=exhaustive traced
runs (--exhaustive-args) whose chunk times per candidate can be set against
the versions' full-launch times.

Writes <out>/raw.jsonl (one line per run: fields, repetition times, report
summary, trace lines) and <out>/summary.md: per program the medians of
total_ms and Select/Max, and per repetition each configuration's median time
and Select's excess over max, i.e. where the tuning is paid.

usage: tuning_cost.py --bins DIR --eval-results DIR --shim reptimes.so --out DIR
                      [--old-bins DIR] [--programs a,b] [--rounds 3]
                      [--exhaustive a,b] [--exhaustive-args "-r 20"]
"""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "eval"))
import benchlib  # noqa: E402
import evalcore  # noqa: E402


def max_modes(eval_dir):
    """{program: ORION_MODE of Orion-Max} from an evaluation's raw.jsonl."""
    rows = [json.loads(x) for x in open(os.path.join(eval_dir, "raw.jsonl")) if x.strip()]
    out = {}
    for prog in sorted({r["program"] for r in rows}):
        pr = [r for r in rows if r["program"] == prog]
        mx, _ = evalcore.extremes(evalcore.medians(pr))
        mode = next((r["mode"] for r in pr if r["config"] == mx), None)
        if mode:
            out[prog] = mode
    return out


def run(binary, env, shim, trace=False):
    env = dict(env, LD_PRELOAD=shim)
    if trace:
        env["ORION_DEBUG"] = "1"
    r = benchlib.run_program(binary, (), env, report=True, stderr_tail=None)
    reps = [float(x) for x in re.findall(r"^REPTIME (\S+)$", r.stderr, re.M)]
    tr = [x for x in r.stderr.splitlines() if x.startswith("orion: debug:")] if trace else []
    return r, reps, tr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bins", required=True)
    ap.add_argument("--old-bins")
    ap.add_argument("--eval-results", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--programs", default="")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--exhaustive", default="")
    ap.add_argument("--exhaustive-args", default="-r 20")
    o = ap.parse_args()
    shim = os.path.abspath(o.shim)
    modes = max_modes(o.eval_results)
    progs = [p for p in benchlib.programs(o.bins, o.programs) if p in modes]
    os.makedirs(o.out, exist_ok=True)
    md = ["# Tuning cost per repetition", "",
          "Medians over rounds; ms of the program's event-timed section per repetition "
          "(rep 0 = the warm-up).", ""]
    with open(os.path.join(o.out, "raw.jsonl"), "w") as raw:
        for prog in progs:
            cfgs = [("max", o.bins, {"ORION_MODE": modes[prog]}),
                    ("select", o.bins, {"ORION_MODE": "adaptive"})]
            if o.old_bins:
                cfgs.append(("old", o.old_bins, {"ORION_MODE": "adaptive"}))
            res = {c[0]: [] for c in cfgs}
            for rnd in range(o.rounds):
                k = rnd % len(cfgs)
                for name, bdir, env in cfgs[k:] + cfgs[:k]:
                    r, reps, _ = run(os.path.join(bdir, prog), env, shim)
                    row = {"program": prog, "config": name, "round": rnd, "mode": env["ORION_MODE"],
                           "rc": r.rc, "fields": r.fields, "reps": reps,
                           "report": evalcore.report_summary(r.report) if r.report else None}
                    raw.write(json.dumps(row) + "\n")
                    if r.passed and reps:
                        res[name].append((float(r.fields["total_ms"]), reps))
                    else:
                        print(f"{prog} {name}: FAILED rc {r.rc} {r.stderr[-300:]}", file=sys.stderr)
            r, reps, tr = run(os.path.join(o.bins, prog), {"ORION_MODE": "adaptive"}, shim, True)
            raw.write(json.dumps({"program": prog, "config": "select-trace", "rc": r.rc,
                                  "fields": r.fields, "reps": reps, "trace": tr}) + "\n")
            traces = [("select (ORION_DEBUG=1, not timed)", tr)]
            if prog in o.exhaustive.split(","):
                rr = benchlib.run_program(os.path.join(o.bins, prog), o.exhaustive_args.split(),
                                          {"ORION_MODE": "exhaustive", "ORION_DEBUG": "1"},
                                          report=True, stderr_tail=None)
                tr = [x for x in rr.stderr.splitlines() if x.startswith("orion: debug:")]
                raw.write(json.dumps({"program": prog, "config": "exhaustive-trace", "rc": rr.rc,
                                      "args": o.exhaustive_args, "fields": rr.fields,
                                      "trace": tr}) + "\n")
                traces.append((f"exhaustive {o.exhaustive_args} (ORION_DEBUG=1)", tr))
            tot = {c: statistics.median(t for t, _ in v) for c, v in res.items() if v}
            line = f"## {prog}\n\nmax = `{modes[prog]}`; total ms: " + ", ".join(
                f"{c} {t:.3f}" for c, t in tot.items())
            if "max" in tot and "select" in tot:
                line += f"; Select/Max total {tot['max'] / tot['select']:.3f}"
            if "max" in tot and "old" in tot:
                line += f"; old/Max total {tot['max'] / tot['old']:.3f}"
            md += [line, "", "| rep | " + " | ".join(res) + " | select - max |",
                   "|---:|" + "---:|" * (len(res) + 1)]
            nrep = min((len(x) for v in res.values() for _, x in v), default=0)
            for i in range(nrep):
                med = {c: statistics.median(x[i] for _, x in v) for c, v in res.items() if v}
                d = med.get("select", 0) - med.get("max", 0)
                md.append(f"| {i} | " + " | ".join(f"{med[c]:.4f}" for c in med) + f" | {d:+.4f} |")
            for title, t in traces:
                md += ["", f"{title}:", "", "```"] + t[:60] + ["```"]
            md.append("")
            print(line.replace("\n", " "), file=sys.stderr, flush=True)
    with open(os.path.join(o.out, "summary.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
