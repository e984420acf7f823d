#!/usr/bin/env bash
# corpus-spill.sh - on the GPU machine: every version of corpus programs
# alone (measure.py --modes fixed) under three spill policies, interleaved
# program by program, then compute-sanitizer on the rewrite's versions:
#
#   corpus-spill.sh <dir> <out> <programs> [<program>:<tag>,... for corpus-sanitize.sh]
#
# <dir>/{local,pragma,sass}/pack.tar.xz: benchmarks/corpus/pack.sh of the
# same programs built with ORION_PTXAS_SPILL=off, pragma and partial.
# Writes <out>/spill.tgz (<policy>.<program>.tgz of benchmarks/corpus/
# gpu.sh, 3 runs each) and <out>/sanitize.txt (on <dir>/<last policy>).
# Environment: RUN_DEADLINE (seconds per program and policy, default 150);
# POLICIES (the packs' directory names, default "local pragma sass").
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$1 out=$2 progs=$3; shift 3
mkdir -p "$out/spill"
IFS=, read -r -a plist <<< "$progs"
for p in "${plist[@]}"; do
  for pol in ${POLICIES:-local pragma sass}; do
    bash "$here/../corpus/gpu.sh" "$dir/$pol" "$out/spill/$pol.$p.tgz" --runs 3 --modes fixed \
      --max-run-s 8 --deadline-s "${RUN_DEADLINE:-150}" --programs "$p" 2>&1 | tail -2
  done
done
tar -C "$out" -czf "$out/spill.tgz" spill && rm -rf "$out/spill"
last=$(echo ${POLICIES:-local pragma sass} | awk '{print $NF}')
[ $# -gt 0 ] && bash "$here/corpus-sanitize.sh" "$dir/$last/pack" "$out/sanitize.txt" "$@"
cat "$out/sanitize.txt" 2>/dev/null
exit 0
