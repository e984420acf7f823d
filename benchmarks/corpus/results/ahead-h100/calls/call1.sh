#!/usr/bin/env bash
# GPU call 1 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 test/gpu/rt_modes.py --bin-dir .dev/progs > $OUT/rt_modes.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes.txt
python3 test/gpu/rt_robust.py run .dev/rtr --memcheck > $OUT/rt_robust.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_robust.txt
bash benchmarks/runtime/capture-repeat.sh .dev/rtr 40 > $OUT/capture-repeat.txt 2>&1; echo "$(( $(date +%s)-t0 ))s" >> $OUT/capture-repeat.txt
left=$(( 560 - ($(date +%s)-t0) ))
bash benchmarks/corpus/gpu.sh .dev/spS $OUT/rawS.tgz --runs 3 --modes off,adaptive,cached,fixed,claims --traces --max-run-s 6 --deadline-s $left --programs lulesh,aobench,surfel,keogh,libor,s8n,minisweep,jenkins-hash,nqueen > $OUT/measure.txt 2>&1
tail -5 $OUT/*.txt
