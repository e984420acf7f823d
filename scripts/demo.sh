#!/usr/bin/env bash
# scripts/demo.sh - the main job: compile examples/demo.cu with orion-cc,
# show the decisions OrionPass made and the versions that reached the cubin,
# and run the program when a GPU is present.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ORION_BUILD_DIR:-$root/build}
out=$build/demo
mkdir -p "$out"
cuobjdump=$(command -v cuobjdump || echo "$build/pytools/nvidia/cu13/bin/cuobjdump")

echo "== orion-cc -O3 --cuda-gpu-arch=sm_90 examples/demo.cu -o build/demo/demo --orion-report"
"$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 "$root/examples/demo.cu" -o "$out/demo" \
  --orion-report
echo
echo "== kernel versions in the binary (cuobjdump -res-usage)"
"$cuobjdump" -res-usage "$out/demo" | grep -E "Function|REG:" | sed 's/ TEXTURE.*//'
echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "== running on $(nvidia-smi -L | sed -n 1p)"
  "$out/demo"
else
  echo "== no GPU on this machine: built $out/demo, not running it"
fi
