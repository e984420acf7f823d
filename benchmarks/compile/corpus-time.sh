#!/usr/bin/env bash
# corpus-time.sh - compile time of corpus programs through their own
# Makefiles: orion-cc against orion-cc --no-orion (clang 22, no pass, no
# orion-ptxas, no runtime), whole build from clean, median of N runs.
#
#   corpus-time.sh <hecbench> <orion prefix or build tree> <raw.csv> [-n N] program...
#
# Each program's directory is copied out of tree (a temporary src/ beside a
# link to HeCBench's src/include) and
# timed with time-compile.py: `make clean; rm -f main *.o` untimed, then
# `make ARCH=sm_90 CC=...` timed, N runs (default 3), orion then clang, one
# program at a time.  Lines <program>:orion and <program>:clang are appended
# to <raw.csv> (time-compile.py's columns).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 4 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
heb=$(cd "$1" && pwd); orion=$(cd "$2" && pwd); raw=$3; shift 3
n=3
if [ "$1" = -n ]; then n=$2; shift 2; fi
cc=$orion/bin/orion-cc
[ -x "$cc" ] || { echo "corpus-time.sh: $cc: not found" >&2; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src"  # the programs' relative paths (../include) keep working
[ -d "$heb/src/include" ] && ln -s "$heb/src/include" "$t/src/include"
for p in "$@"; do
  src=$heb/src/$p-cuda
  [ -d "$src" ] || { echo "corpus-time.sh: $src: no such program" >&2; exit 1; }
  rm -rf "$t/src/$p-cuda" && cp -r "$src" "$t/src/$p-cuda"
  for b in orion clang; do
    c=$cc; [ $b = clang ] && c="$cc --no-orion"
    (cd "$t/src/$p-cuda" && python3 "$here/time-compile.py" -n "$n" --clean 'make clean; rm -f main *.o' \
       --label "$p:$b" --csv "$raw" -- make ARCH=sm_90 CC="$c") || true
  done
done
