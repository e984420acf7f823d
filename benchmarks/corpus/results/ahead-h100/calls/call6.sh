#!/usr/bin/env bash
# GPU call 6 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
P=$PWD/.dev/spT/pack
[ -d $P ] || tar -C .dev/spT -xJf .dev/spT/pack.tar.xz
export LD_LIBRARY_PATH=$P/lib
cmp $P/src/surfel-cuda/orion .dev/diag/surfel-new; md5sum $P/src/surfel-cuda/orion .dev/diag/surfel-new
for r in 0 1 2 3 4; do
  for b in $P/src/surfel-cuda/orion $PWD/.dev/diag/surfel-new; do
    n=$(basename $b)
    (cd $P/src/surfel-cuda && CUDA_INJECTION64_PATH=$P/kerntime.so KERNTIME_OUT=/tmp/k.tsv ORION_REPORT=$OUT/rep-$n-$r.json ORION_CACHE=off $b 128 512 384 100 > /dev/null 2>&1)
  done
done
for f in $OUT/rep-*.json; do python3 -c "
import json,sys; j=json.load(open('$f'))
for c in j['configs']:
  print('$f'.split('/')[-1], c['kernel'][:22], c['chosen'], c['speedup'], c['iterations'], c['settled_at'], ' '.join('%s:%.5f/%d'%(v['tag'],v['ms_per_kblock'],v['samples']) for v in c['versions'] if v['samples']))"; done
