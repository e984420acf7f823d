#!/usr/bin/env bash
# refusals.sh - why the frame analysis refuses functions, and which
# instructions the decoder does not know, over the cubins given (no GPU):
#
#   refusals.sh <build dir> CUBIN...
#
# (a program's cubins: cuobjdump -xelf all <binary>).  Prints one line per
# reason of `orion-sass frame` ("unsafe: ...", offsets dropped) with the
# number of functions it refuses, then the summary of build/bin/sassdec_check
# on the cubins' `nvdisasm -c -hex -plr -lrm narrow` listings and, per
# opcode the decoder does not know, the count and the first such line;
# also how many kernels the static rewrite takes (listed with REWRITTEN=1).
# NVDISASM defaults to the one in <build dir>/pytools, else CUDA's.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
tools=$build/pytools/nvidia/cu13/bin
[ -x "$tools/nvdisasm" ] || tools=${CUDA:-/usr/local/cuda}/bin
nvdisasm=${NVDISASM:-$tools/nvdisasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "## refusals (functions) in $# cubins"
for c in "$@"; do "$build/bin/orion-sass" frame "$c" 2>/dev/null | grep '^  unsafe:' || true; done |
  sed 's/ at +0x[0-9a-f]*$//; s/^  unsafe: //' | sort | uniq -c | sort -rn
n=0
for c in "$@"; do
  n=$((n + 1))
  "$nvdisasm" -c -hex -plr -lrm narrow "$c" > "$tmp/$n.lst" 2>/dev/null || true
done
echo "## kernels orion-sass rewrite --smem-frame --no-dynamic-smem --block 32 takes"
for c in "$@"; do
  "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem --block 32 "$c" -o "$tmp/rw.cubin" 2>/dev/null |
    sed -n "s|^\([^ :]*\): rewritten:.*|$c \1|p" || true
done > "$tmp/rewritten.txt"
echo "$(wc -l < "$tmp/rewritten.txt") kernels; one per line (cubin, kernel) with REWRITTEN=1"
[ -z "${REWRITTEN:-}" ] || cat "$tmp/rewritten.txt"
echo "## decoder against nvdisasm"
"$build/bin/sassdec_check" -v "$tmp"/*.lst > "$tmp/check.txt" 2>&1 || true
tail -1 "$tmp/check.txt"
echo "## opcodes the decoder does not know: count, 12-bit opcode, first line"
sed -n 's/^[^ ]*: \/\*[0-9a-f]*\*\/ \(.*\) \[.*(opcode \(0x[0-9a-f]*\))$/\2 \1/p' "$tmp/check.txt" |
  awk '{k = $1; c[k]++; if (!(k in f)) { $1 = ""; f[k] = $0 }} END {for (k in c) print c[k], k, f[k]}' | sort -rn
