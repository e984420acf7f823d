// bench_common.h - helpers every benchmark program shares: CUDA error checks,
// a deterministic PRNG (splitmix64, so inputs are the same on every
// platform and compiler), the median of repeated timings, an FNV-1a checksum
// of output buffers and the final RESULT line.  Host code only.
#ifndef ORION_BENCH_COMMON_H
#define ORION_BENCH_COMMON_H

#include <algorithm>
#include <cinttypes>
#include <cstddef>
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

// FNV-1a, 64-bit, over the raw bytes of a buffer.  Chain several buffers by
// passing the previous result as h: fnv1a(b, nb, fnv1a(a, na)).
static inline uint64_t fnv1a(const void* data, size_t bytes,
                             uint64_t h = 14695981039346656037ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// The last line of every program:
//   RESULT name=<prog> kernel_ms=<median of the timed repetitions>
//          iters=<launches in one repetition> check=PASS|FAIL
//          total_ms=<sum over all repetitions, warm-up included>
//          checksum=<FNV-1a of the last repetition's output, 16 hex digits>
static inline void print_result(const char* name, const std::vector<float>& times, int iters,
                                bool ok, double total_ms, uint64_t checksum) {
  std::printf("RESULT name=%s kernel_ms=%.4f iters=%d check=%s total_ms=%.4f checksum=%016" PRIx64
              "\n",
              name, median_of(times), iters, ok ? "PASS" : "FAIL", total_ms, checksum);
}

#endif
