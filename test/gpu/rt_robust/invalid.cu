// invalid.cu - launches the hardware or the CUDA runtime rejects
// (test/gpu/rt_robust.sh, check "invalid"): in every ORION_MODE the program
// must see exactly what its plain build sees: the same error code and
// string from cudaPeekAtLastError / cudaGetLastError after each launch, and
// no block of a rejected launch may run.
//
// usage: invalid [rounds=6] [pending]
// Each round: 8 valid launches of each kernel (so tuning is under way when
// the rejected ones arrive, on the same configuration where one exists),
// then the table below.  Prints one line per rejected launch and a final
// RESULT line with the blocks each kernel ran and a checksum of the output;
// exits 0 (the comparison with ORION_MODE=off's output is the test).
// With "pending", each round instead leaves a rejected launch's error
// pending, unread, while every kernel is launched at a block size new to it
// (the runtime discovers the kernels and sets up configurations meanwhile),
// then reads the error: the pending error must survive, and under
// compute-sanitizer the runtime must add no failed API call of its own.
#include <cstring>

#include "common.h"

#define MID_K 12

// A mid-weight kernel (about 56 registers): several blocks of 128 per SM,
// so the runtime has padding versions of it (and raises its dynamic shared
// memory limit for them).
__global__ void mid(float4 *out, const float4 *in, int n, unsigned long long *blocks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 acc[MID_K];
#pragma unroll
  for (int k = 0; k < MID_K; k++) {
    float4 v = in[(i + k * 131) % n];
    acc[k] = make_float4(v.x + 0.25f, v.y - 0.5f, v.z * 0.5f, v.w);
  }
  float4 s = mix_sum(acc);
  if (i < n)
    out[i] = make_float4(wrapf(s.x), wrapf(s.y), wrapf(s.z), wrapf(s.w));
  if (threadIdx.x == 0)
    atomicAdd(blocks, 1ull);
}

// The register-heavy body of common.h, its result and block count stored.
__device__ __forceinline__ void heavy_store(float4 *out, const float4 *in, int n,
                                            unsigned long long *blocks, float seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 s = heavy_body(in, n, i < n ? i : 0, seed);
  if (i < n)
    out[i] = make_float4(wrapf(s.x), wrapf(s.y), wrapf(s.z), wrapf(s.w));
  if (threadIdx.x == 0)
    atomicAdd(blocks, 1ull);
}

// One 256-thread block per SM.
__global__ void heavy(float4 *out, const float4 *in, int n, unsigned long long *blocks) {
  heavy_store(out, in, n, blocks, 0.125f);
}

// At most 128 threads per block (launch bounds).
__global__ void __launch_bounds__(128) bounded(float4 *out, const float4 *in, int n,
                                                unsigned long long *blocks) {
  heavy_store(out, in, n, blocks, 0.375f);
}

typedef void (*kfn)(float4 *, const float4 *, int, unsigned long long *);

struct bad_launch {
  const char *what;
  int kernel; // 0 mid, 1 heavy, 2 bounded
  dim3 grid, block;
  size_t smem;
};

static void report(const char *what) {
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t get = cudaGetLastError();
  cudaError_t again = cudaGetLastError();
  std::printf("%-40s peek %d %s (%s) | get %d | after %d\n", what, (int)peek,
              cudaGetErrorName(peek), cudaGetErrorString(peek), (int)get, (int)again);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 6;
  const int n = 128 * 264;
  float4 *in, *out;
  unsigned long long *blocks;
  CK(cudaMalloc(&in, n * sizeof(float4)));
  CK(cudaMalloc(&out, n * sizeof(float4)));
  CK(cudaMalloc(&blocks, 4 * sizeof(unsigned long long)));
  CK(cudaMemset(blocks, 0, 4 * sizeof(unsigned long long)));
  float4 *h = (float4 *)std::malloc(n * sizeof(float4));
  fill_input(h, n, 42);
  CK(cudaMemcpy(in, h, n * sizeof(float4), cudaMemcpyHostToDevice));
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  // bounded may take up to the opt-in maximum of dynamic shared memory.
  CK(cudaFuncSetAttribute((const void *)bounded, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          optin));
  const bad_launch table[] = {
      {"mid gridDim.y 65536", 0, dim3(1, 65536, 1), dim3(128), 0},
      {"mid gridDim.z 65536", 0, dim3(1, 1, 65536), dim3(128), 0},
      {"mid gridDim.x 0", 0, dim3(0, 1, 1), dim3(128), 0},
      {"mid gridDim.x 2^31", 0, dim3(2147483648u, 1, 1), dim3(128), 0},
      {"mid block 1025", 0, dim3(264), dim3(1025), 0},
      {"mid block 2048", 0, dim3(264), dim3(2048), 0},
      {"mid block 1x1x65", 0, dim3(264), dim3(1, 1, 65), 0},
      {"mid block 32x32x2", 0, dim3(264), dim3(32, 32, 2), 0},
      {"mid block 0", 0, dim3(264), dim3(0, 1, 1), 0},
      {"mid smem 64 KB, no attribute", 0, dim3(264), dim3(128), 64 << 10},
      {"mid smem 200 KB, no attribute", 0, dim3(264), dim3(128), 200 << 10},
      {"heavy block 1024 (registers)", 1, dim3(33), dim3(1024), 0},
      {"heavy gridDim.y 65536", 1, dim3(1, 65536, 1), dim3(256), 0},
      {"bounded block 256 (launch bounds)", 2, dim3(132), dim3(256), 0},
      {"bounded smem over the opt-in", 2, dim3(264), dim3(128), (size_t)optin + 1024},
  };
  const kfn kernels[] = {mid, heavy, bounded};
  const bool pending = argc > 2 && std::strcmp(argv[2], "pending") == 0;
  for (int r = 0; pending && r < rounds; r++) {
    mid<<<dim3(1, 65536, 1), 128>>>(out, in, n, blocks + 3);
    unsigned b = 128 - 32 * (r % 3); // 128, 96, 64: new configurations
    for (int v = 0; v < 8; v++)
      for (int k = 0; k < 3; k++)
        kernels[k]<<<(n + b - 1) / b, b>>>(out, in, n, blocks + k);
    char what[96];
    std::snprintf(what, sizeof what, "round %d: pending through block %u", r, b);
    report(what);
  }
  for (int r = 0; !pending && r < rounds; r++) {
    for (int v = 0; v < 8; v++) {
      mid<<<264, 128>>>(out, in, n, blocks + 0);
      heavy<<<132, 256>>>(out, in, n, blocks + 1);
      bounded<<<264, 128>>>(out, in, n, blocks + 2);
      report("valid launches");
    }
    for (const bad_launch &b : table) {
      kfn k = kernels[b.kernel];
      k<<<b.grid, b.block, b.smem>>>(out, in, n, blocks + 3);
      char what[96];
      std::snprintf(what, sizeof what, "round %d: %s", r, b.what);
      report(what);
    }
  }
  CK(cudaDeviceSynchronize());
  unsigned long long hb[4];
  CK(cudaMemcpy(hb, blocks, sizeof hb, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h, out, n * sizeof(float4), cudaMemcpyDeviceToHost));
  std::printf("RESULT blocks mid=%llu heavy=%llu bounded=%llu rejected=%llu checksum=%016llx\n",
              hb[0], hb[1], hb[2], hb[3], (unsigned long long)fnv1a(h, n * sizeof(float4)));
  return 0;
}
