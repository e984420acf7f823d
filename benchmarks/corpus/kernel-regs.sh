#!/usr/bin/env bash
# kernel-regs.sh - one kernel's static figures under several compilers or
# orion-cc code-generation settings, no GPU needed:
#
#   kernel-regs.sh <program dir> <file.cu> <kernel (mangled, or its prefix)> "<flags>" VARIANT...
#
# VARIANT is `nvcc` (nvcc -ptx with <flags>) or orion-cc's arguments, e.g.
# `--orion-codegen=none` or `--no-orion` (one word each; orion-cc runs with
# ORION_MAX_VERSIONS=1, so only the original kernel is compiled).  The PTX
# goes through ptxas -v (sm_90); prints per variant the kernel's registers,
# stack frame, spill stores/loads and SASS instruction count.  ORION_CC
# (default: the repository's build/bin/orion-cc), CUDA, CUOBJDUMP.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 5 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 file=$2 kernel=$3 flags=$4; shift 4
cuda=${CUDA:-/usr/local/cuda}
occ=${ORION_CC:-$root/build/bin/orion-cc}
cuobjdump=$(realpath "${CUOBJDUMP:-$cuda/bin/cuobjdump}")
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cd "$dir"
for v in "$@"; do
  # shellcheck disable=SC2086 # the flags are meant to split
  if [ "$v" = nvcc ]; then
    "$cuda/bin/nvcc" $flags -ptx "$file" -o "$t/k.ptx"
  else
    ORION_MAX_VERSIONS=1 "$occ" "$v" $flags --cuda-device-only -S "$file" -o "$t/k.ptx"
  fi
  "$cuda/bin/ptxas" -arch=sm_90 -O3 -v "$t/k.ptx" -o "$t/k.cubin" 2>"$t/v.txt"
  awk -v k="$kernel" -v v="$v" '
    /Compiling entry function/ { on = index($0, "\x27" k) > 0 }
    on && /stack frame/ { frame = $1; st = $5; ld = $9 }
    on && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i + 1); on = 0; found = 1 }
    END { if (!found) { print v ": kernel " k " not found"; exit 1 }
          printf "%s: %s registers, %s B stack frame, %s B spill stores, %s B spill loads", v, regs, frame, st, ld }' "$t/v.txt"
  n=$("$cuobjdump" -sass "$t/k.cubin" | awk -v k="$kernel" '/Function :/ { on = index($0, k) > 0 } on && /^ +\/\*[0-9a-f]+\*\// { c++ } END { print c + 0 }')
  echo ", $n SASS instructions"
done
