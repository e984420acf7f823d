#!/usr/bin/env bash
# rt_robust.sh - GPU test of liborionrt's launch guarantees and orion-cc
# -fgpu-rdc (test/gpu/rt_robust.py says what is checked).
#
#   rt_robust.sh <build dir>               CTest: exit 77 without a GPU (before
#                                          building), else build and run
#   rt_robust.sh build <build dir> <out>   build the programs only (no GPU needed)
#   rt_robust.sh run <dir> [rt_robust.py run options]   run prebuilt programs
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py="$here/rt_robust.py"
case "${1:-}" in
  build)
    [ $# -eq 3 ] || { echo "usage: rt_robust.sh build <build dir> <out>" >&2; exit 2; }
    exec python3 "$py" build --orion-cc "$2/bin/orion-cc" --out "$3" ;;
  run)
    [ $# -ge 2 ] || { echo "usage: rt_robust.sh run <dir> [options]" >&2; exit 2; }
    shift
    exec python3 "$py" run "$@" ;;
  ""|-*)
    echo "usage: rt_robust.sh <build dir> | build <build dir> <out> | run <dir>" >&2
    exit 2 ;;
esac
build=$1
. "$here/need_gpu.sh"
need_gpu rt_robust_gpu
out=$build/gpu-test/rt_robust
python3 "$py" build --orion-cc "$build/bin/orion-cc" --out "$out"
exec python3 "$py" run "$out" --memcheck
