#!/usr/bin/env python3
"""fuzz_ir.py - a mutation fuzzer for OrionPass on LLVM IR, for a bounded time.

    fuzz_ir.py SECONDS OUTDIR OPT PLUGIN SEED.ll...

Seeds are the given IR files plus random modules from llvm-stress (beside
OPT) turned into NVPTX kernels.  Each round takes a seed, applies one to
three text mutations (constants, attribute values such as launch bounds,
maxnreg and target-cpu, types, lines dropped or repeated, long kernel names),
keeps the module only if `opt -passes=verify` accepts it, and runs
`opt -passes=orion,verify` (every other module
`orion-unroll-versions,orion,verify`; every other pair of modules with the
split clones, `-orion-split-clones`) with a report.  A failure is a crash (a signal,
"PLEASE submit a bug report", "LLVM ERROR"), IR the verifier rejects after
the pass, or a report line that is not one JSON object; its input is saved as
OUTDIR/failure-N.ll.  Exit 0 when nothing failed, 1 otherwise; a summary line
either way.  Deterministic per ORION_FUZZ_SEED (default 1).
"""
import json
import os
import random
import re
import subprocess
import sys
import time

NVPTX = ('target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"\n'
         'target triple = "nvptx64-nvidia-cuda"\n')
CPUS = ["sm_90", "sm_80", "sm_75", "sm_120", "sm_13", "sm_999", "garbage", ""]
ATTR_VALUES = ["0", "1", "-1", "31", "32", "64", "255", "256", "1024", "1025", "65536",
               "4294967295", "99999999999", "abc", "", "256,1,1"]


def stress_seed(llvm_bin, seed):
    """A random module from llvm-stress, its functions made sm_90 kernels."""
    out = subprocess.run([os.path.join(llvm_bin, "llvm-stress"), "-size", str(20 + seed % 200),
                          "-seed", str(seed)], capture_output=True, text=True)
    if out.returncode:
        return None
    text = re.sub(r"^(; ModuleID|source_filename).*\n", "", out.stdout, flags=re.M)
    text = re.sub(r"define void @(\w+)\(([^)]*)\)", r'define ptx_kernel void @\1(\2) #90', text)
    return NVPTX + text + '\nattributes #90 = { "target-cpu"="sm_90" }\n'


def mutate(rng, text):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(7)
        i = rng.randrange(len(lines))
        line = lines[i]
        if k == 0 and re.search(r"\b\d+\b", line):  # a constant
            nums = list(re.finditer(r"\b\d+\b", line))
            m = rng.choice(nums)
            v = rng.choice(["0", "1", "-1", "2147483647", "4294967296", str(rng.randrange(1 << 20))])
            lines[i] = line[:m.start()] + v + line[m.end():]
        elif k == 1:  # an attribute value
            text2 = "\n".join(lines)
            key = rng.choice(['"nvvm.maxntid"', '"nvvm.reqntid"', '"nvvm.maxnreg"',
                              '"nvvm.minctasm"', '"target-cpu"'])
            val = rng.choice(CPUS if key == '"target-cpu"' else ATTR_VALUES)
            text2 = re.sub(r'attributes #(\d+) = \{', r'attributes #\1 = { %s="%s"' % (key, val),
                           text2, count=1)
            lines = text2.split("\n")
        elif k == 2 and line.startswith("  "):  # drop an instruction
            del lines[i]
        elif k == 3 and line.startswith("  "):  # repeat one
            lines.insert(i, line)
        elif k == 4:  # a type
            lines[i] = line.replace(rng.choice(["i32", "i64", "float", "double"]),
                                    rng.choice(["i32", "i64", "float", "double", "i1", "<4 x float>"]))
        elif k == 5:  # a long kernel name
            text2 = "\n".join(lines)
            m = re.search(r"define ptx_kernel void @([\w.$]+)", text2)
            if m:
                text2 = text2.replace("@" + m.group(1), "@" + m.group(1) + "x" * rng.choice([10, 500, 2000]))
            lines = text2.split("\n")
        else:  # the record table's name a user symbol already has
            text2 = "\n".join(lines)
            m = re.search(r'^source_filename = "([^"]*)"', text2, re.M)
            if not m:
                lines.insert(0, 'source_filename = "fuzz.cu"')
            lines.append("@%s = global i32 0" % table_name(m.group(1) if m else "fuzz.cu"))
    return "\n".join(lines)


def table_name(source):
    """The record table's name for a module whose source file is source
    (orion/record.h: FNV-1a 64 of the name)."""
    h = 14695981039346656037
    for b in source.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "__orion_records_%016x" % h


def crashed(r):
    err = r.stderr
    return (r.returncode < 0 or "PLEASE submit a bug report" in err or "LLVM ERROR" in err or
            "Stack dump" in err)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    secs, out, opt, plugin = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(int(os.environ.get("ORION_FUZZ_SEED", "1")))
    seeds = [open(p).read() for p in sys.argv[5:]]
    llvm_bin = os.path.dirname(opt)
    for s in range(1, 9):
        m = stress_seed(llvm_bin, s)
        if m:
            seeds.append(m)
    mod, rep = os.path.join(out, "m.ll"), os.path.join(out, "r.json")
    end = time.time() + secs
    runs = rejected = failures = 0
    while time.time() < end:
        base = rng.choice(seeds) if rng.random() < 0.8 else stress_seed(llvm_bin, rng.randrange(1 << 30))
        if not base:
            continue
        text = mutate(rng, base)
        with open(mod, "w") as f:
            f.write(text)
        v = subprocess.run([opt, "-passes=verify", "-disable-output", mod], capture_output=True, text=True)
        if v.returncode:
            rejected += 1
            continue
        if os.path.exists(rep):
            os.unlink(rep)
        # every other module also through the unroll versions' early phase,
        # every other pair with the split clones
        passes = "orion,verify" if runs % 2 else "orion-unroll-versions,orion,verify"
        split = ["-orion-split-clones"] if runs % 4 >= 2 else []
        r = subprocess.run([opt, "-load-pass-plugin=" + plugin, "-passes=" + passes] + split +
                           ["-orion-report=" + rep, "-disable-output", mod],
                           capture_output=True, text=True)
        runs += 1
        why = None
        if crashed(r):
            why = "crash"
        elif r.returncode:
            why = "exit %d" % r.returncode
        elif os.path.exists(rep):
            for line in open(rep, encoding="utf-8", errors="replace"):
                try:
                    if not isinstance(json.loads(line), dict):
                        why = "report line is not an object"
                except ValueError:
                    why = "report line is not JSON"
        if why:
            failures += 1
            path = os.path.join(out, "failure-%d.ll" % failures)
            with open(path, "w") as f:
                f.write(text)
            print("FAIL (%s): %s\n%s" % (why, path, r.stderr[-2000:]))
    print("fuzz_ir: %d modules through the pass, %d mutants rejected by the verifier, "
          "%d failures in %.0f s" % (runs, rejected, failures, secs))
    sys.exit(1 if failures or runs == 0 else 0)


if __name__ == "__main__":
    main()
