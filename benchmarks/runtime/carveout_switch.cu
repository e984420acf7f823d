// carveout_switch.cu - does a launch pay for following a launch of the same
// kernel with a different amount of dynamic shared memory?
//
//   nvcc -O3 -arch=sm_90 carveout_switch.cu -o carveout_switch
//   ./carveout_switch [table KiB (64)] [launches (400)] [reads a thread (256)] [waves (4)]
//                     [idle (0): 1 waits for each launch, so the events also time
//                      the host's submission, as a host-bound program's launches are]
//
// Liborionrt's padding versions are the original binary launched with
// extra dynamic shared memory (fewer blocks per SM), so while it tunes,
// launches of one kernel alternate between two shared-memory sizes, which
// the SM may serve with different L1/shared splits (carveouts).  A
// program that runs the chosen version runs it back to back instead.  This
// measures the difference on a kernel that reads a table through L1:
// one stream, launches back to back, each timed by its own pair of CUDA
// events, in four orders over the same two launch shapes
//   plain    orig orig orig ...      (the program's own order)
//   padded   pad pad pad ...         (the padding version chosen)
//   alt      orig pad orig pad ...   (the tuner's alternation)
//   runs2    orig orig pad pad ...   (runs of two: the second of each run
//            follows its own shape)
// and prints, per order and shape, the median launch time in us and, for
// alt and runs2, the median of the launches that follow the other shape
// ("after switch") and of those that follow their own ("after same").
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

__global__ void gather(const float *table, unsigned mask, float *out, int reps) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, h = i * 2654435761u;
  float acc = 0;
  for (int k = 0; k < reps; k++) {
    h = h * 1664525u + 1013904223u;
    acc += __ldg(&table[(h >> 7) & mask]);
  }
  out[i] = acc;
}

static double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  int kib = argc > 1 ? atoi(argv[1]) : 64, n = argc > 2 ? atoi(argv[2]) : 400;
  int reps = argc > 3 ? atoi(argv[3]) : 256, waves = argc > 4 ? atoi(argv[4]) : 4;
  int idle = argc > 5 ? atoi(argv[5]) : 0;
  const int block = 256;
  unsigned entries = (unsigned)kib * 1024 / 4, mask = entries - 1;
  if (kib <= 0 || (entries & mask) || n < 8 || reps < 1 || waves < 1) {
    fprintf(stderr, "usage: carveout_switch [table KiB, a power of two] [launches >= 8] "
                    "[reads a thread >= 1] [waves >= 1]\n");
    return 2;
  }
  int dev = 0, sms = 0, optin = 0, orig_b = 0, pad_b = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  CHECK(cudaFuncSetAttribute(gather, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&orig_b, gather, block, 0));
  size_t pad = 0; // the least dynamic shared memory that halves the blocks per SM
  for (size_t s = 1024; s <= (size_t)optin; s += 256) {
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pad_b, gather, block, s));
    if (pad_b <= orig_b / 2) {
      pad = s;
      break;
    }
  }
  if (!pad) {
    fprintf(stderr, "no padding halves %d blocks/SM\n", orig_b);
    return 1;
  }
  unsigned grid = (unsigned)(sms * orig_b * waves);
  float *table, *out;
  CHECK(cudaMalloc(&table, (size_t)entries * 4));
  CHECK(cudaMalloc(&out, (size_t)grid * block * 4));
  CHECK(cudaMemset(table, 0, (size_t)entries * 4));
  std::vector<cudaEvent_t> ev(2 * n);
  for (auto &e : ev)
    CHECK(cudaEventCreate(&e));
  printf("# %s, table %d KiB, %d reads a thread, block %d, grid %u, %d blocks/SM plain, %d with %zu B padding\n",
         idle ? "idle stream before each launch" : "launches queued", kib, reps, block, grid, orig_b, pad_b, pad);
  printf("order shape follows median_us launches\n");
  const char *orders[] = {"plain", "padded", "alt", "runs2"};
  for (int o = 0; o < 4; o++) {
    std::vector<int> shape(n);
    for (int i = 0; i < n; i++)
      shape[i] = o == 0 ? 0 : o == 1 ? 1 : o == 2 ? i % 2 : (i / 2) % 2;
    for (int i = 0; i < 8; i++) // warm-up in the order's first shape
      gather<<<grid, block, shape[0] ? pad : 0>>>(table, mask, out, reps);
    for (int i = 0; i < n; i++) {
      CHECK(cudaEventRecord(ev[2 * i]));
      gather<<<grid, block, shape[i] ? pad : 0>>>(table, mask, out, reps);
      CHECK(cudaEventRecord(ev[2 * i + 1]));
      if (idle)
        CHECK(cudaEventSynchronize(ev[2 * i + 1]));
    }
    CHECK(cudaDeviceSynchronize());
    std::vector<double> t[2][2]; // [shape][follows the other shape]
    for (int i = 1; i < n; i++) {
      float ms;
      CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      t[shape[i]][shape[i] != shape[i - 1]].push_back(ms * 1e3);
    }
    for (int s = 0; s < 2; s++)
      for (int f = 0; f < 2; f++)
        if (!t[s][f].empty())
          printf("%s %s %s %.2f %zu\n", orders[o], s ? "pad" : "orig", f ? "switch" : "same",
                 median(t[s][f]), t[s][f].size());
  }
  return 0;
}
