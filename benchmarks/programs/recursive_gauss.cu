// recursive_gauss.cu — Orion benchmark program (paper class: recursiveGaussian).
//
// What it computes
//   Gaussian blur of an RGBA8 image along its columns with Deriche's
//   fourth-order recursive (IIR) approximation of the Gaussian: a causal pass
//   top-to-bottom
//     y+[n] = sum_{k=0..3} n_k x[n-k] - sum_{k=1..4} d_k y+[n-k]
//   and an anti-causal pass bottom-to-top
//     y-[n] = sum_{k=1..4} m_k x[n+k] - sum_{k=1..4} d_k y-[n+k],
//   out = y+ + y-, with clamp-to-edge (steady-state) initial conditions.
//   One thread per column; the causal result goes through a float4 scratch
//   image. Pixels are converted RGBA8 <-> float4 by two __noinline__ device
//   helpers, so the filter history (seven float4s) is live across real calls
//   in both loops.
//
// Paper class
//   High register pressure (28 history floats live across calls);
//   non-inlined device calls (2 per pixel per pass); no user shared memory;
//   single launch (repeated only for timing).
//
// Input (deterministic, splitmix64 seed 0x6A55)
//   large: 131072 x 96 RGBA8 (a wide strip; 48 MB in, 192 MB float4 scratch,
//   48 MB out), sigma = 4; small (-s small): 512 x 64.
//
// Check
//   The CPU runs the same per-column routine. The float results differ only
//   by FMA contraction (a few ulps, amplified at most ~10x by the IIR
//   feedback: ~1e-5 of full scale), so after rounding to 8 bits a channel
//   can differ only next to a rounding boundary, and then by exactly 1; the
//   expected share of such channels is ~255 * 1e-5 < 0.3%. We require
//   max |gpu - cpu| <= 1 (8-bit units) and at most 1% of channels differing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "bench_common.h"

// float4 arithmetic used by the filter.
__host__ __device__ inline float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__host__ __device__ inline float4 operator-(float4 a, float4 b) {
  return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
__host__ __device__ inline float4 operator*(float s, float4 a) {
  return make_float4(s * a.x, s * a.y, s * a.z, s * a.w);
}

// Pixel conversions; deliberately out of line.
__host__ __device__ __noinline__ float4 rgba_to_float4(uint32_t c) {
  return make_float4((c & 255) * (1.0f / 255.0f), ((c >> 8) & 255) * (1.0f / 255.0f),
                     ((c >> 16) & 255) * (1.0f / 255.0f), (c >> 24) * (1.0f / 255.0f));
}
__host__ __device__ __noinline__ uint32_t float4_to_rgba(float4 v) {
  const float x = fminf(fmaxf(v.x, 0.0f), 1.0f), y = fminf(fmaxf(v.y, 0.0f), 1.0f),
              z = fminf(fmaxf(v.z, 0.0f), 1.0f), w = fminf(fmaxf(v.w, 0.0f), 1.0f);
  return (uint32_t)(x * 255.0f + 0.5f) | (uint32_t)(y * 255.0f + 0.5f) << 8 |
         (uint32_t)(z * 255.0f + 0.5f) << 16 | (uint32_t)(w * 255.0f + 0.5f) << 24;
}

struct Coefs {
  float n0, n1, n2, n3;  // causal feed-forward
  float m1, m2, m3, m4;  // anti-causal feed-forward
  float d1, d2, d3, d4;  // feedback (shared)
  float gp, gn;          // DC gains of the two passes (clamp-to-edge start)
};

// Filter column x of a width x height image (same code on CPU and GPU).
__host__ __device__ inline void filter_column(int x, int width, int height, const uint32_t* in,
                                              float4* tmp, uint32_t* out, const Coefs& c) {
  // causal pass: history x[n-1..n-3], y[n-1..n-4] starts in steady state
  float4 x1 = rgba_to_float4(in[x]), x2 = x1, x3 = x1;
  float4 y1 = c.gp * x1, y2 = y1, y3 = y1, y4 = y1;
  for (int y = 0; y < height; ++y) {
    const size_t i = (size_t)y * width + x;
    const float4 xc = rgba_to_float4(in[i]);
    const float4 yc = c.n0 * xc + c.n1 * x1 + c.n2 * x2 + c.n3 * x3
                      - c.d1 * y1 - c.d2 * y2 - c.d3 * y3 - c.d4 * y4;
    tmp[i] = yc;
    x3 = x2; x2 = x1; x1 = xc;
    y4 = y3; y3 = y2; y2 = y1; y1 = yc;
  }
  // anti-causal pass: history x[n+1..n+4], y[n+1..n+4]; summed with causal
  const size_t last = (size_t)(height - 1) * width + x;
  x1 = rgba_to_float4(in[last]);
  x2 = x1; x3 = x1;
  float4 x4 = x1;
  y1 = c.gn * x1; y2 = y1; y3 = y1; y4 = y1;
  for (int y = height - 1; y >= 0; --y) {
    const size_t i = (size_t)y * width + x;
    const float4 xc = rgba_to_float4(in[i]);
    const float4 yc = c.m1 * x1 + c.m2 * x2 + c.m3 * x3 + c.m4 * x4
                      - c.d1 * y1 - c.d2 * y2 - c.d3 * y3 - c.d4 * y4;
    x4 = x3; x3 = x2; x2 = x1; x1 = xc;
    y4 = y3; y3 = y2; y2 = y1; y1 = yc;
    out[i] = float4_to_rgba(tmp[i] + yc);
  }
}

__global__ void gauss_columns(int width, int height, const uint32_t* __restrict__ in,
                              float4* __restrict__ tmp, uint32_t* __restrict__ out, Coefs c) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < width) filter_column(x, width, height, in, tmp, out, c);
}

