#!/usr/bin/env bash
# changed.sh - which corpus programs' device code differs between two builds:
#
#   changed.sh <builddir A>/<build> <builddir B>/<build> [program...]
#
# e.g. changed.sh .dev/cb1/orion .dev/cb2/orion.  For each program with a
# binary in both (<dir>/src/<name>-cuda/main), compares the SASS of every
# kernel (cuobjdump -sass, addresses and the file name left out) and prints
# `<program> same|differs|missing`.  A program whose device code is the same
# in both builds needs no new GPU run when only device code generation
# changed.  Programs default to programs.txt.  CUDA (default /usr/local/cuda)
# or CUOBJDUMP names cuobjdump.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
a=$1 b=$2; shift 2
progs=("$@")
[ ${#progs[@]} -gt 0 ] || mapfile -t progs < <(grep -v '^#' "$here/programs.txt" | awk 'NF{print $1}')
cuobjdump=${CUOBJDUMP:-${CUDA:-/usr/local/cuda}/bin/cuobjdump}
command -v "$cuobjdump" >/dev/null || { echo "changed.sh: no cuobjdump at $cuobjdump (set CUOBJDUMP)" >&2; exit 1; }

sass() { # requires $1 a binary; prints its SASS without addresses or file names
  "$cuobjdump" -sass "$1" 2>/dev/null | sed -e 's|/\*[0-9a-f]*\*/||g' -e '/^Fatbin\|identifier\|^$/d'
}

for p in "${progs[@]}"; do
  fa=$a/src/$p-cuda/main fb=$b/src/$p-cuda/main
  if [ ! -x "$fa" ] || [ ! -x "$fb" ]; then echo "$p missing"; continue; fi
  if cmp -s <(sass "$fa") <(sass "$fb"); then echo "$p same"; else echo "$p differs"; fi
done
