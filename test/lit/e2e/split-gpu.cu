// On the GPU: a register-heavy kernel over a 2-D grid whose result depends
// on blockIdx and gridDim, launched once (the runtime may split it through
// the split clones and their hidden parameters) and in a loop (clones
// launched whole, with zero offsets).  Every version must compute what the
// CPU does, bit for bit.
// REQUIRES: cuda-gpu, orionrt, ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 --orion-split %s -o %t/app
// RUN: %t/app | FileCheck %s
// RUN: env ORION_MODE=exhaustive ORION_SPLIT=always ORION_CACHE=off ORION_REPORT=%t/report.json %t/app | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.json
// RUN: env ORION_MODE=fixed:r32 ORION_CACHE=off %t/app | FileCheck %s
// CHECK: once: ok
// CHECK: loop: ok
// Under ORION_SPLIT=always the single launch was split at least once while tuning.
// REPORT: "kernel":"_Z3mixPjPKjii"{{.*}}"split_launches":{{[1-9]}}
#include <cstdio>
#include <cstdlib>
#include <vector>

#define NACC 96
#define NIN (1 << 16)

__host__ __device__ static unsigned mix_value(const unsigned *in, int x, int y, unsigned bx,
                                              unsigned by, unsigned gx, unsigned gy) {
  unsigned acc[NACC];
#pragma unroll
  for (int k = 0; k < NACC; k++)
    acc[k] = in[(x * 7 + k * 131 + y) & (NIN - 1)];
  for (int it = 0; it < 4; it++) {
#pragma unroll
    for (int k = 0; k < NACC; k++)
      acc[k] = acc[k] * 2654435761u + (acc[(k + 1) % NACC] >> 3) + it;
  }
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < NACC; k++)
    s ^= acc[k] + k;
  return s + by * gx + bx + gy * 7u;
}

__global__ void mix(unsigned *out, const unsigned *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  unsigned v = mix_value(in, x, y, blockIdx.x, blockIdx.y, gridDim.x, gridDim.y);
  if (x < w && y < h)
    out[y * w + x] = v;
}

static int check(const char *what, const std::vector<unsigned> &got, const unsigned *in, int w,
                 int h, unsigned gx, unsigned gy, int bs) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      unsigned want = mix_value(in, x, y, x / bs, y, gx, gy);
      if (got[(size_t)y * w + x] != want) {
        printf("%s: MISMATCH at (%d,%d): %u, want %u\n", what, x, y, got[(size_t)y * w + x], want);
        return 1;
      }
    }
  printf("%s: ok\n", what);
  return 0;
}

int main() {
  const int w = 8192, h = 512, bs = 128;
  std::vector<unsigned> in(NIN), out((size_t)w * h);
  unsigned r = 12345;
  for (auto &v : in)
    v = r = r * 1103515245u + 12345u;
  unsigned *din, *dout;
  cudaMalloc(&din, NIN * sizeof(unsigned));
  cudaMalloc(&dout, out.size() * sizeof(unsigned));
  cudaMemcpy(din, in.data(), NIN * sizeof(unsigned), cudaMemcpyHostToDevice);
  dim3 grid(w / bs, h);
  int bad = 0;

  cudaMemset(dout, 0, out.size() * sizeof(unsigned));
  mix<<<grid, bs>>>(dout, din, w, h);
  cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  bad |= check("once", out, in.data(), w, h, grid.x, grid.y, bs);

  std::vector<unsigned> last(out.size());
  for (int i = 0; i < 12; i++) {
    cudaMemset(dout, 0, out.size() * sizeof(unsigned));
    mix<<<grid, bs>>>(dout, din, w, h);
    cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    if (i && out != last) {
      printf("loop: iteration %d differs\n", i);
      bad = 1;
    }
    last = out;
  }
  bad |= check("loop", out, in.data(), w, h, grid.x, grid.y, bs);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(e));
    bad = 1;
  }
  return bad;
}
