# export_build.sh - sourced by corpus.sh and blocksize.sh: one corpus
# program's sources out of a HeCBench git directory, built with orion-cc.
#
#   export_build GIT_DIR PROGRAM DIR ORION_BUILD
#
# Writes the files of src/PROGRAM-cuda at the checkout's HEAD to DIR/src,
# compiles each DIR/src/*.cu with `orion-cc -O3 -std=c++17 -arch=sm_90`
# (-use_fast_math where the Makefile has it) to DIR/<name>.o with its build
# report DIR/build-<name>.json (log DIR/orion-cc-<name>.log), and sets
# `flags` to those compile flags (for the caller's nvcc builds) and the
# array `reports` to the --build-report= options of the reports that hold
# a kernel.  Requires DIR to exist and be empty of src/.
export_build() {
  local git_dir=$1 p=$2 d=$3 build=$4 f b
  for f in $(git -C "$git_dir" ls-tree -r --name-only HEAD "src/$p-cuda/"); do
    mkdir -p "$(dirname "$d/src/${f#src/$p-cuda/}")"
    git -C "$git_dir" show "HEAD:$f" > "$d/src/${f#src/$p-cuda/}"
  done
  flags="-O3 -std=c++17"
  grep -q -- -use_fast_math "$d/src/Makefile" && flags="$flags -use_fast_math"
  reports=()
  for f in "$d"/src/*.cu; do
    b=$(basename "$f" .cu)
    (cd "$d/src" && "$build/bin/orion-cc" $flags -arch=sm_90 -c "$f" -o "$d/$b.o" \
      --orion-report="$d/build-$b.json") > "$d/orion-cc-$b.log" 2>&1
    grep -q '"kernel"' "$d/build-$b.json" && reports+=(--build-report="$d/build-$b.json")
  done
  return 0
}
