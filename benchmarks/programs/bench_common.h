// bench_common.h - helpers every benchmark program shares: CUDA error checks,
// a deterministic PRNG (splitmix64, so inputs are the same on every
// platform and compiler) and the median of repeated timings.  Host code only.
#ifndef ORION_BENCH_COMMON_H
#define ORION_BENCH_COMMON_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,      \
                   #call, cudaGetErrorString(err_));                          \
      std::exit(2);                                                           \
    }                                                                         \
  } while (0)
#define LAUNCH_CHECK() CUDA_CHECK(cudaGetLastError())

struct Rng {  // splitmix64
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 bits.
  float uniform() { return (float)(next() >> 40) * (1.0f / 16777216.0f); }
  float range(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n).
  uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * n) >> 32); }
  // Uniform in the open interval (0, 1).
  double open01() { return ((next() >> 40) + 1.0) * (1.0 / 16777217.0); }
};

static inline float median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#endif
