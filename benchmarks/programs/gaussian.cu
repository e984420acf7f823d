// gaussian.cu — Orion benchmark program (paper class: gaussian).
//
// What it computes
//   Forward elimination of Gaussian elimination (no pivoting) on a dense
//   n x n system A x = b, reducing A to upper-triangular form. For every
//   pivot row t the host launches two kernels:
//     fan1: multipliers m[i] = a[i][t] / a[t][t] for all rows i > t;
//     fan2: a[i][j] -= m[i] * a[t][j] for i > t, j >= t, and b[i] -= m[i] b[t].
//   The launch grid shrinks with t, so the work per launch changes every
//   iteration (2(n-1) launches in all).
//
// Paper class
//   Low register pressure; no user shared memory; precise division in fan1
//   (a ptxas subroutine call); host loop over pivot rows.
//
// Input (deterministic, splitmix64 seed 0x6A5)
//   Off-diagonal entries uniform in [-1, 1], diagonal = n/2 + 1 + U[0,1]
//   (strictly diagonally dominant: stable without pivoting, cond ~ 3);
//   b = A x_true with x_true uniform in [-1, 1].
//   large: n = 3072 (36 MB matrix, 6142 launches); small (-s small): n = 200.
//
// Check
//   (1) CPU elimination in the same order. Off-diagonal entries are O(1)
//   and each receives <= n updates of size ~|m| ~ 2/n, rounded at ~6e-8, so
//   CPU/GPU differences (FMA contraction) stay ~1e-5 (random walk; worst
//   case ~2e-4); one missing update changes an entry by ~7e-4. We require
//   |gpu - cpu| <= 2e-4 * (1 + |cpu|) for every entry of A and b.
//   (2) Back substitution (double) from the GPU's triangle recovers x_true
//   to max-norm relative error <= 1e-3 (cond ~ 3, n*eps ~ 2e-4).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "bench_common.h"

#define F1_BLOCK 256
#define F2_BX 32
#define F2_BY 8

__global__ void fan1(const float* __restrict__ a, float* __restrict__ m, int n, int t) {
  const int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
}

__global__ void fan2(float* __restrict__ a, float* __restrict__ b, const float* __restrict__ m,
                     int n, int t) {
  const int j = t + blockIdx.x * blockDim.x + threadIdx.x;      // column >= t
  const int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;  // row > t
  if (i >= n || j >= n) return;
  const float mi = m[i];
  a[(size_t)i * n + j] -= mi * a[(size_t)t * n + j];
  if (j == t) b[i] -= mi * b[t];
}

int main(int argc, char** argv) {
  bool small = false;
  int reps = 3;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "-s") && a + 1 < argc) small = !std::strcmp(argv[++a], "small");
    else if (!std::strcmp(argv[a], "-r") && a + 1 < argc) reps = std::max(1, std::atoi(argv[++a]));
  }
  const int n = small ? 200 : 3072;
  const size_t nn = (size_t)n * n;

  Rng rng(0x6A5);
  std::vector<float> A(nn), B(n);
  std::vector<double> xtrue(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A[(size_t)i * n + j] = (i == j) ? 0.5f * n + 1.0f + rng.uniform() : 2.0f * rng.uniform() - 1.0f;
  for (int i = 0; i < n; ++i) xtrue[i] = 2.0 * rng.uniform() - 1.0;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += (double)A[(size_t)i * n + j] * xtrue[j];
    B[i] = (float)s;
  }

  float *d_a, *d_b, *d_m;
  CUDA_CHECK(cudaMalloc(&d_a, nn * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_m, n * sizeof(float)));

  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  std::vector<float> times;
  double total_ms = 0.0;  // every repetition, the warm-up included
  int launches = 0;
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up (in total_ms only)
    CUDA_CHECK(cudaMemcpy(d_a, A.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, B.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    launches = 0;
    CUDA_CHECK(cudaEventRecord(t0));
    for (int t = 0; t < n - 1; ++t) {
      const int rows = n - 1 - t, cols = n - t;
      fan1<<<(rows + F1_BLOCK - 1) / F1_BLOCK, F1_BLOCK>>>(d_a, d_m, n, t);
      LAUNCH_CHECK();
      const dim3 block(F2_BX, F2_BY), grid((cols + F2_BX - 1) / F2_BX, (rows + F2_BY - 1) / F2_BY);
      fan2<<<grid, block>>>(d_a, d_b, d_m, n, t);
      LAUNCH_CHECK();
      launches += 2;
    }
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    total_ms += ms;
    if (r > 0) times.push_back(ms);
  }
  std::vector<float> ga(nn), gb(n);
  CUDA_CHECK(cudaMemcpy(ga.data(), d_a, nn * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gb.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
  uint64_t checksum = fnv1a(ga.data(), ga.size() * sizeof(float));
  checksum = fnv1a(gb.data(), gb.size() * sizeof(float), checksum);

  // (1) CPU elimination, same order of operations.
  std::vector<float> ra(A), rb(B), m(n);
  for (int t = 0; t < n - 1; ++t) {
    for (int i = t + 1; i < n; ++i) m[i] = ra[(size_t)i * n + t] / ra[(size_t)t * n + t];
    for (int i = t + 1; i < n; ++i) {
      const float mi = m[i];
      float* row = &ra[(size_t)i * n];
      const float* piv = &ra[(size_t)t * n];
      for (int j = t; j < n; ++j) row[j] -= mi * piv[j];
      rb[i] -= mi * rb[t];
    }
  }
  double worst = 0.0;  // max of |gpu - cpu| / (1 + |cpu|)
  for (size_t k = 0; k < nn; ++k) {
    const double e = std::fabs((double)ga[k] - ra[k]) / (1.0 + std::fabs(ra[k]));
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  for (int i = 0; i < n; ++i) {
    const double e = std::fabs((double)gb[i] - rb[i]) / (1.0 + std::fabs(rb[i]));
    if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
  }
  // (2) Back substitution from the GPU's upper triangle.
  std::vector<double> x(n);
  double xerr = 0.0, xmax = 0.0;
  for (int i = n - 1; i >= 0; --i) {
    double s = gb[i];
    for (int j = i + 1; j < n; ++j) s -= (double)ga[(size_t)i * n + j] * x[j];
    x[i] = s / ga[(size_t)i * n + i];
  }
  for (int i = 0; i < n; ++i) {
    const double e = std::fabs(x[i] - xtrue[i]);
    if (!(e <= xerr)) xerr = std::isnan(e) ? INFINITY : e;
    xmax = std::max(xmax, std::fabs(xtrue[i]));
  }
  const bool ok = worst <= 2e-4 && xerr <= 1e-3 * xmax;
  std::printf("max |gpu-cpu|/(1+|cpu|) = %.3e (tol 2e-4); solution rel error %.3e (tol 1e-3)\n",
              worst, xerr / xmax);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  print_result("gaussian", times, launches, ok, total_ms, checksum);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_m));
  return ok ? 0 : 1;
}
