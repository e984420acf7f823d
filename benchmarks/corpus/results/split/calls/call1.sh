#!/usr/bin/env bash
# GPU call 1 of this measurement (README.md says what it gave); run on the GPU machine from the
# repository root with the split pack named in README.md under .dev/spSp2 (built at 28b0ba2) and $OUT empty.
# Split build of 12 programs: off, adaptive, split (adaptive + ORION_SPLIT=1), every fixed
# version and the claims; then the runtime's debug log of one split run of the three
# single-launch programs.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
progs=rsbench,nqueen,jenkins-hash,wsm5,minisweep,present,knn,lif,bh,tensorT,thomas,d3q19-bgk
bash benchmarks/corpus/gpu.sh .dev/spSp2 $OUT/raw1.tgz --runs 3 --modes off,adaptive,split,fixed,claims --traces --max-run-s 6 --deadline-s 430 --programs $progs > $OUT/measure.txt 2>&1
echo "measure $(( $(date +%s)-t0 ))s" >> $OUT/measure.txt
mkdir -p $OUT/dbg /tmp/dbgpack && tar xJf .dev/spSp2/pack.tar.xz -C /tmp/dbgpack
for p in rsbench nqueen jenkins-hash; do
  d=/tmp/dbgpack/pack/src/$p-cuda
  args=$(grep -E "^$p " /tmp/dbgpack/pack/programs.txt | sed 's/#.*//' | awk '{$1=""; $2=""; print}')
  (cd $d && ORION_DEBUG=1 ORION_SPLIT=1 ORION_CACHE=off ORION_REPORT=$OUT/dbg/$p.json timeout 60 ./orion $args > /dev/null 2> $OUT/dbg/$p.txt)
done
cd $OUT && tar czf out1.tgz gpu.txt measure.txt dbg && rm -rf dbg measure.txt
echo "total $(( $(date +%s)-t0 ))s"; cat $OUT/gpu.txt
