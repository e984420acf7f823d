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
/* X(field, json name).  loads/stores: all of them; <space>_loads/_stores:
 * the same split by the address space addrspace.c infers for the pointer
 * (they sum to loads and stores); atomics (atomicrmw, cmpxchg) are counted
 * apart, in no space. */
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
  X(global_loads, "global_loads")              \
  X(global_stores, "global_stores")            \
  X(shared_loads, "shared_loads")              \
  X(shared_stores, "shared_stores")            \
  X(local_loads, "local_loads")                \
  X(local_stores, "local_stores")              \
  X(const_loads, "const_loads")                \
  X(const_stores, "const_stores")              \
  X(generic_loads, "generic_loads")            \
  X(generic_stores, "generic_stores")          \
  X(atomics, "atomics")

typedef struct orion_features {
#define ORION_X(f, n) long f;
  ORION_FEATURE_COUNTS(ORION_X)
#undef ORION_X
  long smem_static;   /* bytes of addrspace(3) globals reachable from the kernel */
  int recursive;      /* the call graph below the kernel has a cycle */
  int indirect_calls; /* calls through pointers */
  int reads_smem_size; /* reads %total_smem_size or %dynamic_smem_size (asm or intrinsic) */
} orion_features;

/* The address space ptr points into, inferred from its origin inside
 * kernel k (addrspace.c): 0 generic, 1 global, 3 shared, 4 constant (and
 * the kernel's by-value parameters), 5 local. */
unsigned orion_pointer_space(LLVMValueRef k, LLVMValueRef ptr);

/* Features of kernel k including every function it calls (transitively,
 * each callee counted once). */
void orion_compute_features(LLVMModuleRef m, LLVMValueRef k, orion_features *out);

#ifdef __cplusplus
}
#endif

#endif /* ORION_PASS_KERNEL_FEATURES_H */
