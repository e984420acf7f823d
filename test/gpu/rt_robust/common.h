// common.h - shared by the rt_robust programs (test/gpu/rt_robust.sh): a
// register-heavy kernel Orion makes versions of, and host helpers.
//
// heavy_body(): 48 live float4 accumulators per thread (max-live ~200, so
// the original runs one 256-thread block per SM on sm_90 and the capped
// clones more).  step<ID>(): heavy_body as one link of a chain x <- f(x),
// logging the order its launches ran in (chain.h).
#ifndef RT_ROBUST_COMMON_H
#define RT_ROBUST_COMMON_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                                         \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s (%d)\n", __FILE__, __LINE__, #call,           \
                   cudaGetErrorString(e_), (int)e_);                                     \
      std::exit(2);                                                                      \
    }                                                                                    \
  } while (0)

__host__ __device__ inline uint64_t mix64(uint64_t z) {  // splitmix64 finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ inline uint64_t hash_f4(float4 v, unsigned i) {
  uint64_t a = ((uint64_t)__float_as_uint(v.x) << 32) | __float_as_uint(v.y);
  uint64_t b = ((uint64_t)__float_as_uint(v.z) << 32) | __float_as_uint(v.w);
  return mix64(a ^ mix64(b + i));
}

// K accumulators mixed 4 times with their neighbours, then summed.
template <int K>
__device__ __forceinline__ float4 mix_sum(float4 (&acc)[K]) {
  for (int it = 0; it < 4; it++) {
#pragma unroll
    for (int k = 0; k < K; k++) {
      float4 b = acc[(k + 1) % K];
      acc[k].x = acc[k].x * b.y + b.z;
      acc[k].y = acc[k].y * b.z + b.w;
      acc[k].z = acc[k].z * b.w + b.x;
      acc[k].w = acc[k].w * b.x + b.y;
    }
  }
  float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
  for (int k = 0; k < K; k++) {
    s.x += acc[k].x; s.y += acc[k].y; s.z += acc[k].z; s.w += acc[k].w;
  }
  return s;
}

#define HEAVY_K 48
// 48 live float4 accumulators from in[] around element i, mixed 4 times.
__device__ __forceinline__ float4 heavy_body(const float4 *in, int n, int i, float seed) {
  float4 acc[HEAVY_K];
#pragma unroll
  for (int k = 0; k < HEAVY_K; k++) {
    float4 v = in[(i + k * 131) % n];
    acc[k] = make_float4(v.x + seed, v.y - seed, v.z * 0.5f + seed, v.w);
  }
  return mix_sum(acc);
}

// Keeps an iterated value bounded: v / 32 folded into [-0.5, 0.5].
__device__ __forceinline__ float wrapf(float v) {
  v *= 0.03125f;
  return v - rintf(v);
}

// One link of a chain x <- f(x) (out must not alias in).  Block 0 appends
// `tag` to log[] at the position it draws from *seq (once per launch, also
// when the runtime splits the launch into chunks), so log[] is the order in
// which the launches ran; every block adds 1 to *blocks.  ID makes distinct
// kernels (each its own versions and tuning state) from one source.
template <int ID>
__global__ void step(float4 *out, const float4 *in, int n, unsigned tag, unsigned *seq,
                     unsigned *log, unsigned cap, unsigned long long *blocks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 s = heavy_body(in, n, i < n ? i : 0, (float)(tag % 1000) * 1e-3f);
  if (i < n)
    out[i] = make_float4(wrapf(s.x), wrapf(s.y), wrapf(s.z), wrapf(s.w));
  if (threadIdx.x == 0) {
    atomicAdd(blocks, 1ull);
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
      unsigned k = atomicAdd(seq, 1u);
      if (k < cap)
        log[k] = tag;
    }
  }
}

// Deterministic input in [-1, 1) (splitmix64 stream from seed).
inline void fill_input(float4 *h, int n, uint64_t seed) {
  for (int i = 0; i < n; i++) {
    float f[4];
    for (int j = 0; j < 4; j++)
      f[j] = (float)(mix64(seed + 4ull * i + j) >> 40) * (2.0f / 16777216.0f) - 1.0f;
    h[i] = make_float4(f[0], f[1], f[2], f[3]);
  }
}

// FNV-1a 64 over bytes.
inline uint64_t fnv1a(const void *p, size_t n, uint64_t h = 14695981039346656037ull) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

#endif
