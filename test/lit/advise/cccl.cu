// orion-advise parses what orion-cc compiles: the CUDA toolkit's cccl
// headers (cub under include/cccl since CUDA 13) are found without -I, as
// orion-cc and nvcc find them.
// REQUIRES: ptxas
// RUN: orion-advise %s -- --cuda-gpu-arch=sm_90 | FileCheck %s
#include <cub/cub.cuh>

// CHECK: cccl.cu:[[#@LINE+1]]:34: note: kernel 'sum' (template) [_Z3sumILi256EEvPKfPf]
template <int N> __global__ void sum(const float *in, float *out) {
  typedef cub::BlockReduce<float, N> Reduce;
  __shared__ typename Reduce::TempStorage t;
  float s = Reduce(t).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = s;
}

// CHECK: cccl.cu:[[#@LINE+1]]:41: note: launch of 'sum<256>' <<<1, 256>>>
void run(const float *in, float *out) { sum<256><<<1, 256>>>(in, out); }
