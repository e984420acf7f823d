// gate_cost.cu - what a stream wait on a host-set word costs on this GPU (benchmarks/runtime/README.md,
// "timing without the host's part"): one-time cost of cuMemHostAlloc, cuMemAlloc and
// cuMemHostRegister of one page, and the release latency of cuStreamWaitValue32 on a
// page-locked host word vs a device word written by cuStreamWriteValue32 on another
// stream.  Build: nvcc -O2 -arch=sm_90 gate_cost.cu -o gate_cost -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>
static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("fail %s: %d\n", #x, r_); exit(1);} } while (0)
__global__ void spin(long long ns) { long long t0 = clock64(); while (clock64() - t0 < ns) {} }
static char page[8192] __attribute__((aligned(4096)));
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size()/2]; }
int main() {
  cudaFree(0);
  CUstream S, H; CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING)); CK(cuStreamCreate(&H, CU_STREAM_NON_BLOCKING));
  CUevent a, b; CK(cuEventCreate(&a, 0)); CK(cuEventCreate(&b, 0));
  spin<<<1,1,0,(cudaStream_t)S>>>(1000); cuStreamSynchronize(S);
  double t0 = now_us(); void *hp; CK(cuMemHostAlloc(&hp, 4096, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP)); double t1 = now_us();
  CUdeviceptr hdp; CK(cuMemHostGetDevicePointer(&hdp, hp, 0)); double t2 = now_us();
  void *hp2; CK(cuMemHostAlloc(&hp2, 4096, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP)); double t3 = now_us();
  CUdeviceptr dm; CK(cuMemAlloc(&dm, 4096)); double t4 = now_us();
  CUdeviceptr dm2; CK(cuMemAlloc(&dm2, 4096)); double t5 = now_us();
  CK(cuMemHostRegister(page, 4096, CU_MEMHOSTREGISTER_DEVICEMAP)); double t6 = now_us();
  CK(cuMemsetD32(dm, 0, 1024)); memset(hp, 0, 4096);
  printf("cuMemHostAlloc first %.1f us, getdevptr %.1f, second %.1f; cuMemAlloc first %.1f second %.1f; cuMemHostRegister %.1f\n",
         t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5);
  // release latency
  for (int kind = 0; kind < 3; kind++) {
    std::vector<double> lat, first;
    unsigned seq = 0;
    volatile unsigned *hf = (volatile unsigned *)hp;
    for (int rep = 0; rep < 41; rep++) {
      seq++;
      double w0 = now_us();
      CK(cuEventRecord(a, S));
      double h0 = now_us();
      if (kind == 0) CK(cuStreamWaitValue32(S, hdp, seq, CU_STREAM_WAIT_VALUE_GEQ));
      else if (kind == 1) CK(cuStreamWaitValue32(S, dm, seq, CU_STREAM_WAIT_VALUE_GEQ));
      CK(cuEventRecord(b, S));
      double w1 = now_us();
      while (now_us() - h0 < 50) {}
      double rel = now_us();
      if (kind == 0) __atomic_store_n((unsigned *)hf, seq, __ATOMIC_RELEASE);
      else if (kind == 1) CK(cuStreamWriteValue32(H, dm, seq, 0));
      CK(cuStreamSynchronize(S));
      float ms; CK(cuEventElapsedTime(&ms, a, b));
      double l = ms * 1000 - (rel - h0);
      if (rep == 0) first.push_back(w1 - w0);
      else lat.push_back(l);
    }
    printf("kind %s: release latency median %.1f us (min %.1f max %.1f); first wait call host %.1f us\n",
           kind == 0 ? "host-flag" : kind == 1 ? "device-flag+writevalue" : "no-wait(baseline)",
           med(lat), *std::min_element(lat.begin(), lat.end()), *std::max_element(lat.begin(), lat.end()), first[0]);
  }
  return 0;
}
