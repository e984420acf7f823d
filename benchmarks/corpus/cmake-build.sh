#!/usr/bin/env bash
# cmake-build.sh - build the corpus through HeCBench's own CMake build with
# an installed orion-cc as the CUDA compiler:
#
#   cmake-build.sh <hecbench> <builddir> --orion <prefix> [--copy-from <make builddir>] [program...]
#
# Configures <hecbench>'s top-level CMakeLists.txt (CUDA only, sm_90,
# Release) in <builddir>/cmake with
#   -DCMAKE_CUDA_COMPILER=<prefix>/bin/orion-cc
#   -DCUDAToolkit_ROOT=$(<prefix>/bin/orion-config --cmake-cuda-root)
# (HeCBench's targets device-link; driver/README.md says why the second
# option), builds the target <program>-cuda of each program and appends
# program,build,status,seconds,binary,log rows (build "orion") to
# <builddir>/build.csv, with each binary copied to
# <builddir>/orion/src/<program>-cuda/main: the layout pack.sh reads.
# --copy-from <make builddir> (build.sh's) also copies that build's nvcc and
# clang binaries and the program folders' input files, so that pack.sh and
# measure.py check the CMake-built programs' output against nvcc's.
# Programs default to benchmarks/corpus/programs.txt.  Third-party source
# and binaries stay outside the repository.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
heb=$(cd "$1" && pwd) || exit 1
mkdir -p "$2" && bdir=$(cd "$2" && pwd) || exit 1
shift 2
prefix= from=
progs=()
while [ $# -gt 0 ]; do
  case $1 in
    --orion) prefix=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    --copy-from) from=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "cmake-build.sh: unknown option $1" >&2; exit 2 ;;
    *) progs+=("$1"); shift ;;
  esac
done
[ -n "$prefix" ] && [ -x "$prefix/bin/orion-cc" ] ||
  { echo "cmake-build.sh: --orion <prefix> with bin/orion-cc is required" >&2; exit 2; }
[ -f "$heb/CMakeLists.txt" ] || { echo "cmake-build.sh: $heb: no HeCBench CMakeLists.txt" >&2; exit 1; }
[ ${#progs[@]} -gt 0 ] || mapfile -t progs < <(grep -v '^#' "$here/programs.txt" | awk 'NF{print $1}')
view=$("$prefix/bin/orion-config" --cmake-cuda-root) || exit 1
cm=$bdir/cmake
cmake -S "$heb" -B "$cm" -DCMAKE_BUILD_TYPE=Release -DHECBENCH_ENABLE_CUDA=ON \
  -DHECBENCH_ENABLE_HIP=OFF -DHECBENCH_ENABLE_SYCL=OFF -DHECBENCH_ENABLE_OPENMP=OFF \
  -DHECBENCH_CUDA_ARCH=90 -DCMAKE_CUDA_COMPILER="$prefix/bin/orion-cc" \
  -DCUDAToolkit_ROOT="$view" > "$bdir/configure.log" 2>&1 ||
  { tail -20 "$bdir/configure.log"; echo "cmake-build.sh: configure failed ($bdir/configure.log)" >&2; exit 1; }
csv=$bdir/build.csv
[ -f "$csv" ] || echo "program,build,status,seconds,binary,log" > "$csv"
jobs=$(nproc)
for p in "${progs[@]}"; do
  d=$bdir/orion/src/$p-cuda log=$bdir/orion/src/$p-cuda/build.log
  mkdir -p "$d"
  t0=$(date +%s.%N)
  st=fail
  if cmake --build "$cm" --target "$p-cuda" -j"$jobs" > "$log" 2>&1; then
    exe=$(find "$cm/bin/cuda" -maxdepth 1 -type f -name "$p" 2>/dev/null | sed -n 1p)
    [ -n "$exe" ] && [ -x "$exe" ] && cp "$exe" "$d/main" && st=ok
  fi
  t1=$(date +%s.%N)
  printf '%s,orion,%s,%.1f,%s,%s\n' "$p" "$st" "$(echo "$t1 - $t0" | bc)" "$d/main" "$log" >> "$csv"
  if [ -n "$from" ]; then
    for b in nvcc clang; do
      s=$from/$b/src/$p-cuda
      if [ -x "$s/main" ]; then
        mkdir -p "$bdir/$b/src" && rm -rf "$bdir/$b/src/$p-cuda" && cp -r "$s" "$bdir/$b/src/$p-cuda"
        echo "$p,$b,ok,0,$bdir/$b/src/$p-cuda/main,copied from $from" >> "$csv"
      fi
    done
  fi
  echo "cmake-build.sh: $p: $st"
done
echo "cmake-build.sh: $(grep -c ',orion,ok,' "$csv") of ${#progs[@]} built through CMake ($csv)"
