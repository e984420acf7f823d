#!/usr/bin/env bash
# smem-size-padding.sh - does Orion change what a kernel reads from
# %dynamic_smem_size or %total_smem_size?  Padding versions launch a kernel
# with more dynamic shared memory; a kernel that reads the size must get
# none.  test/gpu/sass_partial/dyn_prog.cu (dynsize and totsize write the
# sizes into their output) built three ways is run in every mode and
# version at 64, 96 and 128 threads; each output's checksum must equal the
# plain build's.
#
#   smem-size-padding.sh build <orion build dir> <out> [<old orion build dir>]
#        here: <out>/dplain (orion-cc --no-orion), <out>/ddynamic
#        (--orion-spill=dynamic), and, with an older build (one whose pass
#        still gives such kernels padding versions), <out>/ddynamic_old
#   smem-size-padding.sh run <out>        on the GPU machine; prints one
#        line per run, "ok" or "DIFFERENT"; exit 1 if the current build
#        differs anywhere (the old one is expected to), 77 without a GPU
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../test/gpu/sass_partial/dyn_prog.cu
case ${1:-} in
build)
  b=$(cd "$2" && pwd); out=$3
  mkdir -p "$out"
  "$b/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$src" -o "$out/dplain"
  "$b/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=dynamic "$src" -o "$out/ddynamic"
  if [ -n "${4:-}" ]; then
    "$4/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=dynamic "$src" -o "$out/ddynamic_old"
  fi
  ;;
run)
  out=$2
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU on this machine"; exit 77; }
  nvidia-smi -L
  fail=0
  for block in 64 96 128; do
    ref=$("$out/dplain" $block 262144)
    echo "block $block plain: $ref"
    for b in ddynamic_old ddynamic; do
      [ -x "$out/$b" ] || continue
      for mode in off adaptive fixed:p28 fixed:p36 fixed:r32 fixed:r40 fixed:r56; do
        got=$(ORION_CACHE=off ORION_MODE=$mode "$out/$b" $block 262144 2>/dev/null) || true
        st=ok
        [ "$got" = "$ref" ] || st=DIFFERENT
        echo "block $block $b $mode: $got $st"
        [ "$st" = ok ] || [ $b = ddynamic_old ] || fail=1
      done
    done
  done
  exit $fail
  ;;
*)
  echo "usage: smem-size-padding.sh build <orion build dir> <out> [<old orion build dir>] | run <out>" >&2
  exit 2
  ;;
esac
