#!/usr/bin/env bash
# model-programs.sh - the placement model on the repository's own programs
# (benchmarks/programs, none of them in the model's fit): every spilling
# version alone, built with local spills and with the model, in two halves:
#
#   model-programs.sh build <orion prefix or build tree> <dir>   (here: no GPU)
#   model-programs.sh run <dir> [rounds]                         (on the GPU machine)
#
# build: each program compiled twice with <orion>/bin/orion-cc -O3
# --cuda-gpu-arch=sm_90, under ORION_PTXAS_SPILL=off (<dir>/local) and the
# default policy (<dir>/model), with the model build's report; <dir>/versions.txt
# lists, per program, the register-capped versions that spill or keep a
# frame in the local build and what the model did with each (on chip: whole
# or part; local, with its counts).
# run: rounds (default 5) of every listed version under ORION_MODE=fixed:<tag>,
# the two builds in turn (order swapped each round); prints one line per
# run: program, tag, build, round, kernel_ms (the program's own CUDA-event
# median of its timed repetitions), check, checksum.  Then, per version, the
# median kernel_ms of each build, model/local, and whether every run passed
# its check with one checksum across both builds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
progs=$here/../programs
case ${1:-} in
build)
  [ $# -eq 3 ] || { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  cc=$2/bin/orion-cc dir=$3
  [ -x "$cc" ] || { echo "model-programs.sh: $cc: no orion-cc" >&2; exit 1; }
  mkdir -p "$dir/local" "$dir/model" "$dir/reports"
  for f in "$progs"/*.cu; do
    n=$(basename "$f" .cu)
    ORION_PTXAS_SPILL=off "$cc" -O3 --cuda-gpu-arch=sm_90 "$f" -o "$dir/local/$n" \
      --orion-report="$dir/reports/$n.local.json"
    "$cc" -O3 --cuda-gpu-arch=sm_90 "$f" -o "$dir/model/$n" --orion-report="$dir/reports/$n.model.json"
  done
  python3 - "$dir" "$here/../corpus" > "$dir/versions.txt" <<'EOF'
import glob, json, os, sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from spills import model_counts, placement
for f in sorted(glob.glob(os.path.join(d, 'reports', '*.local.json'))):
    n = os.path.basename(f)[:-len('.local.json')]
    model = {(e['kernel'], e['tag']): e for b in json.load(open(os.path.join(d, 'reports', n + '.model.json')))['builds']
             for e in b['entries']}
    for b in json.load(open(f))['builds']:
        for e in b['entries']:
            if e['tag'] == 'orig' or not e['stack_frame'] or (e['kernel'], e['tag']) not in model:
                continue
            m = model[(e['kernel'], e['tag'])]
            c = model_counts(m) or (None, None)
            print(n, e['tag'], e['kernel'], e['stack_frame'], placement(m), c[0], c[1])
EOF
  cat "$dir/versions.txt" ;;
run)
  [ $# -ge 2 ] || { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  dir=$2 rounds=${3:-5}
  runs=$dir/runs.txt
  : > "$runs"
  for r in $(seq 1 "$rounds"); do
    order="local model"; [ $((r % 2)) -eq 0 ] && order="model local"
    while read -r n tag _; do
      for b in $order; do
        line=$(ORION_MODE=fixed:$tag ORION_CACHE=off timeout 120 "$dir/$b/$n" 2>/dev/null | grep '^RESULT' || true)
        ms=$(sed -n 's/.* kernel_ms=\([^ ]*\).*/\1/p' <<< "$line")
        chk=$(sed -n 's/.* check=\([^ ]*\).*/\1/p' <<< "$line")
        sum=$(sed -n 's/.* checksum=\([^ ]*\).*/\1/p' <<< "$line")
        echo "$n $tag $b $r ${ms:-none} ${chk:-none} ${sum:-none}" | tee -a "$runs"
      done
    done < "$dir/versions.txt"
  done
  python3 - "$dir" <<'EOF'
import statistics, sys
d = sys.argv[1]
runs = {}
for l in open(d + '/runs.txt'):
    n, tag, b, r, ms, chk, s = l.split()
    runs.setdefault((n, tag), []).append((b, ms, chk, s))
how = {(l.split()[0], l.split()[1]): ' '.join(l.split()[4:]) for l in open(d + '/versions.txt')}
print('| program | version | model (local accesses, global loads) | local ms | model ms | model/local | checks |')
print('|---|---|---|---:|---:|---:|---|')
for (n, tag), v in runs.items():
    ok = all(c == 'PASS' for _, _, c, _ in v) and len({s for *_, s in v}) == 1
    med = {b: statistics.median(float(ms) for bb, ms, _, _ in v if bb == b and ms != 'none') for b in ('local', 'model')}
    print(f"| {n} | {tag} | {how[(n, tag)]} | {med['local']:.4f} | {med['model']:.4f} | "
          f"{med['model'] / med['local']:.3f} | {'all PASS, one checksum' if ok else 'MISMATCH'} |")
EOF
  ;;
*) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
