/* align.c - device arrays aligned as nvcc aligns them.
 *
 * Clang gives a local array its element's alignment (char[20]: 1, int[16]:
 * 4); nvcc's front end gives it the largest power of two, at most 16, that
 * divides its size (char[20]: 4, int[16]: 16).  The difference decides code
 * quality on sm_90:
 *   - ptxas keeps a small dynamically indexed local array in registers
 *     (select chains) only when its .local depot is 16-byte aligned and
 *     initialised with vector stores;
 *   - a combined 4-byte load from a 1-aligned char array is split into four
 *     byte loads plus shifts;
 *   - the load/store vectoriser pairs adjacent shared or local accesses only
 *     where it can prove the wider alignment.
 * Rule, for every sized stack array (alloca) of an optimised device function
 * and every __shared__ variable defined in the module (address space 3, not
 * extern: dynamic shared memory's alignment is the launch's):
 *
 *   align := max(align, min(16, largest power of two dividing the size))
 *
 * Raising an alignment changes no value a program computes; it may add a
 * few bytes of padding to a frame or a block's shared memory.  The caller
 * then runs LLVM's address-space and alignment inference (plugin.cpp),
 * which carry the new alignment to the loads and stores (through the
 * generic pointers clang emits), so the load/store vectorizer can pair
 * adjacent accesses.  Requires m an NVPTX module.
 */
#include "orion_pass.h"

#define ALIGN_MAX 16u

/* The alignment the rule gives an object of `size` bytes. */
static unsigned size_align(unsigned long long size) {
  unsigned a = 1;
  while (a < ALIGN_MAX && size % (2ull * a) == 0)
    a *= 2;
  return size ? a : 1;
}

/* Raise v's alignment (an alloca or a global) for an object of type t.
 * Returns 1 if it changed. */
static int raise_align(LLVMTargetDataRef td, LLVMValueRef v, LLVMTypeRef t) {
  if (!LLVMTypeIsSized(t))
    return 0;
  unsigned want = size_align(LLVMABISizeOfType(td, t));
  if (LLVMGetAlignment(v) >= want)
    return 0;
  LLVMSetAlignment(v, want);
  return 1;
}

/* Constant-size array allocas (the only kind SROA leaves for a reason). */
static int align_allocas(LLVMTargetDataRef td, LLVMValueRef f) {
  int n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAAllocaInst(i) || !LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
        continue;
      unsigned long long count = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
      LLVMTypeRef t = LLVMGetAllocatedType(i);
      if (count == 1 && LLVMGetTypeKind(t) != LLVMArrayTypeKind &&
          LLVMGetTypeKind(t) != LLVMStructTypeKind)
        continue; /* a scalar: already its natural alignment */
      if (count != 1)
        t = LLVMArrayType2(t, count);
      n += raise_align(td, i, t);
    }
  return n;
}

int orion_align_arrays(LLVMModuleRef m) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMCountBasicBlocks(f) && orion_is_optimised(f))
      n += align_allocas(td, f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    LLVMTypeRef pt = LLVMTypeOf(g);
    if (LLVMGetPointerAddressSpace(pt) != 3 || LLVMIsDeclaration(g))
      continue;
    n += raise_align(td, g, LLVMGlobalGetValueType(g));
  }
  return n;
}
