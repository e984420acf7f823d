#!/usr/bin/env bash
# selftest.sh - checks the corpus harness without a GPU:
#  1. nvcc-compat maps nvcc's options (orion-cc -### shows the clang command)
#     and refuses an unmapped one;
#  2. measure.py + analyze.py on a pack of fake programs (shell scripts that
#     write the tracer's file themselves, with known kernel times that
#     depend on ORION_MODE), checking the computed medians, oracle, ratios,
#     failed-run detection and the clone-name mapping; parity.py (named
#     and unnamed losses, the previous-build check), merge-raw.py, ab.py,
#     capture.py (a mode's capture of the fixed versions' wins), rechecks.py;
#     shards.py and gpu.sh --shard (one measure.py per GPU, a fake nvidia-smi).
#  3. tunesim.py + tunesim on made-up traces: a 20 % win found and kept,
#     a 10 %-slower version never chosen, a kernel whose launches differ
#     between versions left out; --event-us shrinks the claimed speedup, as
#     --gap 1,US does (--gap 0,US changes nothing; --drop-gaps all then feeds nothing).
#  4. relink.sh links a fake build again with another prefix, compiling nothing;
#  5. triples.py finds the re-check triples of a made-up trace;
#  6. samples.py joins made-up debug lines with their traced launches
#     (--by-timing, --triples too);
#  7. debug-series.sh runs a fake program in series on one cache each;
#  8. losses.py splits a made-up run's lost gain by phase.
#  9. ceiling.py bounds what a tuner that needs evidence keeps, from the launch counts.
# 10. inprogram.py sets each version's time inside the adaptive runs against its time alone.
#   selftest.sh [orion-cc [tunesim]]  (default: the repo's build/bin/...)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cc=${1:-$here/../../build/bin/orion-cc}
tunesim=${2:-$(dirname "$cc")/tunesim}
t=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then echo "selftest: keeping $t" >&2; else trap 'rm -rf "$t"' EXIT; fi
fail() { echo "selftest: FAIL: $*" >&2; exit 1; }

# 1. nvcc-compat
cmd=$("$here/nvcc-compat" "$cc" -### -std=c++17 -Xcompiler -Wall,-Wextra -arch=sm_90 -O3 \
        -use_fast_math --expt-relaxed-constexpr -x cu -c a.cu -o a.o 2>&1)
for want in '"--cuda-gpu-arch=sm_90"' '"-Wall" "-Wextra"' '"-fgpu-flush-denormals-to-zero"' \
            '"-fgpu-approx-transcendentals"' '"-Xarch_device" "-ffast-math"' \
            '"-nvvm-reflect-add=__CUDA_PREC_SQRT=0"' '"-x" "cuda"' '"-Wno-register"'; do
  grep -qF -- "$want" <<<"$cmd" || fail "nvcc-compat: $want not in: $cmd"
done
grep -q 'expt-relaxed' <<<"$cmd" && fail "nvcc-compat passed --expt-relaxed-constexpr on"
cmd=$("$here/nvcc-compat" "$cc" -### -gencode arch=compute_90,code=sm_90 -c a.cu 2>&1)
grep -qF '"--cuda-gpu-arch=sm_90"' <<<"$cmd" || fail "nvcc-compat: -gencode not mapped: $cmd"
if err=$("$here/nvcc-compat" "$cc" -rdc=true -c a.cu 2>&1); then fail "-rdc=true accepted"; fi
grep -q "'-rdc=true' is not mapped" <<<"$err" || fail "no clear error for -rdc=true: $err"

# 2. a pack of fake programs: kernel k (orig 10 ms, r64 8 ms, adaptive 9 ms)
#    and kernel j (5 ms in every mode); prog2's clang build fails its check.
mkdir -p "$t/pack/src/prog1-cuda" "$t/pack/src/prog2-cuda"
: >"$t/pack/kerntime.so"
printf 'prog1 reg 7 # fake\nprog2 single # fake\n' >"$t/pack/programs.txt"
fake() { # requires $1 = file, $2 = ns of k for the plain builds, $3 = exit text
  cat >"$1" <<EOF
#!/usr/bin/env bash
m=\${ORION_MODE:-}; [ -z "\$m" ] && [ -n "\${ORION_CACHE:-}" ] && m=adaptive
case \${m:-plain} in
  plain) k=$2 ;; off|fixed:orig) k=10000000; n=_Z1kPf ;;
  fixed:r64|fixed:_Z1kPf=r64) k=8000000; n=_Z12k__orion_r64Pf ;; fixed:*) k=10000000 ;;
  *) k=9000000; n=_Z12k__orion_r64Pf ;;
esac
[ "\${ORION_SPLIT:-0}" = 1 ] && k=8500000
n=\${n:-_Z1kPf}
{ printf '0\t%d\t1\tkerntime_warm\n' 999; printf '100\t%d\t8\t%s\n' \$((100 + k)) "\$n"
  printf '0\t5000000\t8\t_Z1jv\n# dropped 0\n'; } >"\$KERNTIME_OUT"
