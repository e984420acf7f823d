#!/usr/bin/env bash
# pack.sh - gather what the GPU machine needs to run the corpus into one
# directory and one archive:
#
#   pack.sh <builddir> <packdir> [program...]
#
# <builddir> holds <build>/src/<name>-cuda/main for the builds nvcc, clang
# and orion and build.csv (program,build,status,...); <packdir> gets
#   src/<name>-cuda/{nvcc,clang,orion}   the three binaries, host symbols stripped
#   src/<name>-cuda/<data files>         every other file of the program's
#                                         directory that is not source or build
#                                         output (inputs), under 8 MiB each
#   kerntime.so, libcupti.so.13          the CUPTI tracer (benchmarks/runtime)
#   programs.txt, measure.py, benchlib.py (its clone-name helper)
# and <packdir>.tar.xz beside it.  A program is packed only when all three
# builds succeeded.  Prints the sizes.  CUDA (default /usr/local/cuda).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bdir=$(cd "$1" && pwd); pack=$2; shift 2
[ -f "$bdir/build.csv" ] || { echo "pack.sh: $bdir/build.csv: no such file (run the build first)" >&2; exit 1; }
progs=("$@")
[ ${#progs[@]} -gt 0 ] || mapfile -t progs < <(grep -v '^#' "$here/programs.txt" | awk 'NF{print $1}')
rm -rf "$pack"; mkdir -p "$pack/src"
cuda=${CUDA:-/usr/local/cuda}

built() { # requires $1 program, $2 build; true if build.csv's last row for them says ok
  awk -F, -v p="$1" -v b="$2" '$1==p && $2==b {s=$3} END {exit s=="ok" ? 0 : 1}' "$bdir/build.csv"
}

copy_data() { # requires $1 = source dir, $2 = dest dir; copies the input files
  (cd "$1" && find . -type f -size -8M \
     ! -name '*.cu' ! -name '*.cuh' ! -name '*.h' ! -name '*.hpp' ! -name '*.c' ! -name '*.cpp' \
     ! -name '*.o' ! -name 'main' ! -name 'Makefile*' ! -name 'CMakeLists.txt' ! -name 'README*' \
     ! -name '*.dvc' ! -name '*.py' ! -name '*.sh' -print0) |
    while IFS= read -r -d '' f; do mkdir -p "$2/$(dirname "$f")"; cp "$1/$f" "$2/$f"; done
}

n=0
for p in "${progs[@]}"; do
  ok=1
  for b in nvcc clang orion; do built "$p" "$b" || ok=0; done
  [ $ok = 1 ] || { echo "pack.sh: $p left out (a build failed)" >&2; continue; }
  d=$pack/src/$p-cuda; mkdir -p "$d"
  copy_data "$bdir/nvcc/src/$p-cuda" "$d"
  # inputs named by ../<dir> in the arguments (gc reads mis-cuda's graph)
  for a in $(grep -E "^$p[[:space:]]" "$here/programs.txt" | sed 's/#.*//'); do
    case $a in ../*) src=$bdir/nvcc/src/$p-cuda/$a
      [ -f "$src" ] && { mkdir -p "$(dirname "$d/$a")"; cp "$src" "$d/$a"; } ;; esac
  done
  for b in nvcc clang orion; do
    cp "$bdir/$b/src/$p-cuda/main" "$d/$b"; strip "$d/$b"
  done
  n=$((n + 1))
done
lib=$(dirname "$(readlink -f "$cuda/lib64/libcupti.so")")
cc -Wall -Wextra -Werror -shared -fPIC -O2 -I"$cuda/include" "$root/benchmarks/runtime/kerntime.c" \
  -o "$pack/kerntime.so" -L"$lib" -L"$cuda/lib64/stubs" -lcupti -lcuda -Wl,-rpath,'$ORIGIN'
cp -L "$lib/libcupti.so.13" "$pack/"
# OpenMP runtimes the binaries link (-Xcompiler -fopenmp), which a bare GPU
# machine may lack: into lib/, which measure.py puts on LD_LIBRARY_PATH.
mkdir -p "$pack/lib"
for l in $(ldd "$pack"/src/*/{nvcc,clang,orion} 2>/dev/null | awk '/lib(g?omp)\.so/ {print $3}' | sort -u); do
  cp -L "$l" "$pack/lib/"
done
cp "$here/programs.txt" "$here/measure.py" "$root/benchmarks/eval/benchlib.py" "$pack/"
tar -C "$(dirname "$pack")" -cJf "$pack.tar.xz" "$(basename "$pack")"
echo "pack.sh: $n programs; $(du -sh "$pack" | cut -f1) in $pack, $(du -h "$pack.tar.xz" | cut -f1) in $pack.tar.xz"
