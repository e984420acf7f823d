// calls.cu - a kernel whose frame is shared with __noinline__ callees, for
// the rewrite of a call tree (sass/rewrite/stack.c, sass/rewrite/rewrite.c): ptxas gives the
// kernel, mid() and leaf() one frame (callees address it through the
// kernel's R1), spill slots live across calls included.  leaf() is called
// from the kernel and from mid(), so its frame must sit above both callers'
// live slots.  -DNO_SMEM reads `in` instead of a shared tile: the kernel
// then has no .nv.shared section and the rewrite adds one.  The GPU check
// compares the original cubin's output with the
// rewritten one's, bit for bit.
#define NACC 16
#ifndef MINB
#define MINB 16 // 65536 / (128 * 16) = 32 registers
#endif
__device__ __noinline__ float leaf(const float *a, float x, int k) {
  float t[NACC];
#pragma unroll
  for (int j = 0; j < NACC; j++) t[j] = a[(k + j * 13) & 255] * x + j;
  float s = 0;
#pragma unroll
  for (int r = 0; r < 4; r++)
#pragma unroll
    for (int j = 0; j < NACC; j++) s = s * t[(j + r) % NACC] + t[(j * 3 + r) % NACC];
  return s;
}
__device__ __noinline__ float mid(const float *a, float x, int k) {
  float acc[NACC];
#pragma unroll
  for (int j = 0; j < NACC; j++) acc[j] = a[(k * 7 + j) & 255];
  float s = leaf(a, x, k) ;
#pragma unroll
  for (int j = 0; j < NACC; j++) s += acc[j] * acc[(j + 3) % NACC];
  s += leaf(a, s, k + 1);
  return s;
}
extern "C" __global__ void __launch_bounds__(128, MINB) calls(float *out, const float *in, int n) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int nt = blockDim.x * blockDim.y * blockDim.z;
#ifdef NO_SMEM
  const float *tile = in;
#else
  __shared__ float tile[256];
  for (int j = t; j < 256; j += nt) tile[j] = in[(blockIdx.x * 256 + j) & (n - 1)];
  __syncthreads();
#endif
  int i = blockIdx.x * nt + t;
  float acc[NACC];
#pragma unroll
  for (int j = 0; j < NACC; j++) acc[j] = in[(i + j * 31) & (n - 1)];
  float s = mid(tile, acc[0], t);
#pragma unroll
  for (int j = 0; j < NACC; j++) s += acc[j] * acc[(j + 5) % NACC];
  s += leaf(tile, s, t + 2);
  if (i < n) out[i] = s;
}
