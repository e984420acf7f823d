#!/usr/bin/env bash
# benchmarks/run.sh - the paper's evaluation (Fig. 11-15) on a GPU.
#
#   run.sh build <dir>              build every program of benchmarks/programs
#                                   with nvcc -O3, clang -O3, orion-cc and (if
#                                   orion-cc offers --orion-spill) orion-cc with
#                                   the ptxas enable_smem_spilling policy (spill/)
#                                   and with local-memory spilling (localspill/),
#                                   plus the NVML energy wrapper; no GPU needed
#   run.sh run <dir> <results>      on the GPU machine: measure.py (raw.jsonl,
#                                   discovery.json, env-*.json in <results>)
#   run.sh analyze <results>        tables (eval.csv, eval.md, ...) and PNG
#                                   plots from <results> (needs matplotlib for
#                                   the plots)
#   run.sh all <dir> <results>      build, run, analyze
#
# Environment: ORION_CC (default build/bin/orion-cc), NVCC, CLANG, CUDA_PATH,
# SPILL_FLAGS (orion-cc flags of the spill build; default
# --orion-spill=pragma when `orion-cc --help` lists it; none: no spill build), JOBS (parallel builds, default 2),
# REPEAT (rounds, default 3), PROGRAMS (comma list, default all), ARGS
# (program arguments, e.g. "-s small"), PYTHON (default python3).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cc=${ORION_CC:-$root/build/bin/orion-cc}
py=${PYTHON:-python3}
cmd=${1:-}
usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ -n "$cmd" ] && [ -n "${2:-}" ] || usage

# The orion-cc flags of the spill build: the ptxas enable_smem_spilling
# baseline policy (--orion-spill=pragma: the pragma wherever ptxas accepts
# it), if this orion-cc has the option.
spill_flags() {
  if [ -n "${SPILL_FLAGS+x}" ]; then echo "$SPILL_FLAGS"; return; fi
  # grep reads to the end (not -q): under pipefail an early exit would fail the writer
  if "$cc" --help 2>&1 | grep -- '--orion-spill=POLICY' >/dev/null &&
     "$cc" --help 2>&1 | grep 'pragma' >/dev/null; then
    echo "--orion-spill=pragma"
  fi
}

build() {
  local out=$1
  mkdir -p "$out"
  local progs=${PROGRAMS:-}
  export PROGRAMS=${progs//,/ } JOBS=${JOBS:-2}
  PTXAS_V=1 "$root/benchmarks/programs/build.sh" "$out/nvcc" nvcc
  PTXAS_V=1 "$root/benchmarks/programs/build.sh" "$out/clang" clang
  "$root/benchmarks/programs/build.sh" "$out/orion" "$cc -O3 --cuda-gpu-arch=sm_90"
  local sf
  sf=$(spill_flags)
  if [ -n "$sf" ] && [ "$sf" != none ]; then
    "$root/benchmarks/programs/build.sh" "$out/spill" "$cc -O3 --cuda-gpu-arch=sm_90 $sf"
    echo "$sf" > "$out/spill/FLAGS"
    "$root/benchmarks/programs/build.sh" "$out/localspill" "$cc -O3 --cuda-gpu-arch=sm_90 --orion-spill=off"
  else
    rm -rf "$out/spill" "$out/localspill"
    echo "run.sh: orion-cc has no --orion-spill option (or SPILL_FLAGS=none): no spill builds" >&2
  fi
  ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror "$here/eval/energy.c" -o "$out/energy" -ldl
  # Host debug information is not needed on the GPU machine and is most of the size.
  for f in "$out"/*/*; do
    [ -x "$f" ] && [ -f "$f" ] && strip --strip-debug "$f" 2>/dev/null || true
  done
  du -sh "$out"
}

run() {
  local out=$1 res=$2
  export LD_LIBRARY_PATH=${CUDA_PATH:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}
  mkdir -p "$res"
  PYTHONUNBUFFERED=1 "$py" "$here/eval/measure.py" --bins "$out" --out "$res" \
    --repeat "${REPEAT:-3}" --programs "${PROGRAMS:-}" --args "${ARGS:-}"
}

analyze() {
  "$py" "$here/eval/analyze.py" --results "$1"
}

case $cmd in
  build) build "$2" ;;
  run) run "$2" "${3:?result dir}" ;;
  analyze) analyze "$2" ;;
  all) build "$2"; run "$2" "${3:?result dir}"; analyze "$3" ;;
  *) echo "run.sh: unknown command '$cmd' (build, run, analyze, all)" >&2; exit 2 ;;
esac
