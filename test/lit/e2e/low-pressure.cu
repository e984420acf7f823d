// End to end, low pressure: saxpy.  Direction decreasing, no clone (max-live
// far below 32/2); occupancy is lowered at run time by padding instead.
// REQUIRES: ptxas, cuobjdump
// RUN: rm -f %t.json
// RUN: env ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -fpass-plugin=%orion_plugin -S %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: cuobjdump -res-usage %t.cubin | FileCheck %s --check-prefix=RES

// JSON: "kernel":"_Z5saxpyfPKfPfi","sm":90,"max_live":{{[0-9]}},"threshold":32,{{.*}}"direction":"decreasing","original_warps":64,"max_warps":64,
// JSON-SAME: "versions":[{"tag":"orig",{{[^]]*}}"tag":"p48",{{[^]]*}}"tag":"p32",{{[^]]*}}"tag":"p16",{{[^]]*}}],"clones":0,
// PTXAS: Function properties for _Z5saxpyfPKfPfi
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NEXT: Used {{[0-9]|[12][0-9]}} registers
// RES: Function _Z5saxpyfPKfPfi:
// RES-NOT: __orion_

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
