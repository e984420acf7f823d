#!/usr/bin/env bash
# benchmarks/advise/corpus.sh - orion-advise on the corpus's confirmed
# decisions: do the exported attributes give an nvcc build the registers of
# the version Orion chose?
#
#   benchmarks/advise/corpus.sh HECBENCH_GIT_DIR OUT_DIR [program...]
#
# Decisions: the rows of benchmarks/corpus/results/raw/call*/choices.csv
# (H200) and of results/h100-cache/raw.tgz's choices.csv (H100) with mode
# "cached" and run -1, i.e. the decision caches the adaptive runs wrote
# (only confirmed choices are cached), non-original ones; where both name a
# kernel and block, the later (H100) run's.
# Per program (src/<name>-cuda of a HeCBench git directory, at HEAD):
#   1. orion-cc -O3 -std=c++17 -arch=sm_90 (+ -use_fast_math where the
#      Makefile has it) -c on every .cu, each with --orion-report;
#   2. nvcc with the same flags -Xptxas -v on the original sources: the
#      target build's registers;
#   3. a decision cache of the program's rows; orion-advise on every .cu
#      with the build reports, the cache and --target-usage (the nvcc log:
#      no cap where nvcc already uses as few registers), --export-fixes;
#   4. clang-apply-replacements; nvcc -Xptxas -v on the edited sources.
# Output: OUT_DIR/advise.csv (program, kernel, block, chosen, orion_regs:
# ptxas's registers of the chosen version in this build, attribute,
# nvcc_before, nvcc_after, match: yes/no, or "-" where nothing was
# advised) and each program's notes and YAML.
# A decision whose version this build does not have is reported, not
# advised (orion-advise says why).  No GPU is needed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${ORION_BUILD_DIR:-$root/build}
. "$root/benchmarks/advise/export_build.sh"
cuda=${CUDA_PATH:-/usr/local/cuda}
[ $# -ge 2 ] || { echo "usage: $0 HECBENCH_GIT_DIR OUT_DIR [program...]" >&2; exit 2; }
git_dir=$1 out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
choices=$({ cat "$root"/benchmarks/corpus/results/raw/call*/choices.csv
            tar xzf "$root/benchmarks/corpus/results/h100-cache/raw.tgz" -O --wildcards '*choices.csv'; } |
  awk -F, '$2 == "cached" && $3 == "-1" && $6 != "orig" { row[$1 "," $4 "," $5] = $0 }
           END { for (k in row) print row[k] }' | sort)
progs=${*:-$(echo "$choices" | cut -d, -f1 | sort -u)}

# ptxas -v output -> "kernel registers" lines.
regs_of() { awk '/Compiling entry function/ { k = $0; sub(/.*function ./, "", k); sub(/. for .*/, "", k) }
                 /Used [0-9]+ registers/ && k != "" { for (i = 1; i <= NF; i++) if ($i == "Used") print k, $(i + 1); k = "" }'; }

csv=$out/advise.csv
echo "program,kernel,block,chosen,orion_regs,attribute,nvcc_before,nvcc_after,match" > "$csv"
for p in $progs; do
  d=$out/$p
  rm -rf "$d" && mkdir -p "$d/src" "$d/orig" "$d/fixes"
  export_build "$git_dir" "$p" "$d" "$build"
  cp -r "$d/src/." "$d/orig/"
  echo "# orion decision cache 1" > "$d/decisions"
  echo "$choices" | awk -F, -v p="$p" '$1 == p { print "0 NVIDIA_H200 0", $4, $5, 0, $6, $7, $8 }' >> "$d/decisions"
  nvcc_log() {
    for f in "$d/$1"/*.cu; do
      (cd "$d/$1" && "$cuda/bin/nvcc" $flags -arch=sm_90 -c "$f" -o /dev/null -Xptxas -v) 2>&1
    done > "$d/nvcc-$1.log"
    regs_of < "$d/nvcc-$1.log" > "$d/nvcc-$1.txt"
  }
  nvcc_log orig
  "$build/bin/orion-advise" "$d"/src/*.cu "${reports[@]}" --cache="$d/decisions" \
    --target-usage="$d/nvcc-orig.log" \
    --export-fixes="$d/fixes/fixes.yaml" --summary="$d/summary.json" \
    -- -std=c++17 --cuda-gpu-arch=sm_90 -I"$d/src" > "$d/notes.txt"
  /usr/lib/llvm-22/bin/clang-apply-replacements "$d/fixes"
  nvcc_log src
  python3 - "$d" "$p" "$csv" <<'PY'
import csv, glob, json, sys
d, p, out = sys.argv[1:4]
regs = {}
for f in glob.glob(d + "/build-*.json"):
    for b in json.load(open(f)).get("builds", []):
        for e in b.get("entries", []):
            regs[(e["kernel"], e["tag"])] = (e["registers"], e["status"])
def nvcc(v):
    return dict(l.rsplit(" ", 1) for l in open(f"{d}/nvcc-{v}.txt").read().splitlines())
before, after = nvcc("orig"), nvcc("src")
kernels = json.load(open(d + "/summary.json"))["kernels"]
with open(out, "a", newline="") as f:
    w = csv.writer(f)
    for line in open(d + "/decisions"):
        if line.startswith("#"):
            continue
        x = line.split()
        kernel, block, tag = x[3], x[4], x[6]
        ks = [k for k in kernels if kernel in k["names"]]
        attr = ks[0]["attribute"] if ks else None
        text = (ks[0].get("advice") or "") if ks else ""
        r, status = regs.get((kernel, tag), ("", "absent"))
        ok = attr and status != "dropped"
        if not attr and "the target build" in text:
            attr = "none: nvcc already uses as few"
        elif not attr and tag[0] == "p":
            attr = "launch-site change (padding)"
        w.writerow([p, kernel, block, tag, r if status != "dropped" else f"dropped ({r})",
                    attr or "-", before.get(kernel, ""), after.get(kernel, ""),
                    ("yes" if after.get(kernel) == str(r) else "no") if ok else "-"])
PY
done
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
wid = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
for r in rows: print("  ".join(c.ljust(w) for c, w in zip(r, wid)).rstrip())' "$csv"
