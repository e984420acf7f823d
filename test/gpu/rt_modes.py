#!/usr/bin/env python3
"""rt_modes.py - GPU test of liborionrt on programs built with orion-cc.

For every program (benchmarks/programs, built by orion-cc; each prints
`RESULT ... check=PASS|FAIL ... checksum=<hex>`):
  1. ORION_MODE=off gives the reference checksum;
  2. static, adaptive and exhaustive give the same checksum, bit for bit;
  3. every version of every kernel, forced alone with
     ORION_MODE=fixed:<kernel>=<tag>, gives the same checksum;
  4. a second adaptive run with a cache file starts on the cached choices
     (every configuration the first run settled on the original, or on
     another version that re-checks confirmed, is "cached" with the same
     choice in the second run's report; one settled on another version
     short of its re-checks is "tentative" with that choice, or reverted);
  5. with --timing: exhaustive mode's choice for each kernel is as fast as
     the fastest version timed alone (within --tolerance, default 2 %).
Exit 0 when everything holds, 1 otherwise, 77 (skipped) without a GPU.

usage: rt_modes.py --bin-dir DIR [--programs a,b,...] [--args "-s small"]
                   [--timing] [--csv FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def have_gpu():
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        return r.returncode == 0 and "GPU" in r.stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


def run(binary, args, env_extra, report=None):
    """(exit status, RESULT fields, report JSON or None, stderr); the
    program sees no ORION_* setting of ours but env_extra's (cache off
    unless env_extra names one)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORION_")}
    env.update(env_extra)
    env.setdefault("ORION_CACHE", "off")
    if report:
        env["ORION_REPORT"] = report
    r = subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=900)
    m = re.search(r"^RESULT (.*)$", r.stdout, re.M)
    fields = dict(kv.split("=", 1) for kv in m.group(1).split()) if m else {}
    data = None
    if report and os.path.exists(report):
        with open(report) as f:
            data = json.load(f)
        os.unlink(report)
    return r.returncode, fields, data, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--programs", default="")
    ap.add_argument("--args", default="-s small")
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--timing-args", default="-r 5")
    ap.add_argument("--tolerance", type=float, default=0.02)
    ap.add_argument("--timing-runs", type=int, default=3)
    ap.add_argument("--csv")
    o = ap.parse_args()
    if not have_gpu():
        print("SKIP: no CUDA GPU on this machine (rt_modes needs one)")
        return 77
    progs = [p for p in o.programs.split(",") if p] or sorted(
        f for f in os.listdir(o.bin_dir)
        if os.access(os.path.join(o.bin_dir, f), os.X_OK) and "." not in f)
    args = o.args.split()
    tmp = tempfile.mkdtemp(prefix="orion-rt-modes-")
    rep = os.path.join(tmp, "report.json")
    failures, rows = [], []

    def fail(msg):
        failures.append(msg)
        print("FAIL: " + msg)

    for prog in progs:
        b = os.path.join(o.bin_dir, prog)
        rc, ref, _, err = run(b, args, {"ORION_MODE": "off"})
        if rc != 0 or ref.get("check") != "PASS" or "checksum" not in ref:
            fail(f"{prog}: reference run failed (rc {rc}): {err.strip()[-300:]}")
            continue
        want = ref["checksum"]
        runs = 1
        rc, res, exh, err = run(b, args, {"ORION_MODE": "exhaustive"}, rep)
        configs = exh["configs"] if exh else []
        for mode, r in (("exhaustive", (rc, res)),) + tuple(
                (m, run(b, args, {"ORION_MODE": m})[:2]) for m in ("static", "adaptive")):
            runs += 1
            if r[0] != 0 or r[1].get("checksum") != want or r[1].get("check") != "PASS":
                fail(f"{prog}: ORION_MODE={mode}: checksum {r[1].get('checksum')} != {want} (rc {r[0]})")
        kernels = {}
        for c in configs:
            kernels.setdefault(c["kernel"], set()).update(v["tag"] for v in c["versions"])
        nfixed = 0
        for k, tags in sorted(kernels.items()):
            for t in sorted(tags):
                rc, r, _, err = run(b, args, {"ORION_MODE": f"fixed:{k}={t}"})
                nfixed += 1
                if rc != 0 or r.get("checksum") != want or "has no version" in err:
                    fail(f"{prog}: fixed:{k}={t}: checksum {r.get('checksum')} != {want} "
                         f"(rc {rc}) {err.strip()[-200:]}")
        cache = os.path.join(tmp, prog + ".cache")
        _, _, first, _ = run(b, args, {"ORION_MODE": "adaptive", "ORION_CACHE": cache}, rep)
        rc, r, second, err = run(b, args, {"ORION_MODE": "adaptive", "ORION_CACHE": cache}, rep)
        key = lambda c: (c["kernel"], tuple(c["block"]), c["shmem"])
        # Cached: what tuning settled on the original, and a choice other
        # than the original once re-checks confirmed it (3 or more).
        tuned = {key(c): c["chosen"] for c in (first or {}).get("configs", [])
                 if c["source"] in ("tuned", "reverted") and
                 (c["chosen"] == c["original"] or c.get("rechecks", 0) >= 3)}
        again = {key(c): c for c in (second or {}).get("configs", [])}
        # (a cached choice other than the original is re-checked, and may
        # revert to the original: "reverted")
        not_cached = [k[0] for k, t in tuned.items()
                      if k not in again or not (
                          (again[k]["source"] == "cached" and again[k]["chosen"] == t) or
                          (again[k]["source"] == "reverted" and
                           again[k]["chosen"] == again[k]["original"] != t))]
        # A choice tuning settled on short of its re-checks is carried as
        # tentative evidence: the second run starts on it and re-checks it.
        tent = {key(c): c["chosen"] for c in (first or {}).get("configs", [])
                if c["source"] == "tuned" and c["chosen"] != c["original"] and
                c.get("rechecks", 0) < 3}
        not_carried = [k[0] for k, t in tent.items()
                       if k not in again or not (
                           (again[k]["source"] == "tentative" and again[k]["chosen"] == t) or
                           again[k]["source"] == "reverted")]
        if rc != 0 or r.get("checksum") != want or not_cached or not_carried:
            fail(f"{prog}: second run with the cache: not cached: {not_cached}, tentative not "
                 f"carried: {not_carried} (rc {rc})")
        print(f"ok: {prog}: checksum {want} in off/static/adaptive/exhaustive, {nfixed} fixed "
              f"versions, cache reused for {len(tuned)} configuration(s)")
        if not o.timing:
            continue
        targs = o.timing_args.split()
        _, _, exh_t, _ = run(b, targs, {"ORION_MODE": "exhaustive"}, rep)
        for c in (exh_t or {}).get("configs", []):
            if len(c["versions"]) < 2:
                continue
            alone, times = {}, {}
            for _ in range(o.timing_runs):  # alternate the versions, median of runs
                for v in c["versions"]:
                    rc, r, _, _ = run(b, targs, {"ORION_MODE": f"fixed:{c['kernel']}={v['tag']}"})
                    if rc == 0 and "kernel_ms" in r:
                        times.setdefault(v["tag"], []).append(float(r["kernel_ms"]))
            for t, ms in times.items():
                alone[t] = sorted(ms)[len(ms) // 2]
            if not alone or c["chosen"] not in alone:
                fail(f"{prog}: {c['kernel']}: versions did not run alone")
                continue
            fastest = min(alone, key=alone.get)
            ratio = alone[c["chosen"]] / alone[fastest]
            rows.append((prog, c["kernel"], c["chosen"], fastest, ratio,
                         " ".join(f"{t}={ms:.4f}" for t, ms in sorted(alone.items()))))
            verdict = "ok" if ratio <= 1 + o.tolerance else "FAIL"
            print(f"{verdict}: {prog}: {c['kernel']}: exhaustive chose {c['chosen']}, fastest "
                  f"alone {fastest}, ratio {ratio:.4f} ({rows[-1][5]})")
            if ratio > 1 + o.tolerance:
                fail(f"{prog}: {c['kernel']}: exhaustive choice {c['chosen']} is {ratio:.3f}x "
                     f"the fastest alone ({fastest})")
    if o.csv and rows:
        with open(o.csv, "w") as f:
            f.write("program,kernel,exhaustive_choice,fastest_alone,ratio,alone_kernel_ms\n")
            for r in rows:
                f.write("%s,%s,%s,%s,%.4f,%s\n" % r)
    print(f"{len(progs)} program(s), {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
