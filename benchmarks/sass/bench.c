/* bench.c - time versions of the same kernel side by side (the rewrite's
 * benchmark: local-memory spills vs the SASS rewrite vs ptxas's
 * enable_smem_spilling pragma).
 *
 *   bench <rounds> <reps> <variant>...      variant = label:cubin:kernel[:W]
 *
 * Every variant must hold the kernel with the parameters of
 * test/gpu/sass_rewrite: spill4 (float *out, const float *in, int n,
 * int iters), spill8 (double, same), calls (float *out, const float *in,
 * int n), or heavy (float4 *out, const float4 *in, int n) of
 * test/lit/e2e/spill-heavy.cu.  Blocks of BENCH_BLOCK threads (default
 * 128), n = 1 << 22 elements (heavy: 1 << 20), iters = 16.  W: the
 * variant's frame is in dynamic shared memory, W bytes per warp
 * (orion-sass rewrite --dynamic): it is launched with ceil(threads / 32)
 * x W bytes of it.  Per variant: registers, static shared (plus the
 * dynamic bytes) and local bytes per thread (cuFuncGetAttribute), resident
 * blocks per SM at the block size (cuOccupancyMaxActiveBlocksPerMultiprocessor),
 * and the kernel time:
 * `rounds` rounds, each running every variant in turn `reps` times after
 * one warm-up launch, each launch bracketed by CUDA events; the median
 * over all launches is reported.  Variants alternate inside every round,
 * so drifts (clocks, temperature) hit them alike.  The output of every
 * variant is compared with the first one's, bit for bit.  CSV on stdout:
 *   label,kernel,regs,smem_bytes,local_bytes,blocks_per_sm,warps_per_sm,median_ms,min_ms,max_ms,same_output
 * Exit 0, 1 on an error or a differing output, 77 without a GPU.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../test/gpu/sass_rewrite/drv_util.h"

typedef struct variant {
  char label[64], path[512], kernel[64];
  CUmodule mod;
  CUfunction fn;
  int regs, smem, local, blocks;
  unsigned dyn; /* dynamic shared bytes per launch */
  float *ms;
  size_t nms;
} variant;

