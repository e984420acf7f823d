// orion-advise parses what orion-cc compiles: the CUDA toolkit's cccl
// headers (cub, thrust, libcu++ under include/cccl since CUDA 13) are found
// without -I, as orion-cc and nvcc find them.
// REQUIRES: ptxas
// RUN: orion-advise %s -- --cuda-gpu-arch=sm_90 | FileCheck %s
#include <cub/cub.cuh>
#include <cuda/cmath>

// CHECK: cccl.cu:[[#@LINE+1]]:34: note: kernel 'scale' (template) [_Z5scaleILi256EEvPfi]
template <int N> __global__ void scale(float *a, int n) {
  int i = blockIdx.x * N + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

// CHECK: cccl.cu:[[#@LINE+2]]:3: note: launch of 'scale<256>' <<<cuda::ceil_div(n, 256), 256>>>
void run(float *a, int n) {
  scale<256><<<cuda::ceil_div(n, 256), 256>>>(a, n);
}
