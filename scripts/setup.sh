#!/usr/bin/env bash
# scripts/setup.sh - set Orion up on a fresh Debian 12 machine and build it.
#
#   scripts/setup.sh            install what is missing, configure, build,
#                               then run the main job (scripts/demo.sh)
#   scripts/setup.sh --no-demo  everything but the demo (used by test.sh)
#
# Installs: Debian llvm-22-dev clang-22 clang-tools-22 (clang-linker-wrapper,
# which clang's CUDA link runs; clang-apply-replacements for orion-advise's
# tests) libclang-22-dev (orion-advise: libclang's C API) libclang-rt-22-dev (libFuzzer
# and the sanitizers) llvm-22-tools (FileCheck, lit) libomp-22-dev (OpenMP
# for host code: orion-cc -Xcompiler -fopenmp, as nvcc Makefiles pass it)
# libelf-dev cmake pkg-config
# (+ compilers, python3-pip); PyPI nvidia-cuda-nvdisasm and
# nvidia-cuda-cuobjdump (test oracles) into build/pytools, so the system
# Python is never touched.  The CUDA 13 toolkit must be at $CUDA_PATH
# (default /usr/local/cuda); Debian does not package it.  After installing,
# every program and library the build and the tests run is checked; a
# missing one is an error naming it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ORION_BUILD_DIR:-$root/build}
cuda=${CUDA_PATH:-/usr/local/cuda}
demo=1
[ "${1:-}" = "--no-demo" ] && demo=0

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

sudo=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: cannot install packages"
  sudo=sudo
fi

debs="llvm-22-dev clang-22 clang-tools-22 libclang-22-dev libclang-rt-22-dev llvm-22-tools libelf-dev cmake make gcc g++ python3 python3-pip pkg-config libomp-22-dev"
missing=
for p in $debs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  say "installing Debian packages:$missing"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

[ -x "$cuda/bin/ptxas" ] || die "no CUDA toolkit at $cuda (ptxas missing); install CUDA 13 or set CUDA_PATH"

# Everything the build and the tests run, checked after installing: a name
# missing here would otherwise surface as a failed test far from its cause.
llvm=/usr/lib/llvm-22
for t in "$llvm/bin/clang" "$llvm/bin/clang++" "$llvm/bin/clang-linker-wrapper" "$llvm/bin/opt" \
         "$llvm/bin/llc" "$llvm/bin/FileCheck" "$llvm/bin/not" "$llvm/bin/lit" \
         "$cuda/bin/nvcc" "$cuda/bin/ptxas" "$cuda/bin/fatbinary" "$cuda/bin/nvlink"; do
  [ -x "$t" ] || die "missing $t after installing packages (Debian: $debs)"
done
[ -f "$cuda/include/cuda.h" ] || die "missing $cuda/include/cuda.h: the CUDA toolkit at $cuda is incomplete"
ls "$llvm"/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 ||
  die "missing libFuzzer (libclang_rt.fuzzer) under $llvm/lib/clang: install libclang-rt-22-dev"
ls "$llvm"/lib/libclang.so* "$llvm"/lib/libclang-22.so* >/dev/null 2>&1 ||
  die "missing libclang under $llvm/lib: install libclang-22-dev"
# orion-advise: libclang's C API headers; its tests apply fixes with clang-tools-22's
# clang-apply-replacements.
[ -f "$llvm/include/clang-c/Index.h" ] || die "missing $llvm/include/clang-c/Index.h: install libclang-22-dev"
[ -x "$llvm/bin/clang-apply-replacements" ] ||
  die "missing $llvm/bin/clang-apply-replacements: install clang-tools-22"

pytools=$build/pytools
if [ ! -x "$pytools/nvidia/cu13/bin/nvdisasm" ] || [ ! -x "$pytools/nvidia/cu13/bin/cuobjdump" ]; then
  say "installing nvdisasm/cuobjdump wheels into $pytools"
  mkdir -p "$pytools"
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q --disable-pip-version-check --no-deps --upgrade \
    --target "$pytools" "nvidia-cuda-nvdisasm==13.*" "nvidia-cuda-cuobjdump==13.*"
fi

say "configuring in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DORION_CUDA_PATH="$cuda" >/dev/null
say "building"
cmake --build "$build" -j"$(nproc)"
say "built: $build/bin (orion-cc, orion-ptxas, orion-config), $build/lib/OrionPass.so"

if [ "$demo" = 1 ]; then
  exec "$root/scripts/demo.sh"
fi
