#!/usr/bin/env bash
# ptxas_memory.sh - what one more ptxas --split-compile thread costs on a
# module: orion-cc's PTX of SOURCE (device only, -O3, sm_90, FLAGS after
# the source), then ptxas -O3 with --split-compile 1 and 2, each timed
# with /usr/bin/time (wall seconds, peak resident KB), and the module's
# bytes and .entry count.  The figures behind driver/ptxas_run.c's default
# thread count (results/ptxas-memory.md).
#
#   ptxas_memory.sh ORION_BUILD_OR_PREFIX SOURCE [FLAGS...]
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
orion=$1 src=$2; shift 2
ptxas=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
"$orion/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S "$src" "$@" -o "$w/m.ptx"
echo "$(basename "$src"): $(stat -c %s "$w/m.ptx") bytes, $(grep -c '\.entry' "$w/m.ptx") entries"
for t in 1 2; do
  /usr/bin/time -f "split-compile $t: %e s, %M KB" "$ptxas" -O3 --gpu-name sm_90 --split-compile $t \
    "$w/m.ptx" -o "$w/m.cubin"
done
