#!/usr/bin/env bash
# heavy-policies.sh - the repository's spill-heavy kernel
# (test/gpu/sass_partial/heavy_prog.cu, the kernel of
# test/lit/e2e/spill-heavy.cu) under orion-ptxas's three spill policies:
# local spills (off), ptxas's shared-memory spilling with launch bounds
# (pragma) and partial placement by the SASS rewrite (partial); every
# register-capped version alone (ORION_MODE=fixed:<tag>), at the 256
# threads the versions are sized for, GPU time of 10 launches (CUDA
# events, heavy_prog's own), RUNS runs (default 5) interleaved policy by
# policy; each run's checksum must match the plain build's.
#
#   heavy-policies.sh build <orion build dir> <out>   here (no GPU)
#   heavy-policies.sh run <out>                        on the GPU machine
#
# The run writes <out>/heavy-policies.csv (policy,tag,run,ms,checksum) and
# <out>/heavy-policies.md (medians, local/partial and pragma/partial
# ratios, the spread); exit 1 on a checksum that differs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../test/gpu/sass_partial/heavy_prog.cu
case ${1:-} in
build)
  [ $# -eq 3 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  build=$(cd "$2" && pwd) out=$3
  mkdir -p "$out"
  "$build/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$src" -o "$out/plain"
  for p in off pragma partial; do
    "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=$p --orion-report="$out/$p.json" "$src" \
      -o "$out/$p"
  done
  python3 - "$out/partial.json" > "$out/tags.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(v["tag"] for k in r["kernels"] for v in k["versions"] if not v["pad"] and v["tag"] != "orig"))
PY
  echo "built into $out: versions $(cat "$out/tags.txt")"
  ;;
run)
  [ $# -eq 2 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  out=$(cd "$2" && pwd)
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU on this machine"; exit 77; }
  ref=$(ORION_MODE=off "$out/plain" 256 | awk '{print $2}')
  echo "policy,tag,run,ms,checksum" > "$out/heavy-policies.csv"
  bad=0
  for run in $(seq "${RUNS:-5}"); do
    for tag in $(cat "$out/tags.txt"); do
      for p in off pragma partial; do
        line=$(ORION_CACHE=off ORION_MODE=fixed:$tag "$out/$p" 256 2>"$out/err.txt" || true)
        ms=$(grep -o 'time [0-9.]* ms' "$out/err.txt" | awk '{print $2}' || true)
        sum=$(echo "$line" | awk '{print $2}')
        [ "$sum" = "$ref" ] || { bad=1; echo "DIFFERENT: $p $tag run $run: $line"; }
        echo "$p,$tag,$run,${ms:-nan},$sum" >> "$out/heavy-policies.csv"
      done
    done
  done
  python3 - "$out/heavy-policies.csv" > "$out/heavy-policies.md" <<'PY'
import csv, math, statistics, sys
t = {}
for r in csv.DictReader(open(sys.argv[1])):
    t.setdefault((r["tag"], r["policy"]), []).append(float(r["ms"]))
tags = sorted({k[0] for k in t}, key=lambda s: int(s[1:]))
print("| version | local ms | pragma ms | partial ms | spread | local/partial | pragma/partial |")
print("|---|---:|---:|---:|---:|---:|---:|")
rl, rp = [], []
for g in tags:
    med = [statistics.median(t[(g, p)]) for p in ("off", "pragma", "partial")]
    spread = max((max(t[(g, p)]) - min(t[(g, p)])) / m for p, m in zip(("off", "pragma", "partial"), med))
    rl.append(med[0] / med[2])
    rp.append(med[1] / med[2])
    print("| %s | %.3f | %.3f | %.3f | %.1f %% | %.3f | %.3f |" % (g, *med, 100 * spread, rl[-1], rp[-1]))
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("\n* geomean local/partial %.3f, pragma/partial %.3f over %d versions" % (geo(rl), geo(rp), len(tags)))
PY
  cat "$out/heavy-policies.md"
  exit $bad
  ;;
*)
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
