#!/usr/bin/env bash
# gpu.sh - one measurement call on the GPU machine:
#
#   gpu.sh <dir with pack.tar.xz> <result.tgz> [--shard a,b,...]... [measure.py options...]
#
# unpacks pack.tar.xz (made by pack.sh) beside itself, prints the GPU and the
# driver, runs measure.py --pack <dir>/pack --out <tmp>/raw with the options
# given, and writes <tmp>/raw as one archive <result.tgz> (whatever is done
# when the deadline or an error stops it).  With --shard (shards.py plans
# them), shard i runs as its own measure.py on GPU i (CUDA_VISIBLE_DEVICES=i),
# all at once, into raw/gpu<i>; every mode of a program runs on one GPU.
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 res=$2; shift 2
shards=() opts=()
while [ $# -gt 0 ]; do
  case $1 in
    --shard) [ $# -ge 2 ] || { echo "gpu.sh: --shard needs a program list" >&2; exit 2; }
             shards+=("$2"); shift 2 ;;
    *) opts+=("$1"); shift ;;
  esac
done
[ -f "$dir/pack.tar.xz" ] || { echo "gpu.sh: $dir/pack.tar.xz: no such file" >&2; exit 1; }
tar -C "$dir" -xJf "$dir/pack.tar.xz" || exit 1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader
raw=$(mktemp -d)/raw
measure() { PYTHONUNBUFFERED=1 python3 "$dir/pack/measure.py" --pack "$dir/pack" "$@"; }
if [ ${#shards[@]} -eq 0 ]; then
  measure --out "$raw" "${opts[@]}"
  rc=$?
else
  ngpu=$(nvidia-smi -L | grep -c '^GPU')
  [ "${#shards[@]}" -le "$ngpu" ] || { echo "gpu.sh: ${#shards[@]} shards, $ngpu GPUs" >&2; exit 2; }
  pids=()
  for i in "${!shards[@]}"; do
    mkdir -p "$raw"
    CUDA_VISIBLE_DEVICES=$i measure --out "$raw/gpu$i" "${opts[@]}" --programs "${shards[$i]}" \
      > "$raw/gpu$i.log" 2>&1 &
    pids+=($!)
  done
  rc=0
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || rc=$?
    sed "s/^/gpu$i: /" "$raw/gpu$i.log"
  done
fi
tar -C "$(dirname "$raw")" -czf "$res" raw
echo "gpu.sh: measure.py exit $rc; $(du -h "$res" | cut -f1) in $res"
exit $rc
