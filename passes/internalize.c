/* internalize.c - device functions private to their module, as nvcc's
 * whole-program compile treats them.
 *
 * Without -fgpu-rdc every translation unit's device code is a program of
 * its own: no other module can call its device functions, only the host
 * can reach its kernels (by name) and its variables (by symbol).  nvcc
 * compiles it as such and inlines a large helper into its one caller.
 * Clang gives the same functions external linkage, so LLVM's inliner sees
 * a function that must stay and weighs the copy against the caller: large
 * helpers stay calls, with their arrays in local memory (a 41 KB frame on
 * one third-party kernel where nvcc's has none).
 *
 * At the start of the pipeline every defined non-kernel function of an
 * NVPTX module gets internal linkage (no comdat, default visibility), so
 * the inliner may fold a helper into its only caller and drop the unused.
 * Kernels, variables, declarations and available_externally copies keep
 * theirs.  Requires m an NVPTX module compiled without -fgpu-rdc (the IR
 * does not tell; orion-cc knows and asks only then), before inlining.
 */
#include <llvm-c/Comdat.h>

#include "orion_pass.h"

int orion_internalize_device(LLVMModuleRef m) {
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    LLVMLinkage l = LLVMGetLinkage(f);
    if (LLVMIsDeclaration(f) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage ||
        l == LLVMAvailableExternallyLinkage || orion_is_kernel(m, f))
      continue;
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMSetVisibility(f, LLVMDefaultVisibility);
    LLVMSetComdat(f, NULL);
    n++;
  }
  return n;
}
