// nlm_denoise.cu — Orion benchmark program (paper class: imageDenoising).
//
// What it computes
//   Non-local-means denoising of an RGB image. For every pixel p the output is
//   the weighted average of the pixels q in an 11x11 search window around p,
//   with weight w(p,q) = exp(-|P(p) - P(q)|^2 / h^2), where P(.) is the 5x5x3
//   patch around a pixel (clamp-to-edge outside the image).
//   A 16x16 thread block stages its 30x30 input tile (block + window + patch
//   halo) in shared memory; each thread keeps its own reference patch (75
//   floats) in registers for the whole search-window loop.
//
// Paper class
//   High register pressure (75-float reference patch + accumulators live in
//   the window loop); user shared memory (14.4 KB tile); precise division and
//   expf; single launch (repeated only for timing).
//
// Input (deterministic, splitmix64 seed 0x4E4C4D)
//   large: 1920x1080 RGB (float4 storage, 33 MB in + 33 MB out);
//   small (-s small): 160x120.
//
// Check
//   A plain CPU implementation (no tiling) of the same formula. In large mode
//   every 8th row plus the last 8 rows are checked (cost); in small mode every
//   pixel. Outputs are convex combinations of values in [0,1]; rounding
//   differences (FMA contraction in the 75-term patch distance, expf ulps)
//   perturb each weight by ~1e-5 relative, hence the output by ~1e-5. We
//   require max |gpu - cpu| <= 2e-4 (absolute; values are O(1)).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "bench_common.h"

#define WR 5                   // search window radius (11x11)
#define PR 2                   // patch radius (5x5)
#define HALO (WR + PR)
#define BX 16
#define BY 16
#define TW (BX + 2 * HALO)     // tile width  (30)
#define TH (BY + 2 * HALO)     // tile height (30)

__global__ void nlm_kernel(const float4* __restrict__ in, float4* __restrict__ out,
                           int width, int height, float inv_h2) {
  __shared__ float4 tile[TH][TW];
  const int x0 = blockIdx.x * BX - HALO, y0 = blockIdx.y * BY - HALO;
  // Cooperative, clamped load of the tile.
  for (int idx = threadIdx.y * BX + threadIdx.x; idx < TW * TH; idx += BX * BY) {
    const int ty = idx / TW, tx = idx - ty * TW;
    const int gx = min(max(x0 + tx, 0), width - 1);
    const int gy = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = in[(size_t)gy * width + gx];
  }
  __syncthreads();

  const int cx = threadIdx.x + HALO, cy = threadIdx.y + HALO;
  // Reference patch in registers.
  float rr[2 * PR + 1][2 * PR + 1], rg[2 * PR + 1][2 * PR + 1], rb[2 * PR + 1][2 * PR + 1];
#pragma unroll
  for (int py = 0; py < 2 * PR + 1; ++py)
#pragma unroll
    for (int px = 0; px < 2 * PR + 1; ++px) {
      const float4 v = tile[cy - PR + py][cx - PR + px];
      rr[py][px] = v.x;
      rg[py][px] = v.y;
      rb[py][px] = v.z;
    }

  float sw = 0.f, sr = 0.f, sg = 0.f, sb = 0.f;
#pragma unroll 1
  for (int oy = -WR; oy <= WR; ++oy) {
#pragma unroll 1
    for (int ox = -WR; ox <= WR; ++ox) {
      float d2 = 0.f;
#pragma unroll
      for (int py = 0; py < 2 * PR + 1; ++py)
#pragma unroll
        for (int px = 0; px < 2 * PR + 1; ++px) {
          const float4 q = tile[cy + oy - PR + py][cx + ox - PR + px];
          const float dr = q.x - rr[py][px], dg = q.y - rg[py][px], db = q.z - rb[py][px];
          d2 += dr * dr + dg * dg + db * db;
        }
      const float w = expf(-d2 * inv_h2);
      const float4 c = tile[cy + oy][cx + ox];
      sw += w;
      sr += w * c.x;
      sg += w * c.y;
      sb += w * c.z;
    }
  }
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  if (x < width && y < height)
    out[(size_t)y * width + x] = make_float4(sr / sw, sg / sw, sb / sw, 1.0f);
}

