#!/usr/bin/env bash
# summary.sh - the figures of ../README.md from the committed archives (run from the repository root):
#   bash benchmarks/corpus/results/h200-walkkey/calls/summary.sh
set -euo pipefail
R=benchmarks/corpus/results/h200-walkkey
C=benchmarks/corpus
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for n in 1 2 3 4 5; do mkdir -p $t/c$n && tar -C $t/c$n -xzf $R/raw$n.tgz; done
echo "## the candidate (mode adaptive) against main's runtime (mode clang), same binaries, interleaved"
for n in 1 2; do python3 $C/ab.py $t/c$n/raw --a new --b main --modes adaptive,clang; done |
  awk -F'|' '$2 !~ /program|---/ && NF > 5 {n++; r = $9 + 0; l += log(r); if (r > 1.004 || r < 0.996) x = x sprintf(" %s%.3f (spreads %s,%s)", $2, r, $4, $7)}
    END {printf "* new / main, adaptive: geomean %.4f over %d programs; beyond 0.4 %%:%s\n", exp(l / n), n, x}'
for m in "new adaptive" "main clang"; do set -- $m
  for n in 1 2; do python3 $C/ab.py $t/c$n/raw --a $1 --b off --modes $2,off; done |
    awk -v w=$1 -F'|' '$2 !~ /program|---/ && NF > 5 {n++; r = $9 + 0; l += log(r); if (r > mx) {mx = r; p = $2} if (r <= 1.01) k++}
      END {printf "* %s / off: <= 1.01 on %d of %d programs, geomean %.4f, highest %.3f (%s)\n", w, k, n, exp(l / n), mx, p}'
done
for m in adaptive clang; do
  echo "mode $m ($([ $m = adaptive ] && echo new || echo main)):"
  python3 $C/capture.py --kernels $C/results/h200-fa7c4b4/whole_kernels.csv --mode $m \
    $t/c1/raw $t/c2/raw --out $t/cap_$m.md > /dev/null
  grep -E '^\* ' $t/cap_$m.md
done
echo "captured per win (new, main):"
join -t'|' <(awk -F'|' 'NF > 9 && $5 ~ /%/ {print $2 $3 "|" $8}' $t/cap_adaptive.md | sort) \
  <(awk -F'|' 'NF > 9 && $5 ~ /%/ {print $2 $3 "|" $8}' $t/cap_clang.md | sort) | sed 's/^/  /'
python3 $C/rechecks.py $t/c1/raw $t/c2/raw
for f in rt_modes1 rt_robust2; do echo "$f: $(grep -E 'failure' $R/$f.txt | tail -n 1)"; done
echo; echo "## calls 3-4: warm cache (mode cached) against off"
for n in 3 4; do python3 $C/ab.py $t/c$n/raw --a cached --b off --modes cached,off; done |
  awk -F'|' '$2 !~ /program|---/ && NF > 5 {n++; r = $9 + 0; l += log(r); if (r > mx) {mx = r; p = $2} if (r <= 1.01) k++}
    END {printf "* cached / off: <= 1.01 on %d of %d programs, geomean %.4f, highest %.3f (%s)\n", k, n, exp(l / n), mx, p}'
python3 $C/capture.py --kernels $C/results/h200-fa7c4b4/whole_kernels.csv --mode cached \
  $t/c3/raw $t/c4/raw --out $t/cap_cached.md > /dev/null
grep -E '^\* (cached >=|wins)' $t/cap_cached.md
echo; echo "## call 5: libor, tsp, gc, 7 runs"
python3 $C/ab.py $t/c5/raw --a new --b main --modes adaptive,clang
for m in adaptive clang; do
  python3 $C/capture.py --kernels $C/results/h200-fa7c4b4/whole_kernels.csv --mode $m $t/c5/raw \
    --out $t/cap5_$m.md > /dev/null
  echo "$m: $(awk -F'|' '$2 ~ /libor|tsp|gc/ && NF > 9 && $5 ~ /%/ {printf "%s%s ", $2, $8}' $t/cap5_$m.md)"
done
echo; echo "## calls 1-2: each version inside the program against alone (inprogram.md)"
python3 $C/inprogram.py --kernels $C/results/h200-fa7c4b4/whole_kernels.csv $t/c1/raw $t/c2/raw | diff - $R/inprogram.md &&
  echo "inprogram.md reproduced"
