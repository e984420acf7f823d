#!/usr/bin/env bash
# debug-series.sh - one program of a corpus pack run again and again on one
# decision cache, as measure.py runs it (the CUPTI tracer injected), with
# ORION_DEBUG=1, every run's stderr and trace kept:
#
#   debug-series.sh <pack dir> <program> <runs> <out dir> [<series>]
#
# <pack dir>: an unpacked pack.sh pack (src/<program>-cuda/{nvcc,orion},
# kerntime.so, lib/, programs.txt).  Each series (default 1) runs the nvcc
# build once (as measure.py's warm-up), then the Orion build <runs> times
# under ORION_MODE=adaptive on a fresh cache; run r of series s leaves
# <out>/<s>.<r>.err (stderr), <s>.<r>.tsv (the trace), <s>.<r>.json (the
# report), and <s>.cache at the end.  samples.py joins the first two;
# triples.py reads the traces.  Prints one line per run: its exit status
# and its re-check verdicts (keeps, reverts).
set -uo pipefail
[ $# -ge 4 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
pack=$(cd "$1" && pwd) || exit 1
prog=$2 runs=$3 series=${5:-1}
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 1
d=$pack/src/$prog-cuda
[ -x "$d/orion" ] && [ -x "$d/nvcc" ] || { echo "debug-series.sh: $d: no nvcc and orion builds" >&2; exit 1; }
line=$(grep -E "^$prog[[:space:]]" "$pack/programs.txt" | sed 's/#.*//') ||
  { echo "debug-series.sh: $prog: not in $pack/programs.txt" >&2; exit 1; }
read -r -a args <<<"$(awk '{$1 = $2 = ""; print}' <<<"$line")"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for ((s = 0; s < series; s++)); do
  rm -f "$out/$s.cache"
  (cd "$d" && ./nvcc "${args[@]}" > /dev/null 2>&1)
  for ((r = 0; r < runs; r++)); do
    (cd "$d" && ORION_MODE=adaptive CUDA_INJECTION64_PATH=$pack/kerntime.so \
      KERNTIME_OUT=$out/$s.$r.tsv ORION_CACHE=$out/$s.cache ORION_REPORT=$out/$s.$r.json \
      ORION_DEBUG=1 timeout 120 ./orion "${args[@]}" > /dev/null 2> "$out/$s.$r.err")
    rc=$?
    echo "series $s run $r: rc $rc, re-checks kept $(grep -c 're-check .* keeps' "$out/$s.$r.err"), reverted $(grep -c 'no longer wins' "$out/$s.$r.err")"
  done
done
