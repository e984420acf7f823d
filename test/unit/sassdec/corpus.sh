#!/usr/bin/env bash
# corpus.sh - build the decoder's test corpus and check it against nvdisasm.
#
# usage: corpus.sh OUTDIR SASSDEC_CHECK [ARCH]
#
# ARCH is sm_90 (the default), sm_80, sm_86 or sm_89.  Every CUDA source of
# the repository (test/lit/**/*.cu, examples/demo.cu,
# benchmarks/programs/*.cu, test/unit/sassdec/*.cu) goes to PTX once (nvcc
# -ptx -arch=ARCH) and then through ptxas -arch=ARCH six ways: no cap,
# -maxrregcount 64/32/24/16 (spills: STL/LDL) and -O0.  Each cubin is
# listed with `nvdisasm -c -hex -plr -lrm narrow`, every listing must say
# `.target ARCH`, and all are checked by SASSDEC_CHECK (sassdec_check.c).  Exit 77 (skipped) without nvcc, ptxas or
# nvdisasm.  Environment: ORION_SRC (repository), ORION_CUDA_PATH,
# ORION_PYTOOLS (the PyPI wheels' directory), JOBS (default 2), ORION_CLANG.
# With ORION_CLANG (clang++ of the Orion pipeline) the benchmark programs
# and test/lit/e2e sources also go to PTX through clang -O3 (whose PTX gives
# SASS that nvcc's does not: generic LD/ST, UIMAD/IMAD.WIDE/VIADDMNMX forms)
# and through ptxas with no cap and -maxrregcount 32/24.
set -euo pipefail
out=$1
check=$2
arch=${3:-sm_90}
case $arch in sm_80 | sm_86 | sm_89 | sm_90) ;; *) echo "corpus.sh: unknown ARCH '$arch'" >&2; exit 2 ;; esac
src=${ORION_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
cuda=${ORION_CUDA_PATH:-/usr/local/cuda}
jobs=${JOBS:-2}

find_tool() {
  local t=$1 d
  for d in "$cuda/bin" "${ORION_PYTOOLS:-}/nvidia/cu13/bin" "$src/build/pytools/nvidia/cu13/bin"; do
    [ -x "$d/$t" ] && { echo "$d/$t"; return 0; }
  done
  command -v "$t" || return 1
}
nvcc=$(find_tool nvcc) || { echo "skipped: nvcc not found"; exit 77; }
ptxas=$(find_tool ptxas) || { echo "skipped: ptxas not found"; exit 77; }
nvdisasm=$(find_tool nvdisasm) || { echo "skipped: nvdisasm not found"; exit 77; }

rm -rf "$out"
mkdir -p "$out/ptx" "$out/cubin" "$out/lst"
shopt -s nullglob
sources=("$src"/test/lit/*/*.cu "$src"/examples/demo.cu "$src"/benchmarks/programs/*.cu "$src"/test/unit/sassdec/*.cu)
[ ${#sources[@]} -gt 0 ] || { echo "corpus.sh: no CUDA sources under $src" >&2; exit 1; }

# One job per source: PTX, then the six cubins.
build_one() {
  local f=$1 b
  b=$(basename "$(dirname "$f")")_$(basename "$f" .cu)
  "$nvcc" -ptx -arch="$arch" -O3 -o "$out/ptx/$b.ptx" "$f" 2>"$out/ptx/$b.log" ||
    { echo "corpus.sh: nvcc failed on $f:" >&2; cat "$out/ptx/$b.log" >&2; return 1; }
  local v
  for v in r0 r64 r32 r24 r16 O0; do
    local flags=()
    case $v in
      r0) ;;
      O0) flags=(-O0) ;;
      *) flags=(-maxrregcount="${v#r}") ;;
    esac
    "$ptxas" -arch="$arch" "${flags[@]}" -o "$out/cubin/$b.$v.cubin" "$out/ptx/$b.ptx" ||
      { echo "corpus.sh: ptxas ${flags[*]} failed on $f" >&2; return 1; }
  done
}
list_one() {
  local c=$1
  "$nvdisasm" -c -hex -plr -lrm narrow "$c" >"$out/lst/$(basename "$c" .cubin).lst" ||
    { echo "corpus.sh: nvdisasm failed on $c" >&2; return 1; }
}
build_clang() {
  local f=$1 b
  b=clang_$(basename "$(dirname "$f")")_$(basename "$f" .cu)
  "$ORION_CLANG" -x cuda --cuda-path="$cuda" --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version \
    --cuda-device-only -O3 -I"$src/benchmarks/programs" -S -o "$out/ptx/$b.ptx" "$f" 2>"$out/ptx/$b.log" ||
    { echo "corpus.sh: clang failed on $f:" >&2; cat "$out/ptx/$b.log" >&2; return 1; }
  local v
  for v in r0 r32 r24; do
    local flags=()
    [ "$v" = r0 ] || flags=(-maxrregcount="${v#r}")
    "$ptxas" -arch="$arch" "${flags[@]}" -o "$out/cubin/$b.$v.cubin" "$out/ptx/$b.ptx" ||
      { echo "corpus.sh: ptxas ${flags[*]} failed on $b.ptx" >&2; return 1; }
  done
}
export -f build_one build_clang list_one
export arch out nvcc ptxas nvdisasm cuda src ORION_CLANG
printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -I{} bash -c 'build_one "$1"' _ {}
if [ -n "${ORION_CLANG:-}" ] && [ -x "$ORION_CLANG" ]; then
  printf '%s\n' "$src"/benchmarks/programs/*.cu "$src"/test/lit/e2e/*.cu |
    xargs -P "$jobs" -I{} bash -c 'build_clang "$1"' _ {}
else
  echo "corpus.sh: no ORION_CLANG: clang-pipeline cubins left out"
fi
ls "$out"/cubin/*.cubin | xargs -P "$jobs" -I{} bash -c 'list_one "$1"' _ {}
other=$(grep -L -E "^[[:space:]]*\.target[[:space:]]+$arch\b" "$out"/lst/*.lst || true)
[ -z "$other" ] || { echo "corpus.sh: listings not for $arch:" $other >&2; exit 1; }
echo "corpus $arch: ${#sources[@]} sources, $(ls "$out"/cubin/*.cubin | wc -l) cubins ($("$nvdisasm" --version | tail -1))"
exec "$check" "$out"/lst/*.lst
