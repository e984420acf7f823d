#!/usr/bin/env bash
# GPU call 5 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
P=$PWD/.dev/spT/pack
[ -d $P ] || tar -C .dev/spT -xJf .dev/spT/pack.tar.xz
export LD_LIBRARY_PATH=$P/lib
for r in 0 1 2 3; do
  CUDA_INJECTION64_PATH=$P/kerntime.so KERNTIME_OUT=$OUT/k5-cupti-$r.tsv ORION_REPORT=$OUT/rep-cupti-$r.json ORION_CACHE=off .dev/diag/surfel-new 128 512 384 100 > /dev/null 2>&1
  ORION_REPORT=$OUT/rep-plain-$r.json ORION_CACHE=off .dev/diag/surfel-new 128 512 384 100 > /dev/null 2>&1
done
for f in $OUT/rep-*.json; do python3 -c "
import json,sys; j=json.load(open('$f'))
for c in j['configs']:
  print('$f'.split('/')[-1], c['kernel'][:22], c['chosen'], c['speedup'], c['iterations'], c['settled_at'], ' '.join('%s:%.5f/%d'%(v['tag'],v['ms_per_kblock'],v['samples']) for v in c['versions'] if v['samples']))"; done
tar -C $OUT -czf $OUT/d5.tgz $(cd $OUT && ls rep-*.json k5-*.tsv) && rm $OUT/rep-*.json $OUT/k5-*.tsv
