// orion-advise's evidence rule: only a confirmed choice outside the noise
// becomes an attribute; everything else is reported with the reason.  A
// padding choice is advised at the launch sites; configurations that
// disagree get no attribute.  No build report: the architecture is --sm.
// RUN: rm -rf %t && mkdir -p %t/fixes
// RUN: sed -n 's|^// RUNREPORT: ||p' %s > %t/run.json
// RUN: sed -n 's|^// CACHE: ||p' %s > %t/decisions
// RUN: orion-advise --no-list %s --run-report=%t/run.json --cache=%t/decisions --sm=90 \
// RUN:   --export-fixes=%t/fixes/f.yaml --summary=%t/s.md -- --cuda-gpu-arch=sm_90 > %t/notes.txt
// RUN: FileCheck %s --input-file=%t/notes.txt
// RUN: FileCheck %s --check-prefix=YAML --input-file=%t/fixes/f.yaml
// RUN: FileCheck %s --check-prefix=MD --input-file=%t/s.md

// RUNREPORT: {"orion_report":1,"configs":[
// RUNREPORT:  {"kernel":"_Z11unconfirmedPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.08,"speedup_ci95":0.01,"speedup_pairs":8,"rechecks":1,"versions":[]},
// RUNREPORT:  {"kernel":"_Z5noisyPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.004,"speedup_ci95":0.006,"speedup_pairs":12,"rechecks":4,"versions":[]},
// RUNREPORT:  {"kernel":"_Z8revertedPf","block":[256,1,1],"shmem":0,"source":"reverted","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":0.99,"speedup_ci95":0.01,"speedup_pairs":9,"rechecks":6,"versions":[]},
// RUNREPORT:  {"kernel":"_Z10exhaustivePf","block":[256,1,1],"shmem":0,"source":"exhaustive","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.2,"speedup_ci95":0,"speedup_pairs":0,"rechecks":0,"versions":[]},
// RUNREPORT:  {"kernel":"_Z8conflictPf","block":[128,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.1,"speedup_ci95":0.02,"speedup_pairs":10,"rechecks":3,"versions":[]},
// RUNREPORT:  {"kernel":"_Z8conflictPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"orig","chosen_regs":90,"chosen_warps":16,"max_warps":64,"speedup":1,"speedup_ci95":0,"speedup_pairs":0,"rechecks":0,"versions":[]},
// RUNREPORT:  {"kernel":"_Z6paddedPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"p16","chosen_regs":16,"chosen_warps":16,"max_warps":64,"speedup":1.12,"speedup_ci95":0.03,"speedup_pairs":10,"rechecks":5,"versions":[{"tag":"p16","warps":16,"regs":16,"pad":76928},{"tag":"orig","warps":64,"regs":16,"pad":0}]},
// RUNREPORT:  {"kernel":"_Z7inexactPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r72","chosen_regs":72,"chosen_warps":24,"max_warps":64,"speedup":1.05,"speedup_ci95":0.01,"speedup_pairs":12,"rechecks":3,"versions":[{"tag":"orig","warps":16,"regs":120,"pad":0}]}
// RUNREPORT:  ,{"kernel":"_Z8unrolledPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"u4","chosen_regs":40,"chosen_warps":48,"max_warps":64,"speedup":1.1,"speedup_ci95":0.02,"speedup_pairs":8,"rechecks":3,"versions":[]}
// RUNREPORT:  ,{"kernel":"byname(float*)","block":[128,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r48","chosen_regs":48,"chosen_warps":40,"max_warps":64,"speedup":1.3,"speedup_ci95":0.05,"speedup_pairs":7,"rechecks":3,"versions":[]}
// RUNREPORT: ]}
// CACHE: # orion decision cache 2
// CACHE: 0123456789abcdef NVIDIA_H200 13000 _Z6cachedPf 256x1x1 0 r64 1.0700 30
// CACHE: 0123456789abcdef NVIDIA_H200 13000 _Z9cachedpadPf 256x1x1 0 p32 1.0700 30
// CACHE: 0123456789abcdef NVIDIA_H200 13000 _Z9tentativePf 256x1x1 0 r64 1.0600 20 tentative 2 -0.1 0.006 40 -1 -
// CACHE: 0123456789abcdef NVIDIA_H200 13000 _Z4openPf 256x1x1 0 orig 1 9 open 1 0 0 3 0.01 w1,2,0,0,1,0,0/0,0,0,0,0,0,0,0/1,0,1,1,-0.02,0.0004,-0.02,-0.02

