#!/usr/bin/env bash
# The GPU call of this measurement (README.md in benchmarks/sass says what it gave): one H200,
# run from the repository root with .dev/swp carried ({local,pragma,sass}/pack.tar.xz: lulesh,
# s3d, cooling, vanGenuchten and epistasis built with ORION_PTXAS_SPILL=off, pragma and partial)
# and $OUT empty.  Every version alone under the three policies, then compute-sanitizer on the
# versions placed in part (lulesh's left out: its own failed cudaMemcpy calls fill memcheck).
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
RUN_DEADLINE=60 SAN_DEADLINE=120 SAN_TIMEOUT=100 bash benchmarks/sass/corpus-spill.sh .dev/swp $OUT \
  lulesh,s3d,cooling,vanGenuchten,epistasis s3d:r32,r40,r64 cooling:r48 > $OUT/call.txt 2>&1
echo "call $(( $(date +%s)-t0 ))s" >> $OUT/call.txt
cat $OUT/gpu.txt; tail -n 20 $OUT/call.txt
