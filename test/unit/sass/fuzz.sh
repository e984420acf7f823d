#!/bin/sh
# fuzz.sh - build fuzz_cubin.c as a libFuzzer target with clang 22 (ASan +
# UBSan) and run it for a bounded time, seeded with real cubins.  The
# target covers the reader/writer and the frame-to-shared rewrite.
#
#   test/unit/sass/fuzz.sh SECONDS OUTDIR SEED...   (SEED: cubin files or dirs)
#
# Exit 77 (skipped, with the reason) when clang or libFuzzer is missing,
# except under CI (CI set and not "false"), where fuzzers never skip: a
# missing fuzzer is a failure there (scripts/setup.sh installs it).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
secs=$1 out=$2
shift 2
clang=${CLANG:-/usr/lib/llvm-22/bin/clang}
skip() { # skip REASON: 77 (skipped) on a developer's machine, 1 (failed) in CI
  case "${CI:-}" in ""|false|0) echo "skipped: $1"; exit 77 ;; esac
  echo "error: $1 (CI: fuzz targets must run; scripts/setup.sh installs libclang-rt-22-dev)"; exit 1
}
[ -x "$clang" ] || skip "no $clang"
mkdir -p "$out/corpus" "$out/seed"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$out/probe.c"
"$clang" -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null ||
  skip "$clang cannot link -fsanitize=fuzzer"
"$clang" -std=c11 -g -O1 -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -D_POSIX_C_SOURCE=200809L -I"$root/include" \
  "$root/test/unit/sass/fuzz_cubin.c" "$root"/sass/elf/*.c "$root"/sass/codec/*.c "$root"/sass/rewrite/*.c \
  "$root"/orion-ra/*.c "$root"/core/*.c "$root"/support/*.c -lelf -lm -o "$out/fuzz_cubin" || exit 1
n=0
for s in "$@"; do
  for f in $( [ -d "$s" ] && ls "$s"/*.cubin 2>/dev/null || echo "$s"); do
    [ -s "$f" ] && cp "$f" "$out/seed/" && n=$((n + 1))
  done
done
[ "$n" -gt 0 ] || echo "note: no seed cubins found; fuzzing from an empty corpus"
cd "$out" || exit 1
# -rss_limit: cubins are small; a reader that balloons is a bug.
./fuzz_cubin -max_total_time="$secs" -max_len=262144 -rss_limit_mb=2048 \
  -print_final_stats=1 corpus seed >fuzz.log 2>&1
st=$?
tail -25 fuzz.log
ls crash-* leak-* oom-* timeout-* 2>/dev/null && exit 1
exit $st
