#!/usr/bin/env bash
# gpu.sh - one measurement call on the GPU machine:
#
#   gpu.sh <dir with pack.tar.xz> <result.tgz> [measure.py options...]
#
# unpacks pack.tar.xz (made by pack.sh) beside itself, prints the GPU and the
# driver, runs measure.py --pack <dir>/pack --out <tmp>/raw with the options
# given, and writes <tmp>/raw as one archive <result.tgz> (whatever is done
# when the deadline or an error stops it).
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1 res=$2; shift 2
[ -f "$dir/pack.tar.xz" ] || { echo "gpu.sh: $dir/pack.tar.xz: no such file" >&2; exit 1; }
tar -C "$dir" -xJf "$dir/pack.tar.xz" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
raw=$(mktemp -d)/raw
PYTHONUNBUFFERED=1 python3 "$dir/pack/measure.py" --pack "$dir/pack" --out "$raw" "$@"
rc=$?
tar -C "$(dirname "$raw")" -czf "$res" raw
echo "gpu.sh: measure.py exit $rc; $(du -h "$res" | cut -f1) in $res"
exit $rc
