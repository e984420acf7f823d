// Input of test/unit/sass/test_cubin.c: kernels whose cubin facts the test
// checks (compiled with nvcc -cubin -arch=sm_90 at build time).
//  k_bounds: __launch_bounds__(256), 128 floats of static shared memory,
//            a __noinline__ callee, two exits
//  k_dyn:    extern (dynamic) shared memory only
//  k_spill:  __maxnreg__(32) and 40 live doubles: spills to a stack frame
__device__ __noinline__ float dot_prefix(const float *a, int i) {
  float s = 0;
  for (int j = 0; j < i; j++)
    s += a[j] * a[i - j];
  return s;
}

extern __shared__ float dyn[];

__global__ void __launch_bounds__(256) k_bounds(float *a, int n) {
  __shared__ float t[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x & 127] = a[i];
  __syncthreads();
  if (i < n)
    a[i] = dot_prefix(a, i) + t[(threadIdx.x + 1) & 127];
}

__global__ void k_dyn(float *a) {
  dyn[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = dyn[threadIdx.x ^ 1];
}

__global__ void __maxnreg__(32) k_spill(double *a) {
  double v[40];
  for (int i = 0; i < 40; i++)
    v[i] = a[i * blockDim.x + threadIdx.x];
  for (int r = 0; r < 8; r++)
    for (int i = 0; i < 40; i++)
      v[i] = v[i] * v[(i + r) % 40] + 1.0;
  double s = 0;
  for (int i = 0; i < 40; i++)
    s += v[i] * i;
  a[threadIdx.x] = s;
}
