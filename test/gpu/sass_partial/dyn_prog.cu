// partial_identical.sh's second program: the kernels of
// test/gpu/sass_rewrite/dyn_smem.cu without a register cap of their own
// (MINB 1: the capped clones spill), each launched with 516 bytes of
// dynamic shared memory of the program's (a size that is not a multiple
// of 16) at the block size given on the command line (at most 128, their
// launch bounds).  dynown and dynonly get their frame placed above that
// memory under --orion-spill=dynamic; dynsize and totsize read the shared
// sizes and must stay as they are (no padding versions, which launch with
// more dynamic shared memory).  Prints a checksum of every output's bit
// patterns, fails when one is not finite, and writes the raw outputs to
// <out file> when given.
// Usage: dyn_prog <threads per block> [n] [out file]
#include <cstdio>
#include <cstdlib>
#include <vector>

#define MINB 1
#include "../sass_rewrite/dyn_smem.cu"

int main(int argc, char **argv) {
  int block = argc > 1 ? atoi(argv[1]) : 128;
  int n = argc > 2 ? atoi(argv[2]) : 1 << 18; /* a power of two: the kernels mask with n - 1 */
  const int nk = 4, iters = 6, own = 129 * 4;
  std::vector<float> h(n), all((size_t)nk * n);
  for (int i = 0; i < n; i++)
    h[i] = 0.3f + 0.3f * (float)((i * 2654435761u) >> 8) / (float)(1u << 24);
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, (size_t)nk * n * sizeof(float));
  cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int grid = (n + block - 1) / block;
  for (int rep = 0; rep < 20; rep++) { /* enough launches for the tuner */
    dynown<<<grid, block, own>>>(dout, din, n, iters);
    dynonly<<<grid, block, own>>>(dout + n, din, n, iters);
    dynsize<<<grid, block, own>>>(dout + 2 * n, din, n, iters);
    totsize<<<grid, block, own>>>(dout + 3 * n, din, n, iters);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("error %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(all.data(), dout, all.size() * sizeof(float), cudaMemcpyDeviceToHost);
  size_t bad = 0; /* the outputs stay finite, so any change to a spilled value shows */
  for (float v : all)
    bad += !(v - v == 0.0f);
  if (bad) {
    printf("error: %zu outputs not finite\n", bad);
    return 1;
  }
  unsigned long long sum = 1469598103934665603ull;
  const unsigned char *p = (const unsigned char *)all.data();
  for (size_t i = 0; i < all.size() * sizeof(float); i++)
    sum = (sum ^ p[i]) * 1099511628211ull;
  printf("checksum %016llx\n", sum);
  if (argc > 3) {
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(all.data(), sizeof(float), all.size(), f) != all.size() || fclose(f)) {
      printf("error writing %s\n", argv[3]);
      return 1;
    }
  }
  return 0;
}
