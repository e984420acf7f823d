#!/usr/bin/env bash
# GPU call 2 of this measurement (../README.md says what it gave): one H200, run from the
# repository root with .dev/gABK/pack.tar.xz (as call 1) and .dev/rtrK (rt_robust.py build
# with the candidate's orion-cc) carried, $OUT empty.  The second half of the corpus
# (shards.txt), modes off, adaptive and clang, 3 runs; then rt_robust --memcheck.
export PATH=/usr/local/cuda/bin:$PATH
set -u
here=benchmarks/corpus/results/h200-walkkey/calls
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu2.txt
left() { echo $(( $1 - ($(date +%s) - t0) )); }
bash benchmarks/corpus/gpu.sh .dev/gABK $OUT/raw2.tgz --programs "$(sed -n 2p $here/shards.txt)" \
  --runs 3 --modes off,adaptive,clang --traces --max-run-s 6 --deadline-s $(left 370) > $OUT/measure2.txt 2>&1
echo "corpus $(( $(date +%s)-t0 ))s" >> $OUT/measure2.txt
timeout $(left 590) python3 test/gpu/rt_robust.py run .dev/rtrK --memcheck > $OUT/rt_robust2.txt 2>&1
echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_robust2.txt
tail -n 2 $OUT/rt_robust2.txt; grep -E 'done|partial|elapsed|exit|corpus' $OUT/measure2.txt | tail -n 4
