#!/usr/bin/env python3
"""A stand-in benchmark program for testing benchmarks/eval without a GPU:
prints a RESULT line whose kernel_ms depends on ORION_MODE and writes an
ORION_REPORT JSON like liborionrt's.  Two kernels: ka (orig 64 regs/32
warps, r32 32 regs/64 warps, p16 padded 64 regs/16 warps) and kb (orig,
p32).  FAKE_FAIL=<tag> makes runs with that version fail their check."""
import json
import os
import sys

V = {"ka": {"orig": (64, 32, 1.00), "r32": (32, 64, 1.005), "p16": (64, 16, 1.40)},
     "kb": {"orig": (16, 64, 0.50), "p32": (16, 32, 0.502)}}
mode = os.environ.get("ORION_MODE", "adaptive")
chosen = {k: "orig" for k in V}
if mode.startswith("fixed:"):
    spec = mode[6:]
    if "=" in spec:
        for kv in spec.split(","):
            k, t = kv.split("=")
            chosen["ka" if "ka" in k else "kb"] = t
    else:
        chosen = {k: spec if spec in V[k] else "orig" for k in V}
elif mode in ("adaptive", "exhaustive"):
    chosen = {"ka": "orig", "kb": "orig"}
name = os.path.basename(sys.argv[0])
reps = int(sys.argv[sys.argv.index("-r") + 1]) if "-r" in sys.argv else 5
ms = sum(V[k][chosen[k]][2] for k in V)
total = ms * (reps + 1) + (0.3 if mode == "adaptive" else 0)
bad = os.environ.get("FAKE_FAIL") in chosen.values()
print(f"RESULT name={name} kernel_ms={ms:.4f} iters=2 check={'FAIL' if bad else 'PASS'} "
      f"total_ms={total:.4f} checksum=00ff")
rep = os.environ.get("ORION_REPORT")
if rep:
    cfgs = []
    for k in V:
        vs = [{"tag": t, "warps": w, "regs": r, "pad": 0, "ms_per_kblock": s, "samples": 3}
              for t, (r, w, s) in V[k].items()]
        cfgs.append({"kernel": "_Z2" + k + "v", "block": [256, 1, 1], "shmem": 0, "mode": mode,
                     "source": "tuned", "original": "orig", "chosen": chosen[k],
                     "chosen_regs": V[k][chosen[k]][0], "chosen_warps": V[k][chosen[k]][1],
                     "max_warps": 64, "speedup": 1.0, "iterations": 3, "launches": 6,
                     "split_launches": 0, "settled_at": 2, "versions": vs})
    with open(rep, "w") as f:
        json.dump({"orion_report": 1, "configs": cfgs}, f)
sys.exit(1 if bad else 0)
