#!/usr/bin/env python3
"""rt_robust.py - GPU test of liborionrt's launch guarantees: no
launch lost, duplicated or reordered, capture-safe, thread-safe, per-thread
default streams, the shared runtime, a version that really fails to launch;
and orion-cc -fgpu-rdc.  The programs are in test/gpu/rt_robust/.

  build --orion-cc PATH --out DIR [--runtime-lib LIB] [--programs a,b]
      Compile the programs with `orion-cc -O3 --orion-split --cuda-gpu-arch=sm_90` (no GPU
      needed); fails unless every kernel got at least one clone besides the
      original (the pass's report is kept as DIR/<prog>.pass.jsonl).
      --runtime-lib: link LIB instead of orion-cc's liborionrt (to run the
      checks against another build of the runtime; a .so is what the
      shared-runtime programs then load).  The shared-runtime programs load
      DIR/lib/liborionrt.so, copied there from orion-cc's lib directory.
  run DIR [--only threads,chain,graph,rdc,shared,ptds,smem] [--repeat N]
          [--memcheck]
      Run the checks on programs built into DIR; exit 0 when all hold, 1
      otherwise, 77 (skipped) without a GPU.

Checks (each program's whole stdout must equal its ORION_MODE=off stdout,
bit for bit, in every other mode and version; the programs themselves
exit 1 on a wrong launch/block count or order, or a failed capture):
  1 threads  8 host threads x 300 launches of one kernel on 8 streams, in
             adaptive (N times, once more with ORION_SPLIT=always, once with
             ORION_RECHECK=3) and exhaustive (N times) while tuning, static,
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
             kernel settled after the capture (or not at all); the
             cross-thread scenario 20 times more under adaptive.
  4 rdc      -fgpu-rdc program from two translation units, built in one
             command (rdc) and by separate -c and link (rdc_sep): exact
             host comparison inside the program, same modes.
  5 shared   threads and chain linked with `orion-cc --orion-rt=shared`
             (threads_shared, chain_shared), run with LD_LIBRARY_PATH=DIR/lib
             as a user would (ldd must resolve liborionrt.so there; the
             program must hold no copy of the runtime): same modes, and the
             ORION_MODE=off output equal to the static build's.
  6 ptds     6 host threads, a chain each (150 + 10 t links) of one kernel
             on the per-thread default stream: named cudaStreamPerThread
             (ptds), or stream 0 built with clang's
             -fgpu-default-stream=per-thread (ptds_implicit; its launch
             sites must be hooked as per-thread ones, -Rpass=orion): same
             modes, order and counts checked per thread; the chains equal
             ptds's.
  7 smem     a kernel launched with 50 KB and 49 KB (> 48 KB) and 16 KB of
             dynamic shared memory under
             cudaFuncAttributeMaxDynamicSharedMemorySize (3 configurations).
             smem_once sets it once: every clone must run at 49 and 50 KB
             under fixed:<tag> (the runtime gives the clones the program's
             limit), padding versions (pNN) must run in exhaustive mode in
             every configuration, nothing may fail.  smem_every sets it to
             the launch's size before each launch over 48 KB (alternating
             50 and 49 KB), as many programs do: the same checks, with the
             fallback allowed (below), and its chains equal smem_once's.
             (On driver 580 this does not undo the runtime's raise of the
             original's limit for padding: the padded launches succeed.)
  8 lmem     a chain run while the program holds all device memory but
             48 MiB: a clone whose spills need more local memory per thread
             than the context has (r48, r32: over 1 KiB) may fail to launch
             for want of memory (H200, driver 580: they do, error 2).
  9 invalid  launches the plain build rejects (gridDim.y or .z 65536,
             gridDim.x 0 or 2^31, blocks of 1025, 2048, 1x1x65, 32x32x2 or
             0 threads, dynamic shared memory over the kernel's limit or
             over the opt-in maximum, registers x threads over the SM's,
             a block over the kernel's launch bounds), mixed with valid
             launches of the same kernels and configurations: the error
             code, name and string of each (cudaPeekAtLastError,
             cudaGetLastError twice) and the blocks that ran must equal
             ORION_MODE=off's in every mode and version.
 10 pending  the same program leaving a rejected launch's error unread
             while every kernel is discovered and set up at new block
             sizes: the error read afterwards equals ORION_MODE=off's;
             with --memcheck, compute-sanitizer's failed-API-call lines
             ("Program hit <error> on CUDA API call to <call>") are the
             same, in order, in every mode as under ORION_MODE=off (the
             runtime never reads the program's error state).
Fallback checks (smem_every, lmem): a version may fail to launch; the
report's "failed" count of it must then be 1 (never tried again), the
original must have run in its place (output identical), one warning, and
under ORION_DEBUG=1 one trace line per failed version; exhaustive mode
must settle every configuration, having run or dropped every version (a
candidate whose split chunk exceeds the grid is timed on whole launches).  Which
versions failed is printed.
"""
import argparse
import collections
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



