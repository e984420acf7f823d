#!/usr/bin/env bash
# GPU call 7 of this measurement (README.md says what each gave); run on the GPU machine from the
# repository root with the packs and builds named in README.md under .dev/ and $OUT an empty folder.
export PATH=/usr/local/cuda/bin:$PATH
set -u
t0=$(date +%s)
bash benchmarks/corpus/gpu.sh .dev/spU2 $OUT/rawU2.tgz --runs 3 --modes off,adaptive,clang --max-run-s 6 --deadline-s 370 --programs $(tr ' ' ',' < .dev/abT.progs | tr -d '\n') > $OUT/measure.txt 2>&1
echo "measure $(( $(date +%s)-t0 ))s" >> $OUT/measure.txt
python3 test/gpu/rt_modes.py --bin-dir .dev/progs > $OUT/rt_modes.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_modes.txt
timeout $(( 580 - ($(date +%s)-t0) )) python3 test/gpu/rt_robust.py run .dev/rtr --only graph,threads > $OUT/rt_robust.txt 2>&1; echo "rc $? $(( $(date +%s)-t0 ))s" >> $OUT/rt_robust.txt
tail -n 3 $OUT/measure.txt $OUT/rt_modes.txt $OUT/rt_robust.txt
