/* host.c - GPU check of the frame-to-shared rewrite: load the original and
 * the rewritten cubin with the driver API, run each kernel of
 * spill_smem.cu in both over three block shapes, compare the outputs bit
 * for bit.
 *
 *   host <original.cubin> <rewritten.cubin> [<kernel>=<bytes per warp> ...]
 *
 * A kernel named with bytes per warp was rewritten with a dynamic region
 * (orion-sass rewrite --dynamic): its rewritten version is launched with
 * ceil(threads / 32) x those bytes of dynamic shared memory (the opt-in
 * attribute set where that is above 48 KB), and, having no block limit of
 * its own, heavy and gauss_columns also run at 256 threads.
 *
 * Kernels, each run when the cubins have it: spill4(float *out, const
 * float *in, int n, int iters) and spill8(double *, const double *, int,
 * int) of spill_smem.cu, calls(float *, const float *, int) of calls.cu,
 * dynown and dynonly (float *, const float *, int, int) of dyn_smem.cu,
 * launched with 516 bytes of dynamic shared memory of their own (the
 * rewritten version with the region above them), all
 * __launch_bounds__(128), and heavy(float4 *, const float4 *, int) of
 * test/lit/e2e/spill-heavy.cu (rewritten for 128 threads), and
 * gauss_columns of benchmarks/programs/recursive_gauss.cu (rewritten for
 * 128 threads; its slots move at its calls).  At least one must be present.
 * Block shapes 128x1x1, 32x2x2 and 16x3x2 (96 threads: fewer than the
 * maximum the region is sized for, and a 3-D index); gauss_columns, which
 * indexes x only, 128, 96 and 64 threads.  Exit 0 when every
 * output matches, 1 on a mismatch or a CUDA error, 77 without a GPU.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_util.h"

static int n_dyn;
static char **dyn_args; /* "<kernel>=<bytes per warp>" */

/* The bytes per warp of kernel name's dynamic region, 0 if it has none. */
static unsigned warp_bytes(const char *name) {
  size_t len = strlen(name);
  for (int i = 0; i < n_dyn; i++)
    if (!strncmp(dyn_args[i], name, len) && dyn_args[i][len] == '=')
      return (unsigned)strtoul(dyn_args[i] + len + 1, NULL, 10);
  return 0;
}

/* Launch fn over grid blocks of shape b with own bytes of dynamic shared
 * memory of the program's, and, for a rewritten kernel with a dynamic
 * region of w bytes per warp, the region above them (16-aligned). */
static void launch(CUfunction fn, unsigned grid, const unsigned b[3], void **args, unsigned w, unsigned own) {
  unsigned warps = (b[0] * b[1] * b[2] + 31) / 32, dyn = w ? (own + 15) / 16 * 16 + warps * w : own;
  if (dyn > 48 * 1024)
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn));
  CK(cuLaunchKernel(fn, grid, 1, 1, b[0], b[1], b[2], dyn, NULL, args, NULL));
}

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

/* gauss_columns(int width, int height, const uint32_t *in, float4 *tmp,
 * uint32_t *out, Coefs c) of recursive_gauss.cu in both modules, blocks
 * of 128, 96 and 64 threads: out and tmp bit for bit.  Returns 1 on a
 * mismatch, 0 when identical, -1 when the modules lack it. */
