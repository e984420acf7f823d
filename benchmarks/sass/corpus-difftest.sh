#!/usr/bin/env bash
# corpus-difftest.sh - the rewrite's differential check by disassembly
# (test/unit/sassrw/difftest.py --any: every line the rewrite changed is
# one it meant to change, for the default, ptxas, wide, moves, partial,
# partial-wide, colour and colour-partial rewrites) on third-party cubins,
# no GPU:
#
#   corpus-difftest.sh <build dir> <out dir> (<program binary> | <cubin>)...
#
# Each binary's cubins are taken out with cuobjdump -xelf all (the
# binaries of an ORION_PTXAS_SPILL=off corpus build keep their versions'
# frames in local memory); a .cubin argument is taken as it is, e.g. the
# decoder corpora of test/unit/sassdec (sm_80-90 builds of the
# repository's programs).  The cubins in which orion-sass rewrites a
# kernel (--smem-frame --no-dynamic-smem --block 32) are checked together;
# the log is <out dir>/difftest.txt.  NVDISASM and CUOBJDUMP default to the
# ones in <build dir>/pytools, else CUDA's.  Exit status: difftest.py's (2
# when no cubin has a kernel to rewrite).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "$1" && pwd) out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
tools=$build/pytools/nvidia/cu13/bin
[ -x "$tools/nvdisasm" ] || tools=${CUDA:-/usr/local/cuda}/bin
nvdisasm=${NVDISASM:-$tools/nvdisasm} cuobjdump=${CUOBJDUMP:-$tools/cuobjdump}
all=()
for bin in "$@"; do
  case $bin in
  *.cubin) all+=("$bin"); continue ;;
  esac
  name=$(basename "$(dirname "$bin")")
  mkdir -p "$out/x/$name"
  (cd "$out/x/$name" && "$cuobjdump" -xelf all "$bin" > /dev/null)
  for c in "$out/x/$name"/*.cubin; do
    mv "$c" "$out/$name.$(basename "$c")"
    all+=("$out/$name.$(basename "$c")")
  done
done
cubins=()
for c in "${all[@]}"; do
  if "$build/bin/orion-sass" rewrite --smem-frame --no-dynamic-smem --block 32 "$c" -o "$out/probe.cubin" \
    2>/dev/null | grep ': rewritten:' >/dev/null; then  # not -q: pipefail
    cubins+=("$c")
  fi
done
rm -f "$out/probe.cubin"
[ ${#cubins[@]} -gt 0 ] || { echo "corpus-difftest: no cubin has a kernel to rewrite" >&2; exit 2; }
echo "corpus-difftest: ${#cubins[@]} of ${#all[@]} cubins have a kernel to rewrite"
rc=0
python3 "$here/../../test/unit/sassrw/difftest.py" --any "$build/bin/orion-sass" "$nvdisasm" "$cuobjdump" \
  "$out/work" "${cubins[@]}" > "$out/difftest.txt" 2>&1 || rc=$?
tail -1 "$out/difftest.txt"
exit $rc
