/* addrspace.c - the address space a load's or store's pointer points into,
 * inferred from where the pointer comes from (kernel_features.h).
 *
 * Clang emits CUDA device code with generic pointers (address space 0):
 * kernel parameters, pointers into __shared__ arrays after a cast, and
 * everything derived from them.  NVPTX's own address-space inference runs
 * later, in code generation, so the optimised IR OrionPass sees reads as
 * "generic" for most accesses.  This walk recovers the space statically:
 *
 *   origin(p) = the space of p's type, when it is not generic;
 *             = origin(base) through getelementptr, bitcast and
 *               addrspacecast (an addrspacecast from a specific space
 *               gives that space), instructions and constant expressions;
 *             = the join of the operands of select and phi
 *               (equal spaces join to that space, an unknown operand
 *               (a phi already being walked, i.e. a loop back edge) to the
 *               other, different spaces to generic);
 *             = a global variable's space (__shared__ 3, __constant__ 4,
 *               __device__ 1);
 *             = global (1) for a pointer parameter of the kernel: CUDA
 *               passes kernel pointers into global memory (NVPTX's
 *               argument lowering makes the same assumption); a byval
 *               parameter (a struct passed by value) is the kernel's
 *               parameter space, read through the constant bank: const (4);
 *             = local (5) for an alloca (the thread's stack frame);
 *             = generic (0) for anything else: a pointer loaded from
 *               memory, returned by a call, made by inttoptr, or a
 *               parameter of a device function.
 *
 * Spaces: 0 generic, 1 global, 3 shared, 4 constant, 5 local.  The walk is
 * bounded in depth (ORION_AS_DEPTH); past the bound the answer is generic,
 * never a guess.  Requires nothing; modifies nothing.
 */
#include <stddef.h>

#include "kernel_features.h"

#define ORION_AS_DEPTH 32
#define AS_UNKNOWN (-1)

typedef struct as_walk {
  LLVMValueRef kernel;
  LLVMValueRef phis[ORION_AS_DEPTH]; /* the phis on the current path */
  int nphis;
} as_walk;

static unsigned space_of_type(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMGetPointerAddressSpace(t) : 0;
}

static int join(int a, int b) {
  if (a == AS_UNKNOWN)
    return b;
  if (b == AS_UNKNOWN)
    return a;
  return a == b ? a : 0;
}

static int origin(as_walk *w, LLVMValueRef v, int depth);

/* The join over operands [first, first + n) of v. */
static int join_operands(as_walk *w, LLVMValueRef v, int first, int n, int depth) {
  int r = AS_UNKNOWN;
  for (int i = first; i < first + n && r != 0; i++)
    r = join(r, origin(w, LLVMGetOperand(v, (unsigned)i), depth + 1));
  return r;
}

static int origin_phi(as_walk *w, LLVMValueRef v, int depth) {
  for (int i = 0; i < w->nphis; i++)
    if (w->phis[i] == v)
      return AS_UNKNOWN; /* a back edge: the other incoming values decide */
  if (w->nphis == ORION_AS_DEPTH)
    return 0;
  w->phis[w->nphis++] = v;
  int r = AS_UNKNOWN;
  unsigned n = LLVMCountIncoming(v);
  for (unsigned i = 0; i < n && r != 0; i++)
    r = join(r, origin(w, LLVMGetIncomingValue(v, i), depth + 1));
  w->nphis--;
  return r;
}

/* Through a cast or address computation whose operand 0 is the base. */
static int origin_base(as_walk *w, LLVMValueRef v, LLVMOpcode op, int depth) {
  LLVMValueRef base = LLVMGetOperand(v, 0);
  if (op == LLVMAddrSpaceCast && space_of_type(base) != 0)
    return (int)space_of_type(base);
  return origin(w, base, depth + 1);
}

static int origin_param(as_walk *w, LLVMValueRef v) {
  LLVMValueRef fn = LLVMGetParamParent(v);
  if (fn != w->kernel)
    return 0; /* a device function's parameter: any space */
  static unsigned byval;
  if (!byval)
    byval = LLVMGetEnumAttributeKindForName("byval", 5);
  unsigned n = LLVMCountParams(fn);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetParam(fn, i) == v)
      return LLVMGetEnumAttributeAtIndex(fn, i + 1, byval) ? 4 : 1;
  return 0;
}

static int origin(as_walk *w, LLVMValueRef v, int depth) {
  unsigned as = space_of_type(v);
  if (as != 0)
    return (int)as;
  if (depth > ORION_AS_DEPTH)
    return 0;
  if (LLVMIsAGlobalVariable(v))
    return 0; /* a global in the generic space: nothing known */
  if (LLVMIsAArgument(v))
    return origin_param(w, v);
  if (LLVMIsAAllocaInst(v))
    return 5;
  if (LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
      return origin_base(w, v, op, depth);
    return 0;
  }
  if (!LLVMIsAInstruction(v))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    return origin_base(w, v, op, depth);
  case LLVMSelect:
    return join_operands(w, v, 1, 2, depth);
  case LLVMPHI:
    return origin_phi(w, v, depth);
  default:
    return 0;
  }
}

unsigned orion_pointer_space(LLVMValueRef kernel, LLVMValueRef ptr) {
  as_walk w = {kernel, {0}, 0};
  int r = origin(&w, ptr, 0);
  return r == AS_UNKNOWN ? 0 : (unsigned)r;
}
