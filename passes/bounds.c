/* bounds.c - what a kernel's source says about how it runs: launch bounds
 * (block size, minimum blocks per SM), a per-kernel register limit, and
 * whether the kernel was optimised at all.
 *
 * Attributes read (LLVM 21+ form first, then the old nvvm.annotations
 * metadata, which LLVM 21+ upgrades when it reads IR):
 *   "nvvm.reqntid" / "nvvm.maxntid"  "256" or "128,2,1" (reqntid wins);
 *                                    old: reqntid{x,y,z}, maxntid{x,y,z}
 *   "nvvm.minctasm"                  __launch_bounds__'s second argument;
 *                                    old: minctasm
 *   "nvvm.maxnreg"                   __maxnreg__; old: maxnreg
 *   optnone                          the function was compiled at -O0
 *
 * The register ceiling is what ptxas itself holds the original to, so no
 * version above it can differ from the original for the better: these
 * limits and ptxas's -maxrregcount (which the pass learns from an option)
 * go to orion_reg_ceiling (core/select.c), which says how ptxas combines
 * them (__launch_bounds__(256, 4) on sm_90: 64 registers).
 * Pure queries, but for orion_maxnreg_annotations: clang 22 drops the
 * __maxnreg__ attribute of CUDA source, so orion/nvcc_compat.h spells it
 * annotate("orion.maxnreg", N), which reaches the IR as an entry
 * { ptr f, ptr name, ptr file, i32 line, ptr args } of
 * @llvm.global.annotations whose args global holds { i32 N }; that
 * function turns each into f's "nvvm.maxnreg"="N" (ptxas then holds f to N,
 * as nvcc's .maxnreg does), unless f has one already.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/occupancy.h"
#include "orion_pass.h"

const char *orion_str_attr(LLVMValueRef f, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                                     key, (unsigned)strlen(key));
  if (!a)
    return NULL;
  unsigned len;
  return LLVMGetStringAttributeValue(a, &len);
}

void orion_set_str_attr(LLVMValueRef f, const char *key, const char *val) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (val)
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, key, (unsigned)strlen(key), val,
                                                      (unsigned)strlen(val)));
}

LLVMValueRef *orion_module_kernels(LLVMModuleRef m, size_t *n) {
  size_t cap = 16;
  LLVMValueRef *ks = malloc(cap * sizeof *ks);
  *n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && ks; f = LLVMGetNextFunction(f)) {
    if (!orion_is_kernel(m, f))
      continue;
    if (*n == cap) {
      LLVMValueRef *nk = realloc(ks, (cap *= 2) * sizeof *nk);
      if (!nk)
        break;
      ks = nk;
    }
    ks[(*n)++] = f;
  }
  return ks;
}

/* "256" or "128,2,1" -> product; 0 if absent or malformed. */
static int ntid_product(const char *s) {
  if (!s)
    return 0;
  long prod = 1;
  while (*s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0)
      return 0;
    prod *= v;
    if (prod > 1024 * 1024)
      return 0;
    s = end;
    if (*s == ',')
      s++;
    else if (*s)
      return 0;
  }
  return (int)prod;
}

/* A positive decimal attribute value, else 0. */
static int int_attr(LLVMValueRef f, const char *key) {
  const char *s = orion_str_attr(f, key);
  if (!s)
    return 0;
  char *end;
  long v = strtol(s, &end, 10);
  return end != s && !*end && v > 0 && v <= 1 << 20 ? (int)v : 0;
}

/* Old form: !nvvm.annotations = !{!{ptr @f, !"maxntidx", i32 128, ...}}.
 * Returns the value of key for f, or 0.  LLVM 21+ upgrades this form when it
 * reads IR, so the list is usually empty and this returns at once. */
static long annotation(LLVMModuleRef m, LLVMValueRef f, const char *key) {
  unsigned n = LLVMGetNamedMetadataNumOperands(m, "nvvm.annotations");
  if (n == 0)
    return 0;
  LLVMValueRef *ops = calloc(n, sizeof *ops);
  if (!ops)
    return 0;
  LLVMGetNamedMetadataOperands(m, "nvvm.annotations", ops);
  long found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    unsigned k = LLVMGetMDNodeNumOperands(ops[i]);
    if (k < 3)
      continue;
    LLVMValueRef *e = calloc(k, sizeof *e);
    if (!e)
      break;
    LLVMGetMDNodeOperands(ops[i], e);
    if (e[0] == f)
      for (unsigned j = 1; j + 1 < k; j += 2) {
        unsigned len = 0;
        const char *name = e[j] ? LLVMGetMDString(e[j], &len) : NULL;
        if (name && len == strlen(key) && memcmp(name, key, len) == 0 &&
            e[j + 1] && LLVMIsAConstantInt(e[j + 1]))
          found = (long)LLVMConstIntGetZExtValue(e[j + 1]);
      }
    free(e);
  }
  free(ops);
  return found;
}