// Plain CPU version of one output pixel.
static void nlm_pixel_cpu(const std::vector<float4>& img, int W, int H, float inv_h2,
                          int x, int y, float res[3]) {
  auto at = [&](int xx, int yy) -> const float4& {
    xx = std::min(std::max(xx, 0), W - 1);
    yy = std::min(std::max(yy, 0), H - 1);
    return img[(size_t)yy * W + xx];
  };
  float sw = 0.f, sr = 0.f, sg = 0.f, sb = 0.f;
  for (int oy = -WR; oy <= WR; ++oy)
    for (int ox = -WR; ox <= WR; ++ox) {
      float d2 = 0.f;
      for (int py = -PR; py <= PR; ++py)
        for (int px = -PR; px <= PR; ++px) {
          const float4& q = at(x + ox + px, y + oy + py);
          const float4& r = at(x + px, y + py);
          const float dr = q.x - r.x, dg = q.y - r.y, db = q.z - r.z;
          d2 += dr * dr + dg * dg + db * db;
        }
      const float w = std::exp(-d2 * inv_h2);
      const float4& c = at(x + ox, y + oy);
      sw += w;
      sr += w * c.x;
      sg += w * c.y;
      sb += w * c.z;
    }
  res[0] = sr / sw;
  res[1] = sg / sw;
  res[2] = sb / sw;
}

int main(int argc, char** argv) {
  bool small = false;
  int reps = 7;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "-s") && a + 1 < argc) small = !std::strcmp(argv[++a], "small");
    else if (!std::strcmp(argv[a], "-r") && a + 1 < argc) reps = std::max(1, std::atoi(argv[++a]));
  }
  const int W = small ? 160 : 1920, H = small ? 120 : 1080;
  const float sigma = 0.05f;  // noise level
  const float inv_h2 = 1.0f / (2.0f * sigma * sigma * 3 * (2 * PR + 1) * (2 * PR + 1));

  // Synthetic image: smooth shading, a few rectangles, additive noise.
  Rng rng(0x4E4C4D);
  std::vector<float4> img((size_t)W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const float fx = (float)x / W, fy = (float)y / H;
      float r = 0.5f + 0.3f * std::sin(6.0f * fx) * std::cos(4.0f * fy);
      float g = 0.3f + 0.4f * fx * fy;
      float b = 0.6f - 0.3f * fy;
      if (((x / 64) + (y / 48)) % 3 == 0) { r = 0.9f; g = 0.2f; }
      // approximately Gaussian noise: sum of 4 uniforms, scaled to sigma
      float nz[3];
      for (int c = 0; c < 3; ++c) {
        float s = -2.0f;  // one call per statement: fixed order on every compiler
        for (int k = 0; k < 4; ++k) s += rng.uniform();
        nz[c] = s * sigma * 1.7320508f;
      }
      img[(size_t)y * W + x] = make_float4(r + nz[0], g + nz[1], b + nz[2], 0.0f);
    }

  float4 *d_in, *d_out;
  const size_t bytes = img.size() * sizeof(float4);
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMemcpy(d_in, img.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(BX, BY), grid((W + BX - 1) / BX, (H + BY - 1) / BY);
  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  std::vector<float> times;
  double total_ms = 0.0;  // every repetition, the warm-up included
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up (in total_ms only)
    CUDA_CHECK(cudaMemset(d_out, 0xff, bytes));
    CUDA_CHECK(cudaEventRecord(t0));
    nlm_kernel<<<grid, block>>>(d_in, d_out, W, H, inv_h2);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    total_ms += ms;
    if (r > 0) times.push_back(ms);
  }
  std::vector<float4> out(img.size());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  const uint64_t checksum = fnv1a(out.data(), out.size() * sizeof(float4));

  // Check (sampled rows in large mode).
  double maxerr = 0.0;
  long checked = 0;
  for (int y = 0; y < H; ++y) {
    if (!small && (y % 8) != 0 && y < H - 8) continue;
    for (int x = 0; x < W; ++x) {
      float ref[3];
      nlm_pixel_cpu(img, W, H, inv_h2, x, y, ref);
      const float4 g = out[(size_t)y * W + x];
      const float gv[3] = {g.x, g.y, g.z};
      for (int c = 0; c < 3; ++c) {
        const double e = std::fabs((double)gv[c] - ref[c]);
        if (!(e <= maxerr)) maxerr = std::isnan(e) ? INFINITY : e;
      }
      ++checked;
    }
  }
  const bool ok = maxerr <= 2e-4;
  std::printf("checked %ld pixels: max|err| = %.3e (tolerance 2e-4)\n", checked, maxerr);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  print_result("nlm_denoise", times, 1, ok, total_ms, checksum);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return ok ? 0 : 1;
}
