#!/usr/bin/env bash
# capture-repeat.sh - how often one scenario of test/gpu/rt_robust/graph.cu
# fails when run many times (an intermittent capture failure):
#
#   capture-repeat.sh <rt_robust build dir> [N] [scenario] [ORION_MODE]
#
# Runs <dir>/graph <scenario> (default cross_thread) N times (default 20)
# under ORION_MODE (default adaptive) with the decision cache off, and
# prints "<scenario> <mode>: F of N failed" with the output of the first
# failing run.  Other variables (CUDA_MODULE_LOADING, ORION_DEBUG) pass
# through.  Build the directory with test/gpu/rt_robust.sh build; run on
# the GPU machine.
set -u
[ $# -ge 1 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 n=${2:-20} scen=${3:-cross_thread} mode=${4:-adaptive}
[ -x "$dir/graph" ] || { echo "capture-repeat.sh: $dir/graph: no such program" >&2; exit 1; }
out=$(mktemp) first=""
trap 'rm -f "$out"' EXIT
f=0
for i in $(seq 1 "$n"); do
  if ! ORION_MODE=$mode ORION_CACHE=off timeout 120 "$dir/graph" "$scen" > "$out" 2>&1 ||
     grep -q FAIL "$out"; then
    f=$((f + 1))
    [ -n "$first" ] || first=$(tail -n 20 "$out")
  fi
done
echo "$scen $mode: $f of $n failed"
[ -z "$first" ] || printf 'first failing run:\n%s\n' "$first"
