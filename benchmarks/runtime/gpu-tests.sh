#!/usr/bin/env bash
# benchmarks/runtime/gpu-tests.sh - liborionrt's GPU tests on prebuilt
# programs, for a GPU machine that has no build tree (the device tool):
# rt_robust (with --memcheck: compute-sanitizer memcheck and the failed-API-
# call comparison), rt_env and rt_modes (bit-for-bit, no timing).
#
#   gpu-tests.sh ROBUST_DIR PROGRAMS_DIR OUT [SECONDS]
#
# ROBUST_DIR: `test/gpu/rt_robust.py build --out ROBUST_DIR`; PROGRAMS_DIR:
# `benchmarks/programs/build.sh PROGRAMS_DIR "orion-cc -O3
# --cuda-gpu-arch=sm_90"`.  Writes OUT/rt_robust.txt, rt_env.txt and
# rt_modes.txt; each test stops at its share of SECONDS (default 540), so
# partial logs come back.  RT_ROBUST_ONLY limits rt_robust's checks.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 3 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
robust=$1 programs=$2 out=$3 total=${4:-540}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
start=$(date +%s)
left() { echo $((total - ($(date +%s) - start))); }
only=()
[ -n "${RT_ROBUST_ONLY:-}" ] && only=(--only "$RT_ROBUST_ONLY")
rc=0
step() { # name seconds command...: the log OUT/name.txt ends with the exit status
  local name=$1 secs=$2 s
  shift 2
  timeout "$secs" "$@" >"$out/$name.txt" 2>&1
  s=$?
  echo "exit $s after $(($(date +%s) - start)) s (124: stopped at $secs s)" >>"$out/$name.txt"
  [ $s -eq 0 ] || rc=1
}
step rt_robust $(($(left) * 6 / 10)) python3 "$root/test/gpu/rt_robust.py" run "$robust" \
  --memcheck "${only[@]}"
step rt_env $(($(left) / 3)) python3 "$root/test/gpu/rt_env.py" --bin-dir "$programs"
step rt_modes $(($(left) - 5)) python3 "$root/test/gpu/rt_modes.py" --bin-dir "$programs"
for f in rt_robust rt_env rt_modes; do echo "$f: $(tail -n 2 "$out/$f.txt" | tr '\n' ' ')"; done
exit $rc
