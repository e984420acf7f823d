// rdc_main.cu, rdc_dev.cu - a program built with `orion-cc -fgpu-rdc` from
// two translation units (test/gpu/rt_robust.sh, check 4): the kernel here
// is register-heavy (Orion makes versions of it) and calls rdc_mix(),
// which rdc_dev.cu defines, for every accumulator; rdc_dev.cu also defines
// rdc_scale, a __device__ variable this file reads.  The device code is
// linked across the files at link time.
//
// usage: rdc [iterations=50]
// Runs the kernel `iterations` times (in a loop: the runtime tunes it),
// then compares every element of the last output with the same arithmetic
// on the host (exact: the same float operations in the same order, no
// contraction on either side) and prints
//   RESULT rdc iters=N checksum=<hex> mismatches=<count> OK|FAIL
#include <cstring>
#include <vector>

#include "common.h"
#include "rdc_dev.h"

#define RK 64
__global__ void rdc_kernel(float *out, const float *in, int n, int round) {
  float acc[RK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < RK; k++)
    acc[k] = in[(i + k * 97) % n] * rdc_scale;
  for (int r = 0; r < 3; r++) {
#pragma unroll
    for (int k = 0; k < RK; k++)
      acc[k] = rdc_mix(acc[k], acc[(k + 1) % RK], k + r + round);
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < RK; k++)
    s += acc[k];
  if (i < n)
    out[i] = s;
}

static float host_element(const std::vector<float> &in, int n, int i, int round, float scale) {
  float acc[RK];
  for (int k = 0; k < RK; k++)
    acc[k] = in[(i + k * 97) % n] * scale;
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < RK; k++)
      acc[k] = rdc_mix_host(acc[k], acc[(k + 1) % RK], k + r + round);
  float s = 0.f;
  for (int k = 0; k < RK; k++)
    s += acc[k];
  return s;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 50;
  const int n = 512 * 256;
  std::vector<float> h(n), o(n);
  for (int i = 0; i < n; i++)
    h[i] = (float)(mix64(i) >> 40) * (1.0f / 16777216.0f) - 0.5f;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int it = 0; it < iters; it++) {
    rdc_kernel<<<n / 256, 256>>>(out, in, n, it);
    CK(cudaGetLastError());
  }
  CK(cudaMemcpy(o.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  float scale = 0;
  CK(cudaMemcpyFromSymbol(&scale, rdc_scale, sizeof scale));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = host_element(h, n, i, iters - 1, scale);
    if (std::memcmp(&want, &o[i], sizeof want) && bad++ < 3)
      std::printf("element %d: device %.9g host %.9g\n", i, o[i], want);
  }
  std::printf("RESULT rdc iters=%d checksum=%016" PRIx64 " mismatches=%d %s\n", iters,
              fnv1a(o.data(), n * sizeof(float)), bad, bad ? "FAIL" : "OK");
  return bad ? 1 : 0;
}
