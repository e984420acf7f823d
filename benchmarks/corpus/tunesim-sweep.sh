#!/usr/bin/env bash
# tunesim-sweep.sh - the do-no-harm trade-off of the runtime's settings,
# replayed on measured traces (tunesim.py, tunesim.c):
#
#   tunesim-sweep.sh <tunesim binary> <out.md> RAW [RAW...]
#
# For each setting below, the replays of every program in RAW (measure.py
# --traces result directories): programs whose replayed time stays within
# 1 % of the original's, kernels of >= 1 ms within 2 % of the fastest
# version alone, wins of >= 3 % captured to >= 80 %, the programs
# replayed slower than the original by more than 0.4 %, and the share of
# each win of a kernel launched more than once that the replays kept.  One
# Markdown table to <out.md>.  SETTINGS='a;b;...' replaces the settings
# below (each a list of tunesim options).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sim=$1 out=$2; shift 2
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
settings=("--budget 0.005" "--budget 0.01" "--budget 0.02" "--budget 0.05" "--budget 1"
          "--budget 0.005 --set min_pairs=3" "--budget 0.005 --recheck 0"
          "--budget 1 --own 0.005" "--budget 1 --own 0.008" "--budget 1 --own 0.01")
if [ -n "${SETTINGS:-}" ]; then IFS=';' read -r -a settings <<<"$SETTINGS"; fi
{
  echo "| setting | programs <= 1.01 x orig | kernels >= 0.98 x oracle | wins captured >= 80 % | slower than orig by > 0.4 % | captured per win |"
  echo "|---|---|---|---|---|---|"
  for s in "${settings[@]}"; do
    # shellcheck disable=SC2086
    python3 "$here/tunesim.py" "$@" --sim "$sim" --out "$t/r" -- $s > "$t/log"
    a=$(sed -n 's/^\* Replayed\/orig <= 1.01 per program: \([0-9]* of [0-9]*\).*/\1/p' "$t/log")
    b=$(sed -n 's/^\* Replayed >= 0.98 x oracle on kernels >= 1 ms: //p' "$t/log")
    c=$(sed -n 's/^\* Wins >= 3 %: \([0-9]*\) kernels, >= 80 % captured on \([0-9]*\)/\2 of \1/p' "$t/log")
    d=$(awk -F, 'NR > 1 && $6 > 1.004 {printf "%s%s %s", n++ ? ", " : "", $1, $6}' "$t/r/programs.csv")
    e=$(awk -F, 'NR > 1 && $9 >= 0.03 && $3 > 1 {printf "%s%s %.0f%%", n++ ? ", " : "", $1, 100 * $10}' \
          "$t/r/kernels.csv")
    echo "| \`$s\` | $a | $b | $c | ${d:-none} | ${e:-none} |"
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
