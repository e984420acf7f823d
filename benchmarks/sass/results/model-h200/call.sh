#!/usr/bin/env bash
# The GPU call of this measurement (../../README.md, "The placement model", says what it
# gave): one H200, run from the repository root with .dev/spc carried, $OUT empty.
# .dev/spc/{local,auto,old}/pack.tar.xz: lulesh, s3d, cooling, vanGenuchten and epistasis
# built with orion-cc under ORION_PTXAS_SPILL=off (local spills), under the default policy
# with the placement model (auto) and under the default policy of the commit before it
# (old: whole frames wherever they fit); .dev/spc/ab/pack.tar.xz: pack-ab.sh of the auto
# build (modes off, adaptive) against the old build (mode clang: ORION_MODE=adaptive).
# Every version alone under the three builds (corpus-spill.sh), then the A/B, 3 runs.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
POLICIES="local auto old" RUN_DEADLINE=50 bash benchmarks/sass/corpus-spill.sh .dev/spc $OUT \
  lulesh,s3d,cooling,vanGenuchten,epistasis > $OUT/call.txt 2>&1
echo "spill $(( $(date +%s)-t0 ))s" >> $OUT/call.txt
left=$(( 560 - ($(date +%s) - t0) ))
bash benchmarks/corpus/gpu.sh .dev/spc/ab $OUT/ab.tgz --runs 3 --modes off,adaptive,clang --traces \
  --max-run-s 8 --deadline-s $(( left > 30 ? left - 20 : 10 )) > $OUT/ab.txt 2>&1
echo "call $(( $(date +%s)-t0 ))s" >> $OUT/call.txt
cat $OUT/gpu.txt; tail -n 8 $OUT/call.txt; tail -n 3 $OUT/ab.txt
