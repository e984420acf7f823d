#!/usr/bin/env bash
# rt_modes.sh <build dir> - build the benchmark programs with orion-cc and
# run rt_env.py (bad settings) and rt_modes.py on them (small inputs for the bit-for-bit checks, the
# default inputs for exhaustive-vs-alone timing).  Exit 77 without a GPU,
# before building anything.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$1
. "$here/need_gpu.sh"
need_gpu rt_modes_gpu
out=$build/gpu-test/programs
mkdir -p "$out"
JOBS=${JOBS:-$(nproc)} "$here/../../benchmarks/programs/build.sh" "$out" \
  "$build/bin/orion-cc -O3 --cuda-gpu-arch=sm_90"
python3 "$here/rt_env.py" --bin-dir "$out"
exec python3 "$here/rt_modes.py" --bin-dir "$out" --timing \
  --csv "$build/gpu-test/exhaustive_vs_alone.csv"
