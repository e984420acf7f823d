// dyn_smem.cu - spilling kernels with dynamic shared memory of their own,
// for the frame rewrite's dynamic region (orion-sass rewrite --dynamic):
// the region goes at the end of the launch's dynamic shared memory, above
// the program's own data, which stays where ptxas placed it.  The program
// launches each with 129 * 4 bytes (not a multiple of 16) and reads its
// dynamic data inside the spilling loop, so a region overlapping it
// changes the output.
//   dynown  a 20-byte static array too (the static size is not 16-aligned
//           before ptxas pads it to the dynamic data's alignment)
//   dynonly dynamic shared memory only
//   dynsize reads %dynamic_smem_size, which the region would change: the
//           dynamic rewrite refuses it
//   totsize reads %total_smem_size, which every rewrite changes: unsafe
// All __launch_bounds__(128, MINB): 32 registers at MINB 16, and they spill.
#define NACC 20
#ifndef MINB
#define MINB 16
#endif

extern __shared__ float4 dynbuf[];

__device__ __forceinline__ int lin_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ __forceinline__ int nthreads() { return blockDim.x * blockDim.y * blockDim.z; }

// acc[] spills; the loop reads the program's dynamic data, 129 floats
// (dyn[128] is written by one thread), and adds `extra` (values stay
// finite: six rounds of acc * b + ... from 0.3-0.6); a nonzero `last`
// goes into the output exactly, added to s modulo 1024.
#define SPILL_BODY(extra, last)                                                               \
  float acc[NACC];                                                                      \
  int t = lin_tid(), nt = nthreads(), i = blockIdx.x * nt + t;                         \
  float *dyn = (float *)dynbuf;                                                         \
  _Pragma("unroll") for (int k = 0; k < NACC; k++) acc[k] = in[(i + k * 97) & (n - 1)]; \
  for (int j = t; j < 128; j += nt)                                                     \
    dyn[(j * 5) & 127] = in[(blockIdx.x * 128 + j) & (n - 1)] + acc[0] * 0.5f;          \
  if (t == 0)                                                                           \
    dyn[128] = in[blockIdx.x & (n - 1)];                                                \
  __syncthreads();                                                                      \
  for (int it = 0; it < iters; it++) {                                                  \
    _Pragma("unroll") for (int k = 0; k < NACC; k++) {                                  \
      float b = acc[(k + 1) % NACC], c = acc[(k + 7) % NACC];                           \
      acc[k] = acc[k] * b + c * 0.5f + dyn[(t + k) & 127] + (extra);                    \
    }                                                                                   \
  }                                                                                     \
  float s = dyn[128];                                                                   \
  _Pragma("unroll") for (int k = 0; k < NACC; k++) s += acc[k] * (float)(k + 1);        \
  if (i < n)                                                                            \
    out[i] = (last) != 0.0f ? fmodf(s, 1024.0f) + (last) : s;

extern "C" __global__ void __launch_bounds__(128, MINB) dynown(float *out, const float *in, int n, int iters) {
  __shared__ unsigned char bytes[20];
  for (int j = lin_tid(); j < 20; j += nthreads())
    bytes[j] = (unsigned char)(j * 7 + blockIdx.x);
  __syncthreads();
  SPILL_BODY(0.001f * (float)bytes[(t + k) & 15], 0.0f)
}

extern "C" __global__ void __launch_bounds__(128, MINB) dynonly(float *out, const float *in, int n, int iters) {
  SPILL_BODY(0.0f, 0.0f)
}

extern "C" __global__ void __launch_bounds__(128, MINB) dynsize(float *out, const float *in, int n, int iters) {
  unsigned d;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(d));
  SPILL_BODY(0.0f, (float)d)
}

extern "C" __global__ void __launch_bounds__(128, MINB) totsize(float *out, const float *in, int n, int iters) {
  unsigned d;
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(d));
  SPILL_BODY(0.0f, (float)d)
}
