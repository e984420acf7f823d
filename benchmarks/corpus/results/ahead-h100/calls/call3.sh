#!/usr/bin/env bash
# GPU call 3 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
bash benchmarks/corpus/gpu.sh .dev/spT $OUT/rawT2.tgz --runs 3 --modes nvcc,off,adaptive,clang --max-run-s 6 --deadline-s 150 --programs colorwheel,matern,tissue,adv,merge,wyllie,scel,lif,jenkins-hash > $OUT/measure2.txt 2>&1
export LD_LIBRARY_PATH=$PWD/.dev/spT/pack/lib
d=.dev/spT/pack/src/surfel-cuda
for r in 0 1; do
  ORION_DEBUG=1 ORION_CACHE=off .dev/diag/surfel-new 128 512 384 100 > /dev/null 2> $OUT/debug-surfel-new-$r.txt
  (cd $d && ORION_DEBUG=1 ORION_CACHE=off ./orion-b 128 512 384 100 > /dev/null 2> $OUT/debug-surfel-old-$r.txt)
done
for f in $OUT/debug-*.txt; do echo "$f: $(grep -c ' launch [0-9]*: ' $f) timed, $(grep -c 'idle stream' $f) idle, $(grep -c 'chosen ahead' $f) ahead; $(grep settled $f | cut -c1-150)"; done
tar -C $OUT -czf $OUT/debug.tgz $(cd $OUT && ls debug-*.txt) && rm $OUT/debug-*.txt
echo "$(( $(date +%s)-t0 ))s"; tail -n 4 $OUT/measure2.txt
