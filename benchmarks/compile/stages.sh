#!/usr/bin/env bash
# stages.sh - where the time of one compile of many kernels goes, stage by
# stage.
#
#   benchmarks/compile/stages.sh [ORION_BUILD_OR_PREFIX] [KERNELS]
#
# Writes KERNELS (default 2000) small kernels (many_kernels.py's) and, for
# `orion-cc --no-orion` (clang 22) and `orion-cc`, both with
# `-O3 --cuda-gpu-arch=sm_90 -c`: times the whole compile, then asks clang
# for its jobs (`orion-cc -###` gives the clang command, `clang -###` the
# jobs) and runs them one after another, each timed (wall seconds and peak
# resident memory, /usr/bin/time): device cc1, ptxas (orion-ptxas for
# Orion), fatbinary, host cc1.  Orion's device cc1 is also run up to LLVM
# IR without OrionPass (front end + LLVM's -O3) and with it (+ OrionPass),
# so that the PTX emission is what the full job adds; inside orion-ptxas
# each ptxas run is timed through a logging wrapper (ORION_REAL_PTXAS) and
# listed with its number of --entry options.  One run each: a CPU figure,
# the machine's load matters.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
orion=$(cd "${1:-$here/../../build}" && pwd)
n=${2:-2000}
cc=$orion/bin/orion-cc
ptxas=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas
[ -x "$cc" ] || { echo "stages: $cc: not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "stages: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export TMPDIR=$w
cd "$w"
python3 -c "import sys; sys.path.insert(0, '$here'); import many_kernels as m; open('k.cu', 'w').write(m.source($n))"
flags=(-O3 --cuda-gpu-arch=sm_90 -c k.cu -o k.o)

# The logging ptxas: one line per run, "<seconds> <KiB> <entries> <-v?>".
cat > "$w/ptxas-log" <<EOF
#!/usr/bin/env bash
e=0; v=-; for a in "\$@"; do [ "\$a" = --entry ] && e=\$((e + 1)); [ "\$a" = -v ] && v=-v; done
/usr/bin/time -f "%e %M \$e \$v" -a -o "$w/ptxas.log" "$ptxas" "\$@"
EOF
chmod +x "$w/ptxas-log"

row() { # label: reads $w/t ("seconds KiB")
  read -r s kb < "$w/t"
  printf '| %s | %s | %.0f |\n' "$1" "$s" "$(echo "$kb / 1024" | bc -l)"
}
timed() { # label, command...
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$w/t" "$@" >/dev/null 2>"$w/err" || { cat "$w/err" >&2; exit 1; }
  row "$label"
}
# The jobs of orion-cc [OPTIONS], one per line, as clang -### quotes them.
jobs_of() {
  local line
  line=$("$cc" "$@" -### "${flags[@]}" 2>&1 | sed -n 1p)
  eval "set -- $line"
  "$@" -### 2>&1 | grep '^ "'
}
stage_name() { # a job's label from its command
  case "$1" in
    *'"-triple" "nvptx64'*) echo "device cc1 (whole job)" ;;
    *'"-cc1" "-triple" "x86_64'*) echo "host cc1" ;;
    *orion-ptxas*) echo "orion-ptxas (all its ptxas runs)" ;;
    *'/ptxas"'*) echo "ptxas" ;;
    *fatbinary*) echo "fatbinary" ;;
    *) echo "other job" ;;
  esac
}

echo "| stage ($n kernels) | wall (s) | peak RSS (MiB) |"
echo "|---|---:|---:|"
for mode in clang orion; do
  opt=(); [ $mode = clang ] && opt=(--no-orion)
  timed "**$mode: whole compile**" "$cc" "${opt[@]}" "${flags[@]}"
  mapfile -t jobs < <(jobs_of "${opt[@]}")
  for j in "${jobs[@]}"; do
    eval "set -- $j"
    label=$(stage_name "$j")
    if [ $mode = orion ] && [[ $label == device* ]]; then
      ir=(); noplug=()
      for a in "$@"; do
        [ "$a" = -S ] && a=-emit-llvm-bc
        ir+=("$a")
        [[ $a == -fpass-plugin=* ]] || noplug+=("$a")
      done
      timed "$mode: device cc1 to IR without OrionPass (front end, LLVM -O3)" "${noplug[@]}"
      timed "$mode: device cc1 to IR with OrionPass" "${ir[@]}"
    fi
    if [[ $label == orion-ptxas* ]]; then
      rm -f "$w/ptxas.log"
      ORION_REAL_PTXAS=$w/ptxas-log timed "$mode: $label" "$@"
      while read -r s kb e v; do
        printf '| %s: ptxas%s %s | %s | %.0f |\n' "$mode" "$([ "$v" = -v ] && echo " -v")" \
          "$([ "$e" -gt 0 ] && echo "on $e entries" || echo "(all entries)")" "$s" \
          "$(echo "$kb / 1024" | bc -l)"
      done < "$w/ptxas.log"
    else
      timed "$mode: $label" "$@"
    fi
  done
done
