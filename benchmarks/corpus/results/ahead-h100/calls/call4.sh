#!/usr/bin/env bash
# GPU call 4 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
P=$PWD/.dev/spT/pack
tar -C .dev/spT -xJf .dev/spT/pack.tar.xz
export LD_LIBRARY_PATH=$P/lib
for r in 0 1 2; do
  CUDA_INJECTION64_PATH=$P/kerntime.so KERNTIME_OUT=$OUT/k-new-$r.tsv ORION_DEBUG=1 ORION_CACHE=off .dev/diag/surfel-new 128 512 384 100 > /dev/null 2> $OUT/debug-cupti-new-$r.txt
done
for f in $OUT/debug-*.txt; do echo "$f: $(grep -c ' launch [0-9]*: ' $f) timed, $(grep -c 'idle stream' $f) idle, $(grep -c 'chosen ahead' $f) ahead; $(grep settled $f | cut -c1-150)"; done
tar -C $OUT -czf $OUT/debug4.tgz $(cd $OUT && ls debug-*.txt k-*.tsv) && rm $OUT/debug-*.txt $OUT/k-*.tsv
