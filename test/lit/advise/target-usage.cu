// --target-usage: Orion's choice is a register ceiling made for Orion's own
// build.  Where the build the fixes are for (its ptxas -v log, or
// cuobjdump --dump-resource-usage output) already uses that many registers
// or fewer, the cap would only let it take more: nothing is advised and no
// fix is exported.  Above it, the attribute is advised as without the
// usage, which is named.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/fixes
// RUN: sed -n 's|^// RUNREPORT: ||p' %s > %t/run.json
// RUN: sed -n 's|^// OBJDUMP: ||p' %s > %t/objdump.txt
// The real nvcc's log of this file: small and big take few registers
// unless capped, so the objdump text stands in for a build where big
// takes more.
// RUN: %cuda_path/bin/nvcc -arch=sm_90 -O3 -c %s -o %t/k.o -Xptxas -v > %t/nvcc.txt 2>&1
// RUN: orion-advise --no-list %s --run-report=%t/run.json --sm=90 --target-usage=%t/nvcc.txt \
// RUN:   --export-fixes=%t/fixes/n.yaml -- --cuda-gpu-arch=sm_90 > %t/n.txt
// RUN: FileCheck %s --check-prefix=NVCC --input-file=%t/n.txt
// RUN: not grep -q ReplacementText %t/fixes/n.yaml
// RUN: orion-advise --no-list %s --run-report=%t/run.json --sm=90 --target-usage=%t/objdump.txt \
// RUN:   --export-fixes=%t/fixes/o.yaml -- --cuda-gpu-arch=sm_90 > %t/o.txt
// RUN: FileCheck %s --check-prefix=OBJ --input-file=%t/o.txt
// RUN: FileCheck %s --check-prefix=YAML --input-file=%t/fixes/o.yaml

// RUNREPORT: {"orion_report":1,"configs":[
// RUNREPORT:  {"kernel":"_Z5smallPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.08,"speedup_ci95":0.01,"speedup_pairs":8,"rechecks":3,"versions":[]},
// RUNREPORT:  {"kernel":"_Z3bigPf","block":[256,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":32,"max_warps":64,"speedup":1.08,"speedup_ci95":0.01,"speedup_pairs":8,"rechecks":3,"versions":[]}
// RUNREPORT: ]}
// OBJDUMP: Resource usage:
// OBJDUMP:  Common:
// OBJDUMP:   GLOBAL:0
// OBJDUMP:  Function _Z3bigPf:
// OBJDUMP:   REG:90 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
// OBJDUMP:  Function _Z5smallPf:
// OBJDUMP:   REG:16 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0

// NVCC: note: orion-advise: 'small': nothing advised: Orion chose r64, 1.080 ±0.010 n=8, confirmed by 3 re-checks; 64 registers, and the target build ({{.*}}nvcc.txt) already uses {{[0-9]}}: a cap of 64 would only let it take more
// NVCC: note: orion-advise: 'big': nothing advised: {{.*}} already uses {{[0-9]+}}: a cap of 64
// OBJ: note: orion-advise: 'small': nothing advised: {{.*}}({{.*}}objdump.txt) already uses 16: a cap of 64
// OBJ: note: orion-advise: 'big': Orion chose r64, 1.080 ±0.010 n=8, confirmed by 3 re-checks; 64 registers (the target build: 90 registers): write __launch_bounds__(256, 4)
// YAML: ReplacementText: '__launch_bounds__(256, 4) '
// YAML-NOT: ReplacementText
__global__ void small(float *a) { a[threadIdx.x] += 1; }
__global__ void big(float *a) { a[threadIdx.x] *= 2; }
