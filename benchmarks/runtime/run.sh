#!/usr/bin/env bash
# benchmarks/runtime/run.sh - liborionrt's acceptance figures.
#
#   run.sh build <outdir>            build overhead.cu, the benchmark
#                                    programs with orion-cc and the CUPTI
#                                    tracer kerntime.so (a copy of libcupti
#                                    beside it; no GPU needed)
#   run.sh run <outdir> <resultdir>  on a GPU machine: launch overhead
#                                    (overhead.csv), tuning quality
#                                    (tuning.md, tuning*.csv)
#   run.sh all <outdir> <resultdir>  both
#
# ORION_CC (default: the build tree's orion-cc), ROUNDS (default 5),
# CUDA (default /usr/local/cuda).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${ORION_CC:-$root/build/bin/orion-cc}
cmd=${1:-}; out=${2:-}
[ -n "$cmd" ] && [ -n "$out" ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

build() {
  mkdir -p "$out/programs"
  "$cc" -O3 --cuda-gpu-arch=sm_90 "$here/overhead.cu" -o "$out/overhead"
  JOBS=${JOBS:-2} "$root/benchmarks/programs/build.sh" "$out/programs" "$cc -O3 --cuda-gpu-arch=sm_90"
  local cuda=${CUDA:-/usr/local/cuda} lib
  lib=$(dirname "$(readlink -f "$cuda/lib64/libcupti.so")")
  cc -Wall -Wextra -Werror -shared -fPIC -O2 -I"$cuda/include" "$here/kerntime.c" \
    -o "$out/kerntime.so" -L"$lib" -L"$cuda/lib64/stubs" -lcupti -lcuda -Wl,-rpath,'$ORIGIN'
  cp -L "$lib/libcupti.so.13" "$out/"
}

run() {
  local res=$1
  mkdir -p "$res"
  export ORION_CACHE=off
  {
    "$out/overhead" 21 2000 header-only >/dev/null 2>&1 || true
    first=1
    for mode in fixed:orig fixed:p32 adaptive; do
      line=$(ORION_MODE=$mode "$out/overhead" 21 2000 "$mode")
      if [ $first = 1 ]; then echo "$line"; first=0; else echo "$line" | tail -1; fi
    done
  } | tee "$res/overhead.csv"
  python3 "$here/tuning.py" --bin-dir "$out/programs" --kerntime "$out/kerntime.so" \
    --rounds "${ROUNDS:-5}" --out "$res/tuning"
}

case $cmd in
  build) build ;;
  run) run "${3:?result dir}" ;;
  all) build; run "${3:?result dir}" ;;
  *) echo "run.sh: unknown command '$cmd' (build, run, all)" >&2; exit 2 ;;
esac
