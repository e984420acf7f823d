#!/usr/bin/env bash
# gpu_check.sh - run prebuilt benchmark binaries on a GPU and record whether
# each passes its CPU reference check, at the small and the full input size.
#
# usage: gpu_check.sh <bindir> <label> <out.csv>
#   <bindir>  binaries from build.sh (plus examples/demo, if present)
#   <label>   compiler label written to the CSV (e.g. orion-cc)
# Appends rows: label,program,size,status,kernel_ms
set -uo pipefail
bindir=$1 label=$2 out=$3
[ -f "$out" ] || echo "compiler,program,size,status,kernel_ms" > "$out"
export LD_LIBRARY_PATH=${CUDA_PATH:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}
fails=0
for exe in "$bindir"/*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  prog=$(basename "$exe")
  sizes="small large"
  [ "$prog" = demo ] && sizes=large
  for size in $sizes; do
    args=()
    [ "$size" = small ] && args=(-s small)
    log=$("$exe" "${args[@]}" 2>&1); rc=$?
    ms=$(printf '%s\n' "$log" | sed -n 's/.*kernel_ms=\([0-9.e+-]*\).*/\1/p' | tail -1)
    if [ $rc -eq 0 ] && printf '%s\n' "$log" | grep -q PASS; then st=PASS; else st=FAIL; fails=$((fails+1)); fi
    echo "$label,$prog,$size,$st,${ms:-}" >> "$out"
    printf '%-10s %-16s %-6s %s %s\n' "$label" "$prog" "$size" "$st" "${ms:-}"
    [ $st = FAIL ] && printf '%s\n' "$log" | tail -5
  done
done
exit $((fails > 0))
