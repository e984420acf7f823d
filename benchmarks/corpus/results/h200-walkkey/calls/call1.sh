#!/usr/bin/env bash
# GPU call 1 of this measurement (../README.md says what it gave): one H200, run from the
# repository root with .dev/gABK/pack.tar.xz (pack-ab.sh --b-mode adaptive: modes off and
# adaptive the candidate runtime, mode clang main's runtime, the same device code, the whole
# corpus) and .dev/progsK (benchmarks/programs built with the candidate's orion-cc) carried,
# $OUT empty.  The first half of the corpus (shards.txt), modes off, adaptive and clang,
# 3 runs; then rt_modes.
export PATH=/usr/local/cuda/bin:$PATH
set -u
here=benchmarks/corpus/results/h200-walkkey/calls
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu1.txt
left() { echo $(( $1 - ($(date +%s) - t0) )); }
bash benchmarks/corpus/gpu.sh .dev/gABK $OUT/raw1.tgz --programs "$(sed -n 1p $here/shards.txt)" \
  --runs 3 --modes off,adaptive,clang --traces --max-run-s 6 --deadline-s $(left 480) > $OUT/measure1.txt 2>&1
echo "corpus $(( $(date +%s)-t0 ))s" >> $OUT/measure1.txt
timeout $(left 585) python3 test/gpu/rt_modes.py --bin-dir .dev/progsK > $OUT/rt_modes1.txt 2>&1
echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes1.txt
tail -n 2 $OUT/rt_modes1.txt; grep -E 'done|partial|elapsed|exit|corpus' $OUT/measure1.txt | tail -n 4
