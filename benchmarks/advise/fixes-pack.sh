#!/usr/bin/env bash
# benchmarks/advise/fixes-pack.sh - nvcc builds of corpus.sh's programs with
# the exported fixes and without, for timing on a GPU (gpu_time.py).
#
#   benchmarks/advise/fixes-pack.sh CORPUS_OUT_DIR PACK_DIR [program...]
#
# CORPUS_OUT_DIR is corpus.sh's OUT_DIR: per program orig/ (the sources as
# fetched) and src/ (after clang-apply-replacements).  A program whose
# sources the fixes left unchanged is skipped, and said so.  Each version
# is built by nvcc -O3 -std=c++17 -arch=sm_90 (+ -use_fast_math where the
# Makefile has it) from all its .cu files: PACK_DIR/<program>/main-before
# and main-after, beside the program's data files; PACK_DIR/runs.txt gets
# "program variant _Z command..." lines with the corpus list's arguments
# (benchmarks/corpus/programs.txt).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cuda=${CUDA_PATH:-/usr/local/cuda}
[ $# -ge 2 ] || { echo "usage: $0 CORPUS_OUT_DIR PACK_DIR [program...]" >&2; exit 2; }
in=$(cd "$1" && pwd)
mkdir -p "$2"
pack=$(cd "$2" && pwd)
shift 2
progs=${*:-$(cd "$in" && for p in */; do [ -d "$p/orig" ] && echo "${p%/}"; done)}
: > "$pack/runs.txt"
for p in $progs; do
  if diff -rq "$in/$p/orig" "$in/$p/src" > /dev/null; then
    echo "$p: the fixes changed no source: skipped" >&2
    continue
  fi
  args=$(awk -v p="$p" '$1 == p { $1 = ""; $2 = ""; sub(/#.*/, ""); print }' \
    "$root/benchmarks/corpus/programs.txt")
  flags="-O3 -std=c++17"
  grep -q -- -use_fast_math "$in/$p/orig/Makefile" && flags="$flags -use_fast_math"
  rm -rf "$pack/$p" && mkdir -p "$pack/$p"
  for v in before:orig after:src; do
    (cd "$in/$p/${v#*:}" && "$cuda/bin/nvcc" $flags -arch=sm_90 *.cu -o "$pack/$p/main-${v%:*}") \
      > "$pack/$p/nvcc-${v%:*}.log" 2>&1
    echo "$p ${v%:*} _Z ./main-${v%:*} $args" >> "$pack/runs.txt"
  done
  (cd "$in/$p/orig" && find . -maxdepth 1 -type f ! -name '*.cu' ! -name '*.h' ! -name '*.cuh' \
    ! -name 'Makefile*' ! -name 'CMakeLists.txt' ! -name 'LICENSE' -exec cp {} "$pack/$p/" \;)
  echo "$p: built before and after" >&2
done
