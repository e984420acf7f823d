#!/usr/bin/env python3
"""rt_robust.py - GPU test of liborionrt's launch guarantees (issue 4): no
launch lost, duplicated or reordered, capture-safe, thread-safe; and
orion-cc -fgpu-rdc.  The programs are in test/gpu/rt_robust/.

  build --orion-cc PATH --out DIR [--runtime-lib LIB] [--programs a,b]
      Compile the programs with `orion-cc -O3 --cuda-gpu-arch=sm_90` (no GPU
      needed); fails unless every kernel got at least one clone besides the
      original (the pass's report is kept as DIR/<prog>.pass.jsonl).
      --runtime-lib: link LIB instead of orion-cc's liborionrt (to run the
      checks against another build of the runtime).
  run DIR [--only threads,chain,graph,rdc] [--repeat N] [--memcheck]
      Run the checks on programs built into DIR; exit 0 when all hold, 1
      otherwise, 77 (skipped) without a GPU.

Checks (each program's whole stdout must equal its ORION_MODE=off stdout,
bit for bit, in every other mode and version; the programs themselves
exit 1 on a wrong launch/block count or order, or a failed capture):
  1 threads  8 host threads x 300 launches of one kernel on 8 streams, in
             adaptive (N times) and exhaustive (N times) while tuning, static,
             and fixed:<tag> for every version the report lists; the
             reports must show tuning while the launches ran (timed
             launches, and split launches in some adaptive or exhaustive
             run); --memcheck adds compute-sanitizer memcheck runs
             (4 threads x 12 launches; graph's mid_global scenario) that
             must report no error.
  2 chain    400 dependent launches on one stream (x <- f(x)), 3 sites,
             2 block shapes: same modes.
  3 graph    stream capture (global, thread-local, relaxed) before the
             first launch and mid-tuning, and while another thread tunes:
             same modes; the adaptive report must show each mid-tuning
             kernel settled after the capture (or not at all).
  4 rdc      -fgpu-rdc program from two translation units, built in one
             command (rdc) and by separate -c and link (rdc_sep): exact
             host comparison inside the program, same modes.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from rt_modes import have_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "rt_robust")
ARCH = "--cuda-gpu-arch=sm_90"

# program -> (sources, extra link flags, run arguments)
PROGRAMS = {
    "threads": (["threads.cu"], ["-lpthread"], ["8", "300"]),
    "chain": (["chain.cu"], [], ["400"]),
    "graph": (["graph.cu"], ["-lpthread"], []),
    "rdc": (["rdc_main.cu", "rdc_dev.cu"], [], ["50"]),
    "rdc_sep": (["rdc_main.cu", "rdc_dev.cu"], [], ["50"]),
}


def sh(cmd, env=None, timeout=900):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def build(o):
    os.makedirs(o.out, exist_ok=True)
    cc = [o.orion_cc, "-O3", ARCH]
    bad = 0
    progs = [p for p in o.programs.split(",") if p] or list(PROGRAMS)
    for prog in progs:
        if prog not in PROGRAMS:
            print(f"FAIL build: no program {prog} (one of {', '.join(PROGRAMS)})")
            return 1
        srcs, ldflags, _ = PROGRAMS[prog]
        out = os.path.join(o.out, prog)
        rep = os.path.join(o.out, prog + ".pass.jsonl")
        if os.path.exists(rep):
            os.unlink(rep)
        env = dict(os.environ, ORION_REPORT=rep)
        srcs = [os.path.join(SRC, s) for s in srcs]
        rdc = ["-fgpu-rdc"] if prog.startswith("rdc") else []
        steps = []
        if prog == "rdc_sep" or o.runtime_lib:
            objs = []
            for s in srcs:
                obj = os.path.join(o.out, prog + "." + os.path.basename(s) + ".o")
                steps.append(cc + rdc + ["-c", s, "-o", obj])
                objs.append(obj)
            rt = ["--orion-rt=none", o.runtime_lib, "-ldl", "-lpthread"] if o.runtime_lib else []
            steps.append([o.orion_cc] + rdc + objs + ["-o", out] + rt + ldflags)
        else:
            steps.append(cc + rdc + srcs + ["-o", out] + ldflags)
        for cmd in steps:
            r = sh(cmd, env)
            if r.returncode:
                print(f"FAIL build {prog}: {r.stderr.strip()[-2000:]}")
                return 1
        kernels = [json.loads(l) for l in open(rep) if l.strip()]
        for k in kernels:
            clones = [v["tag"] for v in k["versions"] if not v["pad"] and v["role"] != "original"]
            print(f"  {prog}: {k['kernel']}: max-live {k['max_live']}, versions "
                  f"{','.join(v['tag'] for v in k['versions'])}, split params {k['hidden_params']}")
            if not clones:
                print(f"FAIL build {prog}: {k['kernel']} has no clone")
                bad = 1
        if not kernels:
            print(f"FAIL build {prog}: the pass reported no kernel")
            bad = 1
    print(f"built {len(progs)} programs into {o.out}" if not bad else "build: FAIL")
    return bad


class Runner:
    def __init__(self, bindir):
        self.bindir = bindir
        self.tmp = tempfile.mkdtemp(prefix="orion-rt-robust-")
        self.failures = []

    def run(self, prog, args, mode, report=False, wrap=None, timeout=300):
        """(exit status, stdout, stderr, report JSON or None); a run past
        the timeout (a hang) is exit status 124."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("ORION_")}
        env["ORION_CACHE"] = "off"
        if mode:
            env["ORION_MODE"] = mode
        rep = os.path.join(self.tmp, "report.json")
        if report:
            env["ORION_REPORT"] = rep
        cmd = (wrap or []) + [os.path.join(self.bindir, prog)] + args
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", f"timed out after {timeout} s", None
        data = None
        if report and os.path.exists(rep):
            with open(rep) as f:
                data = json.load(f)
            os.unlink(rep)
        return r.returncode, r.stdout, r.stderr, data

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL " + msg, flush=True)


