#!/usr/bin/env bash
# benchmarks/advise/blocksize.sh - build corpus programs whose block size
# is a macro or a command-line argument at several block sizes, for timing
# orion-advise's block-size advice the way STATuner is judged: the advised
# size's GPU time against the best size tried, beside the occupancy
# calculator's choice.
#
#   benchmarks/advise/blocksize.sh HECBENCH_GIT_DIR OUT_DIR PACK_DIR [program...]
#
# Per program (src/<name>-cuda of a HeCBench git directory, at HEAD; the
# table below says where its block size is set and how it runs):
#   1. orion-cc -O3 -std=c++17 -arch=sm_90 -c on every .cu with
#      --orion-report; orion-advise with the build reports,
#      --summary=summary.json: each launch's block_advice (advised,
#      calculator);
#   2. sizes: 64, 128, 256, 512, 1024 and every advised or calculator size
#      of the timed kernel's launches;
#   3. nvcc -O3 -std=c++17 -arch=sm_90 (+ -use_fast_math where the Makefile
#      has it) on all .cu: a macro program once per size (its #define
#      rewritten), an argument program once.
# PACK_DIR gets <program>/main[-<size>], its data files, runs.txt (one line
# a size: program size kernel command...), advice.csv (program, kernel,
# site, threads, advised, calculator) and kerntime.so with libcupti: what
# blocksize-run.sh needs on a GPU machine.  No GPU is needed here.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${ORION_BUILD_DIR:-$root/build}
. "$root/benchmarks/advise/export_build.sh"
cuda=${CUDA_PATH:-/usr/local/cuda}
[ $# -ge 3 ] || { echo "usage: $0 HECBENCH_GIT_DIR OUT_DIR PACK_DIR [program...]" >&2; exit 2; }
git_dir=$1
mkdir -p "$2" "$3"
out=$(cd "$2" && pwd) pack=$(cd "$3" && pwd)
shift 3

# program | how the block size is set (macro NAME FILE, or arg) | timed kernel
# (mangled prefix) | arguments (@B: the block size) - the corpus list's
# arguments (benchmarks/corpus/programs.txt).
table='
jenkins-hash|arg|_Z|@B 16777216 1
thomas|arg|_Z|256 8192 @B 10
murmurhash3|macro BLOCK_SIZE murmurhash3.cu|_Z|100000 100
tensorT|macro NTHREADS main.cu|_Z|10
libor|macro BLOCK_SIZE main.cu|_Z|100
scel|macro GPU_NUM_THREADS main.cu|_Z|1024 4096 100
lulesh|macro THREADS lulesh.cu|_Z|-i 100 -s 64 -r 11 -b 1 -c 1
nqueen|macro _QUEENS_BLOCK_SIZE_ main.cu|_Z|15 7 1
'
progs=${*:-$(echo "$table" | awk -F'|' 'NF > 1 { print $1 }')}

lib=$(dirname "$(readlink -f "$cuda/lib64/libcupti.so")")
cc -Wall -Wextra -Werror -shared -fPIC -O2 -I"$cuda/include" "$root/benchmarks/runtime/kerntime.c" \
  -o "$pack/kerntime.so" -L"$lib" -L"$cuda/lib64/stubs" -lcupti -lcuda -Wl,-rpath,'$ORIGIN'
cp -L "$lib/libcupti.so.13" "$pack/"
: > "$pack/runs.txt"
echo "program,kernel,site,threads,advised,calculator" > "$pack/advice.csv"

for p in $progs; do
  IFS='|' read -r _ how kern args <<< "$(echo "$table" | awk -F'|' -v p="$p" '$1 == p')"
  d=$out/$p
  rm -rf "$d" "$pack/$p" && mkdir -p "$d/src" "$pack/$p"
  export_build "$git_dir" "$p" "$d" "$build"
  "$build/bin/orion-advise" "$d"/src/*.cu "${reports[@]}" --summary="$d/summary.json" \
    -- -std=c++17 --cuda-gpu-arch=sm_90 -I"$d/src" > "$d/notes.txt"
  # advice.csv rows of the timed kernels' launches; their sizes.
  extra=$(python3 - "$d/summary.json" "$p" "$kern" "$pack/advice.csv" <<'PY'
import json, sys
summary, prog, kern, out = sys.argv[1:5]
sizes = set()
with open(out, 'a') as f:
    for k in json.load(open(summary))['kernels']:
        names = [n for n in k['names'] if n.startswith(kern)]
        for l in k['launches']:
            a = l.get('block_advice')
            if not names or not a:
                continue
            f.write(f"{prog},{names[-1]},{l['file'].rsplit('/', 1)[-1]}:{l['line']},"
                    f"{a['threads']},{a['advised']},{a['calculator']}\n")
            sizes |= {a['advised'], a['calculator']}
print(' '.join(map(str, sorted(sizes))))
PY
)
  sizes=$(echo 64 128 256 512 1024 $extra | tr ' ' '\n' | sort -nu | tr '\n' ' ')
  cp -r "$d/src/." "$pack/$p/"
  rm -f "$pack/$p"/*.cu "$pack/$p"/*.h "$pack/$p"/*.cuh "$pack/$p"/Makefile* "$pack/$p"/CMakeLists.txt
  case $how in
  arg)
    (cd "$d/src" && "$cuda/bin/nvcc" $flags -arch=sm_90 *.cu -o "$pack/$p/main") > "$d/nvcc.log" 2>&1
    for s in $sizes; do echo "$p $s $kern ./main ${args//@B/$s}" >> "$pack/runs.txt"; done ;;
  macro*)
    read -r _ name file <<< "$how"
    for s in $sizes; do
      rm -rf "$d/b$s" && cp -r "$d/src" "$d/b$s"
      sed -i -E "s/^(#define[[:space:]]+$name[[:space:]]+)[0-9]+/\\1$s/" "$d/b$s/$file"
      grep -qE "^#define[[:space:]]+$name[[:space:]]+$s\$" "$d/b$s/$file"
      (cd "$d/b$s" && "$cuda/bin/nvcc" $flags -arch=sm_90 *.cu -o "$pack/$p/main-$s") > "$d/nvcc-$s.log" 2>&1
      echo "$p $s $kern ./main-$s $args" >> "$pack/runs.txt"
    done ;;
  esac
  echo "$p: sizes $sizes" >&2
done
