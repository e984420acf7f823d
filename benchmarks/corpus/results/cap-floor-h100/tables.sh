#!/usr/bin/env bash
# tables.sh - this directory's tables from raw.tgz (no GPU needed):
#   benchmarks/corpus/results/cap-floor-h100/tables.sh
# raw.tgz: a pack-ab.sh --b-mode adaptive measurement: mode `off` and
# `adaptive` are build 5 (the cap floor, 40 %), mode `clang` is build 4 (no
# floor) under ORION_MODE=adaptive.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tar -xzf "$here/raw.tgz" -C "$tmp"
mkdir -p "$tmp/f" && tar -xzf "$here/raw-fixed.tgz" -C "$tmp/f"
# raw-fixed.tgz: build 5 alone on 12 of the programs, off, adaptive, cached
# and every fixed version (issue-style Select/oracle and capture tables)
python3 "$corpus/analyze.py" "$tmp/f/raw" --out "$here/fixed" >/dev/null
python3 "$corpus/ab.py" "$tmp/raw" --modes adaptive,clang --a "adaptive, floor (build 5)" \
  --b "adaptive, no floor (build 4)" > "$here/floor-ab.md"
python3 "$corpus/ab.py" "$tmp/raw" --modes adaptive,clang --a "adaptive, floor (build 5)" \
  --b "adaptive, no floor (build 4)" --per-launch > "$here/floor-ab-per-launch.md"
python3 "$corpus/ab.py" "$tmp/raw" --modes adaptive,off --a "adaptive (build 5)" \
  --b "off (build 5)" > "$here/adaptive-off.md"
echo "tables.sh: wrote floor-ab.md, floor-ab-per-launch.md, adaptive-off.md, fixed/"
