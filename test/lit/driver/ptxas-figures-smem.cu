// orion-ptxas's figures from the cubin (driver/ptxas_figures.c): static
// shared memory is the kernel's .nv.shared section, less the reserved 1 KiB
// ptxas puts at its start on sm_90; dynamic shared memory is not in it.
// The report equals the one built from ptxas -v (the user's -v), on sm_80
// and sm_90, but for cmem (null: not read from the cubin; ptxas 13 prints
// it on sm_80), and no entry is compiled again with -v (no local memory).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version --cuda-device-only -O3 -S %s -o %t/90.ptx
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version --cuda-device-only -O3 -S %s -o %t/80.ptx
// 300 empty entries more: the first run then goes without -v (OPTX_VERBOSE_MAX_ENTRIES).
// RUN: %python -c "print(''.join('.visible .entry pad%%d()\n{\nret;\n}\n' %% i for i in range(300)))" >> %t/90.ptx
// RUN: %python -c "print(''.join('.visible .entry pad%%d()\n{\nret;\n}\n' %% i for i in range(300)))" >> %t/80.ptx
// RUN: env ORION_PTXAS_COMMANDS=1 orion-ptxas -arch sm_90 -o %t/a.cubin %t/90.ptx --orion-report=%t/a.json 2>%t/a.cmds
// RUN: orion-ptxas -v -arch sm_90 -o %t/b.cubin %t/90.ptx --orion-report=%t/b.json 2>/dev/null
// RUN: env ORION_PTXAS_COMMANDS=1 orion-ptxas -arch sm_80 -o %t/c.cubin %t/80.ptx --orion-report=%t/c.json 2>%t/c.cmds
// RUN: orion-ptxas -v -arch sm_80 -o %t/d.cubin %t/80.ptx --orion-report=%t/d.json 2>/dev/null
// RUN: cat %t/a.cmds %t/c.cmds | FileCheck %s --check-prefix=CMDS
// CMDS-NOT: "-v"
// RUN: %python -c "import json, sys; print({e['cmem'] for e in json.load(open(sys.argv[1]))['entries'] if not e['name'].startswith('pad')}, {e['cmem'] for e in json.load(open(sys.argv[2]))['entries'] if not e['name'].startswith('pad')})" %t/c.json %t/d.json | FileCheck %s --check-prefix=CMEM
// CMEM: {None} {360}
// RUN: %python -c "import json, sys; a = [[{k: v for k, v in e.items() if k != 'cmem'} for e in json.load(open(p))['entries']] for p in sys.argv[1:]]; assert a[0] == a[1] and a[2] == a[3], a; print(*sorted((e['name'], e['smem']) for e in a[0] + a[2]))" %t/a.json %t/b.json %t/c.json %t/d.json | FileCheck %s
// CHECK: ('_Z4bothPf', 144) ('_Z4bothPf', 144) ('_Z4nonePf', 0) ('_Z4nonePf', 0) ('_Z4statPf', 1200) ('_Z4statPf', 1200) ('_Z5dynskPf', 0) ('_Z5dynskPf', 0)

__global__ void stat(float *p) {
  __shared__ float a[300];
  a[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = a[299 - threadIdx.x];
}
__global__ void none(float *p) { p[threadIdx.x] = 1.0f; }
extern __shared__ float dyn[];
__global__ void dynsk(float *p) {
  dyn[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = dyn[0];
}
__global__ void both(float *p) {
  __shared__ double b[17];
  b[threadIdx.x % 17] = p[0];
  dyn[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = dyn[0] + b[3];
}
