#!/usr/bin/env bash
# ptxas_cost.sh - where the time and memory of assembling one file of many
# kernels go: ptxas alone on variants of the device PTX.
#
#   benchmarks/compile/ptxas_cost.sh [ORION_BUILD_OR_PREFIX] [KERNELS]
#
# Writes KERNELS (default 2000) small kernels (many_kernels.py's), takes
# clang's device PTX (orion-cc --no-orion) and Orion's (orion-cc), and times
# ptxas -arch=sm_90 (wall seconds and peak resident memory, /usr/bin/time)
# on: clang's PTX; with -v; with KERNELS module-scope byte arrays added; with
# one array of the same total size; Orion's PTX; Orion's without its
# decision records; Orion's with -v --split-compile 2 (the old default on 2
# cores); and clang's PTX with --split-compile 1 and 2 (the memory an extra
# thread costs).  One run each: a CPU figure on a shared machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
orion=${1:-$here/../../build}
n=${2:-2000}
cc=$orion/bin/orion-cc
ptxas=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
[ -x "$cc" ] || { echo "ptxas_cost: $cc: not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "ptxas_cost: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
python3 -c "import sys; sys.path.insert(0, '$here'); import many_kernels as m; open('$w/k.cu', 'w').write(m.source($n))"
"$cc" --no-orion -O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S "$w/k.cu" -o "$w/plain.ptx"
"$cc" -O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S "$w/k.cu" -o "$w/orion.ptx"
python3 - "$w" "$n" <<'EOF'
import re, sys
w, n = sys.argv[1], int(sys.argv[2])
s = open(f'{w}/plain.ptx').read()
i = s.index('.visible .entry')
g = ''.join(f'.visible .global .align 1 .b8 __x{j}[4] = {{1, 2, 3, 4}};\n' for j in range(n))
open(f'{w}/plain_globals.ptx', 'w').write(s[:i] + g + s[i:])
one = '.visible .global .align 1 .b8 __x[%d] = {%s};\n' % (4 * n, ', '.join(['1'] * (4 * n)))
open(f'{w}/plain_one.ptx', 'w').write(s[:i] + one + s[i:])
o = open(f'{w}/orion.ptx').read()
open(f'{w}/orion_norec.ptx', 'w').write(''.join(l for l in o.splitlines(True) if '__orion_records_' not in l))
EOF
run() { # label, ptxas arguments...
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$w/t" "$ptxas" -arch=sm_90 "$@" -o "$w/o.cubin" >/dev/null 2>&1
  read -r s kb < "$w/t"
  printf '| %s | %s | %.0f |\n' "$label" "$s" "$(echo "$kb / 1024" | bc -l)"
}
echo "| ptxas on ($n kernels) | wall (s) | peak RSS (MiB) |"
echo "|---|---:|---:|"
run "clang's PTX ($(stat -c %s "$w/plain.ptx") B)" "$w/plain.ptx"
run "clang's PTX, -v" -v "$w/plain.ptx"
run "clang's PTX + $n module-scope 4-byte arrays" "$w/plain_globals.ptx"
run "clang's PTX + one $((4 * n))-byte array" "$w/plain_one.ptx"
run "clang's PTX, --split-compile 1" --split-compile 1 "$w/plain.ptx"
run "clang's PTX, --split-compile 2" --split-compile 2 "$w/plain.ptx"
run "Orion's PTX ($(stat -c %s "$w/orion.ptx") B, $(grep -c '^.visible .entry\|^.entry' "$w/orion.ptx") entries, records)" "$w/orion.ptx"
run "Orion's PTX without the records" "$w/orion_norec.ptx"
run "Orion's PTX, -v --split-compile 2" -v --split-compile 2 "$w/orion.ptx"
