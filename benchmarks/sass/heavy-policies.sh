#!/usr/bin/env bash
# heavy-policies.sh - the repository's spill-heavy kernel
# (test/gpu/sass_partial/heavy_prog.cu, the kernel of
# test/lit/e2e/spill-heavy.cu) under orion-ptxas's spill policies: local
# spills (off), ptxas's shared-memory spilling with launch bounds
# (pragma), partial placement by the SASS rewrite in static shared memory
# sized for the record's 256 threads (partial), and in the launch's
# dynamic shared memory sized by the runtime for each launch (dynamic);
# every register-capped version alone (ORION_MODE=fixed:<tag>) at each
# block size of BLOCKS (default 256), GPU time of 10 launches (CUDA
# events, heavy_prog's own), RUNS runs (default 5) interleaved policy by
# policy; each run's checksum must match the plain build's at that block.
#
#   heavy-policies.sh build <orion build dir> <out>   here (no GPU)
#   heavy-policies.sh run <out>                        on the GPU machine
#
# POLICIES (default "off pragma partial dynamic") picks the builds.  The
# run writes <out>/heavy-policies.csv (block,policy,tag,run,ms,checksum) and
# <out>/heavy-policies.md (medians, local / each policy, the spread); exit 1
# on a checksum that differs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the deeply capped clones these spill paths are for (no cap floor, Fig. 8 as published)
export ORION_CAP_FLOOR=${ORION_CAP_FLOOR:-0}
src=$here/../../test/gpu/sass_partial/heavy_prog.cu
case ${1:-} in
build)
  [ $# -eq 3 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  build=$(cd "$2" && pwd) out=$3
  mkdir -p "$out"
  "$build/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$src" -o "$out/plain"
  for p in ${POLICIES:-off pragma partial dynamic}; do
    "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=$p --orion-report="$out/$p.json" "$src" \
      -o "$out/$p"
  done
  echo "${POLICIES:-off pragma partial dynamic}" > "$out/policies.txt"
  python3 - "$out/$(awk '{print $1}' "$out/policies.txt").json" > "$out/tags.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(v["tag"] for k in r["kernels"] for v in k["versions"] if not v["pad"] and v["tag"] != "orig"))
PY
  echo "built into $out: versions $(cat "$out/tags.txt")"
  ;;
run)
  [ $# -eq 2 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  out=$(cd "$2" && pwd)
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU on this machine"; exit 77; }
  echo "block,policy,tag,run,ms,checksum" > "$out/heavy-policies.csv"
  bad=0
  for b in ${BLOCKS:-256}; do
    ref=$(ORION_MODE=off "$out/plain" "$b" | awk '{print $2}')
    for run in $(seq "${RUNS:-5}"); do
      for tag in $(cat "$out/tags.txt"); do
        for p in $(cat "$out/policies.txt"); do
          line=$(ORION_CACHE=off ORION_MODE=fixed:$tag "$out/$p" "$b" 2>"$out/err.txt" || true)
          ms=$(grep -o 'time [0-9.]* ms' "$out/err.txt" | awk '{print $2}' || true)
          sum=$(echo "$line" | awk '{print $2}')
          [ "$sum" = "$ref" ] || { bad=1; echo "DIFFERENT: $p $tag block $b run $run: $line"; }
          echo "$b,$p,$tag,$run,${ms:-nan},$sum" >> "$out/heavy-policies.csv"
        done
      done
    done
  done
  python3 - "$out/heavy-policies.csv" > "$out/heavy-policies.md" <<'PY'
import csv, math, statistics, sys
t, pols = {}, []
for r in csv.DictReader(open(sys.argv[1])):
    t.setdefault((r["block"], r["tag"], r["policy"]), []).append(float(r["ms"]))
    if r["policy"] not in pols:
        pols.append(r["policy"])
others = [p for p in pols if p != "off"]
print("| block | version | " + " | ".join("%s ms" % ("local" if p == "off" else p) for p in pols) +
      " | spread | " + " | ".join("local/%s" % p for p in others) + " |")
print("|---|---|" + "---:|" * (len(pols) + 1 + len(others)))
ratios = {p: [] for p in others}
for b, g in sorted({k[:2] for k in t}, key=lambda k: (int(k[0]), int(k[1][1:]))):
    med = {p: statistics.median(t[(b, g, p)]) for p in pols}
    spread = max((max(t[(b, g, p)]) - min(t[(b, g, p)])) / med[p] for p in pols)
    for p in others:
        ratios[p].append(med["off"] / med[p])
    print("| %s | %s | " % (b, g) + " | ".join("%.3f" % med[p] for p in pols) + " | %.1f %% | " % (100 * spread) +
          " | ".join("%.3f" % (med["off"] / med[p]) for p in others) + " |")
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("\n* geomean local / policy: " + ", ".join("%s %.3f" % (p, geo(ratios[p])) for p in others) +
      " over %d versions and block sizes" % len(ratios[others[0]]))
PY
  cat "$out/heavy-policies.md"
  exit $bad
  ;;
*)
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
