#!/usr/bin/env bash
# run.sh - GPU check of the frame-to-shared rewrite (sass/rewrite/rewrite.c).
#
#   run.sh build <orion build dir> <out>   here (no GPU): nvcc -cubin the
#        kernels of spill_smem.cu at -DMINB=16 and 12 (32 and 40 registers,
#        both spill) and calls.cu (a kernel and two __noinline__ callees
#        sharing the frame; -DNO_SMEM: no .nv.shared, the rewrite adds it),
#        orion-sass rewrite --smem-frame --no-dynamic-smem each (calls.cu
#        with every --layout, and moves with --min-heights; recursive_gauss.cu
#        at 32 registers with moves, so slots move at its calls; minb12 also with --layout ptxas; minb16's
#        spill4 mixes 4- and 8-byte slots, so by default its 8-byte
#        accesses are split into stubs: also with --granule wide; and
#        minb16 built by orion-ptxas --orion-spill=pragma; spill-heavy.cu
#        at -maxrregcount=31 placed in part, --partial, also with --granule
#        wide, --smem-limit and --colour; calls.cu with --colour; with
#        --dynamic, the region in dynamic shared memory warp by warp:
#        minb16, calls-nosmem, recursive_gauss with moves, spill-heavy at
#        -maxrregcount=128 (13 KB per warp: above 48 KB per block from 128
#        threads on) and at 31 placed in part within 8 KB per warp, and
#        dyn_smem.cu's kernels with dynamic shared memory of their own,
#        whole and placed in part within 2 KB per warp), check
#        the rewrites happened, list the pairs in <out>/pairs.txt (with each
#        dynamic kernel's bytes per warp), and compile host.c against the
#        libcuda stub
#   run.sh run <out>                       on the GPU machine: host on each
#        original/rewritten pair (three block shapes, bit-for-bit; four for
#        an unbounded kernel with a dynamic region, up to 256 threads), then
#        compute-sanitizer memcheck and racecheck on every pair (when
#        compute-sanitizer is installed; said otherwise)
# Exit 77 without a GPU in the run half.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the deeply capped clones these spill paths are for (no cap floor, Fig. 8 as published)
export ORION_CAP_FLOOR=${ORION_CAP_FLOOR:-0}
phase=${1:-}
case $phase in
build)
  build=$(cd "$2" && pwd); out=$3
  cuda=${ORION_CUDA_PATH:-/usr/local/cuda}
  mkdir -p "$out"
  : > "$out/pairs.txt"
  # rw <tag> <cubin> <kernels expected> [orion-sass rewrite options]
  rw() {
    local tag=$1 cubin=$2 want=$3
    shift 3
    local nodyn=--no-dynamic-smem # asserted for the static region; a dynamic one needs no assertion
    case " $* " in *" --dynamic "*) nodyn= ;; esac
    # shellcheck disable=SC2086
    "$build/bin/orion-sass" rewrite --smem-frame $nodyn "$@" "$cubin" -o "$out/$tag.rw.cubin" |
      tee "$out/$tag.rewrite.txt"
    [ "$(grep -c ': rewritten:' "$out/$tag.rewrite.txt")" = "$want" ] ||
      { echo "FAIL: $tag: $want kernel(s) should have been rewritten"; exit 1; }
    # names relative to <out>, so the directory can move to the GPU machine;
    # then <kernel>=<bytes per warp> of each dynamic region
    echo "$tag $(basename "$cubin") $tag.rw.cubin$(sed -n \
      's/^\([^ :]*\): rewritten: .* dynamic shared (0x[0-9a-f]* + its size), \([0-9]*\) bytes per warp.*/ \1=\2/p' \
      "$out/$tag.rewrite.txt" | tr -d '\n')" >> "$out/pairs.txt"
  }
  for m in 16 12; do
    "$cuda/bin/nvcc" -cubin -arch=sm_90 -DMINB=$m "$here/spill_smem.cu" -o "$out/minb$m.cubin"
    rw minb$m "$out/minb$m.cubin" 2
  done
  rw minb12-ptxas "$out/minb12.cubin" 2 --layout ptxas
  grep -q '^spill4: .* wide accesses split' "$out/minb16.rewrite.txt" ||
    { echo "FAIL: minb16: spill4's 8-byte accesses should have been split"; exit 1; }
  rw minb16-wide "$out/minb16.cubin" 2 --granule wide
  # ptxas's enable_smem_spilling build keeps part of the frame in local
  # memory: the rewrite moves that part next to ptxas's shared spill area
  "$cuda/bin/nvcc" -ptx -arch=sm_90 -DMINB=16 "$here/spill_smem.cu" -o "$out/minb16.ptx"
  "$build/bin/orion-ptxas" -arch sm_90 --orion-spill=pragma "$out/minb16.ptx" -o "$out/minb16-pragma.cubin"
  rw minb16-pragma "$out/minb16-pragma.cubin" 2
  "$cuda/bin/nvcc" -cubin -arch=sm_90 "$here/calls.cu" -o "$out/calls.cubin"
  "$cuda/bin/nvcc" -cubin -arch=sm_90 -DNO_SMEM "$here/calls.cu" -o "$out/calls-nosmem.cubin"
  for l in cstack sum ptxas; do
    rw calls-$l "$out/calls.cubin" 1 --layout $l
  done
  rw calls-nosmem "$out/calls-nosmem.cubin" 1
  # the compressible stack with moves before and restores after the calls
  # (--min-heights: every call compressed to its live slots): calls.cu's
  # kernel needs none; recursive_gauss.cu's column kernel at 32 registers
  # moves slots at its six calls
  for c in calls calls-nosmem; do
    rw $c-moves "$out/$c.cubin" 1 --layout moves --min-heights
  done
  "$cuda/bin/nvcc" -cubin -arch=sm_90 -maxrregcount=32 "$here/../../../benchmarks/programs/recursive_gauss.cu" \
    -o "$out/gauss.cubin"
  rw gauss-moves "$out/gauss.cubin" 1 --block 128 --layout moves --min-heights
  grep -q '^_Z13gauss_columnsiiPKjP6float4Pj5Coefs: .* slot moves at [1-9][0-9]* calls' \
    "$out/gauss-moves.rewrite.txt" || { echo "FAIL: gauss-moves: no slots moved at calls"; exit 1; }
  # partial placement: spill-heavy's frame for 128 threads is far above
  # 48 KB; the most used slots go on chip, the rest stay local where ptxas
  # put them (R1 stays the stack pointer; at 31 registers the rewrite
  # raises the count to 32, the same granule of 8, and addresses the
  # on-chip part through R29); also with --granule wide, a small limit,
  # and with slot colouring, which packs never-live-together slots
  "$cuda/bin/nvcc" -cubin -arch=sm_90 -maxrregcount=31 "$here/../../lit/e2e/spill-heavy.cu" -o "$out/heavy.cubin"
  rw heavy-partial "$out/heavy.cubin" 1 --block 128 --partial
  rw heavy-partial-wide "$out/heavy.cubin" 1 --block 128 --partial --granule wide
  rw heavy-partial-small "$out/heavy.cubin" 1 --block 128 --partial --smem-limit 0x1400
  rw heavy-partial-colour "$out/heavy.cubin" 1 --block 128 --partial --colour
  grep -q '; partial: .* local at R1, on chip at R29 (31 -> 32 registers)' "$out/heavy-partial.rewrite.txt" ||
    { echo "FAIL: heavy-partial: the rewrite should have been partial, on chip through R29"; exit 1; }
  for c in calls calls-nosmem; do
    rw $c-colour "$out/$c.cubin" 1 --colour
  done
  grep -q 'added\|0x400,' "$out/calls-nosmem.rewrite.txt" ||
    { echo "FAIL: calls-nosmem: the region should start a new section at 0x400"; exit 1; }
  # the region in dynamic shared memory, laid out warp by warp: no block
  # size, the launch brings ceil(threads / 32) x the bytes per warp
  rw minb16-dyn "$out/minb16.cubin" 2 --dynamic
  rw calls-nosmem-dyn "$out/calls-nosmem.cubin" 1 --dynamic
  rw gauss-moves-dyn "$out/gauss.cubin" 1 --dynamic --layout moves --min-heights
  "$cuda/bin/nvcc" -cubin -arch=sm_90 -maxrregcount=128 "$here/../../lit/e2e/spill-heavy.cu" -o "$out/heavy128.cubin"
  rw heavy128-dyn "$out/heavy128.cubin" 1 --dynamic
  rw heavy-partial-dyn "$out/heavy.cubin" 1 --dynamic --partial --warp-limit 8192
  # kernels with dynamic shared memory of their own: the region goes above
  # it, at the end of what the launch brings (dynsize reads that size and
  # totsize the block's: both refused)
  "$cuda/bin/nvcc" -cubin -arch=sm_90 "$here/dyn_smem.cu" -o "$out/dynsmem.cubin"
  rw dynsmem-dyn "$out/dynsmem.cubin" 2 --dynamic
  rw dynsmem-partial-dyn "$out/dynsmem.cubin" 2 --dynamic --partial --warp-limit 2048 --reg-limit 255
  grep -q '^dynsize: .*reads the launch.s dynamic shared memory size' "$out/dynsmem-dyn.rewrite.txt" &&
    grep -q '^totsize: unsafe: reads the block.s shared memory size' "$out/dynsmem-dyn.rewrite.txt" ||
    { echo "FAIL: dynsmem: dynsize and totsize should have been refused"; exit 1; }
  for t in minb16-dyn calls-nosmem-dyn gauss-moves-dyn heavy128-dyn heavy-partial-dyn dynsmem-dyn \
    dynsmem-partial-dyn; do
    grep -q "^$t .*=[1-9]" "$out/pairs.txt" || { echo "FAIL: $t: no dynamic region listed"; exit 1; }
  done
  cc -O2 -std=c11 -Wall -Wextra -Werror -I"$cuda/include" "$here/host.c" -L"$cuda/lib64/stubs" -lcuda \
    -o "$out/host"
  echo "built into $out"
  ;;
