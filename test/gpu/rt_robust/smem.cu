// smem.cu - a kernel with more than 48 KB of dynamic shared memory
// (test/gpu/rt_robust.sh, check 6): the launch needs the program's
// cudaFuncAttributeMaxDynamicSharedMemorySize on the kernel, which the
// runtime must give the clones too; and padding versions (pNN: the
// original with its dynamic shared memory raised) in every configuration.
//
// usage: smem once|every [links=120]
//   once   sets the attribute (50 KB) once before the first launch;
//   every  sets it to the launch's own size before every launch that needs
//          it, as many programs do (`if (smem >= 48 KB)
//          cudaFuncSetAttribute(k, ..., smem)` next to the launch); the
//          sizes alternate (50 KB, 49 KB), so every call changes the
//          value.  This could undo what liborionrt raised on the original
//          for its padding versions (a padded launch of the original would
//          then fail, and the runtime must run the original in its place
//          and never try that version again); on an H200 with driver 580
//          it does not: the driver keeps the larger limit and cudart's
//          cudaFuncGetAttributes reports the program's value.
// A chain x <- tile(x) (one stream, order log and launch/block counts as in
// chain.h): links cycle through 50 KB, 49 KB, 50 KB and 16 KB of dynamic
// shared memory, so the kernel has three configurations.  Each block
// stages a window of the input in dynamic shared memory and every thread
// reads its 24 accumulators from there (128 registers: the original
// runs 2 blocks of 256 per SM, the clones up to 4 at 50 KB).  Prints one
// CHAIN line, then RESULT; exit 1 on a failed launch or a wrong order or
// count.
#include <cstring>

#include "chain.h"

#define TILE_K 24

__global__ void tile(float4 *out, const float4 *in, int n, int m, unsigned tag, unsigned *seq,
                     unsigned *log, unsigned cap, unsigned long long *blocks) {
  extern __shared__ float4 win[]; // m elements
  int base = (int)((blockIdx.x * 977u) % (unsigned)n);
  for (int j = threadIdx.x; j < m; j += blockDim.x)
    win[j] = in[(base + j) % n];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float seed = (float)(tag % 1000) * 1e-3f;
  float4 acc[TILE_K];
#pragma unroll
  for (int k = 0; k < TILE_K; k++) {
    float4 v = win[(threadIdx.x * 7 + k * 131) % m];
    float4 w = in[(i + k * 61) % n];
    acc[k] = make_float4(v.x + w.y, v.y - seed, v.z * 0.5f + w.x, v.w + seed);
  }
  float4 s = mix_sum(acc);
  if (i < n)
    out[i] = make_float4(wrapf(s.x), wrapf(s.y), wrapf(s.z), wrapf(s.w));
  if (threadIdx.x == 0) {
    atomicAdd(blocks, 1ull);
    if (blockIdx.x == 0) {
      unsigned k = atomicAdd(seq, 1u);
      if (k < cap)
        log[k] = tag;
    }
  }
}

static const int SIZES[4] = {50 * 1024, 49 * 1024, 50 * 1024, 16 * 1024};
static const int OPT_IN = 48 * 1024;

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  int links = argc > 2 ? atoi(argv[2]) : 120;
  bool every = !std::strcmp(how, "every");
  if ((!every && std::strcmp(how, "once")) || links < 1) {
    std::fprintf(stderr, "usage: smem once|every [links]\n");
    return 2;
  }
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int n = 1024 * 256; // 1024 blocks of 256: not split while tuning
  Chain c; // its buffers, order log and counts; tile() is launched here
  c.init("smem", n, (unsigned)links, 77, s);
  if (!every)
    CK(cudaFuncSetAttribute(tile, cudaFuncAttributeMaxDynamicSharedMemorySize, SIZES[0]));
  for (int i = 0; i < links; i++) {
    int smem = SIZES[i % 4];
    if (every && smem >= OPT_IN)
      CK(cudaFuncSetAttribute(tile, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    unsigned tag = c.next_tag++;
    float4 *in = c.x[c.cur], *out = c.x[c.cur ^ 1];
    tile<<<n / 256, 256, smem, s>>>(out, in, n, smem / (int)sizeof(float4), tag, c.seq, c.log,
                                    c.cap, c.blocks);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      std::printf("FAIL smem: launch of link %u (%d bytes of dynamic shared memory): %s (%d)\n",
                  tag, smem, cudaGetErrorString(e), (int)e);
      return 1;
    }
    c.cur ^= 1;
    c.want_log.push_back(tag);
    c.want_blocks += n / 256;
  }
  bool ok = c.finish(s);
  CK(cudaStreamDestroy(s));
  std::printf("RESULT smem %s links=%d %s\n", how, links, ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
