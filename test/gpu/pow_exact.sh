#!/usr/bin/env bash
# pow_exact.sh <build dir> - build pow_exact.cu with orion-cc --no-orion (the
# GPU computes every pow) and run it: libdevice's pow must give the exact
# powers of two that OrionPass's fold-pow writes as constants.  Exit 77
# without a GPU, before building anything.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$1
. "$here/need_gpu.sh"
need_gpu pow_exact_gpu
mkdir -p "$build/gpu-test"
"$build/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$here/pow_exact.cu" \
  -o "$build/gpu-test/pow_exact"
exec "$build/gpu-test/pow_exact"
