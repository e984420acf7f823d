#!/bin/sh
# measure.sh - measure occupancy ground truth on the GPU of this machine.
#
# Run from the repository root with $OUT set:
#     OUT=/some/dir sh benchmarks/occupancy/measure.sh
# Writes $OUT/occupancy_h200.csv (commit it as test/data/occupancy_h200.csv)
# plus $OUT/occupancy_ptxas.log.  Needs the CUDA toolkit (ptxas, cuda.h;
# CUDA_HOME, default /usr/local/cuda), a C compiler and the driver's
# libcuda.so.1.  ARCH (default: from nvidia-smi, else sm_90) picks the target.
set -eu
: "${OUT:?set OUT to the output directory}"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CC=${CC:-cc}
here=$(dirname "$0")
if [ -z "${ARCH:-}" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
        | head -n 1 | tr -d ' .' || true)
  ARCH=sm_${cap:-90}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

$CC -std=c11 -O2 -Wall -Wextra -o "$work/gen_ptx" "$here/gen_ptx.c"
$CC -std=c11 -O2 -Wall -Wextra -I"$CUDA_HOME/include" \
    -o "$work/measure" "$here/measure.c" \
    -L"$CUDA_HOME/lib64/stubs" -L"$CUDA_HOME/lib64" -lcuda
"$work/gen_ptx" "$ARCH" "$work/occ.ptx" "$work/occ.list"
"$CUDA_HOME/bin/ptxas" -arch="$ARCH" -v "$work/occ.ptx" -o "$work/occ.cubin" \
    2> "$OUT/occupancy_ptxas.log"
# The stub libcuda.so only serves the link; at run time the driver's
# libcuda.so.1 is loaded (keep the stubs directory off LD_LIBRARY_PATH).
"$work/measure" "$work/occ.cubin" "$work/occ.list" > "$OUT/occupancy_h200.csv"
echo "measure.sh: $(grep -vc '^#' "$OUT/occupancy_h200.csv") lines written to $OUT/occupancy_h200.csv"