def prog(srcs, ldflags, args, cflags=(), rt="static", binary=None, same_as=None,
         fallback=False):
    """A check: its sources, link flags, run arguments, extra compile
    flags, liborionrt build (static or shared), the binary it runs (built
    under the check's name unless another check's), the check whose
    ORION_MODE=off output (CHAIN lines where there are any) it must equal,
    and whether a version may fail to launch (the runtime must then run the
    original in its place and never try the version again)."""
    return dict(srcs=srcs, ldflags=ldflags, args=args, cflags=list(cflags), rt=rt,
                binary=binary, same_as=same_as, fallback=fallback)


PTDS_IMPLICIT = ["-Xclang", "-fgpu-default-stream=per-thread"]
PROGRAMS = {
    "threads": prog(["threads.cu"], ["-lpthread"], ["8", "300"]),
    "chain": prog(["chain.cu"], [], ["400"]),
    "graph": prog(["graph.cu"], ["-lpthread"], []),
    "rdc": prog(["rdc_main.cu", "rdc_dev.cu"], [], ["50"]),
    "rdc_sep": prog(["rdc_main.cu", "rdc_dev.cu"], [], ["50"]),
    "threads_shared": prog(["threads.cu"], ["-lpthread"], ["8", "300"], rt="shared",
                           same_as="threads"),
    "chain_shared": prog(["chain.cu"], [], ["400"], rt="shared", same_as="chain"),
    "ptds": prog(["ptds.cu"], ["-lpthread"], ["6", "150"]),
    "ptds_implicit": prog(["ptds.cu"], ["-lpthread"], ["6", "150"], cflags=PTDS_IMPLICIT,
                          same_as="ptds"),
    "smem_once": prog(["smem.cu"], [], ["once", "120"], binary="smem"),
    "smem_every": prog(["smem.cu"], [], ["every", "120"], binary="smem", same_as="smem_once",
                       fallback=True),
    "lmem": prog(["lmem.cu"], [], ["200"], fallback=True),
    "invalid": prog(["invalid.cu"], [], ["6"]),
    "pending": prog(["invalid.cu"], [], ["3", "pending"], binary="invalid"),
}
# --only names: a group runs these checks
GROUPS = {"rdc": ["rdc", "rdc_sep"], "shared": ["threads_shared", "chain_shared"],
          "ptds": ["ptds", "ptds_implicit"], "smem": ["smem_once", "smem_every"]}
DEFAULT_ONLY = ["threads", "chain", "graph", "rdc", "shared", "ptds", "smem", "lmem", "invalid",
                "pending"]


def binary(name):
    return PROGRAMS[name]["binary"] or name


def shared_lib_dir(bindir):
    return os.path.join(bindir, "lib")