// Deriche's 4th-order approximation of a Gaussian of standard deviation
// sigma (R. Deriche, "Recursively implementing the Gaussian and
// its derivatives", 1993), normalised to unit DC gain.
static Coefs deriche(double s) {
  const double a0 = 1.68, a1 = 3.735, b0 = 1.783, b1 = 1.723, c0 = -0.6803, c1 = -0.2598,
               w0 = 0.6318, w1 = 1.997;
  const double cw0 = std::cos(w0 / s), sw0 = std::sin(w0 / s), cw1 = std::cos(w1 / s),
               sw1 = std::sin(w1 / s);
  const double e0 = std::exp(-b0 / s), e1 = std::exp(-b1 / s);
  double n[4], d[4], m[4];
  n[0] = a0 + c0;
  n[1] = e1 * (c1 * sw1 - (c0 + 2 * a0) * cw1) + e0 * (a1 * sw0 - (2 * c0 + a0) * cw0);
  n[2] = 2 * e0 * e1 * ((a0 + c0) * cw1 * cw0 - a1 * cw1 * sw0 - c1 * cw0 * sw1) +
         c0 * e0 * e0 + a0 * e1 * e1;
  n[3] = e1 * e0 * e0 * (c1 * sw1 - c0 * cw1) + e0 * e1 * e1 * (a1 * sw0 - a0 * cw0);
  d[0] = -2 * e1 * cw1 - 2 * e0 * cw0;
  d[1] = 4 * cw1 * cw0 * e0 * e1 + e1 * e1 + e0 * e0;
  d[2] = -2 * cw0 * e0 * e1 * e1 - 2 * cw1 * e1 * e0 * e0;
  d[3] = e0 * e0 * e1 * e1;
  for (int k = 0; k < 3; ++k) m[k] = n[k + 1] - d[k] * n[0];
  m[3] = -d[3] * n[0];
  const double den = 1 + d[0] + d[1] + d[2] + d[3];
  const double gp = (n[0] + n[1] + n[2] + n[3]) / den, gn = (m[0] + m[1] + m[2] + m[3]) / den;
  const double scale = 1.0 / (gp + gn);
  Coefs c;
  c.n0 = (float)(n[0] * scale); c.n1 = (float)(n[1] * scale);
  c.n2 = (float)(n[2] * scale); c.n3 = (float)(n[3] * scale);
  c.m1 = (float)(m[0] * scale); c.m2 = (float)(m[1] * scale);
  c.m3 = (float)(m[2] * scale); c.m4 = (float)(m[3] * scale);
  c.d1 = (float)d[0]; c.d2 = (float)d[1]; c.d3 = (float)d[2]; c.d4 = (float)d[3];
  c.gp = (float)(gp * scale);
  c.gn = (float)(gn * scale);
  return c;
}

