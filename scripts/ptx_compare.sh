#!/usr/bin/env bash
# scripts/ptx_compare.sh - is the device PTX of the benchmark programs
# byte-identical between two Orion builds (say, before and after a change
# meant to keep behaviour)?
#
#   scripts/ptx_compare.sh BUILD_A BUILD_B [OUTDIR]
#
# For every benchmarks/programs/*.cu, each build's orion-cc writes the device
# PTX (-O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S) twice: with Orion (the
# pass's clones and records) and with --no-orion (the plain path); the two
# builds' files are compared byte for byte.  Prints one line per program and
# mode; exits 0 when every pair is identical, 1 otherwise (the files stay in
# OUTDIR, default a temporary folder that is removed when all match).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 2 ] || { sed -n '6p' "$0" | sed 's/^# //' >&2; exit 2; }
a=$1 b=$2
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/orion-ptx-XXXXXX")}
for d in "$a" "$b"; do
  [ -x "$d/bin/orion-cc" ] || { echo "ptx_compare: $d/bin/orion-cc: not found" >&2; exit 2; }
done
mkdir -p "$out/a" "$out/b"
differ=0 same=0
for src in "$root"/benchmarks/programs/*.cu; do
  name=$(basename "$src" .cu)
  for mode in orion plain; do
    flags=(-O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S)
    [ "$mode" = plain ] && flags+=(--no-orion)
    for side in a b; do
      build=$a
      [ "$side" = b ] && build=$b
      "$build/bin/orion-cc" "${flags[@]}" "$src" -o "$out/$side/$name.$mode.ptx" \
        >"$out/$side/$name.$mode.log" 2>&1 ||
        { echo "ptx_compare: $build: $name ($mode) did not compile: $out/$side/$name.$mode.log" >&2
          exit 2; }
    done
    if cmp -s "$out/a/$name.$mode.ptx" "$out/b/$name.$mode.ptx"; then
      echo "same    $name ($mode)"
      same=$((same + 1))
    else
      echo "DIFFERS $name ($mode): diff $out/a/$name.$mode.ptx $out/b/$name.$mode.ptx"
      differ=$((differ + 1))
    fi
  done
done
echo "ptx_compare: $same identical, $differ different"
[ "$differ" -eq 0 ] && [ -z "${3:-}" ] && rm -rf "$out"
[ "$differ" -eq 0 ]
