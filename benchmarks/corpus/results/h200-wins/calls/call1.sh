#!/usr/bin/env bash
# GPU call 1 of this measurement (../README.md says what it gave): one H200, run from the
# repository root with .dev/gWc carried (pack.tar.xz: pack.sh of the corpus build of
# ../../h200-walkkey, the 23 programs with a win of >= 3 %; wins.csv: a copy of
# ../../h200-fa7c4b4/whole_kernels.csv naming each kernel's best version), $OUT empty.
# Modes off and adaptive, then each win's best version alone with every other kernel
# on the original (mode wins: alone:<tag>:<kernel>), 3 runs.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu1.txt
left() { echo $(( $1 - ($(date +%s) - t0) )); }
bash benchmarks/corpus/gpu.sh .dev/gWc $OUT/raw1.tgz --runs 3 --modes off,adaptive,wins \
  --wins .dev/gWc/wins.csv --traces --max-run-s 8 --deadline-s $(left 520) > $OUT/measure1.txt 2>&1
echo "corpus $(( $(date +%s)-t0 ))s" >> $OUT/measure1.txt
grep -E 'done|partial|elapsed|exit|corpus' $OUT/measure1.txt | tail -n 4
