// streamcluster.cu — Orion benchmark program (paper class: streamcluster).
//
// What it computes
//   The gain evaluation of streamcluster's local search (pgain): for a
//   candidate centre x, every point i computes its weighted squared distance
//   to x and compares it with its current cost (weighted distance to its
//   assigned centre). If x is cheaper the point would switch (switch[i] = 1,
//   gain x_cost - cost in row K of the work matrix); otherwise the saving
//   cost - x_cost is credited to its current centre's row. The work matrix
//   ((K+1) x N, structure of arrays) is fully written, zeros elsewhere.
//   The candidate's coordinates are staged in shared memory per block.
//
// Paper class
//   Low register pressure; small user shared memory (candidate point); no
//   calls; single launch (repeated only for timing).
//
// Input (deterministic, splitmix64 seed 0x5C)
//   Coordinates are multiples of 1/64 in [0, 1) and weights small integers,
//   so every distance and cost is exact in float (no rounding at all).
//   large: N = 2^21 points, D = 32 (256 MB of coordinates), K = 8 centres;
//   small (-s small): N = 5000.
//
// Check
//   Exact (bitwise) against the CPU version of the same computation: all
//   values are exactly representable, so there is nothing to round.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "bench_common.h"

#define D 32      // dimensions
#define K 8       // open centres
#define BLOCK 256

__global__ void pgain_kernel(int n, int cand, const float* __restrict__ coord,
                             const float* __restrict__ weight, const float* __restrict__ cost,
                             const int* __restrict__ assign,
                             unsigned char* __restrict__ switch_membership,
                             float* __restrict__ work) {
  __shared__ float cand_s[D];
  if (threadIdx.x < D) cand_s[threadIdx.x] = coord[(size_t)threadIdx.x * n + cand];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float d2 = 0.0f;
  const float* p = coord + i;  // walks dimension by dimension (stride n)
#pragma unroll 2
  for (int d = 0; d < D; ++d, p += n) {
    const float diff = *p - cand_s[d];
    d2 += diff * diff;
  }
  const float x_cost = d2 * weight[i];
  const float cur = cost[i];
  const int a = assign[i];
  const bool sw = x_cost < cur;
  switch_membership[i] = sw ? 1 : 0;
  float* w = work + i;
#pragma unroll 1
  for (int k = 0; k < K; ++k, w += n) *w = (!sw && k == a) ? cur - x_cost : 0.0f;
  *w = sw ? x_cost - cur : 0.0f;  // row K
}

// Squared distance between points p and q (CPU).
static float dist2_cpu(const std::vector<float>& coord, int n, int p, int q) {
  float s = 0.0f;
  for (int d = 0; d < D; ++d) {
    const float diff = coord[(size_t)d * n + p] - coord[(size_t)d * n + q];
    s += diff * diff;
  }
  return s;
}

int main(int argc, char** argv) {
  bool small = false;
  int reps = 7;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "-s") && a + 1 < argc) small = !std::strcmp(argv[++a], "small");
    else if (!std::strcmp(argv[a], "-r") && a + 1 < argc) reps = std::max(1, std::atoi(argv[++a]));
  }
  const int n = small ? 5000 : (1 << 21);

  // Points, weights, K centres (the first K points of a random pick), assignment.
  Rng rng(0x5C);
  std::vector<float> coord((size_t)D * n), weight(n), cost(n);
  std::vector<int> assign(n), centre(K);
  for (size_t k = 0; k < coord.size(); ++k) coord[k] = (float)rng.below(64) * (1.0f / 64.0f);
  for (int i = 0; i < n; ++i) weight[i] = (float)(1 + rng.below(8));
  for (int k = 0; k < K; ++k) centre[k] = (int)rng.below((uint32_t)n);
  for (int i = 0; i < n; ++i) {
    float best = INFINITY;
    int arg = 0;
    for (int k = 0; k < K; ++k) {
      const float dd = dist2_cpu(coord, n, i, centre[k]);
      if (dd < best) { best = dd; arg = k; }
    }
    assign[i] = arg;
    cost[i] = best * weight[i];
  }
  const int cand = (int)rng.below((uint32_t)n);

  float *d_coord, *d_weight, *d_cost, *d_work;
  int* d_assign;
  unsigned char* d_switch;
  CUDA_CHECK(cudaMalloc(&d_coord, coord.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_weight, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_cost, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_assign, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_switch, n));
  CUDA_CHECK(cudaMalloc(&d_work, (size_t)(K + 1) * n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_coord, coord.data(), coord.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_weight, weight.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_cost, cost.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_assign, assign.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  const int grid = (n + BLOCK - 1) / BLOCK;
  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  std::vector<float> times;
  double total_ms = 0.0;  // every repetition, the warm-up included
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up (in total_ms only)
    CUDA_CHECK(cudaMemset(d_work, 0xff, (size_t)(K + 1) * n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_switch, 0xff, n));
    CUDA_CHECK(cudaEventRecord(t0));
    pgain_kernel<<<grid, BLOCK>>>(n, cand, d_coord, d_weight, d_cost, d_assign, d_switch, d_work);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    total_ms += ms;
    if (r > 0) times.push_back(ms);
  }
  std::vector<float> gwork((size_t)(K + 1) * n);
  std::vector<unsigned char> gswitch(n);
  CUDA_CHECK(cudaMemcpy(gwork.data(), d_work, gwork.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gswitch.data(), d_switch, n, cudaMemcpyDeviceToHost));
  uint64_t checksum = fnv1a(gwork.data(), gwork.size() * sizeof(float));
  checksum = fnv1a(gswitch.data(), gswitch.size(), checksum);

  long bad = 0, switched = 0;
  double gain = 0.0;
  for (int i = 0; i < n; ++i) {
    const float x_cost = dist2_cpu(coord, n, i, cand) * weight[i];
    const bool sw = x_cost < cost[i];
    switched += sw;
    if (gswitch[i] != (sw ? 1 : 0)) ++bad;
    for (int k = 0; k <= K; ++k) {
      float ref = 0.0f;
      if (k == K && sw) ref = x_cost - cost[i];
      if (k < K && !sw && k == assign[i]) ref = cost[i] - x_cost;
      if (std::memcmp(&ref, &gwork[(size_t)k * n + i], sizeof(float)) != 0) ++bad;
    }
    gain += sw ? cost[i] - x_cost : 0.0;
  }
  const bool ok = bad == 0;
  std::printf("%ld of %d points would switch (gain %.1f); %ld mismatches (exact check)\n",
              switched, n, gain, bad);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  print_result("streamcluster", times, 1, ok, total_ms, checksum);
  CUDA_CHECK(cudaFree(d_coord));
  CUDA_CHECK(cudaFree(d_weight));
  CUDA_CHECK(cudaFree(d_cost));
  CUDA_CHECK(cudaFree(d_assign));
  CUDA_CHECK(cudaFree(d_switch));
  CUDA_CHECK(cudaFree(d_work));
  return ok ? 0 : 1;
}
