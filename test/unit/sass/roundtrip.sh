#!/usr/bin/env bash
# roundtrip.sh - build the sass/ cubin corpus and check that the identity
# rewrite (orion-sass rewrite) reproduces every cubin: the bytes, the text of
# `cuobjdump -elf` and of `nvdisasm` must all be identical; `orion-sass info`
# and `dump` must succeed on each.
#
#   roundtrip.sh ORION_SASS NVCC CUOBJDUMP NVDISASM WORKDIR SRCROOT
#
# Corpus (about 50 cubins, ~20 s of nvcc on 2 cores), every source from the repo:
#   test/lit/e2e/*.cu, examples/demo.cu, benchmarks/programs/*.cu
#     nvcc -cubin -arch=sm_90                        (all)
#     nvcc -cubin -arch=sm_90 -maxrregcount=32       (all: spilling versions)
#     nvcc -cubin -arch=sm_80                        (e2e + demo)
#     nvcc -cubin -arch=sm_90 -rdc=true              (e2e + demo: ET_REL cubins)
# WORKDIR/corpus keeps the cubins (the fuzz test seeds from it).  Exit 77
# (skipped) without nvcc; without cuobjdump or nvdisasm that comparison is
# skipped with a message and the byte comparison still runs.
set -u
sass=$1 nvcc=$2 cuobjdump=$3 nvdisasm=$4 work=$5 src=$6
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "skipped: no nvcc to build the cubin corpus"
  exit 77
fi
[ -x "$cuobjdump" ] || { echo "note: no cuobjdump: 'cuobjdump -elf' comparison skipped"; cuobjdump=; }
[ -x "$nvdisasm" ] || { echo "note: no nvdisasm: 'nvdisasm' comparison skipped"; nvdisasm=; }
corpus=$work/corpus
out=$work/out
rm -rf "$out"
mkdir -p "$corpus" "$out"

e2e=("$src"/test/lit/e2e/*.cu "$src"/examples/demo.cu)
progs=("$src"/benchmarks/programs/*.cu)
jobs=()
for f in "${e2e[@]}" "${progs[@]}"; do
  jobs+=("sm90|$f|-arch=sm_90" "r32|$f|-arch=sm_90 -maxrregcount=32")
done
for f in "${e2e[@]}"; do
  jobs+=("sm80|$f|-arch=sm_80" "rdc|$f|-arch=sm_90 -rdc=true")
done

build() { # tag|file|flags
  IFS='|' read -r tag f flags <<<"$1"
  local o="$corpus/$(basename "$f" .cu).$tag.cubin"
  [ -s "$o" ] && [ "$o" -nt "$f" ] && return 0
  # shellcheck disable=SC2086
  "$nvcc" -cubin $flags -I"$src/benchmarks/programs" "$f" -o "$o.tmp" 2>"$o.log" && mv "$o.tmp" "$o" ||
    { echo "FAIL: nvcc -cubin $flags $f"; cat "$o.log"; return 1; }
}
export -f build
export nvcc src corpus
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c 'build "$@"' _ {} || exit 1

fail=0 n=0
for c in "$corpus"/*.cubin; do
  n=$((n + 1))
  b=$(basename "$c")
  o="$out/$b"
  if ! "$sass" rewrite "$c" -o "$o"; then
    echo "FAIL: orion-sass rewrite $b"; fail=1; continue
  fi
  cmp -s "$c" "$o" || { echo "FAIL: $b: rewritten bytes differ"; cmp "$c" "$o" | head -1; fail=1; }
  "$sass" info "$c" >/dev/null || { echo "FAIL: orion-sass info $b"; fail=1; }
  "$sass" dump "$c" >/dev/null || { echo "FAIL: orion-sass dump $b"; fail=1; }
  # the tools print the file name: compare from the same name
  for tool in cuobjdump nvdisasm; do
    exe=${!tool}
    [ -n "$exe" ] || continue
    args=(); [ $tool = cuobjdump ] && args=(-elf)
    cp "$c" "$out/t.cubin"; "$exe" "${args[@]}" "$out/t.cubin" >"$out/a.txt" 2>&1; ra=$?
    cp "$o" "$out/t.cubin"; "$exe" "${args[@]}" "$out/t.cubin" >"$out/b.txt" 2>&1; rb=$?
    if [ $ra -ne 0 ] || ! cmp -s "$out/a.txt" "$out/b.txt" || [ $rb -ne 0 ]; then
      echo "FAIL: $b: $tool output differs (status $ra/$rb)"; diff "$out/a.txt" "$out/b.txt" | head -5; fail=1
    fi
  done
done
echo "$n cubins: bytes${cuobjdump:+, cuobjdump -elf}${nvdisasm:+, nvdisasm} compared"
[ $n -ge 40 ] || { echo "FAIL: corpus has only $n cubins"; fail=1; }
exit $fail