// CHECK: decisions.cu:[[#@LINE+2]]:17: note: 'unconfirmed' at 256x1x1 threads, 0 B dynamic shared memory: r64 (1.080 ±0.010 n=8) is not confirmed: 1 of 3 re-check pairs
// CHECK-NEXT: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'unconfirmed': nothing advised: no confirmed choice other than the original
__global__ void unconfirmed(float *a) { a[threadIdx.x] += 1; }
// CHECK: note: 'noisy' at 256x1x1 threads, 0 B dynamic shared memory: r64 is noisy: 1.004 ±0.006 n=12 does not exclude no gain
// CHECK-NEXT: note: orion-advise: 'noisy': nothing advised
__global__ void noisy(float *a) { a[threadIdx.x] += 1; }
// CHECK: note: 'reverted' at {{.*}}: r64 was reverted by a re-check (0.990 ±0.010 n=9)
__global__ void reverted(float *a) { a[threadIdx.x] += 1; }
// CHECK: note: 'exhaustive' at {{.*}}: r64 is ORION_MODE=exhaustive's fastest median, not paired evidence
__global__ void exhaustive(float *a) { a[threadIdx.x] += 1; }
// CHECK: note: 'conflict' at 128x1x1 threads, 0 B dynamic shared memory: r64, 1.100 ±0.020 n=10, confirmed by 3 re-checks
// CHECK-NEXT: note: 'conflict' at 256x1x1 threads, 0 B dynamic shared memory: the original stays (tuned)
// CHECK-NEXT: note: orion-advise: 'conflict': no attribute: the original stays best at 256 threads, and an attribute would change that configuration too
__global__ void conflict(float *a) { a[threadIdx.x] += 1; }
// CHECK: decisions.cu:[[#@LINE+2]]:17: note: orion-advise: 'padded': Orion chose p16, 1.120 ±0.030 n=10, confirmed by 5 re-checks: lower occupancy (16 warps/SM) through 76928 bytes of dynamic shared memory (the launch gives 0): launch with 76928 bytes (<<<grid, block, 76928>>>) after cudaFuncSetAttribute(padded, cudaFuncAttributeMaxDynamicSharedMemorySize, 76928)
// CHECK-NEXT: decisions.cu:{{[0-9]+}}:3: note: orion-advise: launch of 'padded': Orion chose p16
__global__ void padded(float *a) { a[threadIdx.x] += 1; }
// 72 registers allow 3 blocks of 256 threads, as do 80: __launch_bounds__
// would not pin 72, so the advice is __maxnreg__.
// CHECK: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'inexact': Orion chose r72, 1.050 ±0.010 n=12, confirmed by 3 re-checks; 72 registers (original: 120 registers, 16 warps/SM): write __maxnreg__(72) (nvcc 12.4 or later; clang ignores __maxnreg__), or __launch_bounds__(256, 3) (3 blocks/SM of 256 threads, ptxas's limit is higher; launches over 256 threads would fail)
__global__ void inexact(float *a) { a[threadIdx.x] += 1; }
// The unroll version: other code, not a cap; no attribute gives it.
// CHECK: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'unrolled': Orion chose u4, 1.100 ±0.020 n=8, confirmed by 3 re-checks: an unroll version, the kernel's small innermost loops unrolled 4x, not a register cap: no attribute; `#pragma unroll 4` before those loops gives its code
__global__ void unrolled(float *a) { a[threadIdx.x] += 1; }
// CHECK: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'cached': Orion chose r64, 1.070, confirmed by an earlier run (decision cache); 64 registers: write __launch_bounds__(256, 4) (4 blocks/SM of 256 threads, ptxas's limit is exactly these registers; launches over 256 threads would fail), or __maxnreg__(64)
__global__ void cached(float *a) { a[threadIdx.x] += 1; }
// A cached padding choice without a build report: the bytes are unknown.
// CHECK: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'cachedpad': Orion chose p32, 1.070, confirmed by an earlier run (decision cache): lower occupancy (32 warps/SM) through dynamic shared memory; the bytes are unknown (give the build report, or a run report that names them)
__global__ void cachedpad(float *a) { a[threadIdx.x] += 1; }
// Cache entries that are not decisions: a tentative choice, an open walk.
// CHECK: note: 'tentative' at 256x1x1 threads, 0 B dynamic shared memory: r64 (1.060) is not confirmed: 2 of 3 re-check pairs
// CHECK-NEXT: note: orion-advise: 'tentative': nothing advised
__global__ void tentative(float *a) { a[threadIdx.x] += 1; }
// CHECK: note: orion-advise: 'open': nothing advised
__global__ void open(float *a) { a[threadIdx.x] += 1; }
// A report that names kernels demangled: matched by the identifier.
// CHECK: decisions.cu:[[#@LINE+1]]:17: note: orion-advise: 'byname': Orion chose r48, 1.300 ±0.050 n=7, confirmed by 3 re-checks; 48 registers: write __launch_bounds__(128, 10) (10 blocks/SM of 128 threads, ptxas's limit is exactly these registers
__global__ void byname(float *a) { a[threadIdx.x] += 1; }

// Fixes for the three advised kernels only.
// YAML: ReplacementText: '__maxnreg__(72) '
// YAML-NEXT: Level
// YAML: ReplacementText: '__launch_bounds__(256, 4) '
// YAML: ReplacementText: '__launch_bounds__(128, 10) '
// YAML-NOT: ReplacementText

// MD: | kernel | defined at | launches | attribute | advice |
// MD: | `unconfirmed` | {{.*}}decisions.cu:[[#]]:17 | 1 | - | nothing advised: no confirmed choice other than the original |
// MD: | `cached` | {{.*}} | 1 | __launch_bounds__(256, 4) | Orion chose r64

void run(float *a) {
  unconfirmed<<<1, 256>>>(a);
  noisy<<<1, 256>>>(a);
  reverted<<<1, 256>>>(a);
  exhaustive<<<1, 256>>>(a);
  conflict<<<1, 128>>>(a);
  conflict<<<1, 256>>>(a);
  padded<<<1, 256>>>(a);
  inexact<<<1, 256>>>(a);
  cached<<<1, 256>>>(a);
  tentative<<<1, 256>>>(a);
  open<<<1, 256>>>(a);
  byname<<<1, 128>>>(a);
}
