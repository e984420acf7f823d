/* host.c - GPU check of the frame-to-shared rewrite: load the original and
 * the rewritten cubin with the driver API, run each kernel of
 * spill_smem.cu in both over three block shapes, compare the outputs bit
 * for bit.
 *
 *   host <original.cubin> <rewritten.cubin>
 *
 * Kernels, each run when the cubins have it: spill4(float *out, const
 * float *in, int n, int iters) and spill8(double *, const double *, int,
 * int) of spill_smem.cu, calls(float *, const float *, int) of calls.cu,
 * all __launch_bounds__(128), and heavy(float4 *, const float4 *, int) of
 * test/lit/e2e/spill-heavy.cu (rewritten for 128 threads).  At least one
 * must be present.
 * Block shapes 128x1x1, 32x2x2 and 16x3x2 (96 threads: fewer than the
 * maximum the region is sized for, and a 3-D index).  Exit 0 when every
 * output matches, 1 on a mismatch or a CUDA error, 77 without a GPU.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_util.h"

/* Whether mod has a function called name, by enumeration: a failing
 * cuModuleGetFunction would count as an API error under compute-sanitizer. */
static int has_function(CUmodule mod, const char *name) {
  unsigned n = 0;
  CK(cuModuleGetFunctionCount(&n, mod));
  CUfunction *fs = malloc(sizeof *fs * (n ? n : 1));
  CK(cuModuleEnumerateFunctions(fs, n, mod));
  int found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    const char *nm = NULL;
    CK(cuFuncGetName(&nm, fs[i]));
    found = nm && !strcmp(nm, name);
  }
  free(fs);
  return found;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: host <original.cubin> <rewritten.cubin>\n");
    return 2;
  }
  drv_init();
  CUmodule mod[2];
  for (int m = 0; m < 2; m++) {
    void *img = slurp(argv[1 + m]);
    CK(cuModuleLoadData(&mod[m], img));
    free(img);
  }
  const int n = 1 << 15, iters = 6;
  const unsigned shapes[3][3] = {{128, 1, 1}, {32, 2, 2}, {16, 3, 2}};
  static const struct {
    const char *name;
    int dbl, vec; /* elements: vec floats or doubles */
  } kern[] = {{"spill4", 0, 1}, {"spill8", 1, 1}, {"calls", 0, 1}, {"_Z5heavyP6float4PKS_i", 0, 4}};
  int bad = 0, ran = 0;
  for (int k = 0; k < (int)(sizeof kern / sizeof kern[0]); k++) {
    const char *name = kern[k].name;
    if (!has_function(mod[0], name))
      continue;
    ran++;
    size_t es = (kern[k].dbl ? sizeof(double) : sizeof(float)) * (size_t)kern[k].vec, bytes = (size_t)n * es;
    unsigned char *hin = malloc(bytes), *hout[2] = {malloc(bytes), malloc(bytes)};
    unsigned s = 12345u;
    for (int i = 0; i < n * kern[k].vec; i++) {
      s = s * 1664525u + 1013904223u;
      double v = 0.3 + 0.3 * (double)(s >> 8) / (double)(1u << 24);
      if (kern[k].dbl)
        ((double *)hin)[i] = v;
      else
        ((float *)hin)[i] = (float)v;
    }
    CUdeviceptr din, dout;
    CK(cuMemAlloc(&din, bytes));
    CK(cuMemAlloc(&dout, bytes));
    CK(cuMemcpyHtoD(din, hin, bytes));
    for (int b = 0; b < 3; b++) {
      unsigned nt = shapes[b][0] * shapes[b][1] * shapes[b][2];
      unsigned grid = (unsigned)((n + nt - 1) / nt);
      for (int m = 0; m < 2; m++) {
        CUfunction fn;
        CK(cuModuleGetFunction(&fn, mod[m], name));
        if (m == 1 && b == 0) {
          int smem = 0, local = 0, regs = 0;
          CK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
          CK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
          CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
          printf("%s rewritten: %d regs, %d B shared, %d B local per thread\n", name, regs, smem, local);
        }
        CK(cuMemsetD8(dout, 0xa5, bytes));
        int nn = n, it = iters;
        void *args[] = {&dout, &din, &nn, &it};
        CK(cuLaunchKernel(fn, grid, 1, 1, shapes[b][0], shapes[b][1], shapes[b][2], 0, NULL, args, NULL));
        CK(cuCtxSynchronize());
        CK(cuMemcpyDtoH(hout[m], dout, bytes));
      }
      int same = !memcmp(hout[0], hout[1], bytes);
      printf("%s block %ux%ux%u: %s\n", name, shapes[b][0], shapes[b][1], shapes[b][2],
             same ? "identical" : "DIFFERENT");
      if (!same) {
        bad = 1;
        for (int i = 0; i < n; i++)
          if (memcmp(hout[0] + i * es, hout[1] + i * es, es)) {
            printf("  first difference at element %d\n", i);
            break;
          }
      }
    }
    CK(cuMemFree(din));
    CK(cuMemFree(dout));
    free(hin);
    free(hout[0]);
    free(hout[1]);
  }
  if (!ran) {
    printf("no known kernel in %s\n", argv[1]);
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
