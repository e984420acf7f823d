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

#include "kernel_features.h"
#include "orion/select.h"
#include "report.h"
#include "shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options (plugin.cpp fills them from cl::opt and the environment) --- */
typedef struct orion_pass_options {
  const char *report_path; /* JSON Lines appended here; "-" = stderr; NULL = none */
  int sm;                  /* 0 = from the kernels' "target-cpu" */
  int max_versions;        /* 0 = ORION_MAX_VERSIONS */
  int cap_floor_pct;       /* least cap in % of max-live (orion_select_input) */
  int block;               /* 0 = from launch bounds, else ORION_DEFAULT_BLOCK */
  int versions_enabled;    /* 0: analyse and report only, emit no clones */
  int maxrregcount;        /* ptxas -maxrregcount the build uses, 0 = none */
  int split;               /* emit the split clone and parameters (ORION_SPLIT=1 needs them) */
} orion_pass_options;

/* Device arrays aligned as nvcc aligns them (align.c): every sized stack
 * array of an optimised function and every __shared__ variable defined in
 * m gets the largest power of two, at most 16, dividing its size, when that
 * is more than it has.  Requires m an NVPTX module.  Returns how many
 * alignments were raised. */
int orion_align_arrays(LLVMModuleRef m);

/* atomicCAS relaxed at device scope as CUDA defines it (atomics.c): the
 * seq_cst cmpxchg in each of clang's atomicCAS wrappers becomes monotonic,
 * syncscope("device").  Requires m an NVPTX module before inlining.
 * Returns how many were relaxed. */
int orion_relax_atomic_cas(LLVMModuleRef m);

/* pow of constants folded where the result is exact (fold_pow.c): each
 * call of clang's CUDA pow wrappers or libdevice's __nv_pow/__nv_powf with
 * two constant arguments whose result is exact in the type (y = 0, or x =
 * +-2^k and y an integer) becomes that constant.  Requires m an NVPTX
 * module before inlining.  Returns how many calls were folded. */
int orion_fold_pow(LLVMModuleRef m);

/* Device functions private to their module, as nvcc's whole-program compile
 * treats them (internalize.c): every defined function but the kernels gets
 * internal linkage.  Requires m an NVPTX module of a build without
 * -fgpu-rdc, before inlining.  Returns how many changed. */
int orion_internalize_device(LLVMModuleRef m);

/* Entry point for the device side; returns 1 if the module changed. */
int orion_run_device_module(LLVMModuleRef m, const orion_pass_options *opt);
/* Entry point for the host side (x86-64 modules, host.c): launch calls go
 * to the runtime.  phases: ORION_HOST_EARLY (at PipelineStart),
 * ORION_HOST_LATE (at OptimizerLast), or both (opt -passes=orion).  Uses
 * opt->versions_enabled only (0: remarks, no change).  Returns 1 if the
 * module changed. */
#define ORION_HOST_EARLY 1
#define ORION_HOST_LATE 2
#define ORION_DEVICE_MID 4 /* device modules at OptimizerEarly: unroll.c */
int orion_run_host_module(LLVMModuleRef m, const orion_pass_options *opt, int phases);

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
/* Set f's string attribute key to val, or remove it (val NULL). */
void orion_set_str_attr(LLVMValueRef f, const char *key, const char *val);
/* The kernels of m, in module order, collected before a caller adds
 * clones to the function list (malloc'd, *n of them; NULL when out of
 * memory). */
LLVMValueRef *orion_module_kernels(LLVMModuleRef m, size_t *n);
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

/* ---- the unroll version (unroll.c) -------------------------------------- */
/* Innermost loops of at most this many IR instructions are unrolled in the
 * unroll version (clang unrolls such loops 2x or not at all).  The runtime
 * only keeps a version that wins, so the limit trades compile time for the
 * chance of a win: on the third-party corpus 40 took the loops nvcc unrolls
 * 4x, and 150 also loops of 100-150 instructions whose u4 runs 8-17 %
 * faster (benchmarks/corpus/results/unroll150-h100). */
#define ORION_UNROLL_MAX_INSTS 150
/* A clone that grows by more than this many IR instructions is made again
 * with loops of at most ORION_UNROLL_SMALL_INSTS: ptxas's time grows with
 * the clone (wsm5's u4 at 150 added 1641 instructions and took its
 * compile to 2x clang's; at 40, 1.6x). */
#define ORION_UNROLL_MAX_GROWTH 1000
#define ORION_UNROLL_SMALL_INSTS 40
/* Under a bare `#pragma unroll` clang could not apply, loops up to four
 * times the limit in force. */
#define ORION_UNROLL_ASKED_FACTOR 4
/* Early phase: every optimised kernel of m with a small innermost loop gets
 * its unroll clone `<kernel>__orion_u4`, the loops marked.  Requires m an
 * NVPTX module after the simplification pipeline, before the optimisation
 * pipeline's loop unroller.  Returns how many clones were made. */
int orion_unroll_clones(LLVMModuleRef m);
/* Why function f cannot take the split parameters (into buf), or NULL. */
typedef const char *orion_split_check(LLVMModuleRef m, LLVMValueRef f, char *buf, size_t n);
/* Late phase: kernel k's unroll clones (if any) become versions u4 and u8
 * of rep->sel when take is set, the unroller changed them and, where
 * split_ok is not NULL (the kernel takes split parameters), split_ok finds
 * nothing against the clone (its inlining may differ from k's); else they
 * are deleted.  Returns how many versions were added. */
int orion_unroll_adopt(LLVMModuleRef m, LLVMValueRef k, const char *kernel, int take,
                       orion_split_check *split_ok, orion_maxlive_ctx *ml,
                       orion_kernel_report *rep);
/* 1 when f is an unroll clone not adopted yet: its kernel's
 * orion_unroll_adopt adopts or deletes it, so it is no kernel to process. */
int orion_unroll_pending(LLVMValueRef f);
/* Late phase, after every kernel: delete the unroll clones no kernel
 * adopted.  Returns how many. */
int orion_unroll_sweep(LLVMModuleRef m);

#ifdef __cplusplus
}
#endif
#endif /* ORION_PASS_H */
