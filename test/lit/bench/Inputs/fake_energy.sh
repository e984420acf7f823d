#!/bin/sh
# Stand-in for benchmarks/eval/energy: runs the command and reports an
# energy that grows with the program's -r argument (1000 + 50 mJ per
# repetition; 40 per repetition for versions other than the original).
out=$2; shift 3
reps=1; prev=
for a in "$@"; do [ "$prev" = -r ] && reps=$a; prev=$a; done
"$@"; rc=$?
per=50; case "${ORION_MODE:-}" in fixed:*=*) per=40 ;; esac
echo "ENERGY mj=$((1000 + per * reps)) wall_s=0.1 gpu=Fake" > "$out"
exit $rc
