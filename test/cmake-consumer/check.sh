#!/usr/bin/env bash
# check.sh - Orion's install tree used as a user would (CTest: orion_install,
# cmake_consumer_orion_cc, cmake_consumer_clang, pkgconfig_consumer,
# cmake_consumer_errors, cmake_consumer_rdc).
#
#   check.sh install   BUILD DIR        cmake --install BUILD into DIR/staged,
#                                       then move it to DIR/prefix (relocation)
#   check.sh cmake     BUILD DIR CUDACC this folder's project on DIR/prefix with
#                                       CUDACC (orion-cc or clang++ 22) as the
#                                       CUDA compiler: find_package, orion_tune
#   check.sh pkgconfig BUILD DIR CLANG  app.cu built by hand with CLANG and
#                                       pkg-config --cflags --libs orion
#   check.sh errors    BUILD DIR ORION_CC NVCC   misuse of orion_tune: one
#                                       clear configure error each
#   check.sh rdc       BUILD DIR        rdc/: a project that device-links
#                                       (CUDA_SEPARABLE_COMPILATION) with
#                                       DIR/prefix's orion-cc and no
#                                       find_package, CUDAToolkit_ROOT from
#                                       orion-config --cmake-cuda-root
#
# Each build is checked: the device code holds Orion's clones (cuobjdump), the
# program links liborionrt (nm: the static runtime inside, or readelf: the
# shared one by its soname and a run path into the prefix), and nothing names
# the build tree or the staging directory.  The programs run only where a GPU
# answers nvidia-smi; otherwise the test says so.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:?mode}
build=$(cd "${2:?build dir}" && pwd)
dir=${3:?work dir}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
prefix=$dir/prefix

fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
say() { printf '%s\n' "$*"; }
# The user's Orion settings must not leak into the test.
for v in $(env | sed -n 's/^\(ORION_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
unset CUDA_PATH

find_cuobjdump() {
  local c
  for c in "$(command -v cuobjdump || true)" /usr/local/cuda/bin/cuobjdump \
           "$build/pytools/nvidia/cu13/bin/cuobjdump"; do
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return; }
  done
  fail "no cuobjdump (PATH, /usr/local/cuda/bin, $build/pytools: scripts/setup.sh installs it)"
}

have_gpu() { command -v nvidia-smi >/dev/null && grep -q GPU <<<"$(nvidia-smi -L 2>/dev/null)"; }

# check_clones EXE: at least one Orion version besides the original and split.
check_clones() {
  local fns
  fns=$("$(find_cuobjdump)" -sass "$1" | sed -n 's/.*Function : //p')
  say "  $(basename "$1") device functions: $(echo $fns)"
  grep -i orion <<<"$fns" | grep -v split >/dev/null || fail "$1: no Orion clone in the device code"
}

# check_static EXE: liborionrt.a is inside.
check_static() {
  grep -q ' T __orion_launch_kernel$' <<<"$(nm "$1")" || fail "$1: liborionrt.a not linked (nm)"
  say "  $(basename "$1"): liborionrt linked in (T __orion_launch_kernel)"
}

# check_shared EXE: needs liborionrt.so.<major> and finds it in the prefix.
check_shared() {
  local dyn
  dyn=$(readelf -d "$1")
  grep -Eq 'NEEDED.*\[liborionrt\.so\.[0-9]+\]' <<<"$dyn" || fail "$1: does not need liborionrt.so.<major>: $dyn"
  grep -Eq "(RUNPATH|RPATH).*(\[|:)$prefix/lib(\]|:)" <<<"$dyn" || fail "$1: no run path to $prefix/lib: $dyn"
  grep -q ' U __orion_launch_kernel$' <<<"$(nm "$1")" || fail "$1: __orion_launch_kernel not from liborionrt.so"
  say "  $(basename "$1"): needs $(echo "$dyn" | grep -o 'liborionrt\.so\.[0-9]*'), run path $prefix/lib"
}

# no_leaks FILE...: no mention of the build tree's bin/lib or the staging dir.
no_leaks() {
  local f
  for f in "$@"; do
    ! grep -aq -e "$build/bin" -e "$build/lib" -e "$dir/staged" "$f" || fail "$f names the build tree or $dir/staged"
  done
}

run_app() {
  if have_gpu; then
    ORION_REPORT=1 "$1" || fail "$1 failed on the GPU"
  else
    say "  no GPU here (nvidia-smi): $(basename "$1") built and linked, not run"
  fi
}