run)
  out=$(cd "$2" && pwd)
  cd "$out"
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no CUDA GPU on this machine"
    exit 77
  fi
  nvidia-smi -L
  rc=0
  while read -r tag orig new dyn; do
    echo "== $tag: original vs rewritten"
    # shellcheck disable=SC2086 # dyn: zero or more <kernel>=<bytes> words
    "$out/host" "$orig" "$new" $dyn || rc=1
  done < "$out/pairs.txt"
  san=$(command -v compute-sanitizer || echo "${ORION_CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer")
  if [ -x "$san" ]; then
    for tool in memcheck racecheck; do
      while read -r tag orig new dyn; do
        echo "== compute-sanitizer --tool $tool, $tag"
        # host runs both cubins; the sanitizer checks every launch
        # shellcheck disable=SC2086
        "$san" --tool $tool --error-exitcode 3 "$out/host" "$orig" "$new" $dyn \
          > "$out/san.$tool.$tag.txt" 2>&1 || { rc=1; echo "FAIL: $tool"; grep -m5 '=========' "$out/san.$tool.$tag.txt"; }
        tail -3 "$out/san.$tool.$tag.txt"
      done < "$out/pairs.txt"
    done
  else
    echo "note: compute-sanitizer not found: memcheck/racecheck not run"
  fi
  [ $rc = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
  exit $rc
  ;;
*)
  echo "usage: run.sh build <orion build dir> <out> | run.sh run <out>" >&2
  exit 2
  ;;
esac
