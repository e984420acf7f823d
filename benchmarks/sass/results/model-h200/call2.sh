#!/usr/bin/env bash
# GPU call 2 of this measurement: compute-sanitizer on the versions the placement model
# puts on chip that the policy before it did not (README.md, "Correctness"): one H200,
# run from the repository root with .dev/spc carried (as call.sh), $OUT empty.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu2.txt
tar -C .dev/spc/auto -xJf .dev/spc/auto/pack.tar.xz
S=benchmarks/sass/corpus-sanitize.sh
SAN_TIMEOUT=150 SAN_DEADLINE=260 bash $S .dev/spc/auto/pack $OUT/sanitize.txt s3d:r32 cooling:r48 > $OUT/call2.txt 2>&1
SAN_TOOLS=racecheck SAN_TIMEOUT=120 SAN_DEADLINE=$(( 520 - ($(date +%s) - t0) )) \
  bash $S .dev/spc/auto/pack $OUT/sanitize.txt lulesh:r48,r80 >> $OUT/call2.txt 2>&1
echo "call $(( $(date +%s)-t0 ))s" >> $OUT/call2.txt
cat $OUT/sanitize.txt; tail -n 2 $OUT/call2.txt