case $mode in
install)
  rm -rf "$dir/staged" "$prefix"
  cmake --install "$build" --prefix "$dir/staged" >"$dir/install.log" || { cat "$dir/install.log"; fail "cmake --install"; }
  mv "$dir/staged" "$prefix"
  for f in bin/orion-cc bin/orion-ptxas bin/orion-config bin/orion-sass lib/OrionPass.so \
           lib/liborionrt.a include/orion/rt.h include/orion/nvcc_compat.h \
           lib/cmake/Orion/OrionConfig.cmake lib/cmake/Orion/OrionConfigVersion.cmake \
           lib/pkgconfig/orion.pc share/doc/orion/LICENSE lib/orion/cuda/bin/fatbinary lib/orion/cuda/bin/nvcc; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
  done
  so=$(readlink "$prefix/lib/liborionrt.so")
  real=$(readlink "$prefix/lib/$so")
  [[ $so =~ ^liborionrt\.so\.[0-9]+$ && $real == "$so".*.* && -f $prefix/lib/$real ]] ||
    fail "liborionrt.so -> $so -> $real: not a versioned soname chain"
  grep -q "SONAME.*\[$so\]" <<<"$(readelf -d "$prefix/lib/$real")" || fail "$real: soname is not $so"
  say "installed into $dir/staged, moved to $prefix; liborionrt.so -> $so -> $real"
  # The moved tools answer from where they are now.
  [ "$("$prefix/bin/orion-config" --prefix)" = "$prefix" ] || fail "orion-config --prefix"
  [ "$("$prefix/bin/orion-config" --plugin)" = "$prefix/lib/OrionPass.so" ] || fail "orion-config --plugin"
  ;;
cmake)
  cc=${4:?CUDA compiler}
  name=$(basename "$cc")
  work=$dir/cmake-$name
  rm -rf "$work"
  args=(-S "$here" -B "$work" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
        -DCMAKE_CUDA_COMPILER="$cc" -DCMAKE_CUDA_ARCHITECTURES=90)
  # CMake 3.25 (Debian 12) identifies clang with sm_52 probes, which CUDA 13 refuses.
  [ "$name" = orion-cc ] || args+=(-DCMAKE_CUDA_FLAGS=--cuda-gpu-arch=sm_90)
  cmake "${args[@]}" >"$work.configure.log" 2>&1 || { cat "$work.configure.log"; fail "configure with $cc"; }
  grep -q "Orion 0.1.0 from $prefix/lib/cmake/Orion" "$work.configure.log" || fail "find_package did not find $prefix"
  cmake --build "$work" -v >"$work.build.log" 2>&1 || { cat "$work.build.log"; fail "build with $cc"; }
  say "configured and built with $cc"
  compile=$(grep -E ' -c [^ ]*app\.cu' "$work.build.log")
  if [ "$name" = orion-cc ]; then
    # orion-cc loads the plugin itself: orion_tune must not load it twice.
    ! grep -q -- -fpass-plugin <<<"$compile" || fail "orion_tune added -fpass-plugin for orion-cc: $compile"
    grep -E -- '--orion-rt=none.*liborionrt\.a|liborionrt\.a.*--orion-rt=none' "$work.build.log" >/dev/null ||
      fail "the link of app does not switch orion-cc's runtime for Orion::rt"
  else
    [ "$(grep -c -- "-fpass-plugin=$prefix/lib/OrionPass.so .*--ptxas-path=$prefix/bin/orion-ptxas" <<<"$compile")" = 2 ] ||
      fail "orion_tune did not add the plugin and orion-ptxas: $compile"
    # and orion-cc's device code-generation defaults, each after -Xarch_device
    for w in $("$prefix/bin/orion-config" --codegen-flags); do
      [ "$w" = -Xarch_device ] && continue
      grep -qF -- "-Xarch_device $w" <<<"$compile" ||
        fail "orion_tune did not add -Xarch_device $w (orion-config --codegen-flags): $compile"
    done
  fi
  no_leaks "$work.build.log" "$work/app" "$work/app_shared"
  check_clones "$work/app"
  check_static "$work/app"
  check_clones "$work/app_shared"
  check_shared "$work/app_shared"
  run_app "$work/app"
  run_app "$work/app_shared"
  ;;
