#!/usr/bin/env bash
# The GPU call of this measurement (README.md says what it gave): one H200, run from the
# repository root with .dev/mp carried (benchmarks/sass/model-programs.sh build), $OUT empty.
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout 540 bash benchmarks/sass/model-programs.sh run .dev/mp 4 > $OUT/run.txt 2>&1
cp .dev/mp/runs.txt $OUT/ 2>/dev/null
echo "call $(( $(date +%s)-t0 ))s" >> $OUT/run.txt
tail -n 16 $OUT/run.txt
