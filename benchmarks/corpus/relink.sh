#!/usr/bin/env bash
# relink.sh - the Orion build of the corpus linked again against another
# liborionrt, for an A/B of two runtimes on the same device code:
#
#   relink.sh <builddir> <newdir> <prefix> [program...]
#
# Copies <builddir>/orion (objects, timestamps kept) to <newdir>/orion,
# deletes each program's main and runs its Makefile again with
# CC=<prefix>/bin/orion-cc, which links <prefix>/lib/liborionrt.a (make
# compiles nothing: the objects are up to date; a Makefile that builds main
# straight from its sources compiles again, with that orion-cc).  Writes
# <newdir>/build.csv with the orion rows (as build.sh does) and prints, per
# program, whether it relinked only.  Programs default to the orion rows of
# <builddir>/build.csv that say ok.
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bdir=$(cd "$1" && pwd) || exit 1
mkdir -p "$2" && ndir=$(cd "$2" && pwd) || exit 1
prefix=$(cd "$3" && pwd) || exit 1
shift 3
cc=$prefix/bin/orion-cc
[ -x "$cc" ] || { echo "relink.sh: $cc: not found" >&2; exit 1; }
[ -f "$prefix/lib/liborionrt.a" ] || { echo "relink.sh: $prefix/lib/liborionrt.a: not found" >&2; exit 1; }
[ -d "$bdir/orion/src" ] || { echo "relink.sh: $bdir/orion/src: no Orion build there" >&2; exit 1; }
[ "$bdir" != "$ndir" ] || { echo "relink.sh: <newdir> must differ from <builddir>" >&2; exit 2; }
progs=("$@")
[ ${#progs[@]} -gt 0 ] ||
  mapfile -t progs < <(awk -F, '$2=="orion" {s[$1]=$3} END {for (p in s) if (s[p]=="ok") print p}' \
    "$bdir/build.csv" | sort)
rm -rf "$ndir/orion"
cp -a "$bdir/orion" "$ndir/orion" || exit 1
csv=$ndir/build.csv
echo "program,build,status,seconds,binary,log" > "$csv"
for p in "${progs[@]}"; do
  d=$ndir/orion/src/$p-cuda
  [ -d "$d" ] || { echo "$p,orion,fail,0,,missing" >> "$csv"; continue; }
  rm -f "$d/main"
  t0=$(date +%s.%N)
  if (cd "$d" && PROG=$p make ARCH=sm_90 CC="$cc" > relink.log 2>&1) && [ -x "$d/main" ]; then
    st=ok
  else
    st=fail
  fi
  t1=$(date +%s.%N)
  printf '%s,orion,%s,%.1f,%s,%s\n' "$p" "$st" "$(echo "$t1 - $t0" | bc)" "$d/main" "$d/relink.log" >> "$csv"
  n=$(grep -c -- ' -c \| -dc ' "$d/relink.log" || true)
  echo "relink.sh: $p: $st$([ "$n" -gt 0 ] && echo " (compiled $n sources again)")"
done
echo "relink.sh: $(grep -c ',ok,' "$csv") relinked against $prefix/lib/liborionrt.a, $(grep -c ',fail,' "$csv") failed"
