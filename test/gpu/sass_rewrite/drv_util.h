/* drv_util.h - what the driver-API GPU harnesses share (host.c here,
 * benchmarks/sass/bench.c): CK() exits with the call and the driver's
 * message on any error; slurp() reads a whole file or exits; drv_init()
 * makes device 0's primary context current, or exits 77 (skipped) when
 * there is no driver or GPU. */
#ifndef ORION_DRV_UTIL_H
#define ORION_DRV_UTIL_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                                    \
  do {                                                                              \
    CUresult e_ = (call);                                                           \
    if (e_ != CUDA_SUCCESS) {                                                       \
      const char *s_ = NULL;                                                        \
      cuGetErrorString(e_, &s_);                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?"); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

static inline void *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *b = n > 0 ? malloc((size_t)n) : NULL;
  if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: read error\n", path);
    exit(1);
  }
  fclose(f);
  return b;
}

static inline void drv_init(void) {
  if (cuInit(0) != CUDA_SUCCESS) {
    printf("SKIP: no CUDA driver / GPU\n");
    exit(77);
  }
  CUdevice dev;
  CUcontext ctx;
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
}

#endif
