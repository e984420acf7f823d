#!/bin/sh
# libfuzzer.sh - build fuzz_ra.c as a libFuzzer target with clang 22 and run
# it (coverage-guided, in addition to the CTest ra_fuzz stress run).
#
#   test/unit/ra/libfuzzer.sh [seconds] [out-dir]    (defaults: 60, build-ra-lf)
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
secs=${1:-60}
out=${2:-$root/build-ra-lf}
clang=${CLANG:-/usr/lib/llvm-22/bin/clang}
mkdir -p "$out/corpus"
"$clang" -std=c11 -g -O1 -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -DORION_RA_LIBFUZZER -D_POSIX_C_SOURCE=200809L \
  -I"$root/include" -I"$root/test/unit" -I"$root/test/unit/ra" \
  "$root/test/unit/ra/fuzz_ra.c" "$root/orion-ra/colour.c" \
  "$root/orion-ra/matching.c" "$root/orion-ra/cstack.c" \
  "$root/orion-ra/status.c" -o "$out/fuzz_ra_lf"
cd "$out"
./fuzz_ra_lf -max_total_time="$secs" -max_len=4096 corpus
