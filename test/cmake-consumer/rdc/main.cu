// A kernel that calls a device function of another translation unit
// (relocatable device code, linked by CMake's device-link step), with
// enough register pressure that OrionPass emits capped versions.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float scale(float x, int i);

#define MOMENTS 48

// 48 running sums in registers: enough pressure for capped versions.
__global__ void apply(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float m[MOMENTS];
#pragma unroll
  for (int k = 0; k < MOMENTS; k++)
    m[k] = 0.f;
  for (int w = 0; w < 16; w++) {
    float x = v[i + w < n ? i + w : n - 1], p = 1.f;
#pragma unroll
    for (int k = 0; k < MOMENTS; k++) {
      p *= x;
      m[k] += p * (1.f + 0.01f * (float)w);
    }
  }
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < MOMENTS; k++)
    r += m[k] * m[(k * 7 + 3) % MOMENTS];
  v[i] = scale(r, i);
}

int main() {
  const int n = 1 << 16;
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  cudaMemset(d, 0, n * sizeof(float));
  for (int r = 0; r < 20; r++)
    apply<<<(n + 255) / 256, 256>>>(d, n);
  float h = 0;
  cudaMemcpy(&h, d + 3, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("v[3] = %g\n", h);
  return 0;
}
