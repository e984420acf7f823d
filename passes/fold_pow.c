/* fold_pow.c - pow of constants folded where the result is exact.
 *
 * A program writes pow(0.5, 23.0) for 2^-23 (a random-number generator's
 * scale, in a macro).  nvcc folds it; clang's CUDA pipeline cannot: the
 * call reaches libdevice's __nv_pow, whose core, __internal_accurate_pow,
 * is noinline, so each use costs a call of a few hundred instructions (8
 * of them in one third-party kernel's seed loop: 568 SASS instructions
 * against nvcc's 336).
 *
 * When asked (fold-pow, off by default), at the start of the pipeline
 * every call of clang's CUDA wrappers for pow (pow(double, double), powf
 * and pow(float, float)) or of libdevice's __nv_pow/__nv_powf whose two
 * arguments are constants becomes the constant, when the result is exact
 * in the type: y = 0 (1 for every x), or x = +-2^k and y an integer with
 * k*y in the type's normal exponent range (the result +-2^(k*y), negative
 * for x < 0 and odd y).  That is the value nvcc's fold gives.  It is off
 * by default because libdevice's pow does not always return it: on an
 * H100, pow(2.0, 11.0) computed at run time is 0x1.fffffffffffffp+10, and
 * 48 of 322 such double cases with base +-2 differ in the last bit
 * (benchmarks/codegen/pow-exact.cu; powf: none), so a build with the fold
 * can compute what nvcc's build computes and not what clang's does.
 * Requires m an NVPTX module, before inlining.
 */
#include <math.h>
#include <string.h>

#include "orion_pass.h"

/* The functions folded: name, and 1 for float, 0 for double. */
#define POW_FUNCTIONS(X)  \
  X("_ZL3powdd", 0)       \
  X("__nv_pow", 0)        \
  X("_ZL4powfff", 1)      \
  X("_ZL3powff", 1)       \
  X("__nv_powf", 1)

static const struct {
  const char *name;
  int is_float;
} pow_fns[] = {
#define ROW(n, f) {n, f},
    POW_FUNCTIONS(ROW)
#undef ROW
};

/* pow(x, y) when it is exact in the type (is_float: float, else double):
 * *r and 1, else 0. */
static int pow_exact(double x, double y, int is_float, double *r) {
  if (y == 0) {
    *r = 1;
    return 1;
  }
  int e;
  double m = frexp(fabs(x), &e); /* |x| = m * 2^e, m in [0.5, 1) */
  if (!isfinite(x) || x == 0 || m != 0.5 || !isfinite(y) || y != floor(y) || fabs(y) > 4096)
    return 0;
  long p = (long)(e - 1) * (long)y; /* |x| = 2^(e-1) */
  long lo = is_float ? -126 : -1022, hi = is_float ? 127 : 1023;
  if (p < lo || p > hi)
    return 0;
  double v = ldexp(1.0, (int)p);
  *r = x < 0 && fmod(y, 2) != 0 ? -v : v;
  return 1;
}

/* Fold the calls of f (one of pow_fns[w]).  Returns how many. */
static int fold_calls_of(LLVMValueRef f, int is_float) {
  int n = 0;
  LLVMUseRef u = LLVMGetFirstUse(f);
  while (u) {
    LLVMValueRef call = LLVMGetUser(u);
    u = LLVMGetNextUse(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f || LLVMGetNumArgOperands(call) != 2)
      continue;
    LLVMValueRef a = LLVMGetOperand(call, 0), b = LLVMGetOperand(call, 1);
    LLVMBool lossy;
    double r;
    if (!LLVMIsAConstantFP(a) || !LLVMIsAConstantFP(b) ||
        !pow_exact(LLVMConstRealGetDouble(a, &lossy), LLVMConstRealGetDouble(b, &lossy),
                         is_float, &r))
      continue;
    LLVMReplaceAllUsesWith(call, LLVMConstReal(LLVMTypeOf(call), r));
    LLVMInstructionEraseFromParent(call);
    n++;
  }
  return n;
}

int orion_fold_pow(LLVMModuleRef m) {
  int n = 0;
  for (size_t w = 0; w < sizeof pow_fns / sizeof *pow_fns; w++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, pow_fns[w].name);
    LLVMTypeRef t = f ? LLVMGlobalGetValueType(f) : NULL;
    LLVMTypeRef want = pow_fns[w].is_float ? LLVMFloatTypeInContext(LLVMGetModuleContext(m))
                                           : LLVMDoubleTypeInContext(LLVMGetModuleContext(m));
    LLVMTypeRef params[2];
    if (!t || LLVMGetReturnType(t) != want || LLVMCountParamTypes(t) != 2)
      continue;
    LLVMGetParamTypes(t, params);
    if (params[0] == want && params[1] == want)
      n += fold_calls_of(f, pow_fns[w].is_float);
  }
  return n;
}
