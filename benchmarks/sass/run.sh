#!/usr/bin/env bash
# run.sh - the SASS rewrite's benchmark: spilling kernels with their frame in local
# memory (ptxas), in shared memory through ptxas's enable_smem_spilling
# pragma (orion-ptxas --orion-spill=pragma, launch bounds known: ptxas at
# its best), and through Orion's SASS rewrite (orion-sass rewrite: the
# compressible-stack layout, and the sum of frames; with 4-byte accesses
# dominating, wide ones split into 4-byte stubs by default, and also not
# split (rw-wide); the compressible stack with moves at calls, rw-moves;
# and the pragma build's residual frame rewritten, pragma-rw); plus the kernel
# without a register cap (no spills, fewer blocks per SM) for reference.
#
#   run.sh build <orion build dir> <out>   here: cubins and the bench host
#   run.sh run <out>                       on the GPU: bench (benchmarks/sass/
#                                          bench.c) per kernel, CSV + table
#                                          into <out>/sass_bench.{csv,md}
# Kernels (test/gpu/sass_rewrite): spill4 / spill8 (spills inside the hot
# loop) at __launch_bounds__(128, 16) and (128, 12): 32 and 40 registers;
# calls (a kernel and two __noinline__ callees sharing the frame) at 32.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../../test/gpu/sass_rewrite" && pwd)
cuda=${ORION_CUDA_PATH:-/usr/local/cuda}
case ${1:-} in
build)
  build=$(cd "$2" && pwd); out=$3
  mkdir -p "$out"
  : > "$out/sets.txt"
  variants() { # <set> <file.cu> <minb> <kernel>: every variant of one kernel
    local set=$1 cu=$2 m=$3 k=$4 b="$out/$1"
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -DMINB=1 "$cu" -o "$b.nocap.cubin"
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -DMINB="$m" "$cu" -o "$b.local.cubin"
    "$cuda/bin/nvcc" -ptx -arch=sm_90 -DMINB="$m" "$cu" -o "$b.ptx"
    "$build/bin/orion-ptxas" -arch sm_90 --orion-spill=pragma "$b.ptx" -o "$b.pragma.cubin" \
      --orion-report="$b.pragma.json"
    grep -q '"path":"smem-pragma"' "$b.pragma.json" || { echo "FAIL: $set: no pragma build"; exit 1; }
    # names relative to <out>, so the directory can move to the GPU machine
    local line="$set $k nocap:$set.nocap.cubin:$k local:$set.local.cubin:$k pragma:$set.pragma.cubin:$k"
    for l in cstack sum; do
      "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem --layout $l "$b.local.cubin" \
        -o "$b.rw-$l.cubin" | tee "$b.rw-$l.txt"
      grep -q "^$k: rewritten:" "$b.rw-$l.txt" || { echo "FAIL: $set: $k not rewritten ($l)"; exit 1; }
      line="$line rw-$l:$set.rw-$l.cubin:$k"
    done
    # the compressible stack with moves at calls (--min-heights: every call
    # compressed to the slots live across it, the paper's rule): the cost of
    # the moves and restores against the same region without them
    if "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem --layout moves --min-heights \
        "$b.local.cubin" -o "$b.rw-moves.cubin" | tee "$b.rw-moves.txt" | grep "^$k: .* slot moves at" >/dev/null; then
      line="$line rw-moves:$set.rw-moves.cubin:$k"
    fi
    # the pragma build's residual local frame rewritten too (the composition
    # orion-ptxas --orion-spill=auto uses when both paths apply)
    "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem "$b.pragma.cubin" \
      -o "$b.pragma-rw.cubin" | tee "$b.pragma-rw.txt"
    if grep -q "^$k: rewritten:" "$b.pragma-rw.txt"; then
      line="$line pragma-rw:$set.pragma-rw.cubin:$k"
    fi
    # split wide accesses (the default when 4-byte ones dominate) vs not
    if grep -q "^$k: .* wide accesses split" "$b.rw-cstack.txt"; then
      "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem --layout cstack --granule wide \
        "$b.local.cubin" -o "$b.rw-wide.cubin" | tee "$b.rw-wide.txt"
      line="$line rw-wide:$set.rw-wide.cubin:$k"
    fi
    echo "$line" >> "$out/sets.txt"
  }
  for m in 16 12; do
    variants spill4-minb$m "$src/spill_smem.cu" $m spill4
    variants spill8-minb$m "$src/spill_smem.cu" $m spill8
  done
  variants calls-minb16 "$src/calls.cu" 16 calls
  cc -O2 -std=c11 -Wall -Wextra -Werror -I"$cuda/include" "$here/bench.c" -L"$cuda/lib64/stubs" -lcuda \
    -o "$out/bench"
  cp "$here/table.py" "$out/"
  echo "built into $out"
  ;;
run)
  out=$(cd "$2" && pwd)
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU"; exit 77; }
  cd "$out"
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed -n 1p)
  rc=0
  : > "$out/sass_bench.csv"
  while read -r set k vars; do
    echo "== $set"
    # shellcheck disable=SC2086
    "$out/bench" 5 10 $vars > "$out/$set.csv" || rc=1
    cat "$out/$set.csv"
    sed "s/^/$set,/;1s/^$set,/set,/" "$out/$set.csv" | { [ -s "$out/sass_bench.csv" ] && tail -n +2 || cat; } \
      >> "$out/sass_bench.csv"
  done < "$out/sets.txt"
  python3 "$out/table.py" "$out/sass_bench.csv" "$gpu" > "$out/sass_bench.md"
  cat "$out/sass_bench.md"
  exit $rc
  ;;
*)
  echo "usage: run.sh build <orion build dir> <out> | run.sh run <out>" >&2
  exit 2
  ;;
esac
