// threads.cu - many host threads and streams launching one Orion kernel
// while the runtime tunes it (test/gpu/rt_robust.sh, check 1).
//
// usage: threads [threads=8] [iterations=300]
// Each host thread has its own non-blocking stream and buffers; all start
// together (a barrier) so first launches, tuning and settling interleave.
// Iteration `it` of thread t launches heavy() with its own seed; two of
// three launches come from a site in the loop, the third from a noinline
// helper (a launch site outside any loop, which the runtime splits into
// chunks while tuning).  Grids alternate by thread between 2048 and 96
// blocks.  Output: one line per thread with the FNV-1a of its per-iteration
// sums, then
//   RESULT threads=T iters=N checksum=<hex> blocks=<ran> expected=<blocks>
// and exit 1 if any thread's block count differs from the blocks it
// launched (a lost or duplicated launch or chunk).
#include <pthread.h>
#include <vector>

#include "common.h"

// Each thread's result is reduced into *sum with an integer atomicAdd of a
// hash of its bits and index (order-free, so the sum is the same bit for
// bit whatever the schedule; a lost, duplicated or different block changes
// it); every block adds 1 to *blocks, so the blocks that ran can be counted.
__global__ void heavy(float4 *out, const float4 *in, int n, float seed,
                      unsigned long long *sum, unsigned long long *blocks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 s = heavy_body(in, n, i < n ? i : 0, seed);
  if (i < n) {
    out[i] = s;
    atomicAdd(sum, (unsigned long long)hash_f4(s, (unsigned)i));
  }
  if (threadIdx.x == 0)
    atomicAdd(blocks, 1ull);
}

static int g_iters = 300;
static pthread_barrier_t g_bar;

struct Thread {
  int t, n;
  uint64_t digest;
  unsigned long long blocks, expected;
};

// A launch site outside any loop (not inlined into the caller's loop).
__attribute__((noinline)) static void launch_once(dim3 grid, cudaStream_t s, float4 *out,
                                                  const float4 *in, int n, float seed,
                                                  unsigned long long *sum,
                                                  unsigned long long *blocks) {
  heavy<<<grid, 256, 0, s>>>(out, in, n, seed, sum, blocks);
}

static void *worker(void *p) {
  Thread *T = static_cast<Thread *>(p);
  int n = T->n, iters = g_iters;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<float4> h(n);
  fill_input(h.data(), n, 0x1234567ull * (T->t + 1));
  float4 *in, *out;
  unsigned long long *sums, *blocks;
  CK(cudaMalloc(&in, n * sizeof(float4)));
  CK(cudaMalloc(&out, n * sizeof(float4)));
  CK(cudaMalloc(&sums, iters * sizeof *sums));
  CK(cudaMalloc(&blocks, sizeof *blocks));
  CK(cudaMemcpyAsync(in, h.data(), n * sizeof(float4), cudaMemcpyHostToDevice, s));
  CK(cudaMemsetAsync(sums, 0, iters * sizeof *sums, s));
  CK(cudaMemsetAsync(blocks, 0, sizeof *blocks, s));
  CK(cudaStreamSynchronize(s));
  dim3 grid((n + 255) / 256);
  pthread_barrier_wait(&g_bar);
  for (int it = 0; it < iters; it++) {
    float seed = (float)((T->t * 7919 + it) % 1000) * 1e-3f;
    if (it % 3 == 2)
      launch_once(grid, s, out, in, n, seed, sums + it, blocks);
    else
      heavy<<<grid, 256, 0, s>>>(out, in, n, seed, sums + it, blocks);
    CK(cudaGetLastError());
    T->expected += grid.x;
  }
  std::vector<unsigned long long> hs(iters);
  CK(cudaMemcpyAsync(hs.data(), sums, iters * sizeof *sums, cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(&T->blocks, blocks, sizeof *blocks, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  T->digest = fnv1a(hs.data(), iters * sizeof *sums);
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(sums));
  CK(cudaFree(blocks));
  CK(cudaStreamDestroy(s));
  return nullptr;
}

int main(int argc, char **argv) {
  int nt = argc > 1 ? atoi(argv[1]) : 8;
  g_iters = argc > 2 ? atoi(argv[2]) : 300;
  if (nt < 1 || nt > 64 || g_iters < 1) {
    std::fprintf(stderr, "usage: threads [threads 1..64] [iterations]\n");
    return 2;
  }
  CK(cudaFree(0));
  pthread_barrier_init(&g_bar, nullptr, (unsigned)nt);
  std::vector<Thread> T(nt);
  std::vector<pthread_t> tid(nt);
  for (int t = 0; t < nt; t++) {
    T[t] = Thread{t, (t % 2 ? 96 : 2048) * 256, 0, 0, 0};
    if (pthread_create(&tid[t], nullptr, worker, &T[t])) {
      std::fprintf(stderr, "pthread_create failed\n");
      return 2;
    }
  }
  uint64_t all = 14695981039346656037ull;
  unsigned long long ran = 0, expected = 0;
  int bad = 0;
  for (int t = 0; t < nt; t++) {
    pthread_join(tid[t], nullptr);
    std::printf("thread %d n=%d digest=%016" PRIx64 " blocks=%llu expected=%llu\n", t, T[t].n,
                T[t].digest, T[t].blocks, T[t].expected);
    bad |= T[t].blocks != T[t].expected;
    all = fnv1a(&T[t].digest, sizeof T[t].digest, all);
    ran += T[t].blocks;
    expected += T[t].expected;
  }
  std::printf("RESULT threads=%d iters=%d checksum=%016" PRIx64 " blocks=%llu expected=%llu %s\n",
              nt, g_iters, all, ran, expected, bad ? "FAIL" : "OK");
  return bad ? 1 : 0;
}
