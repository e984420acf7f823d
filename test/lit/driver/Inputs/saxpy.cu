// An nvcc-style program: no includes beyond what nvcc provides implicitly
// except <cstdio>; host-side min/max; launch with <<<>>>.
#include <cstdio>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  int threads = min(256, n), blocks = max(1, (n + threads - 1) / threads);
  saxpy<<<blocks, threads>>>(n, 2.0f, x, y);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  cudaFree(x);
  cudaFree(y);
  return 0;
}