def sh(cmd, env=None, timeout=900):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def build(o):
    os.makedirs(o.out, exist_ok=True)
    cc = [o.orion_cc, "-O3", "--orion-split", ARCH]  # split clones: ORION_SPLIT=1 runs
    bad = 0
    names = [p for p in o.programs.split(",") if p] or list(PROGRAMS)
    progs = []
    for name in names:
        if name not in PROGRAMS:
            print(f"FAIL build: no program {name} (one of {', '.join(PROGRAMS)})")
            return 1
        if binary(name) not in [binary(p) for p in progs]:
            progs.append(name)
    for name in progs:
        P, prog = PROGRAMS[name], binary(name)
        out = os.path.join(o.out, prog)
        rep = os.path.join(o.out, prog + ".pass.jsonl")
        if os.path.exists(rep):
            os.unlink(rep)
        # lmem's heavy clones (r48, r32) exist only without the cap floor
        env = dict(os.environ, ORION_CC_REPORT=rep,
                   ORION_CAP_FLOOR=os.environ.get("ORION_CAP_FLOOR", "0"))
        srcs = [os.path.join(SRC, s) for s in P["srcs"]]
        rdc = ["-fgpu-rdc"] if prog.startswith("rdc") else []
        flags = rdc + P["cflags"] + (["-Rpass=orion"] if P["cflags"] else [])
        shared = P["rt"] == "shared"
        steps = []
        if prog == "rdc_sep" or (o.runtime_lib and not shared):
            objs = []
            for s in srcs:
                obj = os.path.join(o.out, prog + "." + os.path.basename(s) + ".o")
                steps.append(cc + flags + ["-c", s, "-o", obj])
                objs.append(obj)
            rt = ["--orion-rt=none", o.runtime_lib, "-ldl", "-lpthread"] if o.runtime_lib else []
            steps.append([o.orion_cc] + rdc + objs + ["-o", out] + rt + P["ldflags"])
        else:
            rt = ["--orion-rt=shared"] if shared else []
            steps.append(cc + flags + srcs + ["-o", out] + rt + P["ldflags"])
        for cmd in steps:
            r = sh(cmd, env)
            if r.returncode:
                print(f"FAIL build {prog}: {r.stderr.strip()[-2000:]}")
                return 1
            if P["cflags"] == PTDS_IMPLICIT and "-c" not in cmd:
                # Every hooked launch site of step<0> is a per-thread one.
                hooked = [l for l in r.stderr.splitlines() if "launch of" in l]
                if not hooked or any("per-thread default stream" not in l for l in hooked):
                    print(f"FAIL build {prog}: launch sites not hooked as per-thread default "
                          f"stream ones: {hooked[:3]}")
                    bad = 1
        if shared and not install_shared(o, out):
            bad = 1
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


def install_shared(o, out):
    """Copy liborionrt.so (--runtime-lib's when it is one, else orion-cc's)
    to <out dir>/lib, and check that the program needs it and holds no copy
    of the runtime."""
    lib = o.runtime_lib if o.runtime_lib and o.runtime_lib.endswith(".so") else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(o.orion_cc))), "lib", "liborionrt.so")
    dest = shared_lib_dir(o.out)
    os.makedirs(dest, exist_ok=True)
    # Under its soname (liborionrt.so.<major>), the name the program needs.
    soname = re.search(r"Library soname: [[](.*?)[]]",
                       subprocess.run(["readelf", "-d", lib], capture_output=True, text=True).stdout)
    name = soname.group(1) if soname else "liborionrt.so"
    shutil.copy2(lib, os.path.join(dest, name))
    dyn = subprocess.run(["readelf", "-d", out], capture_output=True, text=True).stdout
    syms = subprocess.run(["nm", out], capture_output=True, text=True).stdout
    own = [l for l in syms.splitlines() if l.endswith(" __orion_launch_kernel")]
    if f"[{name}]" not in dyn or not own or any(" U " not in l for l in own):
        print(f"FAIL build {out}: not linked against liborionrt.so (NEEDED: "
              f"{re.findall(r'Shared library: [[](.*?)[]]', dyn)}; __orion_launch_kernel: {own})")
        return False
    print(f"  {os.path.basename(out)}: needs {name} (copied from {lib} to {dest})")
    return True


