#!/usr/bin/env bash
# run.sh - GPU check of the frame-to-shared rewrite (sass/rewrite.c).
#
#   run.sh build <orion build dir> <out>   here (no GPU): nvcc -cubin the
#        kernels of spill_smem.cu at -DMINB=16 and 12 (32 and 40 registers,
#        both spill), orion-sass rewrite --smem-frame --no-dynamic-smem each,
#        check the rewrite happened, and compile host.c against the
#        libcuda stub
#   run.sh run <out>                       on the GPU machine: host on each
#        original/rewritten pair (three block shapes, bit-for-bit), then
#        compute-sanitizer memcheck and racecheck on the rewritten cubins
#        (when compute-sanitizer is installed; said otherwise)
# Exit 77 without a GPU in the run half.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
phase=${1:-}
case $phase in
build)
  build=$(cd "$2" && pwd); out=$3
  cuda=${ORION_CUDA_PATH:-/usr/local/cuda}
  mkdir -p "$out"
  for m in 16 12; do
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -DMINB=$m "$here/spill_smem.cu" -o "$out/minb$m.cubin"
    "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem "$out/minb$m.cubin" \
      -o "$out/minb$m.rw.cubin" | tee "$out/minb$m.rewrite.txt"
    [ "$(grep -c ': rewritten:' "$out/minb$m.rewrite.txt")" = 2 ] ||
      { echo "FAIL: both kernels of minb$m should have been rewritten"; exit 1; }
  done
  cc -O2 -std=c11 -Wall -Wextra -Werror -I"$cuda/include" "$here/host.c" -L"$cuda/lib64/stubs" -lcuda \
    -o "$out/host"
  echo "built into $out"
  ;;
run)
  out=$2
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no CUDA GPU on this machine"
    exit 77
  fi
  nvidia-smi -L
  rc=0
  for m in 16 12; do
    echo "== minb$m: original vs rewritten"
    "$out/host" "$out/minb$m.cubin" "$out/minb$m.rw.cubin" || rc=1
  done
  san=$(command -v compute-sanitizer || echo "${ORION_CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer")
  if [ -x "$san" ]; then
    for tool in memcheck racecheck; do
      for m in 16 12; do
        echo "== compute-sanitizer --tool $tool, minb$m rewritten"
        # host runs both cubins; the sanitizer checks every launch
        "$san" --tool $tool --error-exitcode 3 "$out/host" "$out/minb$m.cubin" "$out/minb$m.rw.cubin" \
          > "$out/san.$tool.minb$m.txt" 2>&1 || { rc=1; echo "FAIL: $tool"; }
        tail -3 "$out/san.$tool.minb$m.txt"
      done
    done
  else
    echo "note: compute-sanitizer not found: memcheck/racecheck not run"
  fi
  [ $rc = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
  exit $rc
  ;;
*)
  echo "usage: run.sh build <orion build dir> <out> | run.sh run <out>" >&2
  exit 2
  ;;
esac
