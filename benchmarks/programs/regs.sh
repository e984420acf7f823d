#!/usr/bin/env bash
# Register usage of every kernel of the benchmark programs, as ptxas -v
# reports it for sm_90: without a cap, and with a register cap (default 32).
#
# usage: regs.sh [nvcc|clang] [cap]
#
# nvcc:  nvcc -O3 -arch=sm_90 -cubin -Xptxas -v [-maxrregcount=<cap>] <prog>.cu
# clang: clang++-22 -x cuda -O3 --cuda-gpu-arch=sm_90 --cuda-device-only -c
#        ... -Xcuda-ptxas -v [-Xcuda-ptxas --maxrregcount=<cap>] <prog>.cu
# Output: one line per kernel: program, kernel, registers, stack frame, and
# spill stores/loads (bytes) under the cap. Compiles one file at a time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode=${1:-nvcc}
cap=${2:-32}
cuda=${CUDA_PATH:-/usr/local/cuda}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ptxas_v() {  # ptxas_v <src> [cap]
  local src=$1 c=${2:-}
  if [ "$mode" = nvcc ]; then
    "${NVCC:-nvcc}" -O3 -arch=sm_90 -cubin -Xptxas -v ${c:+-maxrregcount=$c} "$src" -o "$tmp/out.cubin" 2>&1
  else
    "${CLANG:-clang++-22}" -x cuda -O3 --cuda-gpu-arch=sm_90 "--cuda-path=$cuda" \
      -Wno-unknown-cuda-version -isystem "$cuda/include/cccl" \
      -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1 --cuda-device-only -c \
      -Xcuda-ptxas -v ${c:+-Xcuda-ptxas --maxrregcount=$c} "$src" -o "$tmp/out.o" 2>&1
  fi
}

# Parse ptxas -v into "kernel regs frame spill_st spill_ld" lines.
parse() {
  awk '
    /Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); entry = substr($0, RSTART + 1, RLENGTH - 2) }
    /Function properties for/ { cur = $NF }
    /bytes stack frame/ { if (cur == entry) { frame[entry] = $1; st[entry] = $5; ld[entry] = $9 } }
    /Used [0-9]+ registers/ { for (i = 1; i <= NF; ++i) if ($i == "Used") regs[entry] = $(i + 1); order[n++] = entry }
    END { for (i = 0; i < n; ++i) { k = order[i]; print k, regs[k], frame[k], st[k], ld[k] } }'
}

printf '%-16s %-24s %5s | cap %-3s %6s %7s %7s\n' program kernel regs "$cap" frame spill_st spill_ld
for src in "$here"/*.cu; do
  prog="$(basename "$src" .cu)"
  ptxas_v "$src" | parse > "$tmp/free"
  ptxas_v "$src" "$cap" | parse > "$tmp/capped"
  while read -r k r _ _ _; do
    name="$(echo "$k" | c++filt | sed 's/(.*//')"
    read -r _ _ f s l < <(grep -F "$k " "$tmp/capped" | sed -n 1p)
    printf '%-16s %-24s %5s | cap %-3s %6s %7s %7s\n' "$prog" "$name" "$r" "$cap" "$f" "$s" "$l"
  done < "$tmp/free"
done
