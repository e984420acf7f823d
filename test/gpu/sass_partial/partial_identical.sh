#!/usr/bin/env bash
# partial_identical.sh - GPU check of partial placement (the SASS rewrite
# keeping a frame's most used slots in shared memory and the rest in local
# memory, orion-cc --orion-spill=partial): heavy_prog.cu (the kernel of
# test/lit/e2e/spill-heavy.cu) built plain (--no-orion) and with
# --orion-spill=partial; every version (ORION_MODE=fixed:<tag>) and the
# adaptive mode must write output bit-identical to the plain build (cmp of
# the raw output) at block sizes 64, 128 and 256 (256: the block the
# rewritten versions are sized for), and at 512 (above it: a rewritten
# version must not run; the output must still match and nothing may be
# reported).  The same with --orion-spill=dynamic (the frame in the
# launch's dynamic shared memory, which the runtime sizes for each block:
# no block limit; at 512 the original itself cannot launch, too many
# registers, and every mode must fail alike).  The build half fails unless
# the partial report shows a version placed in part and the dynamic one a
# version with dynamic shared memory per warp.  compute-sanitizer memcheck
# and racecheck run on every rewritten version of both when installed
# (dynamic: at 256 and 128 threads).  Then dyn_prog.cu, kernels with
# dynamic shared memory of their own, built plain and with
# --orion-spill=dynamic (the region above the program's memory), every
# mode and version (padding versions too) bit-identical to the plain build
# at 64, 96 and 128 threads, memcheck and racecheck on every version at
# 128.  GPU times per version are
# printed (information, not a criterion).  Exit 77 without a GPU.
#   partial_identical.sh <build dir>                     build and run
#   partial_identical.sh --build-only <build dir> <out>  build here (no GPU)
#   partial_identical.sh --run-only <out>                run what was built
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the deeply capped clones these spill paths are for (no cap floor, Fig. 8 as published)
export ORION_CAP_FLOOR=${ORION_CAP_FLOOR:-0}
phase=all
case ${1:-} in
  --build-only) phase=build; build=$(cd "$2" && pwd); out=$3 ;;
  --run-only) phase=run; out=$2 ;;
  *) build=$(cd "$1" && pwd); out=$build/gpu-test/sass_partial ;;
esac
if [ "$phase" != build ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: no CUDA GPU on this machine"
  exit 77
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ "$phase" != run ]; then
  "$build/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$here/heavy_prog.cu" -o "$out/plain"
  "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=off "$here/heavy_prog.cu" -o "$out/off"
  "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=partial --orion-report="$out/partial.json" \
    "$here/heavy_prog.cu" -o "$out/partial"
  "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=dynamic --orion-report="$out/dynamic.json" \
    "$here/heavy_prog.cu" -o "$out/dynamic"
  "$build/bin/orion-cc" --no-orion -O3 --cuda-gpu-arch=sm_90 "$here/dyn_prog.cu" -o "$out/dplain"
  "$build/bin/orion-cc" -O3 --cuda-gpu-arch=sm_90 --orion-spill=dynamic --orion-report="$out/ddynamic.json" \
    "$here/dyn_prog.cu" -o "$out/ddynamic"
  for j in dynamic ddynamic; do
    python3 - "$out/$j.json" "$out/$j.tags" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
dyn = [e["name"] for b in r["builds"] for e in b["entries"]
       if ((e.get("spill") or {}).get("placement") or {}).get("dynamic_bytes_per_warp")]
print("dynamic shared memory:", " ".join(dyn))
if not dyn:
    sys.exit("FAIL: no version has its frame in dynamic shared memory")
tags = sorted({v["tag"] for k in r["kernels"] for v in k["versions"] if v["tag"] != "orig"})
open(sys.argv[2], "w").write(" ".join(tags) + "\n")
PY
  done
  python3 - "$out/partial.json" "$out/tags.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
parts = 0
for b in r["builds"]:
    for e in b["entries"]:
        s = e.get("spill") or {}
        p = s.get("placement") or {}
        parts += bool(p.get("partial"))
        print("build:", e["name"], "regs", e.get("registers"), "frame", e.get("stack_frame"), "smem",
              e.get("smem"), s.get("path"), p or "", (s.get("reason") or "")[:160])
