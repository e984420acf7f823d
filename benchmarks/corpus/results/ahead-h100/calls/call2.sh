#!/usr/bin/env bash
# GPU call 2 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
bash benchmarks/corpus/gpu.sh .dev/spT $OUT/rawT.tgz --runs 3 --modes nvcc,off,adaptive,clang --max-run-s 6 --deadline-s 270 --programs $(tr ' ' ',' < .dev/abT.progs | tr -d '\n') > $OUT/measure.txt 2>&1
echo "measure $(( $(date +%s)-t0 ))s" >> $OUT/measure.txt
# the host gap: timed launches on an idle stream, new (orion) and main (orion-b)
for p in surfel lulesh aobench; do
  d=.dev/spT/pack/src/$p-cuda; args=$(grep -E "^$p " .dev/spT/pack/programs.txt | sed 's/#.*//' | awk '{$1="";$2="";print}')
  for b in orion orion-b; do
    (cd $d && ORION_DEBUG=1 ORION_CACHE=off ./$b $args > /dev/null 2> $OUT/debug-$p-$b.txt)
    echo "$p $b: $(grep -c ' launch [0-9]*: ' $OUT/debug-$p-$b.txt) timed, $(grep -c 'idle stream' $OUT/debug-$p-$b.txt) on an idle stream" >> $OUT/idle.txt
  done
done
gzip $OUT/debug-*.txt
python3 test/gpu/rt_modes.py --bin-dir .dev/progs > $OUT/rt_modes.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes.txt
python3 test/gpu/rt_robust.py run .dev/rtr --memcheck > $OUT/rt_robust.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_robust.txt
cat $OUT/idle.txt; tail -n 3 $OUT/measure.txt $OUT/rt_modes.txt $OUT/rt_robust.txt