int orion_is_kernel(LLVMModuleRef m, LLVMValueRef f) {
  if (LLVMIsDeclaration(f))
    return 0;
  return LLVMGetFunctionCallConv(f) == LLVMPTXKernelCallConv ||
         annotation(m, f, "kernel") == 1;
}

int orion_launch_block(LLVMModuleRef m, LLVMValueRef f) {
  int b = ntid_product(orion_str_attr(f, "nvvm.reqntid"));
  if (!b)
    b = ntid_product(orion_str_attr(f, "nvvm.maxntid"));
  if (!b) {
    static const char *const keys[2][3] = {{"reqntidx", "reqntidy", "reqntidz"},
                                           {"maxntidx", "maxntidy", "maxntidz"}};
    for (int k = 0; k < 2 && !b; k++) {
      long x = annotation(m, f, keys[k][0]);
      if (x > 0) {
        long y = annotation(m, f, keys[k][1]), z = annotation(m, f, keys[k][2]);
        long p = x * (y > 0 ? y : 1) * (z > 0 ? z : 1);
        b = p <= 1024 ? (int)p : 0;
      }
    }
  }
  return b;
}

/* attr, else the old annotation key, else 0. */
static int bound_value(LLVMModuleRef m, LLVMValueRef f, const char *attr, const char *old) {
  int v = int_attr(f, attr);
  if (!v) {
    long a = annotation(m, f, old);
    v = a > 0 && a <= 1 << 20 ? (int)a : 0;
  }
  return v;
}

void orion_kernel_reg_limits(LLVMModuleRef m, LLVMValueRef f, int maxrregcount,
                             orion_reg_limits *out) {
  out->maxnreg = bound_value(m, f, "nvvm.maxnreg", "maxnreg");
  out->threads = orion_launch_block(m, f);
  out->min_blocks = bound_value(m, f, "nvvm.minctasm", "minctasm");
  out->maxrregcount = maxrregcount > 0 ? maxrregcount : 0;
}

int orion_is_optimised(LLVMValueRef f) {
  unsigned kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  return !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}

#define MAXNREG_ANNOTATION "orion.maxnreg"

/* The constant string global g points to (data with its NUL), or NULL. */
static const char *annotation_string(LLVMValueRef g, size_t *len) {
  if (!g || !LLVMIsAGlobalVariable(g) || !LLVMGetInitializer(g))
    return NULL;
  LLVMValueRef init = LLVMGetInitializer(g);
  return LLVMIsAConstantDataSequential(init) ? LLVMGetAsString(init, len) : NULL;
}

/* N of an { i32 N } args global, else 0. */
static int annotation_int_arg(LLVMValueRef g) {
  if (!g || !LLVMIsAGlobalVariable(g) || !LLVMGetInitializer(g))
    return 0;
  LLVMValueRef init = LLVMGetInitializer(g);
  if (LLVMGetNumOperands(init) < 1)
    return 0;
  LLVMValueRef v = LLVMGetOperand(init, 0);
  if (!v || !LLVMIsAConstantInt(v))
    return 0;
  long long n = LLVMConstIntGetSExtValue(v);
  return n > 0 && n <= 255 ? (int)n : 0;
}

int orion_maxnreg_annotations(LLVMModuleRef m) {
  LLVMValueRef g = LLVMGetNamedGlobal(m, "llvm.global.annotations");
  LLVMValueRef arr = g ? LLVMGetInitializer(g) : NULL;
  if (!arr)
    return 0;
  int set = 0, n = LLVMGetNumOperands(arr);
  for (int i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetOperand(arr, (unsigned)i);
    if (!e || LLVMGetNumOperands(e) < 5)
      continue;
    LLVMValueRef f = LLVMGetOperand(e, 0);
    size_t len = 0;
    const char *name = annotation_string(LLVMGetOperand(e, 1), &len);
    if (!f || !LLVMIsAFunction(f) || !name || len < sizeof MAXNREG_ANNOTATION - 1 ||
        strncmp(name, MAXNREG_ANNOTATION, sizeof MAXNREG_ANNOTATION) != 0)
      continue;
    int regs = annotation_int_arg(LLVMGetOperand(e, 4));
    if (regs <= 0 || orion_str_attr(f, "nvvm.maxnreg"))
      continue;
    char v[16];
    snprintf(v, sizeof v, "%d", regs);
    orion_set_str_attr(f, "nvvm.maxnreg", v);
    set++;
  }
  return set;
}
