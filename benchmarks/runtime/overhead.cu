// overhead.cu - launch overhead of liborionrt once a kernel is tuned.
//
// A loop of tiny-kernel launches (one block, a few instructions) through
// the runtime (`tiny<<<>>>`, which OrionPass turns into
// __orion_launch_kernel) against the same launches through plain
// cudaLaunchKernel (called through a pointer, so the pass leaves it alone),
// in the same process, interleaved: ROUNDS rounds of BATCH launches of
// each, host time of the launch loop only (the stream drains between
// batches).  Prints one CSV line: the median per-launch microseconds of
// each and their difference.
//
// Build with orion-cc; run under ORION_MODE=fixed:orig (the runtime calls
// cudaLaunchKernel for the original) or fixed:p<N> (cuLaunchKernel with
// padded shared memory), see run.sh.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void tiny(int *p) {
  if (p && threadIdx.x == 0)
    p[blockIdx.x] = 1;
}

typedef cudaError_t (*launch_fn)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
static launch_fn volatile plain_launch = cudaLaunchKernel;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 21, batch = argc > 2 ? atoi(argv[2]) : 2000;
  const char *label = argc > 3 ? argv[3] : "";
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("overhead: no CUDA GPU\n");
    return 77;
  }
  int *p = nullptr;
  void *args[] = {&p};
  // Settle the tuning first (the runtime measures the first launches).
  for (int i = 0; i < 200; i++) {
    tiny<<<1, 256>>>(p);
    cudaDeviceSynchronize();
  }
  std::vector<double> t_plain, t_orion;
  for (int r = 0; r < rounds; r++) {
    cudaDeviceSynchronize();
    auto a = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; i++)
      plain_launch((const void *)tiny, dim3(1), dim3(256), args, 0, 0);
    auto b = std::chrono::steady_clock::now();
    cudaDeviceSynchronize();
    auto c = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; i++)
      tiny<<<1, 256>>>(p);
    auto d = std::chrono::steady_clock::now();
    cudaDeviceSynchronize();
    t_plain.push_back(std::chrono::duration<double, std::micro>(b - a).count() / batch);
    t_orion.push_back(std::chrono::duration<double, std::micro>(d - c).count() / batch);
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("overhead: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  double mp = median(t_plain), mo = median(t_orion);
  printf("label,plain_us,orion_us,extra_us,rounds,batch\n%s,%.3f,%.3f,%.3f,%d,%d\n", label, mp, mo,
         mo - mp, rounds, batch);
  return 0;
}
