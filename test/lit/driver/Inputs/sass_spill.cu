// orion-ptxas --orion-spill=sass inputs (test/lit/driver/ptxas-sass-spill.test):
// kernels with launch bounds (128 threads, 16 blocks: 32 registers) that
// spill: `hot` (no call, no shared memory), `called` (a __noinline__ call
// in the loop), `dynsm` (dynamic shared memory) and `own` (as hot with M
// values, all from one load: its local accesses outnumber its global
// loads).
#define N 24
#define M 40
extern __shared__ float dyn[];
__device__ __noinline__ float mix(float x, float y) { return x * y + 1.0f; }

// K live values updated n times; step: 0 plain, 1 through mix(), 2 reading dyn[],
// 3 plain from values of the thread's own.
template <int K, int step>
__device__ __forceinline__ float rounds(const float *in, int t, int n) {
  float a[K];
#pragma unroll
  for (int k = 0; k < K; k++) a[k] = step == 3 ? in[t] * (k + 1) : in[t + k * 128];
  for (int i = 0; i < n; i++)
#pragma unroll
    for (int k = 0; k < K; k++)
      a[k] = step == 1 ? mix(a[k], a[(k + 1) % K])
                       : a[k] * a[(k + 1) % K] + (step == 2 ? dyn[(t + i) & 127] : step == 3 ? (float)i : in[t + i]);
  float s = 0;
#pragma unroll
  for (int k = 0; k < K; k++) s += a[k] * (k + 1);
  return s;
}
__global__ void __launch_bounds__(128, 16) hot(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  out[t] = rounds<N, 0>(in, t, n);
}
__global__ void __launch_bounds__(128, 16) called(float *out, const float *in, int n) {
  out[threadIdx.x] = rounds<M, 1>(in, threadIdx.x, n);
}
__global__ void __launch_bounds__(128, 16) dynsm(float *out, const float *in, int n) {
  out[threadIdx.x] = rounds<M, 2>(in, threadIdx.x, n);
}
__global__ void __launch_bounds__(128, 16) own(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  out[t] = rounds<M, 3>(in, t, n);
}
