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
 * version above it can differ from the original for the better:
 *   - __maxnreg__(n): n;
 *   - -maxrregcount=N (ptxas's, which the pass learns from an option) when
 *     the kernel has neither __maxnreg__ nor launch bounds (ptxas ignores it
 *     for those): N;
 *   - launch bounds (threads T, min blocks B, 1 when absent): the largest
 *     register count at which B blocks of T threads fit on one SM in the
 *     occupancy model (core/: allocation granularity per warp included;
 *     shared memory left out, as ptxas does); e.g. sm_90,
 *     __launch_bounds__(256, 4) -> 64; a bound that allows the
 *     architecture's maximum (255) is no ceiling.
 * The smaller of the two applies.  Pure queries; modifies nothing.
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

int orion_reg_ceiling(LLVMModuleRef m, LLVMValueRef f, int sm, int maxrregcount, char *why,
                      size_t n) {
  int ceiling = bound_value(m, f, "nvvm.maxnreg", "maxnreg");
  int threads = orion_launch_block(m, f);
  if (ceiling > 0)
    snprintf(why, n, "__maxnreg__(%d)", ceiling);
  else if (maxrregcount > 0 && threads <= 0 && !bound_value(m, f, "nvvm.minctasm", "minctasm"))
    snprintf(why, n, "-maxrregcount=%d", ceiling = maxrregcount);
  else if (n)
    why[0] = '\0';
  const orion_arch_limits *a = orion_arch_get(sm);
  if (threads <= 0 || !a)
    return ceiling;
  int min_blocks = bound_value(m, f, "nvvm.minctasm", "minctasm");
  int blocks = min_blocks > 0 ? min_blocks : 1;
  int warps = blocks * ((threads + a->warp_size - 1) / a->warp_size);
  int regs = 0;
  if (orion_occ_max_regs_for_warps(sm, threads, 0, warps, &regs) == ORION_OK &&
      regs < a->max_regs_per_thread && (!ceiling || regs < ceiling)) {
    ceiling = regs;
    if (min_blocks > 0)
      snprintf(why, n, "__launch_bounds__(%d, %d)", threads, min_blocks);
    else
      snprintf(why, n, "__launch_bounds__(%d)", threads);
  }
  return ceiling;
}

int orion_is_optimised(LLVMValueRef f) {
  unsigned kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  return !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}
