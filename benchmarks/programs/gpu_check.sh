#!/usr/bin/env bash
# gpu_check.sh - run prebuilt benchmark binaries on a GPU and record whether
# each passes its CPU reference check, at the small and the full input size.
#
# usage: gpu_check.sh <bindir> <label> <out.csv>
#   <bindir>  binaries from build.sh (plus examples/demo, if present)
#   <label>   compiler label written to the CSV (e.g. orion-cc)
# Appends rows: label,program,size,status,kernel_ms,total_ms,checksum
# (the fields of the program's last "RESULT key=value ..." line, read by key;
# empty when the program prints no RESULT line or lacks the key). An existing
# <out.csv> whose header has only the first five columns gets five-column rows.
set -uo pipefail
bindir=$1 label=$2 out=$3
[ -f "$out" ] || echo "compiler,program,size,status,kernel_ms,total_ms,checksum" > "$out"
wide=1
head -1 "$out" | grep -q ',total_ms,checksum' || wide=0
# result_field <RESULT line> <key>: the value of key=value in the line.
result_field() {
  printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | sed -n 1p
}
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
    res=$(printf '%s\n' "$log" | grep '^RESULT ' | tail -1)
    ms=$(result_field "$res" kernel_ms)
    total=$(result_field "$res" total_ms)
    sum=$(result_field "$res" checksum)
    if [ $rc -eq 0 ] && grep -q PASS <<<"$log"; then st=PASS; else st=FAIL; fails=$((fails+1)); fi
    if [ $wide = 1 ]; then
      echo "$label,$prog,$size,$st,${ms:-},${total:-},${sum:-}" >> "$out"
    else
      echo "$label,$prog,$size,$st,${ms:-}" >> "$out"
    fi
    printf '%-10s %-16s %-6s %s %s %s %s\n' "$label" "$prog" "$size" "$st" "${ms:-}" "${total:-}" "${sum:-}"
    [ $st = FAIL ] && printf '%s\n' "$log" | tail -5
  done
done
exit $((fails > 0))
