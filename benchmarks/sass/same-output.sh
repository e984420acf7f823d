#!/usr/bin/env bash
# same-output.sh - two builds of orion-sass against each other: every
# sm_90 cubin given (or listed, one path per line, on stdin with "-") is
# rewritten by both with eight option sets (default; --layout ptxas;
# --granule split; --layout moves --min-heights; --partial --smem-limit
# 0x1000 --reg-limit 255; --colour --partial --smem-limit 0x1000;
# --dynamic; --dynamic --partial --warp-limit 0x1000 --reg-limit 255), and
# the written cubins and the printed reports must be byte-identical.  For
# a change meant to leave sm_90 output alone; no GPU.
#
#   same-output.sh OLD_ORION_SASS NEW_ORION_SASS (CUBIN... | -)
#
# Prints "kernel rewrites R; runs compared N, identical I, different D"
# and one DIFF line per difference; over the kernels of the differing
# runs, the shared region each gets (bytes per block, the report's
# [start, end)) is summed, old and new: smaller, larger, same.  Exit 1 if
# any run differs.
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$1" = - ]; then mapfile -t cubins; else cubins=("$@"); fi
rw=0 n=0 same=0 diff=0
: >"$tmp/regions"
# spans REPORT: "kernel start end" of each rewrite it reports, sorted
spans() { sed -n 's/^\([^ :]*\): rewritten: .*shared \[0x\([0-9a-f]*\), 0x\([0-9a-f]*\)).*/\1 \2 \3/p' "$1" | sort; }
# regions OLD NEW: per kernel rewritten in both, "old new" region bytes
regions() {
  join <(spans "$1") <(spans "$2") | while read -r _ a b c d; do echo $((16#$b - 16#$a)) $((16#$d - 16#$c)); done
}
for c in "${cubins[@]}"; do
  sm=$("$new" info "$c" 2>/dev/null | sed -n 1p | grep -o ': sm_[0-9]*' | tr -d ': ')
  [ "$sm" = sm_90 ] || continue
  for opts in "" "--layout ptxas" "--granule split" "--layout moves --min-heights" \
    "--partial --smem-limit 0x1000 --reg-limit 255" "--colour --partial --smem-limit 0x1000" "--dynamic" \
    "--dynamic --partial --warp-limit 0x1000 --reg-limit 255"; do
    # shellcheck disable=SC2086
    "$old" rewrite --smem-frame --no-dynamic-smem --block 128 $opts "$c" -o "$tmp/old.cubin" >"$tmp/old.txt" 2>&1
    # shellcheck disable=SC2086
    "$new" rewrite --smem-frame --no-dynamic-smem --block 128 $opts "$c" -o "$tmp/new.cubin" >"$tmp/new.txt" 2>&1
    n=$((n + 1))
    rw=$((rw + $(grep -c "rewritten:" "$tmp/new.txt")))
    if cmp -s "$tmp/old.cubin" "$tmp/new.cubin" && cmp -s "$tmp/old.txt" "$tmp/new.txt"; then
      same=$((same + 1))
    else
      diff=$((diff + 1))
      echo "DIFF: $c $opts"
      regions "$tmp/old.txt" "$tmp/new.txt" >>"$tmp/regions"
    fi
  done
done
echo "kernel rewrites $rw; runs compared $n, identical $same, different $diff"
if [ -s "$tmp/regions" ]; then
  awk '{o += $1; w += $2; s += $2 < $1; l += $2 > $1; e += $2 == $1}
       END {printf "differing reports: %d kernels, region bytes %d -> %d (%d smaller, %d larger, %d same)\n",
            NR, o, w, s, l, e}' "$tmp/regions"
fi
[ "$diff" -eq 0 ]