def summary(configs):
    return "; ".join(
        f"{c['kernel'][:24]} {c['block'][0]}: {c['source']} {c['chosen']} iters {c['iterations']} "
        f"settled@{c['settled_at']} of {c['launches']} split {c['split_launches']}"
        for c in configs)


def check_program(R, prog, repeat):
    args = PROGRAMS[prog][2]
    rc, ref, err, _ = R.run(prog, args, "off")
    if rc != 0:
        R.fail(f"{prog}: ORION_MODE=off exit {rc}: {(ref + err).strip()[-600:]}")
        return
    print(f"  {prog}: ORION_MODE=off: " + " | ".join(ref.strip().splitlines()[-3:]), flush=True)
    runs = [("adaptive", True)] * repeat + [("exhaustive", True)] * repeat + [("static", False)]
    reports = {}
    nok = 0
    for mode, want_rep in runs:
        rc, out, err, data = R.run(prog, args, mode, report=want_rep)
        if rc != 0 or out != ref or "orion: warning" in err:
            R.fail(f"{prog}: ORION_MODE={mode}: exit {rc}, output "
                   f"{'equal' if out == ref else 'differs'}: {(out + err).strip()[-800:]}")
            continue
        nok += 1
        for line in err.splitlines():
            if line.startswith("note:"):
                print(f"  {prog}: {mode}: {line}", flush=True)
        if data:
            reports.setdefault(mode, []).extend(data["configs"])
            print(f"  {prog}: {mode}: {summary(data['configs'])}", flush=True)
    tags = sorted({v["tag"] for c in reports.get("exhaustive", []) for v in c["versions"]})
    for t in tags:
        rc, out, err, data = R.run(prog, args, "fixed:" + t, report=True)
        chosen = sorted({c["chosen"] for c in (data or {}).get("configs", [])})
        if rc != 0 or out != ref:
            R.fail(f"{prog}: ORION_MODE=fixed:{t}: exit {rc}, output "
                   f"{'equal' if out == ref else 'differs'}: {(out + err).strip()[-800:]}")
        elif t not in chosen:
            R.fail(f"{prog}: ORION_MODE=fixed:{t}: no configuration ran {t} (chosen {chosen})")
        else:
            nok += 1
    if len(tags) < 2:
        R.fail(f"{prog}: exhaustive report lists versions {tags}: fewer than 2")
    tuned = [c for m in ("adaptive", "exhaustive") for c in reports.get(m, [])]
    if prog in ("threads", "chain"):
        # The launches ran while tuning went on: timed launches, and split
        # launches (which of the threads' launches meet tuning varies, so
        # over all adaptive and exhaustive runs).
        if not any(c["iterations"] >= 2 for c in tuned):
            R.fail(f"{prog}: no configuration timed 2 or more launches")
        if not sum(c["split_launches"] for c in tuned):
            R.fail(f"{prog}: no split launch in any adaptive or exhaustive run")
    if prog == "graph":
        for c in reports.get("adaptive", []):
            m = re.match(r"_Z4stepILi([3-6])EE", c["kernel"])
            if m and c["block"][0] == 256 and 0 < c["settled_at"] <= 2:
                R.fail(f"{prog}: {c['kernel']} settled at launch {c['settled_at']}, before "
                       f"its capture (not mid-tuning)")
    print(f"{'ok' if nok == len(runs) + len(tags) else 'FAIL'}: {prog}: output equal to "
          f"ORION_MODE=off in {nok} of {len(runs) + len(tags)} runs (adaptive x{repeat}, "
          f"exhaustive x{repeat}, static, fixed:{','.join(tags)})", flush=True)