if not parts:
    sys.exit("FAIL: no version was placed in part")
tags = [v["tag"] for k in r["kernels"] for v in k["versions"] if not v["pad"] and v["tag"] != "orig"]
open(sys.argv[2], "w").write(" ".join(tags) + "\n")
PY
fi
[ "$phase" = build ] && exit 0
tags=$(cat "$out/tags.txt")
fail=0
for block in 64 128 256 512; do
  ORION_MODE=off "$out/plain" $block $((1 << 20)) "$out/ref.bin" > "$out/ref.txt"
  echo "block $block plain: $(cat "$out/ref.txt")"
  for bin in off partial dynamic; do
    for mode in off adaptive $(for t in $tags; do echo fixed:$t; done); do
      got=$(ORION_CACHE=off ORION_MODE=$mode "$out/$bin" $block $((1 << 20)) "$out/got.bin" 2>"$out/err.txt") || true
      status=ok
      cmp -s "$out/ref.bin" "$out/got.bin" || status=DIFFERENT
      [ "$got" = "$(cat "$out/ref.txt")" ] || status=DIFFERENT
      ! grep -q "orion" "$out/err.txt" || status="$status+warnings($(head -c 200 "$out/err.txt" | tr '\n' ' '))"
      echo "block $block $bin $mode: $got $status $(grep -o 'time [0-9.]* ms' "$out/err.txt" || true)"
      [ "$status" = ok ] || fail=1
      rm -f "$out/got.bin"
    done
  done
done
# dyn_prog: its own dynamic shared memory below the region; every version,
# padding ones included (they add dynamic shared memory too)
dtags=$(cat "$out/ddynamic.tags")
for block in 64 96 128; do
  "$out/dplain" $block $((1 << 18)) "$out/dref.bin" > "$out/dref.txt"
  echo "dyn_prog block $block plain: $(cat "$out/dref.txt")"
  for mode in off adaptive $(for t in $dtags; do echo fixed:$t; done); do
    got=$(ORION_CACHE=off ORION_MODE=$mode "$out/ddynamic" $block $((1 << 18)) "$out/dgot.bin" 2>"$out/err.txt") ||
      true
    status=ok
    cmp -s "$out/dref.bin" "$out/dgot.bin" || status=DIFFERENT
    [ "$got" = "$(cat "$out/dref.txt")" ] || status=DIFFERENT
    # a kernel without the version runs its original, and says so
    ! grep -v "has no version .* here; using orig" "$out/err.txt" | grep "orion" >/dev/null ||
      status="$status+warnings($(head -c 200 "$out/err.txt" | tr '\n' ' '))"
    echo "dyn_prog block $block dynamic $mode: $got $status"
    [ "$status" = ok ] || fail=1
    rm -f "$out/dgot.bin"
  done
done
if command -v compute-sanitizer >/dev/null; then
  for t in $dtags; do
    for tool in memcheck racecheck; do
      log="$out/san.$tool.dyn_prog.$t.txt"
      ORION_CACHE=off ORION_MODE=fixed:$t compute-sanitizer --tool $tool --error-exitcode 9 \
        "$out/ddynamic" 128 16384 >"$log" 2>&1 || { echo "FAIL: $tool on dyn_prog $t"; fail=1; }
      echo "compute-sanitizer $tool dyn_prog fixed:$t block 128: $(tail -1 "$log")"
    done
  done
fi
if command -v compute-sanitizer >/dev/null; then
  for run in partial:256 dynamic:256 dynamic:128; do
    bin=${run%:*} block=${run#*:}
    for t in $tags; do
      for tool in memcheck racecheck; do
        log="$out/san.$tool.$bin.$block.$t.txt"
        ORION_CACHE=off ORION_MODE=fixed:$t compute-sanitizer --tool $tool --error-exitcode 9 \
          "$out/$bin" "$block" 65536 >"$log" 2>&1 || { echo "FAIL: $tool on $bin $t"; fail=1; }
        echo "compute-sanitizer $tool $bin fixed:$t block $block: $(tail -1 "$log")"
      done
    done
  done
else
  echo "note: compute-sanitizer not found: memcheck/racecheck not run"
fi
[ $fail = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
exit $fail
