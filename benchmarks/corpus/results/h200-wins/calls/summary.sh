#!/usr/bin/env bash
# summary.sh - the figures of ../README.md from the committed archive (run from the repository root):
#   bash benchmarks/corpus/results/h200-wins/calls/summary.sh
set -euo pipefail
R=benchmarks/corpus/results/h200-wins
C=benchmarks/corpus
K=$C/results/h200-fa7c4b4/whole_kernels.csv
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
tar -C $t -xzf $R/raw1.tgz
echo "## each win's best version with every other kernel on the original (mode wins) against off"
python3 $C/inprogram.py --kernels $K $t/raw --min-launches 1 |
  awk -F'|' 'NR > 2 {g = $7 + 0; n++; if (g >= 3) k++; else x = x sprintf(" %s%s %s%%", $2, substr($3, 1, 24), $7 + 0)}
    END {printf "* wins of >= 3 %% under fixed:<tag>: %d; still >= 3 %% with the others on the original: %d; not:%s\n", n, k, x}'
python3 $C/capture.py --kernels $K --mode adaptive --per-kernel $t/raw --out $t/cap.md > /dev/null
grep -E '^\* ' $t/cap.md | sed -n '1p;3p'
echo "* off runs spread over 2 % (total GPU time, ms):"
awk -F, '$2 == "off" {s[$1 FS $3] += $5} END {for (k in s) {split(k, a, FS); t[a[1]] = t[a[1]] " " sprintf("%.2f", s[k] / 1e6)}
  for (p in t) print p ":" t[p]}' $t/raw/kernels.csv | sort |
  awk '{min = 1e18; max = 0; for (i = 2; i <= NF; i++) {if ($i < min) min = $i; if ($i > max) max = $i}
    if ((max - min) / min > 0.02) print "  " $0}'
