#!/bin/sh
# libfuzzer.sh - build fuzz_ra.c as a libFuzzer target with clang 22 and run
# it (coverage-guided, in addition to the CTest ra_fuzz stress run).
#
#   test/unit/ra/libfuzzer.sh [seconds] [out-dir]    (defaults: 60, build-ra-lf)
#
# Exit 77 (skipped) when clang or libFuzzer is missing, except under CI
# (CI set and not "false"), where a fuzzer that cannot run is a failure.
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
secs=${1:-60}
out=${2:-$root/build-ra-lf}
clang=${CLANG:-/usr/lib/llvm-22/bin/clang}
skip() {
  case "${CI:-}" in ""|false|0) echo "skipped: $1"; exit 77 ;; esac
  echo "error: $1 (CI: fuzz targets must run; scripts/setup.sh installs libclang-rt-22-dev)"; exit 1
}
[ -x "$clang" ] || skip "no $clang"
mkdir -p "$out/corpus"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$out/probe.c"
"$clang" -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null ||
  skip "$clang cannot link -fsanitize=fuzzer"
"$clang" -std=c11 -g -O1 -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -DORION_RA_LIBFUZZER -D_POSIX_C_SOURCE=200809L \
  -I"$root/include" -I"$root/test/unit" -I"$root/test/unit/ra" \
  "$root/test/unit/ra/fuzz_ra.c" "$root/orion-ra/colour.c" \
  "$root/orion-ra/matching.c" "$root/orion-ra/cstack.c" \
  "$root/support/status.c" -o "$out/fuzz_ra_lf"
cd "$out"
./fuzz_ra_lf -max_total_time="$secs" -max_len=4096 corpus
