#!/usr/bin/env bash
# tables.sh - this directory's tables from its raw archives (no GPU needed):
#   benchmarks/corpus/results/parity-h100/tables.sh
# raw1+raw2: build 1 (every default on, partial-unroll and align-arrays too);
# raw3: the programs build 2 (no partial-unroll) changed; raw5: the programs
# build 3 (no align-arrays either: the final defaults) changed; raw4: build 2
# against build 3 (pack-ab.sh).  Each has nvcc and clang runs of its own.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in 1 2 3 4 5; do mkdir -p "$tmp/r$i" && tar -xzf "$here/raw$i.tgz" -C "$tmp/r$i"; done
c12=$here/changed-b1-b2.txt c23=$here/changed-b2-b3.txt
# build 1, as measured
python3 "$corpus/analyze.py" "$tmp/r1/raw" "$tmp/r2/raw" --out "$tmp/b1" >/dev/null
python3 "$corpus/parity.py" "$tmp/b1/programs.csv" --out "$here/parity-build1.md"
# the final defaults: each program from the last call that ran its device code
python3 "$corpus/merge-raw.py" "$tmp/m" "$tmp/r1/raw:$c12,$c23" "$tmp/r2/raw:$c12,$c23" \
  "$tmp/r3/raw:$c23" "$tmp/r5/raw" >/dev/null
python3 "$corpus/analyze.py" "$tmp"/m/* --out "$here" >/dev/null
python3 "$corpus/parity.py" "$here/programs.csv" --causes "$corpus/parity-causes.txt" \
  --out "$here/parity.md"
python3 "$corpus/ab.py" "$tmp/r4/raw" --a "align-arrays on (build 2)" \
  --b "align-arrays off (build 3)" > "$here/align-arrays-ab.md"
python3 "$corpus/ab.py" "$tmp/r5/raw" --a "Orion off" --b clang --modes off,clang --per-launch \
  > "$here/per-launch-build3.md"
echo "tables.sh: wrote per-launch-build3.md, parity.md, parity-build1.md, align-arrays-ab.md, programs.csv, kernels.csv, corpus.md"
