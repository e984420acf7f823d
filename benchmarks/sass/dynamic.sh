#!/usr/bin/env bash
# dynamic.sh - the frame rewrite's region in static shared memory (sized
# for the block the rewrite is told) against the region in dynamic shared
# memory, warp by warp (orion-sass rewrite --dynamic: sized by the launch),
# on the repository's spill-heavy kernel (test/lit/e2e/spill-heavy.cu) at
# -maxrregcount 32, 48, 80 and 128, blocks of 128 and 256 threads:
#   local       ptxas's build, the frame in local memory;
#   static      the whole frame in static shared memory where it fits
#               48 KB for the block, else placed in part (--partial);
#   dyn-part    dynamic, placed in part within the bytes per warp the
#               static partial build has (same slots on chip, same
#               occupancy: what the dynamic addressing costs);
#   dyn-full    dynamic, the whole frame on chip where a block fits the
#               227 KB an sm_90 block may opt into, else in part within it.
# Partial placement needs a register for the on-chip part's base: those
# builds start from the kernel assembled at cap - 1 (as orion-ptxas does),
# which the rewrite raises back to cap (same allocation granule of 8).
# benchmarks/sass/bench.c times them side by side (BENCH_BLOCK threads,
# every output compared bit for bit with local's).
#
#   dynamic.sh build <orion build dir> <out>   here (no GPU)
#   dynamic.sh run <out>                       on the GPU machine
#
# The run writes <out>/dynamic.csv (block,cap and bench's columns) and
# <out>/dynamic.md (the table: median ms and the ratio local / variant).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the deeply capped clones these spill paths are for (no cap floor, Fig. 8 as published)
export ORION_CAP_FLOOR=${ORION_CAP_FLOOR:-0}
src=$here/../../test/lit/e2e/spill-heavy.cu
k=_Z5heavyP6float4PKS_i
case ${1:-} in
build)
  [ $# -eq 3 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  build=$(cd "$2" && pwd) out=$3
  cuda=${ORION_CUDA_PATH:-/usr/local/cuda}
  sass=$build/bin/orion-sass
  mkdir -p "$out"
  : > "$out/variants.txt"
  for cap in 32 48 80 128; do
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -maxrregcount=$cap "$src" -o "$out/r$cap.cubin"
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -maxrregcount=$((cap - 1)) "$src" -o "$out/r$cap-1.cubin"
    for b in 128 256; do
      v="local:r$cap.cubin:$k"
      s="$out/r$cap.static$b"
      if ! "$sass" rewrite --smem-frame --no-dynamic-smem --block $b "$out/r$cap.cubin" -o "$s.cubin" > "$s.txt" ||
        ! grep -q ': rewritten:' "$s.txt"; then
        "$sass" rewrite --smem-frame --no-dynamic-smem --block $b --partial --reg-limit $cap \
          "$out/r$cap-1.cubin" -o "$s.cubin" > "$s.txt"
      fi
      if grep -q ': rewritten:' "$s.txt"; then
        v="$v static:r$cap.static$b.cubin:$k"
        # the static region per thread, as bytes per warp
        per=$(sed -n 's/.*placement: on chip [0-9]* slots, \([0-9]*\) B\/thread.*/\1/p' "$s.txt")
        d="$out/r$cap.dynpart$b"
        "$sass" rewrite --smem-frame --no-dynamic-smem --dynamic --partial --warp-limit $((per * 32)) \
          --reg-limit $cap "$out/r$cap-1.cubin" -o "$d.cubin" > "$d.txt"
        w=$(sed -n 's/.*dynamic shared (0x[0-9a-f]* + its size), \([0-9]*\) bytes per warp.*/\1/p' "$d.txt")
        [ -n "$w" ] && v="$v dyn-part:r$cap.dynpart$b.cubin:$k:$w"
      fi
      d="$out/r$cap.dynfull$b" lim=$(((232448 - 1024) / (b / 32) / 128 * 128))
      if ! "$sass" rewrite --smem-frame --no-dynamic-smem --dynamic --warp-limit $lim "$out/r$cap.cubin" \
        -o "$d.cubin" > "$d.txt" || ! grep -q ': rewritten:' "$d.txt"; then
        "$sass" rewrite --smem-frame --no-dynamic-smem --dynamic --partial --reg-limit $cap --warp-limit $lim \
          "$out/r$cap-1.cubin" -o "$d.cubin" > "$d.txt"
      fi
      w=$(sed -n 's/.*dynamic shared (0x[0-9a-f]* + its size), \([0-9]*\) bytes per warp.*/\1/p' "$d.txt")
      [ -n "$w" ] && v="$v dyn-full:r$cap.dynfull$b.cubin:$k:$w"
      echo "$b $cap $v" >> "$out/variants.txt"
    done
  done
  cc -O2 -std=c11 -Wall -Wextra -Werror -I"$cuda/include" "$here/bench.c" -L"$cuda/lib64/stubs" -lcuda \
    -o "$out/bench"
  cat "$out/variants.txt"
  ;;
run)
  [ $# -eq 2 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  out=$(cd "$2" && pwd)
  cd "$out"
  nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU on this machine"; exit 77; }
  echo "block,cap,label,kernel,regs,smem_bytes,local_bytes,blocks_per_sm,warps_per_sm,median_ms,min_ms,max_ms,same_output" \
    > dynamic.csv
  rc=0
  while read -r b cap vs; do
    # shellcheck disable=SC2086 # vs: the variants, one word each
    BENCH_BLOCK=$b ./bench "${ROUNDS:-5}" "${REPS:-5}" $vs > one.csv || rc=1
    tail -n +2 one.csv | sed "s/^/$b,$cap,/" >> dynamic.csv
  done < variants.txt
  python3 - dynamic.csv > dynamic.md <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| block | cap | variant | regs | shared B | local B | warps/SM | median ms | local / variant | spread |")
print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
base = {}
for r in rows:
    if r["label"] == "local":
        base[(r["block"], r["cap"])] = float(r["median_ms"])
for r in rows:
    m = float(r["median_ms"])
    spread = (float(r["max_ms"]) - float(r["min_ms"])) / m
    print("| %s | %s | %s | %s | %s | %s | %s | %.3f | %.3fx | %.1f %% |" % (
        r["block"], r["cap"], r["label"] + ("" if r["same_output"] == "yes" else " (OUTPUT DIFFERS)"),
        r["regs"], r["smem_bytes"], r["local_bytes"], r["warps_per_sm"], m, base[(r["block"], r["cap"])] / m,
        100 * spread))
PY
  cat dynamic.md
  exit $rc
  ;;
*)
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
