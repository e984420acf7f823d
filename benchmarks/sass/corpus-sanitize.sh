#!/usr/bin/env bash
# corpus-sanitize.sh - compute-sanitizer memcheck and racecheck on versions
# of corpus programs (the SASS rewrite's versions: ORION_MODE=fixed:<tag>),
# on the GPU machine:
#
#   corpus-sanitize.sh <pack> <out.txt> <program>:<tag>[,<tag>...] ...
#
# <pack> is a directory made by benchmarks/corpus/pack.sh (its orion binary;
# the arguments from its programs.txt, read by its measure.py).  Each version runs once under each
# tool, from its program's directory, at most SAN_TIMEOUT seconds (default
# 300); the lines appended to <out.txt>: program, tag, tool, the tool's
# ERROR SUMMARY (or "timeout"/"exit N"), and whether the program's own check
# passed (its last lines), and with errors the first error's lines.  Stops
# starting runs after SAN_DEADLINE seconds (default 400).  SAN_TOOLS: the
# tools (default "memcheck racecheck").  Exit 0 when every finished run
# reported 0 errors.
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
pack=$(cd "$1" && pwd) || exit 1
out=$2; shift 2
san=${CUDA:-/usr/local/cuda}/bin/compute-sanitizer
[ -x "$san" ] || san=$(command -v compute-sanitizer) || { echo "corpus-sanitize: no compute-sanitizer" >&2; exit 77; }
limit=${SAN_TIMEOUT:-300} deadline=$((SECONDS + ${SAN_DEADLINE:-400}))
bad=0
for spec in "$@"; do
  p=${spec%%:*}
  args=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import measure
print(" ".join(next((a for n, _, a in measure.read_programs(sys.argv[1] + "/programs.txt") if n == sys.argv[2]), [])))' \
    "$pack" "$p")
  dir=$pack/src/$p-cuda
  [ -x "$dir/orion" ] || { echo "$p: no orion binary in $dir" >> "$out"; bad=1; continue; }
  IFS=, read -r -a tags <<< "${spec#*:}"
  for tag in "${tags[@]}"; do
    for tool in ${SAN_TOOLS:-memcheck racecheck}; do
      if [ $SECONDS -ge $deadline ]; then echo "deadline: $p $tag $tool not run" >> "$out"; continue; fi
      # shellcheck disable=SC2086
      log=$(cd "$dir" && ORION_MODE=fixed:$tag timeout "$limit" "$san" --tool "$tool" ./orion $args 2>&1)
      rc=$?
      sum=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" <<< "$log" | tail -1)
      [ $rc = 124 ] && sum="timeout after ${limit}s"
      [ -z "$sum" ] && sum="exit $rc"
      case $sum in *" 0 errors"* | *" 0 hazards"*) ;; timeout*) ;; *) bad=1 ;; esac
      echo "$p $tag $tool: $sum | $(tail -2 <<< "$log" | tr '\n' ' ' | cut -c1-160)" >> "$out"
      case $sum in *" 0 errors"* | *" 0 hazards"* | timeout*) ;;
        *) grep -m1 -A6 -E "^========= (Invalid|Race|Error|Program hit)" <<< "$log" | cut -c1-200 >> "$out" ;; esac
    done
  done
done
exit $bad
