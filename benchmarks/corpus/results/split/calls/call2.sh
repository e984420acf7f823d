#!/usr/bin/env bash
# GPU call 2 (README.md says what it gave); run on the GPU machine from the repository root
# with, under .dev/: sbt/ (orion-cc -O3 --orion-split of test/lit/e2e/split-bounds-gpu.cu as
# bounds, of split-gpu.cu as split), progs/ (benchmarks/programs/build.sh), rtr/
# (test/gpu/rt_robust.sh), spSp3/ (the split pack of 12 programs), and $OUT empty.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
{ # the RUN lines of the two split lit tests, on binaries built with this commit
  b=.dev/sbt; t=/tmp/sbt; mkdir -p $t
  ORION_MODE=off $b/bounds > $t/off.txt; echo "bounds off rc $?"
  ORION_SPLIT=1 ORION_CACHE=off ORION_DEBUG=1 ORION_REPORT=$t/report.json $b/bounds > $t/split.txt 2> $t/debug.txt; echo "bounds split rc $?"
  cat $t/off.txt; diff $t/off.txt $t/split.txt && echo "bounds: identical"
  grep -o '"kernel":"[^"]*"[^}]*"split_launches":[0-9]*' $t/report.json | sed 's/"block.*"split_launches"/ ... split_launches/'
  grep -c "split probe" $t/debug.txt; grep "long_run" $t/debug.txt | grep -E "probe|settled|waits" | head -5
  grep -c "tune _Z8long_run" $t/debug.txt; grep -c "tune _Z9short_run" $t/debug.txt
  cp $t/debug.txt $OUT/bounds-debug.txt
  $b/split; echo "split plain rc $?"
  ORION_MODE=exhaustive ORION_SPLIT=always ORION_CACHE=off ORION_REPORT=$t/r2.json $b/split; echo "split exhaustive always rc $?"
  grep -o '"kernel":"_Z3mixPjPKjii"[^}]*"split_launches":[0-9]*' $t/r2.json | sed 's/"block.*"split_launches"/ ... split_launches/'
  ORION_MODE=fixed:r32 ORION_CACHE=off $b/split; echo "split fixed:r32 rc $?"
  ORION_SPLIT=1 ORION_CACHE=off $b/split; echo "split ORION_SPLIT=1 rc $?"
} > $OUT/lit-split.txt 2>&1
python3 test/gpu/rt_env.py --bin-dir .dev/progs > $OUT/rt_env.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_env.txt
python3 test/gpu/rt_modes.py --bin-dir .dev/progs > $OUT/rt_modes.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes.txt
python3 test/gpu/rt_robust.py run .dev/rtr --memcheck > $OUT/rt_robust.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_robust.txt
left=$(( 540 - ($(date +%s)-t0) ))
progs=rsbench,jenkins-hash,knn,tensorT,nqueen,minisweep,present,lif,bh,thomas,d3q19-bgk,wsm5
bash benchmarks/corpus/gpu.sh .dev/spSp3 $OUT/raw2.tgz --runs 3 --modes off,adaptive,split --traces --max-run-s 6 --deadline-s $left --programs $progs > $OUT/measure.txt 2>&1
echo "measure $(( $(date +%s)-t0 ))s" >> $OUT/measure.txt
cd $OUT && tar czf out2.tgz gpu.txt lit-split.txt bounds-debug.txt rt_env.txt rt_modes.txt rt_robust.txt measure.txt && rm -f lit-split.txt bounds-debug.txt rt_env.txt rt_modes.txt rt_robust.txt measure.txt
cat $OUT/gpu.txt; tar xzf out2.tgz -O lit-split.txt | head -40; tar xzf out2.tgz -O rt_env.txt rt_modes.txt rt_robust.txt measure.txt | tail -n 25
