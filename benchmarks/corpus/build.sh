#!/usr/bin/env bash
# build.sh - build the corpus three ways through each program's own Makefile:
#
#   build.sh <hecbench> <builddir> [--builds nvcc,clang,orion] [--orion PREFIX_OR_BUILD]
#            [--reports DIR] [program...]
#
# <hecbench> is a checkout of github:zjin-lcf/HeCBench (its src/ at least
# holds the listed programs); <builddir>/<build>/src is a copy of that src/
# per build, each program built there with `make ARCH=sm_90 CC=<compiler>`:
#   nvcc   CC=$CUDA/bin/nvcc
#   clang  CC="<orion>/bin/orion-cc --no-orion"   (clang 22, no pass, no runtime)
#   orion  CC=<orion>/bin/orion-cc
# <orion> is an install prefix or a build tree (default: the repository's
# build/).  --reports DIR: the orion build also writes each compile's build
# report (orion-cc --orion-report) to DIR/report.<program>.<pid>.json.
# Appends program,build,status,seconds,binary,log rows to <builddir>/build.csv
# (status ok or fail; the log is kept beside main as build.log).  Programs default to benchmarks/corpus/programs.txt.  Two
# programs build at a time (BUILD_JOBS).  Third-party source stays in
# <builddir>, outside the repository.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
heb=$(cd "$1" && pwd) || exit 1
mkdir -p "$2" && bdir=$(cd "$2" && pwd) || exit 1
shift 2
builds=nvcc,clang,orion
orion=$root/build
progs=()
reports=
while [ $# -gt 0 ]; do
  case $1 in
    --builds) builds=$2; shift 2 ;;
    --orion) orion=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    --reports) mkdir -p "$2" && reports=$(cd "$2" && pwd) || exit 1; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "build.sh: unknown option $1" >&2; exit 2 ;;
    *) progs+=("$1"); shift ;;
  esac
done
[ ${#progs[@]} -gt 0 ] || mapfile -t progs < <(grep -v '^#' "$here/programs.txt" | awk 'NF{print $1}')
cuda=${CUDA:-/usr/local/cuda}
cc_orion=$orion/bin/orion-cc
[ -x "$cc_orion" ] || { echo "build.sh: $cc_orion: not found (build or install Orion first)" >&2; exit 1; }
[ -d "$heb/src" ] || { echo "build.sh: $heb/src: not a HeCBench checkout" >&2; exit 1; }
csv=$bdir/build.csv
[ -f "$csv" ] || echo "program,build,status,seconds,binary,log" > "$csv"

compiler() { # requires $1 a build name; prints the CC value for it
  case $1 in
    nvcc) echo "$cuda/bin/nvcc" ;;
    clang) echo "$cc_orion --no-orion" ;;
    orion) if [ -n "$reports" ]; then echo "$bdir/orion-cc-report"; else echo "$cc_orion"; fi ;;
    *) echo "build.sh: unknown build $1" >&2; return 1 ;;
  esac
}

one() { # requires $1 build, $2 program; builds it and appends its row
  local b=$1 p=$2 d=$bdir/$1/src/$2-cuda cc t0 t1 st
  cc=$(compiler "$b") || return 1
  [ -d "$d" ] || { echo "$p,$b,fail,0,,missing source" >> "$csv"; return 0; }
  t0=$(date +%s.%N)
  if (cd "$d" && make clean >/dev/null 2>&1; PROG=$p make ARCH=sm_90 CC="$cc" > build.log 2>&1) && [ -x "$d/main" ]; then
    st=ok
  else
    st=fail
  fi
  t1=$(date +%s.%N)
  printf '%s,%s,%s,%.1f,%s,%s\n' "$p" "$b" "$st" "$(echo "$t1 - $t0" | bc)" "$d/main" "$d/build.log" >> "$csv"
  echo "build.sh: $b $p: $st"
}

IFS=, read -r -a blist <<< "$builds"
if [ -n "$reports" ]; then # orion-cc with a report per compile, named for the program
  printf '#!/bin/sh\nexec "%s" "--orion-report=%s/report.$PROG.$$.json" "$@"\n' "$cc_orion" "$reports" \
    > "$bdir/orion-cc-report"
  chmod +x "$bdir/orion-cc-report"
fi
for b in "${blist[@]}"; do
  compiler "$b" >/dev/null || exit 2
  if [ ! -d "$bdir/$b/src" ]; then
    mkdir -p "$bdir/$b" && cp -r "$heb/src" "$bdir/$b/src" || exit 1
  fi
done
jobs=${BUILD_JOBS:-2}
for b in "${blist[@]}"; do
  for p in "${progs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    one "$b" "$p" &
  done
done
wait
echo "build.sh: $(grep -c ',ok,' "$csv") ok, $(grep -c ',fail,' "$csv") failed rows in $csv"
