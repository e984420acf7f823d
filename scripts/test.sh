#!/usr/bin/env bash
# scripts/test.sh - set up (idempotent), build, and run every test: the C unit
# tests and the lit suite, through CTest.  GPU tests are labelled `gpu` (CTest)
# / need the lit feature `cuda-gpu`; without a GPU they are reported skipped.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ORION_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" --no-demo
jobs=$(nproc)
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
