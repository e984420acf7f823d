#!/usr/bin/env bash
# programs_sanitize.sh <bin dir> - compute-sanitizer memcheck and racecheck
# on every version of the benchmark programs that orion-ptxas rewrote with
# the SASS rewriter (the "spill: sass" lines of <bin dir>/<program>.build.log,
# written by benchmarks/programs/build.sh with orion-cc --orion-report),
# each run with ORION_MODE=fixed:<kernel>=<tag> and the small input ("-s
# small").  The bit-for-bit comparison of the same versions against
# ORION_MODE=off is rt_modes.py's.  Exit 1 when a tool reports an error, 77
# without a GPU.
set -uo pipefail
dir=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU"; exit 77; }
san=$(command -v compute-sanitizer || echo "${ORION_CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer")
[ -x "$san" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
rc=0 n=0
for log in "$dir"/*.build.log; do
  prog=$(basename "$log" .build.log)
  kernel=""
  while IFS= read -r line; do
    # the report prints "kernel <name>  [sm_90]" headers, then one row per version
    if [[ $line =~ ^kernel\ ([^ ]+) ]]; then kernel=${BASH_REMATCH[1]}; fi
    if [[ $line =~ ^[[:space:]]+([a-z0-9]+)[[:space:]].*spill:\ sass ]]; then
      tag=${BASH_REMATCH[1]}
      for tool in memcheck racecheck; do
        n=$((n + 1))
        out=$(ORION_MODE="fixed:$kernel=$tag" "$san" --tool $tool --error-exitcode 3 "$dir/$prog" -s small 2>&1)
        st=$?
        sum=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" <<<"$out" | tail -1)
        echo "$prog $kernel=$tag $tool: exit $st; ${sum:-no summary}"
        # fixed: falls back to orig (with a warning) when the version cannot run
        grep -m1 "has no version .*; using orig" <<<"$out" && { echo "FAIL: $prog ran orig, not $tag"; rc=1; }
        [ $st = 0 ] || { rc=1; grep -m5 "=========" <<<"$out"; }
      done
    fi
  done < "$log"
done
[ $n -gt 0 ] || { echo "FAIL: no rewritten version found in $dir/*.build.log"; exit 1; }
echo "$n sanitizer runs; $([ $rc = 0 ] && echo 'ALL CLEAN' || echo 'SOME FAILED')"
exit $rc
