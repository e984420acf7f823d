#!/usr/bin/env bash
# tables.sh - this directory's tables from its raw archives (no GPU needed):
#   benchmarks/corpus/results/parity-h100/tables.sh
# raw1+raw2: build 1 (every default on, partial-unroll and align-arrays too);
# raw3: the programs build 2 (no partial-unroll) changed; raw5: the programs
# build 3 (no align-arrays either: the final defaults) changed; raw4: build 2
# against build 3 (pack-ab.sh); raw6: build 4 (internalize on) against
# build 3 (pack-ab.sh: its `clang` mode is build 3 under ORION_MODE=off) on
# the programs internalize changed.  Each has nvcc runs of its own; raw1-5
# clang runs too.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in 1 2 3 4 5 6; do mkdir -p "$tmp/r$i" && tar -xzf "$here/raw$i.tgz" -C "$tmp/r$i"; done
c12=$here/changed-b1-b2.txt c23=$here/changed-b2-b3.txt c34=$here/changed-b3-b4.txt
# build 1, as measured
python3 "$corpus/analyze.py" "$tmp/r1/raw" "$tmp/r2/raw" --out "$tmp/b1" >/dev/null
python3 "$corpus/parity.py" "$tmp/b1/programs.csv" --out "$here/parity-build1.md"
# the final defaults: each program from the last call that ran its device code
# (raw6 without its clang mode: the clang column is blank for those programs)
python3 "$corpus/merge-raw.py" "$tmp/m" "$tmp/r1/raw:$c12,$c23,$c34" "$tmp/r2/raw:$c12,$c23,$c34" \
  "$tmp/r3/raw:$c23,$c34" "$tmp/r5/raw:$c34" "$tmp/r6/raw@nvcc,off,adaptive" >/dev/null
python3 "$corpus/analyze.py" "$tmp"/m/* --out "$here" >/dev/null
python3 "$corpus/parity.py" "$here/programs.csv" --causes "$corpus/parity-causes.txt" \
  --out "$here/parity.md"
python3 "$corpus/ab.py" "$tmp/r4/raw" --a "align-arrays on (build 2)" \
  --b "align-arrays off (build 3)" > "$here/align-arrays-ab.md"
python3 "$corpus/ab.py" "$tmp/r5/raw" --a "Orion off" --b clang --modes off,clang --per-launch \
  > "$here/per-launch-build3.md"
python3 "$corpus/ab.py" "$tmp/r6/raw" --a "internalize on (build 4)" \
  --b "internalize off (build 3)" > "$here/internalize-ab.md"
python3 "$corpus/ab.py" "$tmp/r6/raw" --a "internalize on (build 4)" \
  --b "internalize off (build 3)" --per-launch > "$here/internalize-ab-per-launch.md"
echo "tables.sh: wrote internalize-ab.md, internalize-ab-per-launch.md, per-launch-build3.md, parity.md, parity-build1.md, align-arrays-ab.md, programs.csv, kernels.csv, corpus.md"
