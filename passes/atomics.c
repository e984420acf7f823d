/* atomics.c - atomicCAS as CUDA defines it: relaxed, not a fence.
 *
 * CUDA documents its atomic functions as relaxed operations at the scope
 * their name gives (atomicCAS: the device); nvcc emits `atom.cas` (relaxed,
 * .gpu) with no fence.  Clang's CUDA headers build
 * atomicCAS from a builtin that LLVM emits as a sequentially consistent
 * cmpxchg, which NVPTX lowers to `fence.sc.sys` plus an acquire CAS at
 * system scope: a full memory barrier and an L1 invalidation around every
 * compare-and-swap of a lock or a CAS loop.
 *
 * At the start of the pipeline, before inlining, the cmpxchg still sits in
 * the header's wrapper function (internal linkage, one per type and scope).
 * Each seq_cst cmpxchg in such a wrapper becomes monotonic at device scope
 * (PTX atom.relaxed.gpu.cas), what nvcc emits.  A cmpxchg the program writes itself (an __atomic
 * builtin, inline code) is never in one of these functions and is left
 * alone.  Requires m an NVPTX module, before inlining.
 */
#include "orion_pass.h"

/* The wrappers of clang's __clang_cuda_device_functions.h that atomicCAS
 * calls (mangled, internal linkage), each holding one seq_cst cmpxchg.  The
 * _block and _system forms use NVVM intrinsics that are already relaxed. */
#define CAS_WRAPPERS(X)         \
  X("_ZL12__iAtomicCASPiii")    \
  X("_ZL12__uAtomicCASPjjj")    \
  X("_ZL14__ullAtomicCASPyyy")  \
  X("_ZL13__usAtomicCASPttt")

static const char *const wrappers[] = {
#define ROW(n) n,
    CAS_WRAPPERS(ROW)
#undef ROW
};

/* Relax every seq_cst cmpxchg of f at device scope.  Returns how many. */
static int relax(LLVMValueRef f) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned id = LLVMGetSyncScopeID(ctx, "device", 6);
  int n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAAtomicCmpXchgInst(i) ||
          LLVMGetCmpXchgSuccessOrdering(i) != LLVMAtomicOrderingSequentiallyConsistent)
        continue;
      LLVMSetCmpXchgSuccessOrdering(i, LLVMAtomicOrderingMonotonic);
      LLVMSetCmpXchgFailureOrdering(i, LLVMAtomicOrderingMonotonic);
      LLVMSetAtomicSyncScopeID(i, id);
      n++;
    }
  return n;
}

int orion_relax_atomic_cas(LLVMModuleRef m) {
  int n = 0;
  for (size_t w = 0; w < sizeof wrappers / sizeof *wrappers; w++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, wrappers[w]);
    if (f && LLVMCountBasicBlocks(f) && LLVMGetLinkage(f) == LLVMInternalLinkage)
      n += relax(f);
  }
  return n;
}