[ -n "\${ORION_REPORT:-}" ] && [ "\$ORION_REPORT" != json ] &&
  printf '{"orion_report":1,"configs":[{"kernel":"_Z1kPf","block":[256,1,1],"chosen":"r64","speedup":1.1,"iterations":3,"launches":1,"versions":[{"tag":"orig"},{"tag":"r64"},{"tag":"p32"}]}]}\n' >"\$ORION_REPORT"
[ -n "\${DEVLOG:-}" ] && echo "\${CUDA_VISIBLE_DEVICES:-none}" >>"\$DEVLOG.\${PWD##*/}"
echo "$3"; exit
EOF
  chmod +x "$1"
}
for p in prog1 prog2; do
  fake "$t/pack/src/$p-cuda/nvcc" 10000000 PASS
  fake "$t/pack/src/$p-cuda/orion" 10000000 PASS
done
fake "$t/pack/src/prog1-cuda/clang" 12000000 PASS
fake "$t/pack/src/prog2-cuda/clang" 12000000 "check FAILED"
printf '\0_Z12k__orion_r64Pf\0_Z14k__orion_splitPf\0' >>"$t/pack/src/prog1-cuda/orion"
python3 "$here/measure.py" --pack "$t/pack" --out "$t/raw" --runs 3 --traces \
  --modes nvcc,clang,off,adaptive,cached,fixed,claims >"$t/measure.log"
# claims: r64 alone (8 ms against off's 10: 1.25) against the report's 1.1
python3 "$here/claims.py" "$t/raw" >"$t/claims.md"
grep -q '^| prog1 | _Z1kPf | r64 | 1.100 1.100 1.100 | 10 | 8 | 1.250 | 0.880 |  |  |$' "$t/claims.md" &&
  grep -q 'within 2 % of the versions timed alone: 0 of 2' "$t/claims.md" || fail "claims: $(cat "$t/claims.md")"
