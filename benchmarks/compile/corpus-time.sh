#!/usr/bin/env bash
# corpus-time.sh - compile time of corpus programs through their own
# Makefiles: orion-cc against orion-cc --no-orion (clang 22, no pass, no
# orion-ptxas, no runtime), whole build from clean, median of N runs.
#
#   corpus-time.sh <hecbench> <orion prefix or build tree> <raw.csv> [-n N] [--paired] program...
#
# Each program's directory is copied out of tree (a temporary src/ beside a
# link to HeCBench's src/include) and
# timed with time-compile.py: `make clean; rm -f main *.o` untimed, then
# `make ARCH=sm_90 CC=...` timed, N runs (default 3), orion then clang, one
# program at a time.  Lines <program>:orion and <program>:clang are appended
# to <raw.csv> (time-compile.py's columns).  --paired: N rounds instead, each
# one orion run and one clang run (the order swapped every round), a line
# per run, so that a drifting machine moves both alike; pair-ratio.py
# <raw.csv> then gives the median of the rounds' ratios.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 4 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
heb=$(cd "$1" && pwd); orion=$(cd "$2" && pwd); raw=$3; shift 3
n=3 paired=0
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=$2; shift 2 ;;
    --paired) paired=1; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "corpus-time.sh: no program named" >&2; exit 2; }
cc=$orion/bin/orion-cc
[ -x "$cc" ] || { echo "corpus-time.sh: $cc: not found" >&2; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src"  # the programs' relative paths (../include) keep working
[ -d "$heb/src/include" ] && ln -s "$heb/src/include" "$t/src/include"
for p in "$@"; do
  src=$heb/src/$p-cuda
  [ -d "$src" ] || { echo "corpus-time.sh: $src: no such program" >&2; exit 1; }
  rm -rf "$t/src/$p-cuda" && cp -r "$src" "$t/src/$p-cuda"
  timed() { # requires $1 orion|clang, $2 runs; appends its line to $raw
    local c=$cc; [ "$1" = clang ] && c="$cc --no-orion"
    (cd "$t/src/$p-cuda" && python3 "$here/time-compile.py" -n "$2" --clean 'make clean; rm -f main *.o' \
       --label "$p:$1" --csv "$raw" -- make ARCH=sm_90 CC="$c") || true
  }
  if [ $paired = 0 ]; then
    timed orion "$n"; timed clang "$n"
  else
    for ((r = 0; r < n; r++)); do
      if ((r % 2)); then timed clang 1; timed orion 1; else timed orion 1; timed clang 1; fi
    done
  fi
done
