// A kernel that reads its shared memory size gets no padding versions:
// padding launches it with more dynamic shared memory, which would change
// what %dynamic_smem_size and %total_smem_size read.  The same saxpy
// without the read gets p48, p32 and p16 (low-pressure.cu).  orion-ptxas's
// pragma path refuses such a kernel too (its shared spill area would change
// %total_smem_size), as the SASS rewrite does (sass/rewrite-dynamic.test).
// RUN: rm -f %t.json
// RUN: env ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -fpass-plugin=%orion_plugin -S %s -o %t.ptx
// RUN: FileCheck %s < %t.json

// CHECK-DAG: "kernel":"_Z9saxpy_dynfPKfPfi",{{.*}}"direction":"decreasing",{{.*}}"versions":[{"tag":"orig"{{[^{]*}}}],"clones":0,{{.*}}"note":"no padding versions: the kernel reads %total_smem_size or %dynamic_smem_size, which padding changes"
// CHECK-DAG: "kernel":"_Z9saxpy_totfPKfPfi",{{.*}}"versions":[{"tag":"orig"{{[^{]*}}}],"clones":0,{{.*}}"note":"no padding versions
// CHECK-DAG: "kernel":"_Z9saxpy_allfPKfPfi",{{.*}}"versions":[{"tag":"orig",{{[^]]*}}"tag":"p48",{{[^]]*}}"tag":"p32",{{[^]]*}}"tag":"p16",

__global__ void saxpy_dyn(float a, const float *x, float *y, int n) {
  unsigned d;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(d));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + (float)d;
}

__device__ unsigned total_smem() {
  unsigned t;
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(t));
  return t;
}

__global__ void saxpy_tot(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + (float)total_smem();
}

__global__ void saxpy_all(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
