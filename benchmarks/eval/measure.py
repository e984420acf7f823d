#!/usr/bin/env python3
"""measure.py - the runs behind the paper's Fig. 11-15, on a GPU machine.

Input: a build tree made by `benchmarks/run.sh build <dir>`:
    <dir>/nvcc/<prog>     nvcc -O3
    <dir>/clang/<prog>    clang++ -O3
    <dir>/orion/<prog>    orion-cc (versions + liborionrt)
    <dir>/spill/<prog>    orion-cc --orion-spill=pragma: ptxas enable_smem_spilling
                          wherever ptxas accepts it (optional)
    <dir>/localspill/<prog>  orion-cc --orion-spill=off: ptxas's local-memory
                          spilling (optional)
    <dir>/energy          benchmarks/eval/energy.c (optional: no energy figures)

Per program:
  1. discovery: the orion build (and each extra build) once under
     ORION_MODE=exhaustive; its report lists every tuned kernel's versions
     (tag, registers, warps per SM) and names the fastest of each;
  2. rounds: --repeat rounds; in each, every configuration once, in an order
     rotated by one from round to round (so no configuration always follows
     the same one); every run under the energy wrapper:
        nvcc, clang              the plain builds
        select                   orion, ORION_MODE=adaptive, no cache (tuning included)
        v:orig                   orion, every kernel's original (fixed:orig)
        v:<kernel>=<tag>         orion, one version of one kernel, the others original
        combo:best, combo:worst  (programs with several tuned kernels) each kernel's
                                 fastest / slowest version per the exhaustive report
        <b>:select, <b>:best     extra build <b> (spill, localspill), adaptive / its
                                 exhaustive choice; skipped where <b>'s binary is
                                 byte-identical to the orion build's (noted in
                                 discovery.json as "identical")
  3. energy (with the wrapper and a GPU whose NVML reports energy): for nvcc,
     select, the fastest fixed configuration and the low-resource one (Fig. 12),
     runs at -r LO and -r HI; GPU energy per repetition = dE / (HI - LO);
     HI aims at --energy-target-ms of kernel time within --energy-max-s of
     wall time (estimated from an nvcc run at LO + 10 repetitions).  NVML's
     counter moves in steps (about 100 ms of energy on an H200), so dE is
     kept in the results to judge each figure by.
Every run must pass the program's CPU check; a failure is recorded (and
counted in the summary) but does not stop the measurement.

Output (in --out): raw.jsonl (one line per run), discovery.json (the
exhaustive reports), env.json (GPU, driver, command, date).  analyze.py makes
the tables and plots from them.

usage: measure.py --bins DIR --out DIR [--programs a,b] [--repeat 3]
                  [--args "-s small"] [--energy-repeat 1] [--energy-target-ms 1500]
                  [--energy-lo 1] [--energy-max-s 3]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
import evalcore  # noqa: E402


def gpu_info():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,power.limit",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=60)
        return r.stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "no nvidia-smi"


class Cfg:
    def __init__(self, name, binary, env, report=False):
        self.name, self.binary, self.env, self.report = name, binary, env, report


def discover(binary, args, log):
    r = benchlib.run_program(binary, args, {"ORION_MODE": "exhaustive"}, report=True)
    if not r.passed or not r.report:
        log(f"  discovery FAILED: rc {r.rc} check={r.fields.get('check')} {r.stderr[-300:]}")
        return None
    return r.report


EXTRA = ("spill", "localspill")


def same_file(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def configs_for(prog, bins, exh, extra):
    """The configurations of step 2 for one program."""
    b = lambda build: os.path.join(bins, build, prog)  # noqa: E731
    cfgs = [Cfg("nvcc", b("nvcc"), {}), Cfg("clang", b("clang"), {}),
            Cfg("select", b("orion"), {"ORION_MODE": "adaptive"}, report=True),
            Cfg("v:orig", b("orion"), {"ORION_MODE": "fixed:orig"})]
    if exh:
        kv = evalcore.kernel_versions(exh)
        for k, vs in kv.items():
            for v in vs:
                if v["tag"] != "orig":
                    cfgs.append(Cfg(f"v:{k}={v['tag']}", b("orion"),
                                    {"ORION_MODE": benchlib.fixed_mode({k: v["tag"]})}))
        if len(kv) > 1:
            best, worst = evalcore.exhaustive_extremes(exh)
            cfgs.append(Cfg("combo:best", b("orion"), {"ORION_MODE": benchlib.fixed_mode(best)}))
            cfgs.append(Cfg("combo:worst", b("orion"), {"ORION_MODE": benchlib.fixed_mode(worst)}))
    for name, xexh in extra.items():
        if not isinstance(xexh, dict) or "configs" not in xexh:
            continue
        cfgs.append(Cfg(f"{name}:select", b(name), {"ORION_MODE": "adaptive"}, report=True))
        best, _ = evalcore.exhaustive_extremes(xexh)
        cfgs.append(Cfg(f"{name}:best", b(name), {"ORION_MODE": benchlib.fixed_mode(best)}))
    return cfgs


def record(f, prog, cfg, phase, rnd, args, r):
    row = {"program": prog, "config": cfg.name, "phase": phase, "round": rnd, "args": args,
           "mode": cfg.env.get("ORION_MODE", ""), "rc": r.rc, "fields": r.fields,
           "energy": r.energy, "wall_s": round(r.wall, 3)}
    if r.report:
        row["report"] = evalcore.report_summary(r.report)
    if not r.passed:
        row["stderr"] = r.stderr[-500:]
    f.write(json.dumps(row) + "\n")
    f.flush()
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bins", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--programs", default="")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--args", default="")
    ap.add_argument("--energy-repeat", type=int, default=1)
    ap.add_argument("--energy-target-ms", type=float, default=1500.0)
    ap.add_argument("--energy-lo", type=int, default=1)
    ap.add_argument("--energy-max-s", type=float, default=3.0)
    o = ap.parse_args()
    args = o.args.split()
    orion_dir = os.path.join(o.bins, "orion")
    for b in ("nvcc", "clang", "orion"):
        if not os.path.isdir(os.path.join(o.bins, b)):
            sys.exit(f"measure.py: no build {os.path.join(o.bins, b)} "
                     "(make it with benchmarks/run.sh build)")
    progs = benchlib.programs(orion_dir, o.programs)
    os.makedirs(o.out, exist_ok=True)
    extras = [x for x in EXTRA if os.path.isdir(os.path.join(o.bins, x))]
    energy = os.path.join(o.bins, "energy")
    energy = energy if os.access(energy, os.X_OK) else None
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    with open(os.path.join(o.out, f"env-{progs[0] if progs else 'none'}.json"), "w") as f:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                   "gpu": gpu_info(), "argv": sys.argv, "repeat": o.repeat, "args": o.args,
                   "extra_builds": extras, "energy_wrapper": bool(energy),
                   "programs": progs}, f, indent=1)
    dpath = os.path.join(o.out, "discovery.json")
    disc = {}
    if os.path.exists(dpath):  # a second call for other programs adds to it
        with open(dpath) as f:
            disc = json.load(f)
    energy_ok = energy is not None
    with open(os.path.join(o.out, "raw.jsonl"), "a") as raw:
        for prog in progs:
            log(f"{prog}:")
            exh = discover(os.path.join(o.bins, "orion", prog), args, log)
            extra = {}
            for x in extras:
                xb = os.path.join(o.bins, x, prog)
                if same_file(xb, os.path.join(orion_dir, prog)):
                    extra[x] = "identical"
                else:
                    extra[x] = discover(xb, args, log)
            disc[prog] = dict({"orion": exh}, **extra)
            with open(dpath + ".tmp", "w") as f:
                json.dump(disc, f)
            os.replace(dpath + ".tmp", dpath)
            cfgs = configs_for(prog, o.bins, exh, extra)
            rows = []
            for rnd in range(o.repeat):
                k = rnd % len(cfgs)
                for cfg in cfgs[k:] + cfgs[:k]:
                    r = benchlib.run_program(cfg.binary, args, cfg.env, cfg.report, energy)
                    rows.append(record(raw, prog, cfg, "time", rnd, args, r))
                    if r.energy and "unsupported" in r.energy:
                        energy_ok = False
                    if not r.passed:
                        log(f"  FAIL {cfg.name} round {rnd}: rc {r.rc} {r.stderr[-200:]}")
            med = evalcore.medians(rows)
            log("  " + " ".join(f"{c}={m['kernel_ms']}" if m["kernel_ms"] is None else
                               f"{c}={m['kernel_ms']:.4g}" for c, m in med.items()))
            if not energy_ok or not exh:
                continue
            # Step 3: energy per repetition for the configurations of Fig. 13.
            # HI repetitions: the kernel time aimed at (--energy-target-ms),
            # bounded by --energy-max-s of wall time per run, estimated from
            # nvcc at LO and LO + 10 repetitions (the repetitions also reset
            # inputs, some with host-to-device copies).
            pick = evalcore.energy_configs(med, exh)
            byname = {c.name: c for c in cfgs}
            lo = o.energy_lo
            nv = byname["nvcc"]
            r_lo = benchlib.run_program(nv.binary, args + ["-r", str(lo)], nv.env, False, energy)
            r_pr = benchlib.run_program(nv.binary, args + ["-r", str(lo + 10)], nv.env, False, energy)
            record(raw, prog, nv, "energy_probe", 0, args + ["-r", str(lo + 10)], r_pr)
            per_rep_s = max((r_pr.wall - r_lo.wall) / 10, 1e-4)
            kms = med.get("nvcc", {}).get("kernel_ms") or 1.0
            hi = int(min(o.energy_target_ms / max(kms, 1e-3), o.energy_max_s / per_rep_s, 5000))
            hi = max(hi, lo + 10)
            log(f"  energy: {len(pick)} configurations at -r {lo} and -r {hi} "
                f"(~{per_rep_s * 1e3:.2f} ms wall per repetition)")
            for name, mode in pick.items():
                cfg = byname.get(name) or Cfg(name, os.path.join(o.bins, "orion", prog),
                                              {"ORION_MODE": mode})
                for e in range(o.energy_repeat):
                    for reps in (lo, hi):
                        a = args + ["-r", str(reps)]
                        if name == "nvcc" and e == 0 and reps == lo:
                            r = r_lo
                        else:
                            r = benchlib.run_program(cfg.binary, a, cfg.env, False, energy)
                        record(raw, prog, cfg, f"energy_r{reps}", e, a, r)
                        if not r.passed:
                            log(f"  FAIL energy {name} -r {reps}: rc {r.rc}")
    log("done")


if __name__ == "__main__":
    sys.exit(main())
