// partial_identical.sh's program: the kernel of test/lit/e2e/spill-heavy.cu
// (48 live float4 accumulators: every register-capped version spills a
// frame too large for shared memory, so the SASS rewrite places it in
// part), launched with the block size given on the command line.  Prints
// a checksum of the output's bit patterns and the GPU time of the last 10
// of 20 launches; writes the raw output to <out file> when given.
// Usage: heavy_prog <threads per block> [n] [out file]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../lit/e2e/spill-heavy.cu"

int main(int argc, char **argv) {
  int block = argc > 1 ? atoi(argv[1]) : 256;
  int n = argc > 2 ? atoi(argv[2]) : 1 << 20;
  std::vector<float4> h(n);
  for (int i = 0; i < n; i++)
    h[i] = make_float4((i % 97) * 0.01f, (i % 89) * 0.02f, (i % 83) * 0.005f, (i % 79) * 0.03f);
  float4 *din, *dout;
  cudaMalloc(&din, n * sizeof(float4));
  cudaMalloc(&dout, n * sizeof(float4));
  cudaMemcpy(din, h.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  for (int rep = 0; rep < 20; rep++) { /* enough launches for the tuner */
    if (rep == 10)
      cudaEventRecord(t0);
    heavy<<<(n + block - 1) / block, block>>>(dout, din, n);
  }
  cudaEventRecord(t1);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("error %s\n", cudaGetErrorString(e));
    return 1;
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  cudaMemcpy(h.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
  unsigned long long sum = 1469598103934665603ull;
  const unsigned char *p = (const unsigned char *)h.data();
  for (size_t i = 0; i < n * sizeof(float4); i++)
    sum = (sum ^ p[i]) * 1099511628211ull;
  printf("checksum %016llx\n", sum);
  fprintf(stderr, "time %.3f ms (10 launches)\n", ms);
  if (argc > 3) {
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(h.data(), sizeof(float4), n, f) != (size_t)n || fclose(f)) {
      printf("error writing %s\n", argv[3]);
      return 1;
    }
  }
  return 0;
}