class Runner:
    def __init__(self, bindir):
        self.bindir = bindir
        self.tmp = tempfile.mkdtemp(prefix="orion-rt-robust-")
        self.failures = []
        self.refs = {}  # check -> its ORION_MODE=off stdout
        self.fallbacks = {}  # check -> failed versions per run that had any

    def env(self, prog):
        """The environment a check's program runs in: no ORION_* setting of
        ours, and for the shared-runtime programs DIR/lib first on
        LD_LIBRARY_PATH."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("ORION_")}
        if PROGRAMS[prog]["rt"] == "shared":
            env["LD_LIBRARY_PATH"] = ":".join(
                p for p in [shared_lib_dir(self.bindir), env.get("LD_LIBRARY_PATH", "")] if p)
        return env

    def run(self, prog, args, mode, report=False, wrap=None, timeout=300, extra=None):
        """(exit status, stdout, stderr, report JSON or None) of check
        prog's program; a run past the timeout (a hang) is exit status
        124."""
        env = self.env(prog)
        env["ORION_CACHE"] = "off"
        env.update(extra or {})
        if mode:
            env["ORION_MODE"] = mode
        rep = os.path.join(self.tmp, "report.json")
        if report:
            env["ORION_REPORT"] = rep
        cmd = (wrap or []) + [os.path.join(self.bindir, binary(prog))] + args
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
        f"{c['kernel'][:24]} {c['block'][0]}{' smem %d' % c['shmem'] if c['shmem'] else ''}: "
        f"{c['source']} {c['chosen']} iters {c['iterations']} "
        f"settled@{c['settled_at']} of {c['launches']} split {c['split_launches']}"
        for c in configs)


# The one warning a fallback check may print: a version that failed to launch.
FAILED_WARNING = re.compile(r"orion: warning: kernel \S+: version (\S+) failed to launch")
DEBUG_DROP = re.compile(r"orion: debug: (\S+) block (\d+) smem (\d+): version (\S+) failed "
                        r"to launch .*, \S+ dropped")


def bad_warnings(prog, err):
    """The runtime's warnings in err that the check does not allow (a
    fallback check allows one failed-launch warning)."""
    lines = [l for l in err.splitlines() if l.startswith("orion: warning")]
    allowed = [l for l in lines if FAILED_WARNING.match(l)]
    if PROGRAMS[prog]["fallback"] and len(allowed) <= 1:
        return [l for l in lines if l not in allowed]
    return lines


def failures(R, prog, what, data):
    """Check a report's failed counts: a version fails at most once (it is
    never tried again), only a fallback check's versions fail at all, never
    the original, and a failed version is not the chosen one.  Returns
    [(configuration's dynamic shared memory, tag)] of the failed ones."""
    failed = []
    for c in (data or {}).get("configs", []):
        for v in c["versions"]:
            n = v.get("failed", 0)
            if not n:
                continue
            failed.append((c["shmem"], v["tag"]))
            where = f"{prog}: {what}: {c['kernel'][:24]} smem {c['shmem']}: {v['tag']}"
            if n > 1:
                R.fail(f"{where} failed to launch {n} times (tried again after failing)")
            if not PROGRAMS[prog]["fallback"] or v["tag"] == c["original"]:
                R.fail(f"{where} failed to launch")
            if c["chosen"] == v["tag"]:
                R.fail(f"{where} failed to launch and is still the chosen version")
    return failed


def comparable(out):
    """What two checks' ORION_MODE=off outputs must share: the CHAIN lines
    when there are any, else the whole output."""
    chains = [l for l in out.splitlines() if l.startswith("CHAIN ")]
    return "\n".join(chains) if chains else out


def check_program(R, prog, repeat):
    P = PROGRAMS[prog]
    args = P["args"]
    if P["rt"] == "shared":
        ldd = subprocess.run(["ldd", os.path.join(R.bindir, binary(prog))], env=R.env(prog),
                             capture_output=True, text=True).stdout
        where = re.findall(r"liborionrt\.so(?:\.\d+)* => (\S+)", ldd)  # under its soname
        want = shared_lib_dir(R.bindir)
        if len(where) != 1 or os.path.dirname(os.path.realpath(where[0])) != os.path.realpath(want):
            R.fail(f"{prog}: liborionrt.so resolves to {where}, not {want}: {ldd.strip()}")
            return
        print(f"  {prog}: LD_LIBRARY_PATH={R.env(prog)['LD_LIBRARY_PATH']}: ldd: "
              f"liborionrt.so => {where[0]}", flush=True)
    rc, ref, err, _ = R.run(prog, args, "off")
    if rc != 0:
        R.fail(f"{prog}: ORION_MODE=off exit {rc}: {(ref + err).strip()[-600:]}")
        return
    R.refs[prog] = ref
    print(f"  {prog}: ORION_MODE=off: " + " | ".join(ref.strip().splitlines()[-3:]), flush=True)
    runs = ([("adaptive", True, None)] * repeat + [("adaptive", True, {"ORION_SPLIT": "always"})] +
            [("adaptive", True, {"ORION_RECHECK": "3"})] + [("exhaustive", True, None)] * repeat +
            [("static", False, None)])
    reports = {}
    nok = 0
    for mode, want_rep, extra in runs:
        rc, out, err, data = R.run(prog, args, mode, report=want_rep, extra=extra)
        if extra:
            mode += " " + " ".join(f"{k}={v}" for k, v in extra.items())
        if rc != 0 or out != ref or bad_warnings(prog, err):
            R.fail(f"{prog}: ORION_MODE={mode}: exit {rc}, output "
                   f"{'equal' if out == ref else 'differs'}: {(out + err).strip()[-800:]}")
            continue
        nok += 1
        for line in err.splitlines():
            if line.startswith("note:"):
                print(f"  {prog}: {mode}: {line}", flush=True)
        if data:
            reports.setdefault(mode.split()[0], []).append(data["configs"])
            print(f"  {prog}: {mode}: {summary(data['configs'])}", flush=True)
            failed = failures(R, prog, mode, data)
            R.fallbacks.setdefault(prog, []).append((mode, len(failed)))
            if failed:
                print(f"  {prog}: {mode}: failed and dropped: "
                      f"{', '.join(f'{t} (smem {m})' for m, t in failed)}; "
                      f"warned: {FAILED_WARNING.findall(err)}", flush=True)
            if len(FAILED_WARNING.findall(err)) != (1 if failed else 0):
                R.fail(f"{prog}: {mode}: {len(failed)} version(s) failed, warnings: "
                       f"{FAILED_WARNING.findall(err)}")
            if P["fallback"] and mode == "exhaustive":
                # A configuration exhaustive mode settled has tried every
                # version: each one ran (timed samples) or failed once with
                # the original in its place.
                done = [c for c in data["configs"] if c["source"] == "exhaustive"]
                idle = [(c["shmem"], v["tag"]) for c in done for v in c["versions"]
                        if not v["samples"] and (c["shmem"], v["tag"]) not in failed]
                if idle:
                    R.fail(f"{prog}: exhaustive: versions neither ran nor failed: {idle}")
                for c in data["configs"]:
                    if c["source"] != "exhaustive":  # a candidate never timed (rt.c split_launch)
                        R.fail(f"{prog}: exhaustive: smem {c['shmem']} block {c['block'][0]}: not "
                               f"settled in {c['launches']} launches (untimed: "
                               f"{[v['tag'] for v in c['versions'] if not v['samples']]})")
    configs = [c for m in ("adaptive", "exhaustive") for run in reports.get(m, []) for c in run]
    tags = sorted({v["tag"] for run in reports.get("exhaustive", []) for c in run
                   for v in c["versions"]})
    for t in tags:
        rc, out, err, data = R.run(prog, args, "fixed:" + t, report=True)
        cs = (data or {}).get("configs", [])
        failed = failures(R, prog, "fixed:" + t, data)
        R.fallbacks.setdefault(prog, []).append(("fixed:" + t, len(failed)))
        # Every configuration that has the version runs it, unless it
        # failed to launch (a fallback check): then the original.
        wrong = [f"smem {c['shmem']} block {c['block'][0]}: {c['chosen']}" for c in cs
                 if any(v["tag"] == t for v in c["versions"]) and c["chosen"] !=
                 (c["original"] if (c["shmem"], t) in failed else t)]
        if rc != 0 or out != ref:
            R.fail(f"{prog}: ORION_MODE=fixed:{t}: exit {rc}, output "
                   f"{'equal' if out == ref else 'differs'}: {(out + err).strip()[-800:]}")
        elif not cs or wrong or t not in {v["tag"] for c in cs for v in c["versions"]}:
            R.fail(f"{prog}: ORION_MODE=fixed:{t}: chosen {wrong or 'nothing'}")
        else:
            nok += 1
            if prog.startswith("smem") or failed:
                print(f"  {prog}: fixed:{t}: " + "; ".join(
                    f"smem {c['shmem']}: ran {c['chosen']}" + (
                        f" ({t} failed once)" if (c["shmem"], t) in failed else "") for c in cs),
                    flush=True)
    if len(tags) < 2:
        R.fail(f"{prog}: exhaustive report lists versions {tags}: fewer than 2")
    if prog in ("threads", "chain", "threads_shared", "chain_shared", "ptds", "ptds_implicit"):
        # The launches ran while tuning went on: timed launches, and split
        # launches under ORION_SPLIT=always (which of the threads' launches meet
        # tuning varies, so over all adaptive and exhaustive runs).
        if not any(c["iterations"] >= 2 for c in configs):
            R.fail(f"{prog}: no configuration timed 2 or more launches")
        if not sum(c["split_launches"] for c in configs):
            R.fail(f"{prog}: no split launch in any adaptive or exhaustive run")
    if prog == "graph":
        # A clone's first launch, while another thread captures in global
        # mode, must not invalidate that capture (rt.c: first_launch; it
        # failed 1 run in 20 before): the scenario 20 times more.
        for i in range(20):
            rc, out, err, _ = R.run(prog, ["cross_thread"], "adaptive")
            if rc != 0 or "FAIL" in out:
                R.fail(f"{prog}: cross_thread, adaptive, run {i + 1} of 20: exit {rc}: "
                       f"{(out + err).strip()[-300:]}")
                break
        for run in reports.get("adaptive", []):
            for c in run:
                m = re.match(r"_Z4stepILi([3-6])EE", c["kernel"])
                if m and c["block"][0] == 256 and 0 < c["settled_at"] <= 2:
                    R.fail(f"{prog}: {c['kernel']} settled at launch {c['settled_at']}, before "
                           f"its capture (not mid-tuning)")
    if prog == "smem_once":
        check_padding(R, prog, reports.get("exhaustive", []))
    if P["fallback"]:
        check_debug_trace(R, prog, ref)
        hist = R.fallbacks.get(prog, [])
        hit = [f"{m}: {k}" for m, k in hist if k]
        print(f"  {prog}: versions that failed to launch and were dropped: "
              f"{sum(k for _, k in hist)} in {len(hit)} of {len(hist)} reported runs"
              f"{' (' + ', '.join(hit) + ')' if hit else ''}", flush=True)
    if P["same_as"]:
        other = P["same_as"]
        if other not in R.refs:
            R.refs[other] = R.run(other, PROGRAMS[other]["args"], "off")[1]
        same = comparable(ref) == comparable(R.refs[other])
        print(f"{'ok' if same else 'FAIL'}: {prog}: ORION_MODE=off output "
              f"{'equals' if same else 'differs from'} {other}'s"
              f"{' (CHAIN lines)' if comparable(ref) != ref else ''}", flush=True)
        if not same:
            R.fail(f"{prog}: ORION_MODE=off output differs from {other}'s")
    print(f"{'ok' if nok == len(runs) + len(tags) else 'FAIL'}: {prog}: output equal to "
          f"ORION_MODE=off in {nok} of {len(runs) + len(tags)} runs (adaptive x{repeat}, "
          f"exhaustive x{repeat}, static, fixed:{','.join(tags)})", flush=True)


def check_padding(R, prog, runs):
    """Every configuration ran a padding version (timed samples) in some
    exhaustive run."""
    ran = {}
    for run in runs:
        for c in run:
            for v in c["versions"]:
                if v["pad"]:
                    ran.setdefault(c["shmem"], set())
                    if v["samples"] > 0:
                        ran[c["shmem"]].add(f"{v['tag']} ({v['pad']} bytes)")
    if not ran or not all(ran.values()):
        R.fail(f"{prog}: padding versions did not run in every configuration: {ran}")
    else:
        print(f"ok: {prog}: padding versions ran (exhaustive): " + "; ".join(
            f"smem {m}: {', '.join(sorted(t))}" for m, t in sorted(ran.items())), flush=True)


def check_debug_trace(R, prog, ref):
    """ORION_DEBUG=1 in exhaustive mode: one failed-launch trace line per
    version the report says failed (configuration and tag alike), none
    else; the same output."""
    rc, out, err, data = R.run(prog, PROGRAMS[prog]["args"], "exhaustive", report=True,
                               extra={"ORION_DEBUG": "1"})
    traced = sorted((int(smem), tag) for _, _, smem, tag in DEBUG_DROP.findall(err))
    failed = sorted(failures(R, prog, "exhaustive (ORION_DEBUG=1)", data))
    ok = rc == 0 and out == ref and data is not None and traced == failed
    print(f"{'ok' if ok else 'FAIL'}: {prog}: ORION_DEBUG=1 exhaustive: traced drops {traced}, "
          f"report's failed versions {failed}, output {'equal' if out == ref else 'differs'}",
          flush=True)
    for line in err.splitlines():
        if DEBUG_DROP.match(line):
            print(f"  {prog}: {line}", flush=True)
    R.fallbacks.setdefault(prog, []).append(("exhaustive+ORION_DEBUG", len(failed)))
    if not ok:
        R.fail(f"{prog}: ORION_DEBUG trace {traced} vs report {failed}, exit {rc}")


def sanitizer(R, what):
    """compute-sanitizer's path, or None after a failure naming `what`."""
    san = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if os.path.exists(san):
        return san
    R.fail(f"{what}: compute-sanitizer not found")
    return None


# compute-sanitizer memcheck runs: (check, arguments, ORION_MODE)
MEMCHECK = [("threads", ["4", "12"], "adaptive"), ("graph", ["mid_global"], "adaptive"),
            ("ptds_implicit", ["3", "8"], "adaptive"),
            ("smem_once", ["once", "40"], "exhaustive")]


def memcheck(R, only):
    """compute-sanitizer memcheck on short runs while tuning: no error, and
    the same output as ORION_MODE=off."""
    san = sanitizer(R, "memcheck")
    if not san:
        return
    for prog, args, mode in MEMCHECK:
        if prog not in only:
            continue
        rc0, ref, _, _ = R.run(prog, args, "off")
        rc, out, err, _ = R.run(prog, args, mode,
                                wrap=[san, "--tool", "memcheck", "--error-exitcode", "99"])
        body = [l for l in out.splitlines() if not l.startswith("=========")]
        tail = [l for l in out.splitlines() if l.startswith("=========")][-1:]
        what = f"memcheck: {prog} {' '.join(args)} {mode}"
        if rc0 != 0 or rc != 0 or "\n".join(body) != ref.rstrip("\n"):
            R.fail(f"{what}: exit {rc}: {(out + err).strip()[-1500:]}")
        else:
            print(f"ok: {what}: {tail[0] if tail else ''}, output equal to ORION_MODE=off",
                  flush=True)


# compute-sanitizer's failed-API-call lines, compared with ORION_MODE=off's:
# (check, arguments, modes)
API_ERRORS = [("pending", ["3", "pending"], ["adaptive", "exhaustive", "static"])]
API_HIT = re.compile(r"Program hit (\S+) .* on CUDA API call to (\S+?)\.?$")


def api_errors(R, only):
    """The failed API calls compute-sanitizer reports: the same in every
    mode as under ORION_MODE=off."""
    san = sanitizer(R, "api errors")
    if not san:
        return
    wrap = [san, "--tool", "memcheck", "--print-limit", "10000"]
    for prog, args, modes in API_ERRORS:
        if prog not in only:
            continue
        seen = {}
        for mode in ["off"] + modes:
            rc, out, err, _ = R.run(prog, args, mode, wrap=wrap)
            hits = [m.groups() for m in map(API_HIT.search, (out + err).splitlines()) if m]
            if rc != 0 or not hits:
                R.fail(f"api errors: {prog} {mode}: exit {rc}, {len(hits)} failed calls: "
                       f"{(out + err).strip()[-800:]}")
                return
            seen[mode] = hits
            what = f"api errors: {prog} {' '.join(args)} {mode}"
            if hits != seen["off"]:
                more = collections.Counter(hits) - collections.Counter(seen["off"])
                fewer = collections.Counter(seen["off"]) - collections.Counter(hits)
                R.fail(f"{what}: {len(hits)} failed API calls vs {len(seen['off'])} under "
                       f"ORION_MODE=off (more: {dict(more)}; fewer: {dict(fewer)})")
            else:
                calls = sorted({c for _, c in hits})
                print(f"ok: {what}: {len(hits)} failed API calls ({', '.join(calls)}), "
                      f"as under ORION_MODE=off", flush=True)


def run(o):
    if not have_gpu():
        print("SKIP: no CUDA GPU on this machine (rt_robust needs one)")
        return 77
    R = Runner(o.dir)
    only = []
    for p in [p for p in o.only.split(",") if p] or DEFAULT_ONLY:
        for prog in GROUPS.get(p, [p]):
            if prog not in PROGRAMS:
                R.fail(f"--only {p}: no check {prog} (one of {', '.join(PROGRAMS)})")
            elif prog not in only:
                only.append(prog)
    for prog in only:
        if not os.access(os.path.join(o.dir, binary(prog)), os.X_OK):
            R.fail(f"{prog}: no program {os.path.join(o.dir, binary(prog))} (build it first)")
            continue
        check_program(R, prog, o.repeat)
    if o.memcheck:
        memcheck(R, only)
        api_errors(R, only)
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
