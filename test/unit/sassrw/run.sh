#!/usr/bin/env bash
# run.sh - build the cubins of the frame-to-shared diff test and run
# difftest.py on them (see there).
#
#   run.sh ORION_SASS NVCC NVDISASM CUOBJDUMP WORKDIR SRCROOT
#
# Cubins (nvcc -cubin -arch=sm_90, ~10 s on 2 cores):
#   test/gpu/sass_rewrite/spill_smem.cu at -DMINB=16 and 12 (32 and 40
#     registers: both kernels spill, 4- and 8-byte slots; rewritten)
#   test/lit/e2e/spill-heavy.cu -maxrregcount=32 (no .nv.shared, no launch
#     bounds: rewritten with an added section, --block 32)
#   test/lit/e2e/noinline-call.cu -maxrregcount=32 (a call: the tree is
#     rewritten, no launch bounds: --block 32)
#   test/gpu/sass_rewrite/calls.cu (a kernel and two __noinline__ callees
#     sharing the frame: rewritten)
#   benchmarks/programs/recursive_gauss.cu -maxrregcount=32 (a kernel
#     calling a __noinline__ function from six places: slots moved at calls
#     under --layout moves; no launch bounds: --block 32)
#   test/lit/e2e/shared-mem.cu (no frame: left alone)
# and, checked by a second run (no GPU of these architectures here: the
# disassembly is the check), sm_80, sm_86 and sm_89 cubins of spill_smem.cu
# and calls.cu (-DMINB=12 on sm_86/89, whose 1536 threads per SM make
# MINB=16 void); none of them needs moves at calls (--no-moves), and
# recursive_gauss.cu, which has no shared memory, is refused there.
# Exit 77 (skipped) without nvcc, nvdisasm or cuobjdump.
set -u
sass=$1 nvcc=$2 nvdisasm=$3 cuobjdump=$4 work=$5 src=$6
for t in "$nvcc" "$nvdisasm" "$cuobjdump"; do
  if [ -z "$t" ] || [ ! -x "$t" ]; then
    echo "skipped: needs nvcc, nvdisasm and cuobjdump (got '$nvcc' '$nvdisasm' '$cuobjdump')"
    exit 77
  fi
done
mkdir -p "$work"
jobs=("minb16|$src/test/gpu/sass_rewrite/spill_smem.cu|-DMINB=16"
      "minb12|$src/test/gpu/sass_rewrite/spill_smem.cu|-DMINB=12"
      "r32|$src/test/lit/e2e/spill-heavy.cu|-maxrregcount=32"
      "r32|$src/test/lit/e2e/noinline-call.cu|-maxrregcount=32"
      "calls|$src/test/gpu/sass_rewrite/calls.cu|"
      "r32|$src/benchmarks/programs/recursive_gauss.cu|-maxrregcount=32"
      "sm90|$src/test/lit/e2e/shared-mem.cu|")
old=("80minb16|$src/test/gpu/sass_rewrite/spill_smem.cu|-arch=sm_80 -DMINB=16"
     "80minb12|$src/test/gpu/sass_rewrite/spill_smem.cu|-arch=sm_80 -DMINB=12"
     "80calls|$src/test/gpu/sass_rewrite/calls.cu|-arch=sm_80"
     "86minb12|$src/test/gpu/sass_rewrite/spill_smem.cu|-arch=sm_86 -DMINB=12"
     "86calls|$src/test/gpu/sass_rewrite/calls.cu|-arch=sm_86 -DMINB=12"
     "89minb12|$src/test/gpu/sass_rewrite/spill_smem.cu|-arch=sm_89 -DMINB=12"
     "89calls|$src/test/gpu/sass_rewrite/calls.cu|-arch=sm_89 -DMINB=12")
build() { # tag|file|flags (sm_90 unless the flags name another -arch)
  IFS='|' read -r tag f flags <<<"$1"
  local o="$work/$(basename "$f" .cu).$tag.cubin" arch=-arch=sm_90
  case " $flags " in *" -arch="*) arch= ;; esac
  # shellcheck disable=SC2086
  "$nvcc" -cubin $arch $flags "$f" -o "$o" 2>"$o.log" || { echo "FAIL: nvcc $flags $f"; cat "$o.log"; return 1; }
}
export -f build
export nvcc work
printf '%s\n' "${jobs[@]}" "${old[@]}" | xargs -P 2 -I{} bash -c 'build "$@"' _ {} || exit 1
cubins() {
  for j in "$@"; do
    IFS='|' read -r tag f _ <<<"$j"
    echo "$work/$(basename "$f" .cu).$tag.cubin"
  done
}
mapfile -t new_cubins < <(cubins "${jobs[@]}")
mapfile -t old_cubins < <(cubins "${old[@]}")
python3 "$(dirname "$0")/difftest.py" "$sass" "$nvdisasm" "$cuobjdump" "$work/out" "${new_cubins[@]}" || exit 1
exec python3 "$(dirname "$0")/difftest.py" --no-moves "$sass" "$nvdisasm" "$cuobjdump" "$work/out80" "${old_cubins[@]}"
