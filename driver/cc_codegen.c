/* cc_codegen.c - Orion's defaults for device code generation.
 *
 * Clang's CUDA pipeline loses to nvcc on third-party kernels for reasons
 * that are settings, not missing optimisations (the corpus's parity table,
 * benchmarks/corpus/results/parity-h100/parity.md, names each loss).
 * orion-cc applies these defaults to the device compile
 * only (never the host's), each switchable by name with --orion-codegen=LIST:
 * `default` (the ones marked on), `none`, or names, `no-<name>` turning one
 * off, read left to right from the defaults.  Some are clang options given
 * with -Xarch_device (orion-config --cflags prints them too); the others are
 * OrionPass steps, switched through the plugin's environment.  --no-orion
 * applies none of them.
 */
#include <string.h>

#include "cc_codegen.h"

/* X(name as --orion-codegen spells it, on by default, clang device options
 *   (NULL-terminated) or NULL, OrionPass's environment variable for it
 *   (NAME=0 / NAME=1) or NULL, whole-program only, what it is).  The
 *   plugin's own default for each step is this table's, except for the
 *   whole-program steps: those are wrong under -fgpu-rdc, which the device
 *   IR does not show, so the plugin leaves them off and orion-cc asks for
 *   them (NAME=1) only in a build without -fgpu-rdc.
 * Off by default, each measured on the corpus (parity-h100/README.md):
 * align-arrays (sort 2.7 % faster, but nqueen and s8n 2 % slower: ptxas
 * keeps the aligned small arrays in registers with select chains);
 * partial-unroll (tsp 1.8x faster, but wsm5 1.23x and s8n 1.08x slower: it
 * trades registers for ILP, a choice per kernel: the unroll version makes it
 * one); fold-pow (the is program 1.13x faster, at nvcc's time, but the
 * folded value is nvcc's, exact, where libdevice's pow at run time can
 * differ in the last bit); short-ptr (clang 22's
 * NVPTX back end stops on aobench with it: "Copy one register into another
 * with a different width"). */
#define CODEGEN_DEFAULTS(X)                                                                 \
  X("relaxed-cas", 1, NULL, "ORION_RELAXED_CAS", 0,                                         \
    "atomicCAS relaxed at device scope, as CUDA defines it (clang: fenced)")                \
  X("fold-pow", 0, NULL, "ORION_FOLD_POW", 0,                                               \
    "(off) pow of constants folded where exact, to nvcc's value, not libdevice's")          \
  X("internalize", 1, NULL, "ORION_INTERNALIZE", 1,                                         \
    "without -fgpu-rdc, device functions private to their file, as nvcc's")                 \
  X("unroll", 1, ARGS("-mllvm=-unroll-threshold=600"), NULL, 0,                             \
    "fixed-trip loops of up to 600 instructions unrolled fully (clang: 300)")               \
  X("runtime-trip", 1, ARGS("-mllvm=-scev-cheap-expansion-budget=20"), NULL, 0,             \
    "strided loops unrolled at run time (a trip count with a division)")                    \
  X("licm-promote", 1, ARGS("-mllvm=-licm-mssa-max-acc-promotion=1000"), NULL, 0,           \
    "fixed array slots of big unrolled loops kept in registers")                            \
  X("align-arrays", 0, NULL, "ORION_ALIGN_ARRAYS", 0,                                       \
    "(off) stack and __shared__ arrays aligned as nvcc aligns them")                        \
  X("partial-unroll", 0, ARGS("-mllvm=-unroll-partial-threshold=150"), NULL, 0,             \
    "(off) other small loops unrolled by up to 4 (clang: 75 instructions)")                 \
  X("short-ptr", 0, ARGS("-fcuda-short-ptr"), NULL, 0,                                      \
    "(off) 32-bit shared, constant and local pointers, as nvcc's")

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct codegen_default {
  const char *name;
  int on;
  const char *const *args;
  const char *env;
  int whole;
  const char *what;
} defaults[] = {
#define ROW(n, on, a, e, wh, w) {n, on, a, e, wh, w},
    CODEGEN_DEFAULTS(ROW)
#undef ROW
};
#define N_DEFAULTS (sizeof defaults / sizeof *defaults)

/* Index of the default called name (len bytes), or -1. */
static int find(const char *name, size_t len) {
  for (size_t i = 0; i < N_DEFAULTS; i++)
    if (strlen(defaults[i].name) == len && strncmp(defaults[i].name, name, len) == 0)
      return (int)i;
  return -1;
}

unsigned cc_codegen_defaults(void) {
  unsigned m = 0;
  for (size_t i = 0; i < N_DEFAULTS; i++)
    m |= (unsigned)defaults[i].on << i;
  return m;
}

int cc_codegen_parse(const char *list, unsigned *mask) {
  unsigned m = cc_codegen_defaults();
  for (const char *p = list;; p++) {
    size_t len = strcspn(p, ",");
    int on = strncmp(p, "no-", 3) != 0;
    const char *n = on ? p : p + 3;
    size_t nlen = on ? len : len - 3;
    int i;
    if (len == 7 && strncmp(p, "default", 7) == 0)
      m = cc_codegen_defaults();
    else if (len == 4 && strncmp(p, "none", 4) == 0)
      m = 0;
    else if ((i = find(n, nlen)) >= 0)
      m = on ? m | 1u << i : m & ~(1u << i);
    else
      return 0;
    p += len;
    if (!*p)
      break;
  }
  *mask = m;
  return 1;
}

void cc_codegen_args(unsigned mask, int rdc, strvec *argv, strvec *env) {
  for (size_t i = 0; i < N_DEFAULTS; i++) {
    int on = (mask >> i) & 1;
    if (defaults[i].whole) { /* the plugin's default: off */
      if (on && !rdc)
        sv_pushf(env, "%s=1", defaults[i].env);
      continue;
    }
    if (on && defaults[i].args)
      for (const char *const *a = defaults[i].args; *a; a++) {
        sv_push(argv, "-Xarch_device");
        sv_push(argv, *a);
      }
    if (defaults[i].env && on != defaults[i].on) /* the plugin's default is the table's */
      sv_pushf(env, "%s=%d", defaults[i].env, on);
  }
}

void cc_codegen_help(FILE *f) {
  for (size_t i = 0; i < N_DEFAULTS; i++)
    fprintf(f, "      %-15s %s\n", defaults[i].name, defaults[i].what);
}