# the in-run ratio from an adaptive trace: orig launches of 10 and 12 us, r64 of 8: 11 / 8 = 1.375
mkdir -p "$t/rawc/traces"; cp "$t/raw"/*.csv "$t/rawc/"
printf '# kernel 0 _Z1kPf\n0 10000 8 orig\n0 8000 8 r64\n0 12000 8 orig\n0 8000 8 r64\n# dropped 0\n' |
  gzip >"$t/rawc/traces/prog1.adaptive.0.tsv.gz"
python3 "$here/claims.py" "$t/rawc" >"$t/claimsc.md"  # to a file: grep -q would close the pipe early
grep -q '^| prog1 | _Z1kPf | r64 | .* | 1.375 | 0.800 |$' "$t/claimsc.md" ||
  fail "claims' in-run ratio: $(cat "$t/claimsc.md")"
# traces: kernel j starts first (index 0); k's launch carries the clone's tag
tr=$(zcat "$t/raw/traces/prog1.fixed_r64.1.tsv.gz")
[ "$tr" = $'# kernel 0 _Z1jv\n# kernel 1 _Z1kPf\n0 5000000 8 orig\n1 8000000 8 r64\n# dropped 0' ] ||
  fail "trace of prog1 fixed:r64: $tr"
[ -f "$t/raw/traces/prog1.adaptive.2.json" ] || fail "no report kept beside the adaptive trace"
[ -f "$t/raw/traces/prog1.off.0.tsv.gz" ] && [ ! -e "$t/raw/traces/prog1.nvcc.0.tsv.gz" ] ||
  fail "traces kept for the wrong modes: $(ls "$t/raw/traces")"
# split: adaptive with ORION_SPLIT=1 (the fake's k takes 8.5 ms then), its report kept
python3 "$here/measure.py" --pack "$t/pack" --out "$t/raws" --runs 3 --modes off,split \
  --programs prog1 >/dev/null
n=$(grep -c '^prog1,split,[0-2],0,ok,' "$t/raws/runs.csv"); [ "$n" = 3 ] || fail "prog1: $n split runs, want 3"
grep -q '^prog1,split,0,_Z1kPf,8500000,1$' "$t/raws/kernels.csv" || fail "split runs without ORION_SPLIT=1"
grep -q '^prog1,split,0,_Z1kPf,256x1x1,r64,' "$t/raws/choices.csv" || fail "no report of the split runs"
# shards.py + gpu.sh --shard: by an earlier runs.csv both take 1 s a run, and prog2 had 4 fixed
# versions timed against prog1's 2 in its binary (orig, r64), so prog2 goes first, to GPU 0;
# a fake nvidia-smi with 2 GPUs; each shard's measure.py writes raw/gpu<i>, its programs see GPU i
mkdir -p "$t/hist"
{ echo 'program,mode,run,rc,check,wall_s,gpu_ns,launches,dropped'
  echo 'prog1,off,0,0,ok,1.0,1,1,0'; echo 'prog2,off,0,0,ok,1.0,1,1,0'
  for v in orig a b c; do echo "prog2,fixed:$v,0,0,ok,1.0,1,1,0"; done; } >"$t/hist/runs.csv"
python3 "$here/shards.py" --pack "$t/pack" --runs-csv "$t/hist/runs.csv" --gpus 2 >"$t/shards" 2>/dev/null
[ "$(cat "$t/shards")" = $'prog2\nprog1' ] || fail "shards.py: $(cat "$t/shards")"
mkdir -p "$t/bin" "$t/g"
printf '#!/bin/sh\n[ "$1" = -L ] && printf "GPU 0: a\\nGPU 1: b\\n" || echo fake\n' >"$t/bin/nvidia-smi"
chmod +x "$t/bin/nvidia-smi"
cp -r "$t/pack" "$t/gp" && cp "$here/measure.py" "$here/../eval/benchlib.py" "$t/gp/"
tar -C "$t" -cJf "$t/g/pack.tar.xz" --transform 's,^gp,pack,' gp
PATH=$t/bin:$PATH DEVLOG=$t/dev bash "$here/gpu.sh" "$t/g" "$t/g/raw.tgz" --shard "$(sed -n 1p "$t/shards")" \
  --shard "$(sed -n 2p "$t/shards")" --runs 1 --modes off >"$t/gpu.log" 2>&1 || fail "gpu.sh: $(cat "$t/gpu.log")"
tar -C "$t/g" -xzf "$t/g/raw.tgz"
grep -q '^prog2,off,0,0,ok' "$t/g/raw/gpu0/runs.csv" && grep -q '^prog1,off,0,0,ok' "$t/g/raw/gpu1/runs.csv" &&
  ! grep -q '^prog1' "$t/g/raw/gpu0/runs.csv" || fail "gpu.sh shards: $(cat "$t/gpu.log")"
[ "$(sort -u "$t/dev.prog2-cuda")" = 0 ] && [ "$(sort -u "$t/dev.prog1-cuda")" = 1 ] ||
  fail "gpu.sh: shard's programs not on their GPU: $(cat "$t"/dev.*)"
python3 "$here/analyze.py" "$t/raw" --out "$t/res" >"$t/analyze.log"
row() { grep "^$1," "$t/res/$2"; }
# tags: orig and r64 from the binary, p32 from the report; fixed runs of each
grep -q '^prog1,_Z1kPf,p32$' "$t/raw/tags.csv" || fail "tags.csv lacks p32 from the report"
n=$(grep -c '^prog1,fixed:' "$t/raw/runs.csv"); [ "$n" = 9 ] || fail "prog1: $n fixed runs, want 9"
# prog1: nvcc 15, clang 17, off 15, adaptive 14, cached 14, oracle 8+5 = 13 ms
want='prog1,reg,15,17,15,14,14,13,0.9333,0.9333,0.9286'
[[ $(row prog1 programs.csv) == "$want"* ]] || fail "programs.csv prog1: $(row prog1 programs.csv), want $want..."
grep -q '^prog1,_Z1kPf,1,10,12,10,9,9,10,r64,8,0.8889,0.25,0.5,' "$t/res/kernels.csv" ||
  fail "kernels.csv prog1 k: $(grep '^prog1,_Z1kPf' "$t/res/kernels.csv")"
grep -q '^prog2,clang,.*,fail,' "$t/raw/runs.csv" || fail "prog2's failing clang runs not marked"
[[ $(row prog2 programs.csv) == prog2,single,15,,15,* ]] || fail "prog2: failed runs counted: $(row prog2 programs.csv)"
grep -q 'Adaptive (tuning included) <= 1.01 x off, per program: met on 2 of 2' "$t/res/corpus.md" ||
  fail "corpus.md check line: $(grep Adaptive "$t/res/corpus.md")"
# capture.py: another call's split runs, where off took 20 ms for k: split at 17 keeps
# 3 of the 4 ms that r64 (0.8 x the original alone) would save there, 75 % (run -1, a cache's
# filling run, is no sample)
mkdir -p "$t/rawcap"
{ echo program,mode,run,kernel,gpu_ns,launches; echo "prog1,split,-1,_Z1kPf,90000000,1"
  echo "prog1,split,-1,_Z1jv,90000000,1"
  for r in 0 1 2; do echo "prog1,off,$r,_Z1kPf,20000000,1"; echo "prog1,split,$r,_Z1kPf,$((16 + r))000000,1"
    echo "prog1,off,$r,_Z1jv,5000000,1"; echo "prog1,split,$r,_Z1jv,5000000,1"; done; } >"$t/rawcap/kernels.csv"
python3 "$here/capture.py" --kernels "$t/res/kernels.csv" --mode split "$t/rawcap" >"$t/capture.md"
grep -q '^| prog1 | _Z1kPf | r64 | 25.0% | 20 | 17 | 75% | 50% |$' "$t/capture.md" &&
  grep -q 'split <= 1.01 x off: 1 of 1 programs' "$t/capture.md" &&
  grep -q 'split >= 0.98 x oracle on kernels >= 1 ms: 1 of 2' "$t/capture.md" &&
  grep -q 'split captures >= 80 % on 0 of 1' "$t/capture.md" || fail "capture.py: $(cat "$t/capture.md")"
# --per-kernel: k alone on r64 (the others on the original) at 18 ms in the same runs: a gain
# of 11.1 %, of which split at 17 keeps more than all (150 %); without it, as above
for r in 0 1 2; do echo "prog1,alone:r64:_Z1kPf,$r,_Z1kPf,18000000,1"
  echo "prog1,alone:r64:_Z1kPf,$r,_Z1jv,5000000,1"; done >>"$t/rawcap/kernels.csv"
python3 "$here/capture.py" --kernels "$t/res/kernels.csv" --mode split --per-kernel "$t/rawcap" >"$t/capture.md"
grep -q '^| prog1 | _Z1kPf | r64 | 11.1% | 20 | 17 | 150% | 50% |$' "$t/capture.md" &&
  grep -q 'split captures >= 80 % on 1 of 1' "$t/capture.md" || fail "capture.py --per-kernel: $(cat "$t/capture.md")"
python3 "$here/capture.py" --kernels "$t/res/kernels.csv" --mode split "$t/rawcap" >"$t/capture.md"
grep -q '^| prog1 | _Z1kPf | r64 | 25.0% | 20 | 17 | 75% | 50% |$' "$t/capture.md" ||
  fail "capture.py without --per-kernel read the alone runs: $(cat "$t/capture.md")"
# rechecks.py: a reverted kernel k whose u8 is 5 % faster around the original's launch 2
mkdir -p "$t/rawrc/traces"
printf '{"configs":[{"kernel":"_Z1kPf","original":"orig","chosen":"orig","source":"reverted","timed_samples":30,"gap_samples":4},{"kernel":"_Z1jv","original":"orig","chosen":"r64","source":"tuned","timed_samples":10,"gap_samples":0}]}\n' \
  >"$t/rawrc/traces/p.adaptive.0.json"
printf '# kernel 0 _Z1kPf\n0 90000 8 u8\n0 95000 8 u8\n0 100000 8 orig\n0 95000 8 u8\n' |
  gzip >"$t/rawrc/traces/p.adaptive.0.tsv.gz"
python3 "$here/rechecks.py" "$t/rawrc" >"$t/rechecks.txt"
grep -q 'other than the original (reverted included): 2; reverted by a re-check: 1' "$t/rechecks.txt" &&
  grep -q 'p.adaptive.0.tsv.gz: 2 u8 -0.0513$' "$t/rechecks.txt" &&
  grep -q '^\* timed samples: 40; the GPU may have idled inside 4 (p 4)$' "$t/rechecks.txt" ||
  fail "rechecks.py: $(cat "$t/rechecks.txt")"
# two raw directories (two GPU calls) read as one
mkdir -p "$t/raw2"; for f in runs kernels tags choices; do head -1 "$t/raw/$f.csv" >"$t/raw2/$f.csv"; done
grep '^prog2,' "$t/raw/runs.csv" >>"$t/raw2/runs.csv"; grep '^prog2,' "$t/raw/kernels.csv" >>"$t/raw2/kernels.csv"
for f in runs kernels; do grep -v '^prog2,' "$t/raw/$f.csv" >"$t/x" && mv "$t/x" "$t/raw/$f.csv"; done
python3 "$here/analyze.py" "$t/raw" "$t/raw2" --out "$t/res2" >/dev/null
cmp -s "$t/res/programs.csv" "$t/res2/programs.csv" || fail "two raw dirs: $(diff "$t/res/programs.csv" "$t/res2/programs.csv")"
# parity.py: a loss with a named cause, one without, one within 2 %
printf 'program,class,nvcc_ms,clang_ms,off_ms,adaptive_ms\na,reg,10,12,10.5,10.4\nb,reg,10,10.2,10,10.2\nc,reg,10,11,11.5,11.5\n' >"$t/par.csv"
printf '# causes\na  the x loop\n' >"$t/causes.txt"
python3 "$here/parity.py" "$t/par.csv" --causes "$t/causes.txt" --out "$t/parity.md"
grep -q '^| a | 10 | 12 | 10.5 | 10.4 | 1.200 | 1.050 | 1.040 | 0.867 | the x loop |$' "$t/parity.md" &&
  grep -q '^| c | .* | 1.150 | 1.045 | not named |$' "$t/parity.md" &&
  grep -q 'within 2 % of nvcc: 1 of 3 programs' "$t/parity.md" &&
  grep -q 'without a named cause: 1 (c)' "$t/parity.md" &&
  grep -q 'more than 1 % slower on 1 of 3: c 1.045' "$t/parity.md" || fail "parity.py: $(cat "$t/parity.md")"
# merge-raw.py leaves out the programs a changed list marks; ab.py: off against clang
printf 'prog1 same\nprog2 differs\n' >"$t/changed.txt"
python3 "$here/merge-raw.py" "$t/m" "$t/raw:$t/changed.txt" "$t/raw2" >/dev/null
! grep -q '^prog2,' "$t/m/1/runs.csv" && grep -q '^prog1,' "$t/m/1/runs.csv" &&
  grep -q '^prog2,' "$t/m/2/runs.csv" || fail "merge-raw.py: $(cut -d, -f1 "$t/m/1/runs.csv" | sort -u)"
python3 "$here/ab.py" "$t/raw" >"$t/ab.md"
grep -q '^| prog1 | 15 | 0.0% | 3 | 17 | 0.0% | 3 | 0.882 |$' "$t/ab.md" || fail "ab.py: $(cat "$t/ab.md")"
# the same with mode B read from a second directory (here a copy), and the choices compared
cp -r "$t/raw" "$t/rawb"
python3 "$here/ab.py" "$t/raw" "$t/rawb" --modes off,clang --choices >"$t/ab2.md"
grep -q '^| prog1 | 15 | 0.0% | 3 | 17 | 0.0% | 3 | 0.882 |$' "$t/ab2.md" || fail "ab.py two dirs: $(cat "$t/ab2.md")"
python3 "$here/ab.py" "$t/raw" "$t/rawb" --modes adaptive,off --choices >"$t/ab3.md"
grep -q '^\* prog1 .*: A .*; B $' "$t/ab3.md" || fail "ab.py --choices: $(cat "$t/ab3.md")"
# 3. replays: program p, kernel _Z1av (orig 1 ms a launch, r64 0.8 ms, p32
#    1.1 ms), 200 launches of 1000 blocks, 0.5 % noise; kernel _Z1bv has 3
#    launches on orig and 4 on r64: not replayed
mkdir -p "$t/tr/traces"
python3 - "$t/tr/traces" <<'PY'
import gzip, json, random, sys
d = sys.argv[1]
random.seed(7)
speed = {'orig': 1.0, 'r64': 0.8, 'p32': 1.1}
vers = [dict(tag='p32', warps=32, regs=40, pad=4096, shares_orig=1, risk=0.5),
        dict(tag='orig', warps=64, regs=40, pad=0, shares_orig=1, risk=0.25),
        dict(tag='r64', warps=64, regs=32, pad=0, shares_orig=0, risk=0.03)]
for r in (0, 1):
    rep = dict(configs=[dict(kernel=k, block=[256, 1, 1], source='tuned', original='orig',
                             dir=1, sms=132, versions=vers) for k in ('_Z1av', '_Z1bv')])
    json.dump(rep, open('%s/p.adaptive.%d.json' % (d, r), 'w'))
    for mode, tag in (('off', 'orig'), ('fixed_orig', 'orig'), ('fixed_r64', 'r64'),
                      ('fixed_p32', 'p32'), ('adaptive', 'orig')):
        with gzip.open('%s/p.%s.%d.tsv.gz' % (d, mode, r), 'wt') as f:
            f.write('# kernel 0 _Z1av\n# kernel 1 _Z1bv\n')
            for i in range(200):
                f.write('0 %d 1000 %s\n' % (1e6 * speed[tag] * random.gauss(1, 0.005), tag))
            for i in range(4 if tag == 'r64' else 3):
                f.write('1 1000 8 orig\n')
            f.write('# dropped 0\n')
PY
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/sim" >"$t/sim.log" ||
  fail "tunesim.py: $(cat "$t/sim.log")"
k=$(grep '^p,_Z1av,' "$t/sim/kernels.csv") || fail "no replay of _Z1av: $(cat "$t/sim/kernels.csv")"
IFS=, read -r _ _ launches orig best _ sim _ _ captured chosen _ <<<"$k"
[ "$launches" = 200 ] && [ "$best" = r64 ] || fail "replay of _Z1av: $k"
[ "$chosen" = "r64 r64 r64 r64" ] || fail "replays chose '$chosen', want r64 in all four: $k"
python3 -c "import sys; sys.exit(not (float('$captured') >= 0.8 and float('$sim') < float('$orig')))" ||
  fail "r64's win not kept: $k"
grep -q '^p,_Z1bv,' "$t/sim/kernels.csv" && fail "_Z1bv replayed although its launches differ"
grep -q 'Replayed/orig <= 1.01 per program: 1 of 1' "$t/sim/tunesim.md" || fail "$(cat "$t/sim/tunesim.md")"
# --event-us: 1 ms more on every fed time turns r64's 1.25x into about 2 / 1.8 = 1.11x
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/sime" -- --event-us 1000 >/dev/null
k=$(grep '^p,_Z1av,' "$t/sime/kernels.csv") || fail "no replay of _Z1av with --event-us"
IFS=, read -r _ _ _ _ _ _ _ _ _ _ chosen speedup _ <<<"$k"
python3 -c "import sys; s = [float(x) for x in '$speedup'.split()]
sys.exit(not ('$chosen' == 'r64 r64 r64 r64' and all(1.08 < x < 1.14 for x in s)))" ||
  fail "--event-us: $k"
# --gap 1,1000: every fed time 1 ms more, as --event-us 1000; --gap 0,1000: none, as without
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/simg" -- --gap 1,1000 >/dev/null
cmp -s <(grep '^p,_Z1av,' "$t/sime/kernels.csv") <(grep '^p,_Z1av,' "$t/simg/kernels.csv") ||
  fail "--gap 1,1000 differs from --event-us 1000: $(grep '^p,_Z1av,' "$t/simg/kernels.csv")"
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/simz" -- --gap 0,1000 >/dev/null
cmp -s <(grep '^p,_Z1av,' "$t/sim/kernels.csv") <(grep '^p,_Z1av,' "$t/simz/kernels.csv") ||
  fail "--gap 0,1000 changed the replay: $(grep '^p,_Z1av,' "$t/simz/kernels.csv")"
# --drop-gaps all with every sample hit: the tuner is never fed, the original stays
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/simd" -- --gap 1,1000 --drop-gaps all >/dev/null
k=$(grep '^p,_Z1av,' "$t/simd/kernels.csv") || fail "no replay of _Z1av with --drop-gaps"
IFS=, read -r _ _ _ _ _ _ _ _ _ _ chosen _ <<<"$k"
[ "$chosen" = "orig orig orig orig" ] || fail "--drop-gaps all fed a sample: $k"
# --drop-gaps fix with every sample hit and marked: each fed without its gap, as without --gap
python3 "$here/tunesim.py" "$t/tr" --sim "$tunesim" --out "$t/simf" -- --gap 1,1000 --drop-gaps fix >/dev/null
cmp -s <(grep '^p,_Z1av,' "$t/sim/kernels.csv") <(grep '^p,_Z1av,' "$t/simf/kernels.csv") ||
  fail "--drop-gaps fix: $(grep '^p,_Z1av,' "$t/simf/kernels.csv")"

# 4. relink.sh: a fake Orion build (objects up to date, main linked by the
#    Makefile with $(CC)) linked again with another prefix's orion-cc.
mkdir -p "$t/rl/b/orion/src/p-cuda" "$t/rl/pfx/bin" "$t/rl/pfx/lib"
printf '#!/bin/sh\necho "linked by %s" > main && chmod +x main\n' "$t/rl/pfx" > "$t/rl/pfx/bin/orion-cc"
chmod +x "$t/rl/pfx/bin/orion-cc"; : > "$t/rl/pfx/lib/liborionrt.a"
printf 'main: a.o\n\t$(CC) a.o -o main\n%%.o: %%.cu\n\t$(CC) -c $< -o $@\n' > "$t/rl/b/orion/src/p-cuda/Makefile"
touch "$t/rl/b/orion/src/p-cuda/a.cu"; sleep 1; touch "$t/rl/b/orion/src/p-cuda/a.o"
echo old > "$t/rl/b/orion/src/p-cuda/main"
printf 'program,build,status,seconds,binary,log\np,orion,ok,1,x,y\nq,orion,fail,1,x,y\n' > "$t/rl/b/build.csv"
out=$("$here/relink.sh" "$t/rl/b" "$t/rl/n" "$t/rl/pfx" 2>&1) || fail "relink.sh: $out"
grep -q "linked by $t/rl/pfx" "$t/rl/n/orion/src/p-cuda/main" || fail "relink.sh: main not relinked: $out"
grep -q '^relink.sh: p: ok$' <<<"$out" || fail "relink.sh compiled again or left out p: $out"
grep -q old "$t/rl/b/orion/src/p-cuda/main" || fail "relink.sh changed the original build"
grep -q '^p,orion,ok,' "$t/rl/n/build.csv" && ! grep -q '^q,' "$t/rl/n/build.csv" ||
  fail "relink.sh build.csv: $(cat "$t/rl/n/build.csv")"
# 5. triples.py: clone 100, original 110, clone 100 (and a lone original) -> one triple of 1.100
printf '0\t100\t1\tc\n200\t310\t1\to\n400\t500\t1\tc\n600\t710\t1\to\n50\t60\t1\tx\n' > "$t/tr.tsv"
out=$(python3 "$here/triples.py" --orig o --clone c "$t/tr.tsv") || fail "triples.py: $out"
grep -q ': 2:1.100$' <<<"$out" && grep -q '^1 triples, original / clone 1.100-1.100$' <<<"$out" ||
  fail "triples.py: $out"
# 6. samples.py: four samples joined with their traced launches (a clone's name holds
#    __orion_u8): u8 at launch 2 distorted and marked, orig at 3 distorted and missed, u8 at 4
#    clean but marked "after the launch" (a level), launch 2 marked with no level
K=_Z1kPf KC=_Z10k__orion_u8Pf
printf '0\t40000\t1\t%s\n100000\t138000\t1\t%s\n200000\t240000\t1\t%s\n300000\t338000\t1\t%s\n' \
  $K $KC $K $KC > "$t/s.tsv"
{ echo "orion: debug: tune $K launch 1: orig 8 blocks 0.0434 ms (5.4 us per 1000 blocks; host 9.0 us)"
  echo "orion: debug: tune $K launch 2: u8 8 blocks 0.0580 ms (7.2 us per 1000 blocks; host 28.0 us, gap possible)"
  echo "orion: debug: tune $K launch 3: orig 8 blocks 0.0600 ms (7.5 us per 1000 blocks; host 9.0 us)"
  echo "orion: debug: tune $K launch 4: u8 8 blocks 0.0414 ms (5.2 us per 1000 blocks; host 9.0 us, gap possible: drained after the launch)"
  echo "orion: debug: tune _Z5otherv launch 1: orig 8 blocks 1.0 ms (x)"; } > "$t/s.err"
out=$(python3 "$here/samples.py" --kernel $K "$t/s.err" "$t/s.tsv") || fail "samples.py: $out"
grep -q '^in all: 4 samples, 2 distorted: 1 marked, 1 missed; 1 clean ones marked; 0 left out$' <<<"$out" &&
  grep -q '^marked (no level): 1 distorted, 0 clean$' <<<"$out" && grep -q '^marked after: 0 distorted, 1 clean$' <<<"$out" ||
  fail "samples.py: $out"
#    --by-timing: the same launches timed busy (2.4 us over CUPTI), busy ahead, idle (0.8) and
#    with the stream drained during the launch (6.0)
{ echo "orion: debug: tune $K launch 1: orig 8 blocks 0.0424 ms (x; host 9.0 us)"
  echo "orion: debug: tune $K launch 2: u8 8 blocks 0.0404 ms (x; host 9.0 us, chosen ahead)"
  echo "orion: debug: tune $K launch 3: orig 8 blocks 0.0408 ms (x; host 9.0 us)"
  echo "orion: debug: tune $K: idle stream, 5.0 us of submission left out"
  echo "orion: debug: tune $K launch 4: u8 8 blocks 0.0440 ms (x; host 9.0 us, gap possible: drained during the launch)"; } > "$t/b.err"
out=$(python3 "$here/samples.py" --by-timing "$t/b.err" "$t/s.tsv") || fail "samples.py --by-timing: $out"
grep -q '^| busy | 1 | 2.40 |' <<<"$out" && grep -q '^| busy, ahead | 1 | 2.40 |' <<<"$out" &&
  grep -q '^| idle | 1 | 0.80 | 0.80 | 0.80 | 0 |$' <<<"$out" &&
  grep -q '^| busy, drained during | 1 | 6.00 | 6.00 | 6.00 | 1 |$' <<<"$out" || fail "samples.py --by-timing: $out"
#    --triples: in b.err, launches 1-3 (orig u8 orig) timed B B I, 2-4 (u8 orig u8) B I B
#    (CUPTI: 40, 38, 40, 38 us): the runtime's log-ratios err by +2.22 % and -8.41 %
out=$(python3 "$here/samples.py" --triples "$t/b.err" "$t/s.tsv") || fail "samples.py --triples: $out"
grep -q '^in all: 2 triples, 2 mixed$' <<<"$out" && grep -q '^| BBI | 1 | 1 | 2.22 | 2.22 | 2.22 |$' <<<"$out" &&
  grep -q '^| BIB | 1 | 1 | -8.41 | -8.41 | -8.41 |$' <<<"$out" || fail "samples.py --triples: $out"
# 7. debug-series.sh: a fake program's two series of three runs, each run's files kept
mkdir -p "$t/ds/src/p-cuda" "$t/ds/lib"; : >"$t/ds/kerntime.so"; echo 'p reg 5 # fake' >"$t/ds/programs.txt"
printf '#!/bin/sh\necho PASS\n' >"$t/ds/src/p-cuda/nvcc"
printf '#!/bin/sh\n[ "$1" = 5 ] && [ "$ORION_DEBUG" = 1 ] || exit 3\necho "orion: debug: tune k: re-check 1 keeps u8" >&2\necho x >"$KERNTIME_OUT"; echo y >>"$ORION_CACHE"\n' >"$t/ds/src/p-cuda/orion"
chmod +x "$t/ds/src/p-cuda/nvcc" "$t/ds/src/p-cuda/orion"
out=$("$here/debug-series.sh" "$t/ds" p 3 "$t/dso" 2) || fail "debug-series.sh: $out"
[ "$(grep -c 'rc 0, re-checks kept 1, reverted 0$' <<<"$out")" = 6 ] && [ -s "$t/dso/1.2.tsv" ] &&
  [ -s "$t/dso/1.2.err" ] && [ "$(wc -l <"$t/dso/1.cache")" = 3 ] || fail "debug-series.sh: $out"
# 8. losses.py: 10 launches (orig 1.0 ms a launch alone, u8 0.8, u4 1.2), u8 chosen, settled at
#    launch 8: of the 2 ms at stake, 2 waiting launches 20 %, u4's trial 20 %, 2 baseline
#    launches 20 %, 1 re-check 10 %: 30 % captured
mkdir -p "$t/ls/traces"
printf 'program,kernel,launches,best_tag,best_gain,fixed\np,_Z1kv,10,u8,0.2,orig=10 u8=8 u4=12\n' >"$t/ls/k.csv"
{ echo "# kernel 0 _Z1kv"; for v in orig orig u4 orig u8 orig u8 u8 orig u8; do echo "0 1000 1 $v"; done; } |
  gzip >"$t/ls/traces/p.adaptive.0.tsv.gz"
echo '{"configs": [{"kernel": "_Z1kv", "chosen": "u8", "settled_at": 8}]}' >"$t/ls/traces/p.adaptive.0.json"
out=$(python3 "$here/losses.py" --kernels "$t/ls/k.csv" "$t/ls") || fail "losses.py: $out"
grep -q '^| p | _Z1kv | 0 | 2 | 30% | 20% | 20% | 20% | 0% | 10% |$' <<<"$out" || fail "losses.py: $out"
# 9. ceiling.py: 10 launches of 10 ms (best 9 ms) and one of 30 ms (best 20 ms): with 4 pairs the
#    original runs 7 of the 10 (30 % kept, oracle/select 9 / 9.7 = 0.928), the single launch none
printf 'program,kernel,launches,off_ms,orig_ms,oracle_ms,best_tag,best_gain\np,_Z1kv,10,100,100,90,u8,0.111\np,_Z1jv,1,30,30,20,r64,0.5\n' >"$t/ce.csv"
out=$(python3 "$here/ceiling.py" --kernels "$t/ce.csv") || fail "ceiling.py: $out"
grep -q '^\* kernels of >= 1 ms at >= 0.98 x oracle: at most 0 of 2' <<<"$out" &&
  grep -q '^\* wins of >= 3 % kept to >= 80 %: at most 0 of 2' <<<"$out" &&
  grep -q '^| p | _Z1kv | 10 | u8 | 11.1% | 30% | 0.928 |$' <<<"$out" &&
  grep -q '^| p | _Z1jv | 1 | r64 | 50.0% | 0% | 0.667 |$' <<<"$out" || fail "ceiling.py: $out"
out=$(python3 "$here/ceiling.py" --kernels "$t/ce.csv" --pairs 1) || fail "ceiling.py --pairs 1: $out"
grep -q '^| p | _Z1kv | 10 | u8 | 11.1% | 70% | 0.968 |$' <<<"$out" || fail "ceiling.py --pairs 1: $out"
#    --split-ms 20: the 30 ms launch is tuned on its chunks (all kept), the 10 ms ones are not
out=$(python3 "$here/ceiling.py" --kernels "$t/ce.csv" --split-ms 20) || fail "ceiling.py --split-ms: $out"
grep -q '^\* wins of >= 3 % kept to >= 80 %: at most 1 of 2' <<<"$out" &&
  ! grep -q '_Z1jv' <<<"$out" || fail "ceiling.py --split-ms: $out"
# 10. inprogram.py: 20 launches, alone orig 10 ms and u4 8 ms in all (500 and 400 us a launch,
#     a 25 % gain); in the adaptive run orig 5 launches of 500 us and u4 15 of 490 us: 2.0 %
mkdir -p "$t/ip/traces"
printf 'program,kernel,launches,best_tag,best_gain,fixed\np,_Z1kv,20,u4,0.25,orig=10 u4=8\n' >"$t/ip/k.csv"
{ echo "# kernel 0 _Z1kv"; for i in 1 2 3 4 5; do echo "0 500000 1 orig"; done
  for i in $(seq 15); do echo "0 490000 1 u4"; done; } | gzip >"$t/ip/traces/p.adaptive.0.tsv.gz"
out=$(python3 "$here/inprogram.py" --kernels "$t/ip/k.csv" "$t/ip") || fail "inprogram.py: $out"
grep -q '^| p | _Z1kv | u4 | 25.0% | 2.0% |  | orig 500.0 / 500.0 (5); u4 490.0 / 400.0 (15) |$' <<<"$out" ||
  fail "inprogram.py: $out"
#     measure.py's mode wins on the fake pack of case 2: k's r64 with j on the original, 8 ms
#     against off's 10 ms: 25 %; without --wins the mode is refused
printf 'program,kernel,launches,best_tag,best_gain,fixed\nprog1,_Z1kPf,8,r64,0.25,orig=10 r64=8\n' >"$t/wins.csv"
python3 "$here/measure.py" --pack "$t/pack" --out "$t/rawwins" --runs 2 --programs prog1 --modes off,wins \
  --wins "$t/wins.csv" >"$t/wins.log" || fail "measure.py --modes off,wins: $(cat "$t/wins.log")"
[ "$(grep -c '^prog1,alone:r64:_Z1kPf,[01],' "$t/rawwins/runs.csv")" = 2 ] || fail "mode wins: $(cat "$t/rawwins/runs.csv")"
out=$(python3 "$here/inprogram.py" --kernels "$t/wins.csv" --min-launches 1 "$t/rawwins") || fail "inprogram.py: $out"
grep -q '^| prog1 | _Z1kPf | r64 | 25.0% |  | 25.0% |  |$' <<<"$out" || fail "inprogram.py, mode wins: $out"
if python3 "$here/measure.py" --pack "$t/pack" --out "$t/rawwins2" --modes wins >/dev/null 2>&1; then
  fail "measure.py took mode wins without --wins"
fi
echo "selftest: ok"