static int cmpf(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench <rounds> <reps> label:cubin:kernel...\n");
    return 2;
  }
  int rounds = atoi(argv[1]), reps = atoi(argv[2]), nv = argc - 3;
  if (rounds < 1 || reps < 1) {
    fprintf(stderr, "bench: rounds and reps must be positive\n");
    return 2;
  }
  const char *be = getenv("BENCH_BLOCK");
  unsigned block = be && *be ? (unsigned)atoi(be) : 128;
  if (block < 32 || block > 1024 || block % 32) {
    fprintf(stderr, "bench: BENCH_BLOCK must be a multiple of 32 in 32..1024\n");
    return 2;
  }
  drv_init();
  variant *v = calloc((size_t)nv, sizeof *v);
  int dbl = 0;
  for (int i = 0; i < nv; i++) {
    char *a = argv[3 + i], *c1 = strchr(a, ':'), *c2 = c1 ? strrchr(a, ':') : NULL, *end;
    if (c2 && c2 > c1 && c2[1] >= '0' && c2[1] <= '9') { /* :W */
      unsigned long w = strtoul(c2 + 1, &end, 10);
      if (*end || !w) {
        fprintf(stderr, "bench: bad bytes per warp in '%s'\n", a);
        return 2;
      }
      v[i].dyn = (unsigned)w * (block / 32);
      *c2 = 0;
      c2 = strrchr(a, ':');
    }
    if (!c1 || c2 == c1 || (size_t)(c1 - a) >= sizeof v[i].label || strlen(c2 + 1) >= sizeof v[i].kernel ||
        (size_t)(c2 - c1 - 1) >= sizeof v[i].path) {
      fprintf(stderr, "bench: bad variant '%s' (label:cubin:kernel)\n", a);
      return 2;
    }
    memcpy(v[i].label, a, (size_t)(c1 - a));
    memcpy(v[i].path, c1 + 1, (size_t)(c2 - c1 - 1));
    strcpy(v[i].kernel, c2 + 1);
    if (i && strcmp(v[i].kernel, v[0].kernel)) {
      fprintf(stderr, "bench: all variants must run the same kernel\n");
      return 2;
    }
    void *img = slurp(v[i].path);
    CK(cuModuleLoadData(&v[i].mod, img));
    free(img);
    CK(cuModuleGetFunction(&v[i].fn, v[i].mod, v[i].kernel));
    CK(cuFuncGetAttribute(&v[i].regs, CU_FUNC_ATTRIBUTE_NUM_REGS, v[i].fn));
    CK(cuFuncGetAttribute(&v[i].smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, v[i].fn));
    CK(cuFuncGetAttribute(&v[i].local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, v[i].fn));
    if (v[i].dyn)
      CK(cuFuncSetAttribute(v[i].fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)v[i].dyn));
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v[i].blocks, v[i].fn, (int)block, v[i].dyn));
    v[i].smem += (int)v[i].dyn;
    v[i].ms = malloc(sizeof(float) * (size_t)rounds * (size_t)reps);
  }
  dbl = !strcmp(v[0].kernel, "spill8");
  int heavy = !strcmp(v[0].kernel, "_Z5heavyP6float4PKS_i");
  const int n = heavy ? 1 << 20 : 1 << 22, iters = 16;
  size_t es = dbl ? sizeof(double) : sizeof(float) * (heavy ? 4 : 1), bytes = (size_t)n * es;
  unsigned char *hin = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  unsigned s = 12345u;
  for (size_t i = 0; i < bytes / (dbl ? 8 : 4); i++) {
    s = s * 1664525u + 1013904223u;
    double x = 0.3 + 0.3 * (double)(s >> 8) / (double)(1u << 24);
    if (dbl)
      ((double *)hin)[i] = x;
    else
      ((float *)hin)[i] = (float)x;
  }
  CUdeviceptr din, dout;
  CK(cuMemAlloc(&din, bytes));
  CK(cuMemAlloc(&dout, bytes));
  CK(cuMemcpyHtoD(din, hin, bytes));
  CUevent e0, e1;
  CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  int nn = n, it = iters;
  void *args[] = {&dout, &din, &nn, &it}; /* calls() and heavy() have no iters: ignored */
  unsigned grid = (unsigned)((unsigned)n / block);
  int bad = 0;
  /* outputs first, one launch each */
  for (int i = 0; i < nv; i++) {
    CK(cuMemsetD8(dout, 0xa5, bytes));
    CK(cuLaunchKernel(v[i].fn, grid, 1, 1, block, 1, 1, v[i].dyn, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(i ? got : ref, dout, bytes));
    if (i && memcmp(ref, got, bytes)) {
      fprintf(stderr, "bench: %s: output differs from %s\n", v[i].label, v[0].label);
      v[i].blocks = -v[i].blocks - 1; /* marks the row */
      bad = 1;
    }
  }
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < nv; i++) {
      CK(cuLaunchKernel(v[i].fn, grid, 1, 1, block, 1, 1, v[i].dyn, NULL, args, NULL)); /* warm-up */
      for (int k = 0; k < reps; k++) {
        CK(cuEventRecord(e0, NULL));
        CK(cuLaunchKernel(v[i].fn, grid, 1, 1, block, 1, 1, v[i].dyn, NULL, args, NULL));
        CK(cuEventRecord(e1, NULL));
        CK(cuEventSynchronize(e1));
        CK(cuEventElapsedTime(&v[i].ms[v[i].nms++], e0, e1));
      }
    }
  printf("label,kernel,regs,smem_bytes,local_bytes,blocks_per_sm,warps_per_sm,median_ms,min_ms,max_ms,same_output\n");
  for (int i = 0; i < nv; i++) {
    qsort(v[i].ms, v[i].nms, sizeof(float), cmpf);
    int same = v[i].blocks >= 0;
    int blocks = same ? v[i].blocks : -v[i].blocks - 1;
    printf("%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%s\n", v[i].label, v[i].kernel, v[i].regs, v[i].smem, v[i].local,
           blocks, blocks * (int)(block / 32), v[i].ms[v[i].nms / 2], v[i].ms[0], v[i].ms[v[i].nms - 1],
           same ? "yes" : "NO");
  }
  return bad;
}
