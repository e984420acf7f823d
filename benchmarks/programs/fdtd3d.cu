// fdtd3d.cu — Orion benchmark program (paper class: FDTD3d).
//
// What it computes
//   Explicit time stepping of u_t = alpha * Laplacian(u) in 3D with an
//   8th-order (radius-4) finite-difference Laplacian:
//     u'(x) = c0*u(x) + sum_{k=1..4} c_k * (u(x±k e_x) + u(x±k e_y) + u(x±k e_z)).
//   Each thread owns one (x, y) column and walks a chunk of z planes. The
//   values along z (4 behind, the current one, 4 in front) are held in a
//   register pipeline; the x/y neighbours of the current plane come from a
//   shared-memory tile with a 4-wide halo that the block refills per plane.
//   The outer 4-cell shell of the volume is a fixed (Dirichlet) boundary.
//
// Paper class
//   High register pressure (9-deep z pipeline per point, two points per
//   thread in y -> 18 pipeline values, plus addresses); user shared memory
//   (tile 24x40 floats); no calls; host loop over time steps (ping-pong
//   buffers), the same kernel launched every step.
//
// Input (deterministic, splitmix64 seed 0xFD7D)
//   large: 392x392x248 points incl. halo (152 MB per buffer, 2 buffers),
//          8 time steps; small (-s small): 72x40x40, 4 steps.
//
// Check
//   CPU reference of the same steps (plain loops, same summation order).
//   The scheme is stable (|amplification| <= 1), so rounding differences
//   (FMA contraction: ~1 ulp per point per step) do not grow: after 8 steps
//   they are ~1e-6 of max|u|. We require max|gpu - cpu| <= 1e-4 * max|cpu|;
//   any wrong neighbour changes points by ~alpha*|u| ~ 0.1*|u|.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "bench_common.h"

#define R 4          // stencil radius
#define BX 32        // tile width (threads in x)
#define BY 8         // threads in y; each thread computes rows ty and ty+BY
#define TY (2 * BY)  // tile height (points in y)
#define ZC 40        // z planes per block (chunk)

__constant__ float c_coef[R + 1];

__global__ void fdtd_step(const float* __restrict__ in, float* __restrict__ out,
                          int nx, int ny, int nz) {
  __shared__ float tile[TY + 2 * R][BX + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int ix = R + blockIdx.x * BX + tx;
  const int iy = R + blockIdx.y * TY + ty;  // second point at iy + BY
  const size_t plane = (size_t)nx * ny;
  const int z0 = R + blockIdx.z * ZC;
  const int z1 = min(z0 + ZC, nz - R);
  const float* src0 = in + (size_t)iy * nx + ix;
  const float* src1 = src0 + (size_t)BY * nx;

  // z pipelines: b[k] = u(z-1-k), f[k] = u(z+1+k), for both points.
  float b0[R], f0[R], b1[R], f1[R], cur0, cur1;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    b0[k] = src0[(size_t)(z0 - 1 - k) * plane];
    b1[k] = src1[(size_t)(z0 - 1 - k) * plane];
    f0[k] = src0[(size_t)(z0 + 1 + k) * plane];
    f1[k] = src1[(size_t)(z0 + 1 + k) * plane];
  }
  cur0 = src0[(size_t)z0 * plane];
  cur1 = src1[(size_t)z0 * plane];

  for (int z = z0; z < z1; ++z) {
    const size_t zo = (size_t)z * plane;
    __syncthreads();  // everyone is done reading the previous plane's tile
    if (tx < R) {     // x halo of both rows
      tile[ty + R][tx] = src0[zo - R];
      tile[ty + R][tx + BX + R] = src0[zo + BX];
      tile[ty + BY + R][tx] = src1[zo - R];
      tile[ty + BY + R][tx + BX + R] = src1[zo + BX];
    }
    if (ty < R) {     // y halo: R rows above the tile, R rows below
      tile[ty][tx + R] = src0[zo - (size_t)R * nx];
      tile[ty + TY + R][tx + R] = src1[zo + (size_t)BY * nx];
    }
    tile[ty + R][tx + R] = cur0;
    tile[ty + BY + R][tx + R] = cur1;
    __syncthreads();

    float v0 = c_coef[0] * cur0, v1 = c_coef[0] * cur1;
#pragma unroll
    for (int k = 1; k <= R; ++k) {
      v0 += c_coef[k] * (f0[k - 1] + b0[k - 1] + tile[ty + R][tx + R - k] +
                         tile[ty + R][tx + R + k] + tile[ty + R - k][tx + R] +
                         tile[ty + R + k][tx + R]);
      v1 += c_coef[k] * (f1[k - 1] + b1[k - 1] + tile[ty + BY + R][tx + R - k] +
                         tile[ty + BY + R][tx + R + k] + tile[ty + BY + R - k][tx + R] +
                         tile[ty + BY + R + k][tx + R]);
    }
    out[(size_t)iy * nx + ix + zo] = v0;
    out[(size_t)(iy + BY) * nx + ix + zo] = v1;

    // Advance the pipelines by one plane.
#pragma unroll
    for (int k = R - 1; k > 0; --k) {
      b0[k] = b0[k - 1];
      b1[k] = b1[k - 1];
    }
    b0[0] = cur0;
    b1[0] = cur1;
    cur0 = f0[0];
    cur1 = f1[0];
#pragma unroll
    for (int k = 0; k < R - 1; ++k) {
      f0[k] = f0[k + 1];
      f1[k] = f1[k + 1];
    }
    if (z + 1 < z1) {
      f0[R - 1] = src0[(size_t)(z + 1 + R) * plane];
      f1[R - 1] = src1[(size_t)(z + 1 + R) * plane];
    }
  }
}

