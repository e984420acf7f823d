// demo.cu - the example scripts/demo.sh compiles with orion-cc.
//
// One register-heavy kernel (a 32-tap polynomial filter holding its taps and
// partial sums in registers) and one light kernel (scale).  Plain CUDA,
// written for nvcc: no Orion-specific code.  On a machine with a GPU it runs
// and checks the result against the CPU; without one it says so and exits 0.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TAPS 32

__global__ void filter(float *out, const float *in, const float *coef, int n) {
  float c[TAPS], x[TAPS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < TAPS; k++) {
    c[k] = coef[k];
    x[k] = in[min(i + k, n - 1)];
  }
  float acc = 0.f;
  for (int round = 0; round < 4; round++) {
#pragma unroll
    for (int k = 0; k < TAPS; k++) {
      acc = fmaf(c[k], x[k], acc);
      x[k] = x[(k + 1) % TAPS] * 0.5f + c[(k + 3) % TAPS];
    }
  }
  if (i < n)
    out[i] = acc;
}

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= s;
}

static float ref_at(const std::vector<float> &in, const std::vector<float> &coef, int i, int n) {
  float c[TAPS], x[TAPS], acc = 0.f;
  for (int k = 0; k < TAPS; k++) {
    c[k] = coef[k];
    x[k] = in[std::min(i + k, n - 1)];
  }
  for (int round = 0; round < 4; round++)
    for (int k = 0; k < TAPS; k++) {
      acc = fmaf(c[k], x[k], acc);
      x[k] = x[(k + 1) % TAPS] * 0.5f + c[(k + 3) % TAPS];
    }
  return acc;
}

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("demo: no CUDA GPU here; the binary was built (run it on a GPU machine)\n");
    return 0;
  }
  const int n = 1 << 22;
  std::vector<float> in(n), coef(TAPS), out(n);
  unsigned s = 12345;
  for (auto &v : in) v = (float)((s = s * 1664525u + 1013904223u) >> 8) / (1 << 24) - 0.5f;
  for (auto &v : coef) v = (float)((s = s * 1664525u + 1013904223u) >> 8) / (1 << 24) - 0.5f;
  float *din, *dout, *dcoef;
  if (cudaMalloc(&din, n * 4) || cudaMalloc(&dout, n * 4) || cudaMalloc(&dcoef, TAPS * 4)) {
    fprintf(stderr, "demo: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dcoef, coef.data(), TAPS * 4, cudaMemcpyHostToDevice);
  for (int it = 0; it < 20; it++) {
    filter<<<(n + 255) / 256, 256>>>(dout, din, dcoef, n);
    scale<<<(n + 255) / 256, 256>>>(dout, 1.0f, n);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "demo: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i += 4099) {
    float r = ref_at(in, coef, i, n);
    if (std::fabs(out[i] - r) > 1e-4f * (1.f + std::fabs(r)))
      bad++;
  }
  printf("demo: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
