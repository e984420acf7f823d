#!/usr/bin/env bash
# GPU call 4 (README.md says what it gave): rsbench, split build at b45ac9d (side candidates
# after the walk for a single launch tuned on chunks), off and split; run on the GPU machine
# from the repository root with the pack under .dev/spT3 and $OUT empty.
export PATH=/usr/local/cuda/bin:$PATH
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
bash benchmarks/corpus/gpu.sh .dev/spT3 $OUT/raw4.tgz --runs 3 --modes off,split --traces --max-run-s 6 --deadline-s 60 --programs rsbench > $OUT/measure4.txt 2>&1
cat $OUT/gpu.txt; tail -n 4 $OUT/measure4.txt
