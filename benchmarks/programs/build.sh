#!/usr/bin/env bash
# Build every benchmark program (*.cu in this directory) into <outdir>.
#
# usage: build.sh <outdir> nvcc|clang|"<compiler command prefix>"
#
#   nvcc     nvcc -O3 -arch=sm_90
#   clang    clang++-22 -x cuda -O3 --cuda-gpu-arch=sm_90 --cuda-path=$CUDA_PATH
#            -Wno-unknown-cuda-version -isystem $CUDA_PATH/include/cccl
#            -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1 ... -L$CUDA_PATH/lib64 -lcudart
#   other    used verbatim as the prefix: <prefix> <prog>.cu -o <outdir>/<prog>
#            (e.g. "orion-cc -O3 --cuda-gpu-arch=sm_90")
#
# Environment:
#   CUDA_PATH      CUDA toolkit (default /usr/local/cuda)
#   NVCC, CLANG    compiler executables (default nvcc, clang++-22)
#   EXTRA_FLAGS    added to every compile command before the source (word-split)
#   EXTRA_LDFLAGS  added at the end of every command (e.g. "-L/x/lib64 -lcudart")
#   PTXAS_V=1      pass -v to ptxas (nvcc and clang modes); output is in the logs
#   JOBS=N         build N programs in parallel (default 1)
#   PROGRAMS       space-separated subset of program names (default: all)
#
# Every compiler's output goes to <outdir>/<prog>.build.log. The script stops
# with a non-zero status and prints the log of the first program that fails.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Compile one program: build_one <outdir> <mode> <source>
build_one() {
  local outdir=$1 mode=$2 src=$3
  local name cmd=() ld=() vflag=() xld=()
  name="$(basename "$src" .cu)"
  local cuda=${CUDA_PATH:-/usr/local/cuda}
  case "$mode" in
    nvcc)
      cmd=("${NVCC:-nvcc}" -O3 -arch=sm_90)
      vflag=(-Xptxas -v)
      ;;
    clang)
      cmd=("${CLANG:-clang++-22}" -x cuda -O3 --cuda-gpu-arch=sm_90 "--cuda-path=$cuda"
           -Wno-unknown-cuda-version -isystem "$cuda/include/cccl"
           -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1)
      ld=("-L$cuda/lib64" -lcudart)
      vflag=(-Xcuda-ptxas -v)
      ;;
    *)
      read -r -a cmd <<< "$mode"
      ;;
  esac
  [ "${PTXAS_V:-0}" = 1 ] || vflag=()
  local extra=()
  [ -z "${EXTRA_FLAGS:-}" ] || read -r -a extra <<< "$EXTRA_FLAGS"
  [ -z "${EXTRA_LDFLAGS:-}" ] || { read -r -a xld <<< "$EXTRA_LDFLAGS"; ld+=("${xld[@]}"); }
  local log="$outdir/$name.build.log"
  echo "+ ${cmd[*]} ${vflag[*]} ${extra[*]} $src -o $outdir/$name ${ld[*]}" > "$log"
  if ! "${cmd[@]}" "${vflag[@]}" "${extra[@]}" "$src" -o "$outdir/$name" "${ld[@]}" >> "$log" 2>&1; then
    echo "build.sh: FAILED to build $name; log $log:" >&2
    cat "$log" >&2
    return 1
  fi
  echo "built $outdir/$name"
}

if [ "${1:-}" = "--one" ]; then  # internal: used for parallel builds
  shift
  build_one "$@"
  exit $?
fi

[ $# -eq 2 ] || usage
outdir=$1
mode=$2
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"

srcs=()
if [ -n "${PROGRAMS:-}" ]; then
  for p in $PROGRAMS; do
    [ -f "$here/$p.cu" ] || { echo "build.sh: no program $p" >&2; exit 2; }
    srcs+=("$here/$p.cu")
  done
else
  srcs=("$here"/*.cu)
fi

jobs=${JOBS:-1}
if [ "$jobs" -le 1 ]; then
  for src in "${srcs[@]}"; do
    build_one "$outdir" "$mode" "$src" || exit 1
  done
else
  printf '%s\n' "${srcs[@]}" |
    xargs -P "$jobs" -I{} bash "${BASH_SOURCE[0]}" --one "$outdir" "$mode" {} ||
    { echo "build.sh: some programs failed to build (see above)" >&2; exit 1; }
fi
echo "build.sh: built ${#srcs[@]} programs into $outdir"
