// nvcc-style kernels: templates, launch bounds, static and dynamic shared
// memory, __constant__, atomics, warp shuffles, cooperative groups, fp16.
// Builds with `nvcc -arch=sm_90 -c`.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

__constant__ float coeff[16];

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce(const float *in, float *out, int n) {
  __shared__ float part[BLOCK / 32];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  float s = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    s += in[i] * coeff[i & 15];
  for (int o = 16; o > 0; o /= 2)
    s += w.shfl_down(s, o);
  if (w.thread_rank() == 0)
    part[threadIdx.x / 32] = s;
  b.sync();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int i = 0; i < BLOCK / 32; i++)
      t += part[i];
    atomicAdd(out, t);
  }
}
template __global__ void reduce<256>(const float *, float *, int);

__global__ void halves(__half *h, int n) {
  extern __shared__ __half buf[];
  int i = threadIdx.x;
  if (i < n) {
    buf[i] = __hmul(h[i], __float2half(2.0f));
    __syncthreads();
    h[i] = __hadd(buf[i], buf[(i + 1) % n]);
  }
}

void launch(const float *in, float *out, __half *h, int n) {
  reduce<256><<<32, 256>>>(in, out, n);
  halves<<<1, 128, 128 * sizeof(__half)>>>(h, 128);
}
