#!/usr/bin/env bash
# smemspill_identical.sh <build dir> - GPU check of the PTX-level spill
# fallback: spill_prog.cu built with --orion-spill=off and =pragma; every
# version (ORION_MODE=fixed:<tag>) and the adaptive mode must print the same
# checksum as the plain build, at block sizes 64, 128 and 256 (the .maxntid
# the pragma versions carry: 256), and at 512 (above it: the runtime must not
# launch a .maxntid-256 version; a warning or a different checksum fails).
# Also runs compute-sanitizer memcheck/racecheck on one pragma version when
# it is installed.  Exit 77 without a GPU.
#   smemspill_identical.sh --build-only <build dir> <out>   build here (no GPU)
#   smemspill_identical.sh --run-only <out>                 run what was built
# split the two halves for a GPU machine without clang.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the deeply capped clones these spill paths are for (no cap floor, Fig. 8 as published)
export ORION_CAP_FLOOR=${ORION_CAP_FLOOR:-0}
phase=all
case ${1:-} in
  --build-only) phase=build; shift; build=$(cd "$1" && pwd); out=$2 ;;
  --run-only) phase=run; out=$2 ;;
  *) build=$(cd "$1" && pwd); out=$build/gpu-test/smemspill ;;
esac
if [ "$phase" != build ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: no CUDA GPU on this machine"
  exit 77
fi
mkdir -p "$out"
if [ "$phase" != run ]; then
cc="$build/bin/orion-cc -O3 --cuda-gpu-arch=sm_90"
$build/bin/orion-cc --no-orion -O3 --cuda-gpu-arch=sm_90 "$here/spill_prog.cu" -o "$out/plain"
$cc --orion-spill=off "$here/spill_prog.cu" -o "$out/off"
$cc --orion-spill=pragma --orion-report=$out/pragma.json "$here/spill_prog.cu" -o "$out/pragma"
python3 - "$out/pragma.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for b in r["builds"]:
    for e in b["entries"]:
        print("build:", e["name"], e.get("registers"), e.get("stack_frame"), e.get("smem"),
              (e.get("spill") or {}).get("path"), (e.get("spill") or {}).get("reason"))
PY
fi
[ "$phase" = build ] && exit 0
tags=$(python3 -c "
import json,sys
r=json.load(open('$out/pragma.json'))
print(' '.join(v['tag'] for k in r['kernels'] for v in k['versions'] if not v['pad'] and v['tag']!='orig'))")
fail=0
for block in 64 128 256 512; do
  ref=$(ORION_MODE=off "$out/plain" $block)
  echo "block $block plain: $ref"
  for bin in off pragma; do
    for mode in off adaptive exhaustive $(for t in $tags; do echo fixed:$t; done); do
      got=$(ORION_CACHE=off ORION_MODE=$mode "$out/$bin" $block 2>"$out/err.txt")
      warn=$(grep -c "orion" "$out/err.txt" || true)
      status=ok
      [ "$got" = "$ref" ] || status=DIFFERENT
      [ "$warn" = 0 ] || status="$status+warnings($(head -c 200 "$out/err.txt" | tr '\n' ' '))"
      echo "block $block $bin $mode: $got $status"
      [ "$status" = ok ] || fail=1
    done
  done
done
if command -v compute-sanitizer >/dev/null; then
  for t in $tags; do
    for tool in memcheck racecheck; do
      ORION_CACHE=off ORION_MODE=fixed:$t compute-sanitizer --tool $tool --error-exitcode 9 \
        "$out/pragma" 256 65536 >/dev/null || { echo "sanitizer $tool failed on $t"; fail=1; }
    done
  done
fi
exit $fail
