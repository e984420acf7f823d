#!/usr/bin/env bash
# pack-ab.sh - a pack that times two Orion builds against each other, both
# under ORION_MODE=off, interleaved run by run (measure.py's rounds rotate
# the modes):
#
#   pack-ab.sh [--b-mode MODE] <builddir> <other orion build> <packdir> program...
#
# As pack.sh <builddir> <packdir> program..., then in each program's
# directory the binary of <other orion build>/src/<name>-cuda/main becomes
# orion-b and the `clang` binary becomes a script running it with
# ORION_MODE=off ORION_CACHE=off.  measure.py's mode `clang` then times
# build B, mode `off` build A (<builddir>/orion): e.g. a device
# code-generation default on (A) and off (B).  --b-mode adaptive runs build
# B under ORION_MODE=adaptive instead (to set against A's `adaptive`: e.g.
# two version sets), --b-mode fixed:TAG one version of build B alone (to set
# against A's `fixed:TAG`: e.g. two unroll factors under one tag).  Writes
# <packdir>.tar.xz.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bmode=off
if [ "${1:-}" = --b-mode ]; then bmode=${2:-}; shift 2; fi
case $bmode in off|adaptive|fixed:[a-z]*) ;; *) echo "pack-ab.sh: --b-mode: off, adaptive or fixed:TAG, not '$bmode'" >&2; exit 2 ;; esac
[ $# -ge 4 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bdir=$1 other=$2 pack=$3; shift 3
"$here/pack.sh" "$bdir" "$pack" "$@"
for p in "$@"; do
  d=$pack/src/$p-cuda
  [ -d "$d" ] || continue
  [ -x "$other/src/$p-cuda/main" ] || { echo "pack-ab.sh: no $other/src/$p-cuda/main" >&2; exit 1; }
  cp "$other/src/$p-cuda/main" "$d/orion-b" && strip "$d/orion-b"
  printf '#!/bin/sh\n# build B (%s), under ORION_MODE=%s\nORION_MODE=%s ORION_CACHE=off exec ./orion-b "$@"\n' \
    "$other" "$bmode" "$bmode" > "$d/clang"
  chmod +x "$d/clang"
done
rm -f "$pack.tar.xz"
tar -C "$(dirname "$pack")" -cJf "$pack.tar.xz" "$(basename "$pack")"
echo "pack-ab.sh: mode clang = $other (ORION_MODE=$bmode), mode off = $bdir/orion"
