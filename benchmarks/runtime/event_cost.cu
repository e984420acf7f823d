// event_cost.cu - what a pair of CUDA events adds to the time of the kernel
// they bracket, against the kernel's own GPU time from CUPTI.
//
// liborionrt times a tuning launch as the elapsed time between an event
// recorded before it and one recorded after it on the launch's stream.
// The kernel's own time (what kerntime.c traces, and what "a version timed
// alone" means in benchmarks/corpus) is shorter by a fixed cost, which
// compresses every ratio the tuner sees towards 1.  This program measures
// that cost for kernels of several lengths and grids, and the candidates a
// runtime could measure without CUPTI:
//   none    ev0; ev1                      (nothing between the events)
//   empty   ev0; empty<<<1,32>>>; ev1
//   empty2  ev0; empty; empty; ev1
// Each measurement is ROUNDS samples taken back to back on one stream with
// a busy kernel queued before each (the stream is never idle at ev0), so
// the host's submission is hidden, as in a program that queues launches.
//
//   nvcc -O3 -arch=sm_90 event_cost.cu -o event_cost
//   CUDA_INJECTION64_PATH=kerntime.so KERNTIME_OUT=k.tsv ./event_cost > e.tsv
//   python3 event_cost.py e.tsv k.tsv
//
// Prints one line per measurement: <name> <tab> <median event ms> <tab>
// <min event ms>; <name> is the mangled kernel name kerntime records (or
// "none"), so event_cost.py can pair the two.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "event_cost: %s: %s\n", #x, cudaGetErrorString(e_));        \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

__global__ void empty() {}

// A dependent chain of `iters` multiply-adds per thread: time grows with
// iters and with the number of waves.  ID only gives each configuration
// its own name in the trace.
template <int ID> __global__ void spin(float *out, int iters) {
  float x = threadIdx.x * 1e-3f, y = blockIdx.x * 1e-3f;
  for (int i = 0; i < iters; i++)
    x = x * 0.999f + y;
  if (x == 12345.f)
    out[0] = x;
}

__global__ void busy(float *out, int iters) {
  float x = threadIdx.x;
  for (int i = 0; i < iters; i++)
    x = x * 0.999f + 1.f;
  if (x == 12345.f)
    out[0] = x;
}

static const int ROUNDS = 200;

typedef void (*body_fn)(cudaStream_t, float *);

// ROUNDS samples of body between two events, each after a busy kernel.
static void measure(const char *name, body_fn body, cudaStream_t s, float *buf, int print) {
  std::vector<cudaEvent_t> ev(2 * ROUNDS);
  for (auto &e : ev)
    CHECK(cudaEventCreate(&e));
  for (int r = 0; r < ROUNDS; r++) {
    busy<<<132, 128, 0, s>>>(buf, 20000);
    CHECK(cudaEventRecord(ev[2 * r], s));
    body(s, buf);
    CHECK(cudaEventRecord(ev[2 * r + 1], s));
  }
  CHECK(cudaStreamSynchronize(s));
  std::vector<float> ms(ROUNDS);
  for (int r = 0; r < ROUNDS; r++)
    CHECK(cudaEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
  for (auto &e : ev)
    CHECK(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  if (print)
    printf("%s\t%.6f\t%.6f\n", name, ms[ROUNDS / 2], ms[0]);
}

static void b_none(cudaStream_t, float *) {}
static void b_empty(cudaStream_t s, float *) { empty<<<1, 32, 0, s>>>(); }
static void b_empty2(cudaStream_t s, float *) {
  empty<<<1, 32, 0, s>>>();
  empty<<<1, 32, 0, s>>>();
}

// The spin configurations: blocks and iterations per thread.
#define SPINS(X)                                                                  \
  X(0, 1, 256) X(1, 1, 4096) X(2, 528, 64) X(3, 528, 256) X(4, 528, 1024)         \
  X(5, 528, 4096) X(6, 528, 16384) X(7, 4224, 256) X(8, 4224, 1024)               \
  X(9, 4224, 4096) X(10, 16896, 1024)
#define BODY(id, blocks, iters)                                                   \
  static void b_spin##id(cudaStream_t s, float *buf) {                            \
    spin<id><<<blocks, 128, 0, s>>>(buf, iters);                                  \
  }
SPINS(BODY)

int main() {
  float *buf;
  cudaStream_t s;
  CHECK(cudaMalloc(&buf, 4));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("# name\tmedian_ms\tmin_ms\n");
  for (int pass = 0; pass < 2; pass++) { // the first pass warms up, unprinted
    measure("none", b_none, s, buf, pass);
    measure("_Z5emptyv", b_empty, s, buf, pass);
    measure("_Z5emptyv*2", b_empty2, s, buf, pass);
#define RUN(id, blocks, iters)                                                    \
  measure("_Z4spinILi" #id "EEvPfi", b_spin##id, s, buf, pass);
    SPINS(RUN)
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
