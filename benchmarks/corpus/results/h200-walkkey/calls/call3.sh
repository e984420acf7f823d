#!/usr/bin/env bash
# GPU call 3 of this measurement (../README.md says what it gave): one H200, run from the
# repository root with .dev/gABK/pack.tar.xz (as call 1) carried, $OUT empty.  Half 1 of the
# corpus (shards.txt), modes off and cached (one untimed run fills the program's decision
# cache, then three timed runs share it: the warm cache), 3 runs.
export PATH=/usr/local/cuda/bin:$PATH
set -u
here=benchmarks/corpus/results/h200-walkkey/calls
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu3.txt
left() { echo $(( $1 - ($(date +%s) - t0) )); }
bash benchmarks/corpus/gpu.sh .dev/gABK $OUT/raw3.tgz --programs "$(sed -n 1p $here/shards.txt)" \
  --runs 3 --modes off,cached --traces --max-run-s 6 --deadline-s $(left 560) > $OUT/measure3.txt 2>&1
echo "corpus $(( $(date +%s)-t0 ))s" >> $OUT/measure3.txt
grep -E 'done|partial|elapsed|exit|corpus' $OUT/measure3.txt | tail -n 4
