#!/usr/bin/env bash
# GPU call 5 of this measurement (../README.md says what it gave): one H200, run from the
# repository root with .dev/gABK/pack.tar.xz (as call 1) carried, $OUT empty.  The three
# programs whose wins sat at the 80 % edge or moved (libor, tsp, gc), modes off, adaptive
# (the new runtime) and clang (main's), 7 runs.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu5.txt
left() { echo $(( $1 - ($(date +%s) - t0) )); }
bash benchmarks/corpus/gpu.sh .dev/gABK $OUT/raw5.tgz --programs libor,tsp,gc \
  --runs 7 --modes off,adaptive,clang --traces --max-run-s 8 --deadline-s $(left 200) > $OUT/measure5.txt 2>&1
echo "corpus $(( $(date +%s)-t0 ))s" >> $OUT/measure5.txt
grep -E 'done|partial|elapsed|exit|corpus' $OUT/measure5.txt | tail -n 4