// CPU reference: one step over the interior, same summation order.
static void step_cpu(const std::vector<float>& in, std::vector<float>& out, int nx, int ny,
                     int nz, const float* c) {
  const size_t plane = (size_t)nx * ny;
  for (int z = R; z < nz - R; ++z)
    for (int y = R; y < ny - R; ++y)
      for (int x = R; x < nx - R; ++x) {
        const size_t i = (size_t)z * plane + (size_t)y * nx + x;
        float v = c[0] * in[i];
        for (int k = 1; k <= R; ++k)
          v += c[k] * (in[i + k * plane] + in[i - k * plane] + in[i - k] + in[i + k] +
                       in[i - (size_t)k * nx] + in[i + (size_t)k * nx]);
        out[i] = v;
      }
}

int main(int argc, char** argv) {
  bool small = false;
  int reps = 5;
  for (int a = 1; a < argc; ++a) {
    if (!std::strcmp(argv[a], "-s") && a + 1 < argc) small = !std::strcmp(argv[++a], "small");
    else if (!std::strcmp(argv[a], "-r") && a + 1 < argc) reps = std::max(1, std::atoi(argv[++a]));
  }
  // Interior sizes: x multiple of BX, y multiple of TY.
  const int wx = small ? 64 : 384, wy = small ? 32 : 384, wz = small ? 32 : 240;
  const int steps = small ? 4 : 8;
  const int nx = wx + 2 * R, ny = wy + 2 * R, nz = wz + 2 * R;
  const size_t npts = (size_t)nx * ny * nz;

  // 8th-order second-derivative weights, alpha = 0.1 (stable explicit step).
  const double L[R + 1] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  const double alpha = 0.1;
  float coef[R + 1];
  coef[0] = (float)(1.0 + alpha * 3.0 * L[0]);
  for (int k = 1; k <= R; ++k) coef[k] = (float)(alpha * L[k]);
  CUDA_CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof(coef)));

  Rng rng(0xFD7D);
  std::vector<float> init(npts);
  for (size_t i = 0; i < npts; ++i) init[i] = 2.0f * rng.uniform() - 1.0f;

  float *d_a, *d_b;
  CUDA_CHECK(cudaMalloc(&d_a, npts * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_b, npts * sizeof(float)));
  const dim3 block(BX, BY), grid(wx / BX, wy / TY, (wz + ZC - 1) / ZC);

  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  std::vector<float> times;
  double total_ms = 0.0;  // every repetition, the warm-up included
  float* result = nullptr;
  for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up (in total_ms only)
    // Both buffers start identical, so the fixed halo is the same in each.
    CUDA_CHECK(cudaMemcpy(d_a, init.data(), npts * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, init.data(), npts * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(t0));
    float *src = d_a, *dst = d_b;
    for (int s = 0; s < steps; ++s) {
      fdtd_step<<<grid, block>>>(src, dst, nx, ny, nz);
      LAUNCH_CHECK();
      std::swap(src, dst);
    }
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    total_ms += ms;
    if (r > 0) times.push_back(ms);
    result = src;
  }
  std::vector<float> gpu(npts);
  CUDA_CHECK(cudaMemcpy(gpu.data(), result, npts * sizeof(float), cudaMemcpyDeviceToHost));
  const uint64_t checksum = fnv1a(gpu.data(), gpu.size() * sizeof(float));

  std::vector<float> ca(init), cb(init);
  for (int s = 0; s < steps; ++s) {
    step_cpu(ca, cb, nx, ny, nz, coef);
    std::swap(ca, cb);
  }
  double maxref = 0.0, maxerr = 0.0;
  for (size_t i = 0; i < npts; ++i) {
    maxref = std::max(maxref, (double)std::fabs(ca[i]));
    const double e = std::fabs((double)gpu[i] - ca[i]);
    if (!(e <= maxerr)) maxerr = std::isnan(e) ? INFINITY : e;
  }
  const bool ok = maxerr <= 1e-4 * maxref;
  std::printf("max|ref| = %.4e  max|err| = %.3e  (tolerance 1e-4 * max|ref|)\n", maxref, maxerr);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  print_result("fdtd3d", times, steps, ok, total_ms, checksum);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  return ok ? 0 : 1;
}
