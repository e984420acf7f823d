/* shim.h - the helpers the LLVM-C API lacks, written in C++ in the plugin
 * shim (plugin.cpp) for OrionPass's C files.  Private to OrionPass.
 */
#ifndef ORION_PASS_SHIM_H
#define ORION_PASS_SHIM_H

#include <llvm-c/Core.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- helpers the C API lacks (plugin.cpp) ------------------------------ */
/* Clone function f into its module under `name`, with n_extra parameters
 * of types extra[] appended to f's (0: the same signature); attributes,
 * parameter attributes, calling convention, metadata and linkage are f's.
 * Returns the clone. */
LLVMValueRef orion_shim_clone_function(LLVMValueRef f, const char *name, LLVMTypeRef *extra,
                                       unsigned n_extra);
/* Number of natural loops in f (0 for a declaration). */
int orion_shim_count_loops(LLVMValueRef f);
/* Unroll by `count` each innermost natural loop of f that has no unroll
 * pragma of the user's deciding it and at most max_insts instructions
 * (max_insts_asked under a bare `#pragma unroll`) (LLVM's loop unroller,
 * as for `#pragma unroll count`, with the target's cost model); a loop the
 * unroller refuses is left as it was, without a trace of the request.
 * Requires f in the module of OrionPass's early device phase.  Returns how
 * many loops were unrolled. */
int orion_shim_unroll_loops(LLVMValueRef f, int count, int max_insts, int max_insts_asked);
/* Loop depth of block bb in its function (0 = in no natural loop). */
int orion_shim_loop_depth(LLVMBasicBlockRef bb);
/* "file:line" of instruction inst's outermost inlined-at debug location,
 * into buf (capacity n); returns 0, leaving buf alone, when inst has none. */
int orion_shim_site_location(LLVMValueRef inst, char *buf, size_t n);
/* Optimisation remark (pass "orion") at inst's outermost debug location. */
void orion_shim_remark_at(LLVMValueRef inst, const char *name, const char *msg);
/* Emit an optimisation remark under pass name "orion" (-Rpass=orion,
 * -pass-remarks=orion); analysis=1 makes it an analysis remark
 * (-Rpass-analysis=orion). */
void orion_shim_remark(LLVMValueRef f, const char *name, const char *msg, int analysis);

#ifdef __cplusplus
}
#endif

#endif /* ORION_PASS_SHIM_H */
