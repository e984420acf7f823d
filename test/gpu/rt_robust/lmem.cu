// lmem.cu - a program that holds nearly all GPU memory, as frameworks with
// their own memory pools do (test/gpu/rt_robust.sh, check 8).
//
// usage: lmem [links=200] [leave_mb=48]
// Sets up a chain (chain.h) of step<0>, then allocates all free device
// memory but leave_mb MiB, then runs the chain: 2048 blocks of 256 per
// link.  The original keeps its values in registers (no local memory);
// the register-capped clones spill (r48 and r32 need more than the 1 KiB
// per thread of local memory a context starts with), so launching one may
// need the driver to grow the context's local memory, which can fail for
// want of device memory although the original launches (on an H200 with
// driver 580 and 47 MiB left, r48 and r32 fail with CUDA_ERROR_OUT_OF_MEMORY;
// r80 and r128, within the initial 1 KiB, launch).  Whatever the driver
// does, the chain must come out as with ORION_MODE=off: a version that
// fails to launch is replaced by the original and not tried again.
// The memory held goes to stderr (a note); stdout is the CHAIN line and
//   RESULT lmem links=N OK|FAIL
#include "chain.h"

int main(int argc, char **argv) {
  int links = argc > 1 ? atoi(argv[1]) : 200;
  long leave_mb = argc > 2 ? atol(argv[2]) : 48;
  if (links < 1 || leave_mb < 0) {
    std::fprintf(stderr, "usage: lmem [links] [leave_mb]\n");
    return 2;
  }
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int n = 2048 * 256;
  Chain c;
  c.init("lmem", n, (unsigned)links, 91, s);
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  size_t leave = (size_t)leave_mb << 20, step = (size_t)64 << 20, held = 0;
  void *hog = nullptr;
  for (size_t want = free_b > leave ? free_b - leave : 0; want >= step && !hog; want -= step)
    if (cudaMalloc(&hog, want) == cudaSuccess)
      held = want;
    else
      (void)cudaGetLastError();
  CK(cudaMemGetInfo(&free_b, &total_b));
  std::fprintf(stderr, "note: lmem: holding %zu MiB of device memory, %zu MiB free\n",
               held >> 20, free_b >> 20);
  for (int i = 0; i < links; i++)
    c.link<0>(s, n, 256, false);
  bool ok = c.finish(s);
  if (hog)
    CK(cudaFree(hog));
  CK(cudaStreamDestroy(s));
  std::printf("RESULT lmem links=%d %s\n", links, ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
