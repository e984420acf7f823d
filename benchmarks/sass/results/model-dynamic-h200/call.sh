#!/usr/bin/env bash
# The GPU call of this measurement (README.md says what it gave): one H200, run from the
# repository root with .dev/progsR, .dev/progsD (benchmarks/programs built with orion-cc:
# the model with static regions, and with the region in the launch's dynamic shared memory
# where the compiler does not see the block) and .dev/mpD (model-programs.sh build of the
# latter) carried, $OUT empty.  rt_modes on both builds, then every spilling version alone.
set -u
t0=$(date +%s)
left() { echo $(( $1 - ($(date +%s) - t0) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
timeout $(left 120) python3 test/gpu/rt_modes.py --bin-dir .dev/progsR > $OUT/rt_modes_static.txt 2>&1
echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes_static.txt
timeout $(left 240) python3 test/gpu/rt_modes.py --bin-dir .dev/progsD > $OUT/rt_modes_dynamic.txt 2>&1
echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes_dynamic.txt
timeout $(left 440) bash benchmarks/sass/model-programs.sh run .dev/mpD 3 > $OUT/run.txt 2>&1
cp .dev/mpD/runs.txt .dev/mpD/versions.txt $OUT/ 2>/dev/null
echo "call $(( $(date +%s)-t0 ))s" >> $OUT/run.txt
tail -n 2 $OUT/rt_modes_static.txt $OUT/rt_modes_dynamic.txt; tail -n 15 $OUT/run.txt