int main(int argc, char** argv) {
  bool small = false;
  int reps = 7;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "-s") && a + 1 < argc) small = !std::strcmp(argv[++a], "small");
    else if (!std::strcmp(argv[a], "-r") && a + 1 < argc) reps = std::max(1, std::atoi(argv[++a]));
  }
  const int W = small ? 512 : 131072, H = small ? 64 : 96;
  const size_t npx = (size_t)W * H;
  const Coefs c = deriche(4.0);

  // Image: diagonal stripes, blocks and noise.
  Rng rng(0x6A55);
  std::vector<uint32_t> img(npx);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const uint32_t r = ((x + 3 * y) & 63) < 32 ? 200 : 40;
      const uint32_t g = (uint32_t)((y * 255) / H);
      const uint32_t b = ((x / 16 + y / 16) & 1) ? 230 : (uint32_t)rng.below(256);
      img[(size_t)y * W + x] = r | g << 8 | b << 16 | (128u + rng.below(128)) << 24;
    }

  uint32_t *d_in, *d_out;
  float4* d_tmp;
  CUDA_CHECK(cudaMalloc(&d_in, npx * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_out, npx * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_tmp, npx * sizeof(float4)));
  CUDA_CHECK(cudaMemcpy(d_in, img.data(), npx * sizeof(uint32_t), cudaMemcpyHostToDevice));

  const int block = 64, grid = (W + block - 1) / block;
  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  std::vector<float> times;
  double total_ms = 0.0;  // every repetition, the warm-up included
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up (in total_ms only)
    CUDA_CHECK(cudaMemset(d_out, 0, npx * sizeof(uint32_t)));
    CUDA_CHECK(cudaEventRecord(t0));
    gauss_columns<<<grid, block>>>(W, H, d_in, d_tmp, d_out, c);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    total_ms += ms;
    if (r > 0) times.push_back(ms);
  }
  std::vector<uint32_t> gpu(npx);
  CUDA_CHECK(cudaMemcpy(gpu.data(), d_out, npx * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const uint64_t checksum = fnv1a(gpu.data(), gpu.size() * sizeof(uint32_t));

  std::vector<uint32_t> ref(npx);
  std::vector<float4> tmp(npx);
  for (int x = 0; x < W; ++x) filter_column(x, W, H, img.data(), tmp.data(), ref.data(), c);
  long differ = 0;
  int maxdiff = 0;
  for (size_t i = 0; i < npx; ++i)
    for (int ch = 0; ch < 4; ++ch) {
      const int d = std::abs((int)((gpu[i] >> (8 * ch)) & 255) - (int)((ref[i] >> (8 * ch)) & 255));
      if (d) ++differ;
      maxdiff = std::max(maxdiff, d);
    }
  const bool ok = maxdiff <= 1 && (double)differ <= 1e-2 * 4.0 * (double)npx;
  std::printf("channels differing: %ld of %zu, max diff %d (tolerance: <= 1, <= 1%%)\n", differ,
              4 * npx, maxdiff);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  print_result("recursive_gauss", times, 1, ok, total_ms, checksum);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_tmp));
  return ok ? 0 : 1;
}
