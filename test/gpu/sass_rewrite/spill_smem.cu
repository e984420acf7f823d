// spill_smem.cu - kernels for the frame-to-shared rewrite (sass/rewrite/rewrite.c):
// register-heavy loops that spill at the caps run.sh builds them with
// (-maxrregcount), launch bounds (the rewrite needs a maximum block size),
// and a little static shared memory (the rewrite grows .nv.shared.<k>; it
// cannot add the section yet).  Deterministic integer-exact arithmetic on
// floats is not needed: the check compares the original cubin's output
// with the rewritten one's, bit for bit, on the same GPU.
#define NACC 20
#ifndef MINB
#define MINB 16 // 65536 / (128 * 16) = 32 registers
#endif

extern "C" __global__ void __launch_bounds__(128, MINB) spill4(float *out, const float *in, int n, int iters) {
  __shared__ float tile[128];
  float acc[NACC];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int nt = blockDim.x * blockDim.y * blockDim.z;
  int i = blockIdx.x * nt + t;
#pragma unroll
  for (int k = 0; k < NACC; k++)
    acc[k] = in[(i + k * 97) & (n - 1)];
  // Every entry written whatever the block shape (blocks under 128 threads
  // would otherwise read uninitialised shared memory).
  for (int j = t; j < 128; j += nt)
    tile[(j * 5) & 127] = in[(blockIdx.x * 128 + j) & (n - 1)] + acc[0] * 0.5f;
  __syncthreads();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int k = 0; k < NACC; k++) {
      float b = acc[(k + 1) % NACC], c = acc[(k + 7) % NACC];
      acc[k] = acc[k] * b + c * 0.5f + tile[(t + k) & 127];
    }
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < NACC; k++)
    s += acc[k] * (float)(k + 1);
  if (i < n)
    out[i] = s;
}

extern "C" __global__ void __launch_bounds__(128, MINB) spill8(double *out, const double *in, int n, int iters) {
  __shared__ double tile[128];
  double acc[12];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int nt = blockDim.x * blockDim.y * blockDim.z;
  int i = blockIdx.x * nt + t;
#pragma unroll
  for (int k = 0; k < 12; k++)
    acc[k] = in[(i + k * 89) & (n - 1)];
  for (int j = t; j < 128; j += nt)
    tile[(j * 5) & 127] = in[(blockIdx.x * 128 + j) & (n - 1)] - acc[11] * 0.25;
  __syncthreads();
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int k = 0; k < 12; k++) {
      double b = acc[(k + 1) % 12], c = acc[(k + 5) % 12];
      acc[k] = acc[k] * b + c * 0.25 + tile[(t + 3 * k) & 127];
    }
  }
  double s = 0;
#pragma unroll
  for (int k = 0; k < 12; k++)
    s += acc[k] * (double)(k + 1);
  if (i < n)
    out[i] = s;
}
