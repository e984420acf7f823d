#!/usr/bin/env python3
# A tunesim scenario (benchmarks/corpus/tunesim.c) of rsbench's lookup tuned on chunks:
# 151 chunks of 264 blocks, each version at its per-block time alone on an H200
# (rawR.tgz: 121.05, 74.53, 77.25, 96.96, 119.37, 121.04 ms over 39844 blocks)
# with +-1 % uniform noise (the chunks' spread in out1.tgz's debug log).
#   sim-rsbench.py SEED | tunesim --budget 1 [--set side_last=1]
import random, sys
seed = int(sys.argv[1]); random.seed(seed)
tags = [('orig', 8, 3.038), ('r128', 16, 1.870), ('r80', 24, 1.939), ('r64', 32, 2.432), ('u4', 8, 2.995), ('u8', 8, 3.037)]
# candidates in increasing occupancy: orig(8) u4(8) u8(8) r128(16) r80(24) r64(32)
order = [0, 4, 5, 1, 2, 3]
print("config 0 6 0 1 256 132 lookup")
for k, j in enumerate(order):
    t, w, _ = tags[j]
    risk = 0.03 if t.startswith('u') else 0.5
    print(f"cand 0 {k} {t} {w} 0 0 {risk}")
for i in range(151):
    ms = [tags[j][2] * 264 * 1e-3 * (1 + 0.01 * (2 * random.random() - 1)) for j in order]
    print("launch 0 264 " + " ".join(f"{m:.5f}" for m in ms))