pkgconfig)
  clang=${4:?clang++}
  command -v pkg-config >/dev/null || { say "no pkg-config here: skipped"; exit 77; }
  work=$dir/pkgconfig
  rm -rf "$work" && mkdir -p "$work"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  ver=$(pkg-config --modversion orion) || fail "pkg-config does not find orion.pc in $PKG_CONFIG_PATH"
  [ "$ver" = "$("$prefix/bin/orion-config" --version)" ] || fail "orion.pc version $ver != orion-config --version"
  # orion.pc and orion-config give the same flags (paths normalised).
  norm() { sed "s|$prefix/lib/pkgconfig/../..|$prefix|g; s/ *$//"; }
  pc_cflags=$(pkg-config --cflags orion | norm)
  pc_libs=$(pkg-config --libs orion | norm)
  [ "$pc_cflags" = "$("$prefix/bin/orion-config" --cflags)" ] ||
    fail "pkg-config --cflags: '$pc_cflags' != orion-config --cflags: '$("$prefix/bin/orion-config" --cflags)'"
  [ "$pc_libs" = "$("$prefix/bin/orion-config" --ldflags)" ] ||
    fail "pkg-config --libs: '$pc_libs' != orion-config --ldflags: '$("$prefix/bin/orion-config" --ldflags)'"
  # shellcheck disable=SC2046 # the flags are meant to split
  "$clang" -x cuda --cuda-gpu-arch=sm_90 -O3 $(pkg-config --cflags orion) "$here/app.cu" \
    -o "$work/app" $(pkg-config --libs orion) || fail "build with pkg-config's flags"
  say "built $work/app with $clang \$(pkg-config --cflags orion) ... \$(pkg-config --libs orion)"
  no_leaks "$work/app"
  check_clones "$work/app"
  check_static "$work/app"
  run_app "$work/app"
  ;;
rdc)
  work=$dir/cmake-rdc
  rm -rf "$work"
  view=$("$prefix/bin/orion-config" --cmake-cuda-root)
  [ -x "$view/bin/fatbinary" ] && [ -x "$view/bin/nvcc" ] || fail "no CUDA view at $view"
  cmake -S "$here/rdc" -B "$work" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$prefix/bin/orion-cc" \
    -DCUDAToolkit_ROOT="$view" >"$work.configure.log" 2>&1 || { cat "$work.configure.log"; fail "configure"; }
  grep -q "CMAKE_CUDA_COMPILER_TOOLKIT_ROOT \"$view\"" "$work"/CMakeFiles/*/CMakeCUDACompiler.cmake ||
    fail "CMake did not take the toolkit from $view"
  cmake --build "$work" -v >"$work.build.log" 2>&1 || { cat "$work.build.log"; fail "build (device link)"; }
  grep -q -- '--image3=kind=elf\|-im=profile=sm_90' "$work.build.log" || fail "no device-link step in the build"
  say "configured and built with CUDA_SEPARABLE_COMPILATION through $view"
  check_clones "$work/rdc_app"
  check_static "$work/rdc_app"
  no_leaks "$work/rdc_app"
  run_app "$work/rdc_app"
  ;;
errors)
  # Misuse gives one clear configure error each.
  orion_cc=${4:?orion-cc} nvcc=${5:?nvcc}
  work=$dir/errors
  rm -rf "$work" && mkdir -p "$work/src"
  cat >"$work/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(misuse LANGUAGES ${LANGS})
find_package(Orion REQUIRED CONFIG)
add_executable(app main.cpp)
orion_tune(${TUNE})
EOF
  echo 'int main() { return 0; }' >"$work/src/main.cpp"
  expect_error() { # EXPECTED-TEXT CUDACC LANGS TUNE
    local b out
    b=$work/build-$(basename "$2")
    if out=$(cmake -S "$work/src" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$2" \
                 -DCMAKE_CUDA_ARCHITECTURES=90 "-DLANGS=$3" "-DTUNE=$4" 2>&1); then
      fail "orion_tune($4) with $2 and languages $3 configured"
    fi
    grep -q -F "$1" <<<"$(tr -s ' \n' ' ' <<<"$out")" || fail "orion_tune($4): expected '$1' in: $out"
    say "  orion_tune($4), $(basename "$2"), $3: $1"
  }
  expect_error "orion_tune(app): unknown argument(s) 'FROB' (expected STATIC or SHARED)" "$orion_cc" "CXX;CUDA" "app;FROB"
  expect_error "orion_tune(app): STATIC and SHARED exclude each other" "$orion_cc" "CXX;CUDA" "app;STATIC;SHARED"
  expect_error "orion_tune: no target named 'nosuch'" "$orion_cc" "CXX;CUDA" "nosuch"
  expect_error "orion_tune(app): the project has no CUDA language" "$orion_cc" "CXX" "app"
  expect_error "is NVIDIA; Orion needs -DCMAKE_CUDA_COMPILER=$prefix/bin/orion-cc or clang" "$nvcc" "CXX;CUDA" "app"
  ;;
*) fail "unknown mode '$mode' (install, cmake, pkgconfig, errors, rdc)" ;;
esac
say "PASS"
