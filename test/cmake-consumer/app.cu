// app.cu - the CUDA program of the CMake and pkg-config consumer tests.
//
// One kernel that keeps 48 running moments of a sliding window in registers
// (enough register pressure for OrionPass to emit capped versions), checked
// against the CPU.  It includes orion/rt.h and calls orion_rt_report(), so
// the build needs the package's include directory and liborionrt.
#include <cmath>
#include <cstdio>
#include <vector>

#include <orion/rt.h>

#define MOMENTS 48
#define WINDOW 16

__host__ __device__ static float moments_at(const float *in, int i, int n) {
  float m[MOMENTS];
#pragma unroll
  for (int k = 0; k < MOMENTS; k++)
    m[k] = 0.f;
  for (int w = 0; w < WINDOW; w++) {
    float x = in[i + w < n ? i + w : n - 1], p = 1.f;
#pragma unroll
    for (int k = 0; k < MOMENTS; k++) {
      p *= x;
      m[k] += p * (1.f + 0.01f * (float)w);
    }
  }
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < MOMENTS; k++)
    r += m[k] / (float)(k + 1) * m[(k * 7 + 3) % MOMENTS];
  return r;
}

__global__ void moments(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = moments_at(in, i, n);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; i++)
    in[i] = 0.5f + 0.4f * std::sin(0.01f * (float)i);
  float *din = nullptr, *dout = nullptr;
  if (cudaMalloc(&din, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dout, n * sizeof(float)) != cudaSuccess) {
    std::printf("app: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 5; rep++)
    moments<<<(n + 255) / 256, 256>>>(dout, din, n);
  cudaError_t e = cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("app: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; i += 97) {
    float ref = moments_at(in.data(), i, n);
    if (std::fabs(out[i] - ref) > 1e-3f * std::fabs(ref) + 1e-3f)
      bad++;
  }
  orion_rt_report();
  cudaFree(din);
  cudaFree(dout);
  std::printf("app: %s\n", bad ? "MISMATCH" : "ok");
  return bad ? 1 : 0;
}