static int run_gauss(CUmodule mod[2]) {
  static const char name[] = "_Z13gauss_columnsiiPKjP6float4Pj5Coefs";
  if (!has_function(mod[0], name))
    return -1;
  int w = 4096, h = 64, bad = 0;
  unsigned wb = warp_bytes(name);
  size_t px = (size_t)w * h, ob = px * 4, tb = px * 16;
  uint32_t *hin = malloc(ob), *hout[2] = {malloc(ob), malloc(ob)};
  unsigned char *htmp[2] = {malloc(tb), malloc(tb)};
  unsigned s = 777u;
  for (size_t i = 0; i < px; i++)
    hin[i] = s = s * 1664525u + 1013904223u;
  float c[14];
  for (int i = 0; i < 14; i++)
    c[i] = 0.05f * (float)(i % 5) - 0.07f * (float)(i % 3) + (i >= 12 ? 1.0f : 0.0f);
  CUdeviceptr din, dtmp, dout;
  CK(cuMemAlloc(&din, ob));
  CK(cuMemAlloc(&dtmp, tb));
  CK(cuMemAlloc(&dout, ob));
  CK(cuMemcpyHtoD(din, hin, ob));
  for (unsigned nt = wb ? 256 : 128; nt >= 64; nt -= nt == 256 ? 128 : 32) {
    for (int m = 0; m < 2; m++) {
      CUfunction fn;
      CK(cuModuleGetFunction(&fn, mod[m], name));
      CK(cuMemsetD8(dtmp, 0xa5, tb));
      CK(cuMemsetD8(dout, 0xa5, ob));
      void *args[] = {&w, &h, &din, &dtmp, &dout, c};
      const unsigned shape[3] = {nt, 1, 1};
      launch(fn, (unsigned)(w + nt - 1) / nt, shape, args, m ? wb : 0, 0);
      CK(cuCtxSynchronize());
      CK(cuMemcpyDtoH(hout[m], dout, ob));
      CK(cuMemcpyDtoH(htmp[m], dtmp, tb));
    }
    int same = !memcmp(hout[0], hout[1], ob) && !memcmp(htmp[0], htmp[1], tb);
    printf("%s block %ux1x1: %s\n", name, nt, same ? "identical" : "DIFFERENT");
    bad |= !same;
  }
  CK(cuMemFree(din));
  CK(cuMemFree(dtmp));
  CK(cuMemFree(dout));
  free(hin);
  for (int m = 0; m < 2; m++) {
    free(hout[m]);
    free(htmp[m]);
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: host <original.cubin> <rewritten.cubin> [<kernel>=<bytes per warp> ...]\n");
    return 2;
  }
  n_dyn = argc - 3;
  dyn_args = argv + 3;
  drv_init();
  CUmodule mod[2];
  for (int m = 0; m < 2; m++) {
    void *img = slurp(argv[1 + m]);
    CK(cuModuleLoadData(&mod[m], img));
    free(img);
  }
  const int n = 1 << 15, iters = 6;
  const unsigned shapes[4][3] = {{128, 1, 1}, {32, 2, 2}, {16, 3, 2}, {256, 1, 1}};
  static const struct {
    const char *name;
    int dbl, vec; /* elements: vec floats or doubles */
    int bounded;  /* __launch_bounds__(128) */
    unsigned own; /* the program's dynamic shared memory */
  } kern[] = {{"spill4", 0, 1, 1, 0},  {"spill8", 1, 1, 1, 0},   {"calls", 0, 1, 1, 0},
              {"dynown", 0, 1, 1, 516}, {"dynonly", 0, 1, 1, 516}, {"_Z5heavyP6float4PKS_i", 0, 4, 0, 0}};
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
    unsigned w = warp_bytes(name);
    for (int b = 0; b < (w && !kern[k].bounded ? 4 : 3); b++) {
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
          printf("%s rewritten: %d regs, %d B shared, %d B local per thread", name, regs, smem, local);
          if (w)
            printf(", %u B dynamic per warp", w);
          printf("\n");
        }
        CK(cuMemsetD8(dout, 0xa5, bytes));
        int nn = n, it = iters;
        void *args[] = {&dout, &din, &nn, &it};
        launch(fn, grid, shapes[b], args, m ? w : 0, kern[k].own);
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
  int g = run_gauss(mod);
  if (g >= 0) {
    ran++;
    bad |= g;
  }
  if (!ran) {
    printf("no known kernel in %s\n", argv[1]);
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
