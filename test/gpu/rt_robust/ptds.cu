// ptds.cu - per-thread default streams (test/gpu/rt_robust.sh, check 5):
// several host threads each run a chain (chain.h) of the same kernel
// step<0> on their own per-thread default stream, so one tuning state is
// shared by launches on streams the runtime sees only as a handle.
//
// usage: ptds [threads=6] [links=150]
// Built two ways from this file:
//   ptds           launches name cudaStreamPerThread explicitly (the host
//                  stubs call cudaLaunchKernel with the handle);
//   ptds_implicit  built with clang's -fgpu-default-stream=per-thread
//                  (nvcc --default-stream per-thread: the host stubs call
//                  cudaLaunchKernel_ptsz, CUDA_API_PER_THREAD_DEFAULT_STREAM
//                  is defined), launches and copies name stream 0.
// Thread t runs 150 + 10 t links; as in chain.cu every third comes from a
// site outside any loop (split while tuning), every fifth covers a quarter
// of the array, every seventh uses 128-thread blocks.  All threads start
// together (a barrier).  After joining, the main thread checks each
// chain's order log, launch and block counts and prints its CHAIN line in
// thread order, then
//   RESULT ptds <explicit|implicit> threads=T OK|FAIL
// exit 1 on any lost, duplicated or reordered launch.
#include <pthread.h>
#include <vector>

#include "chain.h"

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
static const cudaStream_t kStream = 0; // the per-thread default stream
static const char *kHow = "implicit";
#else
static const cudaStream_t kStream = cudaStreamPerThread;
static const char *kHow = "explicit";
#endif

static const int N = 2048 * 256;
static pthread_barrier_t g_bar;

struct Worker {
  int t, links;
  Chain c;
};

static void *work(void *p) {
  Worker *W = static_cast<Worker *>(p);
  char name[32];
  std::snprintf(name, sizeof name, "ptds_t%d", W->t);
  W->c.init(name, N, (unsigned)W->links, 300 + W->t, kStream);
  pthread_barrier_wait(&g_bar);
  for (int i = 0; i < W->links; i++) {
    int active = i % 5 == 4 ? N / 4 : N;
    int block = i % 7 == 6 ? 128 : 256;
    W->c.link<0>(kStream, active, block, i % 3 == 2);
  }
  // This thread's stream: finish() runs in the main thread, whose
  // per-thread stream is another one.
  CK(cudaStreamSynchronize(kStream));
  return nullptr;
}

int main(int argc, char **argv) {
  int nt = argc > 1 ? atoi(argv[1]) : 6;
  int links = argc > 2 ? atoi(argv[2]) : 150;
  if (nt < 1 || nt > 32 || links < 1) {
    std::fprintf(stderr, "usage: ptds [threads 1..32] [links]\n");
    return 2;
  }
  CK(cudaFree(0));
  pthread_barrier_init(&g_bar, nullptr, (unsigned)nt);
  std::vector<Worker> W(nt);
  std::vector<pthread_t> tid(nt);
  for (int t = 0; t < nt; t++) {
    W[t].t = t;
    W[t].links = links + 10 * t;
    if (pthread_create(&tid[t], nullptr, work, &W[t])) {
      std::fprintf(stderr, "pthread_create failed\n");
      return 2;
    }
  }
  bool ok = true;
  for (int t = 0; t < nt; t++)
    pthread_join(tid[t], nullptr);
  for (int t = 0; t < nt; t++)
    ok &= W[t].c.finish(kStream);
  std::printf("RESULT ptds %s threads=%d %s\n", kHow, nt, ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
