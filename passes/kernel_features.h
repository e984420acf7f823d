/* kernel_features.h - the static features of a kernel (features.c): counts of
 * its instructions by kind and memory operations by address space, with
 * every function it calls, and its static shared memory.  Private to
 * OrionPass.
 */
#ifndef ORION_PASS_KERNEL_FEATURES_H
#define ORION_PASS_KERNEL_FEATURES_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- static features (features.c) ------------------------------------- */
/* X(field, json name) */
#define ORION_FEATURE_COUNTS(X)                \
  X(instructions, "instructions")              \
  X(branches, "branches")                      \
  X(loads, "loads")                            \
  X(stores, "stores")                          \
  X(int_ops, "int_ops")                        \
  X(float_ops, "float_ops")                    \
  X(loops, "loops")                            \
  X(barriers, "barriers")                      \
  X(calls, "calls")                            \
  X(global_ops, "global_mem_ops")              \
  X(shared_ops, "shared_mem_ops")              \
  X(local_ops, "local_mem_ops")                \
  X(const_ops, "const_mem_ops")                \
  X(generic_ops, "generic_mem_ops")            \
  X(atomics, "atomics")

typedef struct orion_features {
#define ORION_X(f, n) long f;
  ORION_FEATURE_COUNTS(ORION_X)
#undef ORION_X
  long smem_static;   /* bytes of addrspace(3) globals reachable from the kernel */
  int recursive;      /* the call graph below the kernel has a cycle */
  int indirect_calls; /* calls through pointers */
} orion_features;

/* Features of kernel k including every function it calls (transitively,
 * each callee counted once). */
void orion_compute_features(LLVMModuleRef m, LLVMValueRef k, orion_features *out);

#ifdef __cplusplus
}
#endif

#endif /* ORION_PASS_KERNEL_FEATURES_H */