def memcheck(R):
    """compute-sanitizer memcheck on short runs while tuning: no error, and
    the same output as ORION_MODE=off."""
    san = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not os.path.exists(san):
        R.fail("memcheck: compute-sanitizer not found")
        return
    for prog, args in (("threads", ["4", "12"]), ("graph", ["mid_global"])):
        rc0, ref, _, _ = R.run(prog, args, "off")
        rc, out, err, _ = R.run(prog, args, "adaptive",
                                wrap=[san, "--tool", "memcheck", "--error-exitcode", "99"])
        body = [l for l in out.splitlines() if not l.startswith("=========")]
        tail = [l for l in out.splitlines() if l.startswith("=========")][-1:]
        what = f"memcheck: {prog} {' '.join(args)} adaptive"
        if rc0 != 0 or rc != 0 or "\n".join(body) != ref.rstrip("\n"):
            R.fail(f"{what}: exit {rc}: {(out + err).strip()[-1500:]}")
        else:
            print(f"ok: {what}: {tail[0] if tail else ''}, output equal to ORION_MODE=off",
                  flush=True)


def run(o):
    if not have_gpu():
        print("SKIP: no CUDA GPU on this machine (rt_robust needs one)")
        return 77
    R = Runner(o.dir)
    only = [p for p in o.only.split(",") if p] or ["threads", "chain", "graph", "rdc"]
    for p in only:
        for prog in ([p, "rdc_sep"] if p == "rdc" else [p]):
            if not os.access(os.path.join(o.dir, prog), os.X_OK):
                R.fail(f"{prog}: no program {os.path.join(o.dir, prog)} (build it first)")
                continue
            check_program(R, prog, o.repeat)
    if o.memcheck:
        memcheck(R)
    print(f"rt_robust: {len(R.failures)} failure(s)")
    return 1 if R.failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--orion-cc", required=True)
    b.add_argument("--out", required=True)
    b.add_argument("--runtime-lib")
    b.add_argument("--programs", default="", help="comma-separated subset")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--only", default="")
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--memcheck", action="store_true")
    o = ap.parse_args()
    return build(o) if o.cmd == "build" else run(o)


if __name__ == "__main__":
    sys.exit(main())
