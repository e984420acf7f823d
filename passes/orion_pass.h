/* orion_pass.h - private interface between OrionPass's C files and the C++
 * shim (plugin.cpp).  Nothing here is public API.
 *
 * Ownership: every LLVM handle belongs to the module being processed; the
 * structures below own only the plain C memory they point to and are freed
 * by their *_free functions.
 */
#ifndef ORION_PASS_H
#define ORION_PASS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>

#include "orion/select.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options (plugin.cpp fills them from cl::opt and the environment) --- */
typedef struct orion_pass_options {
  const char *report_path; /* JSON Lines appended here; "-" = stderr; NULL = none */
  int sm;                  /* 0 = from the kernels' "target-cpu" */
  int max_versions;        /* 0 = ORION_MAX_VERSIONS */
  int block;               /* 0 = from launch bounds, else ORION_DEFAULT_BLOCK */
  int versions_enabled;    /* 0: analyse and report only, emit no clones */
  int maxrregcount;        /* ptxas -maxrregcount the build uses, 0 = none */
} orion_pass_options;

/* Entry point for the device side; returns 1 if the module changed. */
int orion_run_device_module(LLVMModuleRef m, const orion_pass_options *opt);
/* Entry point for the host side (x86-64 modules, host.c): launch calls go
 * to the runtime.  phases: ORION_HOST_EARLY (at PipelineStart),
 * ORION_HOST_LATE (at OptimizerLast), or both (opt -passes=orion).  Uses
 * opt->versions_enabled only (0: remarks, no change).  Returns 1 if the
 * module changed. */
#define ORION_HOST_EARLY 1
#define ORION_HOST_LATE 2
int orion_run_host_module(LLVMModuleRef m, const orion_pass_options *opt, int phases);

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

/* ---- max-live (maxlive.c) ---------------------------------------------- */
typedef struct orion_maxlive_ctx orion_maxlive_ctx;
orion_maxlive_ctx *orion_maxlive_new(LLVMModuleRef m);
void orion_maxlive_free(orion_maxlive_ctx *ctx);
/* Max-live of f in 32-bit register units: the largest total width of SSA
 * values live at one program point, where a call to a defined function adds
 * that callee's max-live to the values live across the call.  Memoised. */
int orion_maxlive(orion_maxlive_ctx *ctx, LLVMValueRef f);
/* Width of a value of type t in 32-bit registers (i1 -> 0: predicates). */
int orion_type_regs(LLVMTargetDataRef td, LLVMTypeRef t);

/* ---- launch bounds and limits (bounds.c) ------------------------------- */
/* Requires f a function of m.  A kernel: a definition with the ptx_kernel
 * calling convention or the old "kernel" annotation. */
int orion_is_kernel(LLVMModuleRef m, LLVMValueRef f);
/* Threads per block from f's reqntid/maxntid (product), 0 if none. */
int orion_launch_block(LLVMModuleRef m, LLVMValueRef f);
/* The string attribute key of function f, or NULL (owned by LLVM). */
const char *orion_str_attr(LLVMValueRef f, const char *key);
/* The user's register limits on kernel f (__maxnreg__, launch bounds) and
 * ptxas's maxrregcount (0: none), for orion_reg_ceiling (orion/select.h). */
void orion_kernel_reg_limits(LLVMModuleRef m, LLVMValueRef f, int maxrregcount,
                             orion_reg_limits *out);
/* Each function annotated "orion.maxnreg" with N (orion/nvcc_compat.h's
 * __maxnreg__(N)) gets "nvvm.maxnreg"="N" unless it has one.  Returns how
 * many were set. */
int orion_maxnreg_annotations(LLVMModuleRef m);
/* 0 when f was compiled without optimisation (optnone: clang -O0). */
int orion_is_optimised(LLVMValueRef f);
/* Why a kernel is left alone at -O0 (remark and report note). */
#define ORION_O0_WHY                                                             \
  "the kernel is not optimised (-O0): its IR says nothing about the registers " \
  "ptxas will use; Orion versions kernels at -O1 and above"

/* ---- report (report.c) -------------------------------------------------- */
typedef struct orion_kernel_report {
  const char *module;
  const char *kernel;
  int sm;
  int max_live;
  orion_features features;
  orion_selection sel;
  const char *record;
  int n_clones;        /* register-capped clones emitted */
  const char *note;    /* why versions were limited, or NULL */
  int hidden_params;   /* 0 or ORION_SPLIT_PARAMS (orion/rt.h) */
  const char *split_note; /* why the kernel is not split, or NULL */
  int reg_limit;       /* the user's register ceiling (bounds.c), 0 if none */
  const char *limit_note; /* what the ceiling did, or NULL */
} orion_kernel_report;

/* Append one JSON object on one line to the report file (see options). */
int orion_report_write(const char *path, const orion_kernel_report *r);

/* ---- helpers the C API lacks (plugin.cpp) ------------------------------ */
/* Clone function f into its module under `name`, with n_extra parameters
 * of types extra[] appended to f's (0: the same signature); attributes,
 * parameter attributes, calling convention, metadata and linkage are f's.
 * Returns the clone. */
LLVMValueRef orion_shim_clone_function(LLVMValueRef f, const char *name, LLVMTypeRef *extra,
                                       unsigned n_extra);
/* Number of natural loops in f (0 for a declaration). */
int orion_shim_count_loops(LLVMValueRef f);
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
#endif /* ORION_PASS_H */
