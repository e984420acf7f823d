/* unroll.c - the unroll version: a second axis of versions beside the
 * register caps.
 *
 * Unrolling trades registers for instruction-level parallelism: a loop
 * unrolled 4x issues four iterations' loads together and saves three
 * branches per four trips, and keeps more values live.  Clang's NVPTX
 * defaults unroll a small loop with a run-time trip count 2x or not at
 * all where nvcc unrolls it 4x; on the third-party corpus a global
 * partial-unroll threshold took some programs to nvcc's time (one 1.14x
 * -> 1.00x) and made others slower (one 1.23x), so no single choice is
 * right for every kernel.  The runtime measures, so the choice is a
 * version:
 *
 *   1. early (OptimizerEarly: after the simplification pipeline has fully
 *      unrolled the small fixed-trip loops, before the optimisation
 *      pipeline's partial and run-time unroller): for each factor of
 *      ORION_UNROLL_LIST (4 and 8), each optimised kernel is cloned as
 *      `<kernel>__orion_u<factor>` and every innermost loop of the clone
 *      with at most ORION_UNROLL_MAX_INSTS (150) instructions and no
 *      unroll pragma of the user's that decides its unrolling is unrolled
 *      that many times by LLVM's unroller, as `#pragma unroll 4` would
 *      (the shim); a bare `#pragma unroll` still there is one clang could
 *      not apply (a run-time trip count, which nvcc unrolls 4x) and allows
 *      four times the size.  Both factors, because neither wins
 *      everywhere: on the corpus 8x ran 0.60-0.95x the time of 4x on
 *      eleven kernels and 1.03-1.17x on six.  A clone that grew by more than
 *      ORION_UNROLL_MAX_GROWTH instructions is made again with loops of at
 *      most ORION_UNROLL_SMALL_INSTS (ptxas's time grows with it).  A
 *      kernel none of whose loops the unroller took gets no clone.
 *   2. late (with the register-cap versions, orion_pass.c): each clone
 *      becomes a version of the kernel's record, u4 then u8 (role unroll,
 *      no cap, its warps from its own max-live), unless the unroller left
 *      it the size of the original or of the unroll version before it (a
 *      loop it would not unroll: convergent calls, no computable trip
 *      count; a trip count that caps the factor), the kernel takes no
 *      versions (versions off, a kernel left alone), or the kernel takes
 *      split parameters and the clone could not (its own inlining); the
 *      clone is then deleted.  Every clone is either in a record or gone.
 *      Under split parameters orion_pass.c gives an adopted clone the
 *      hidden parameters as it gives the capped ones.
 *
 * The runtime tries the unroll versions first, each against the best so
 * far from the original on, under the same evidence rule as every version
 * (tune.h), and walks the register caps from whichever won.  Requires m
 * an NVPTX module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"
#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion_pass.h"

#define UNROLL_ATTR "orion-unroll-version" /* on the clone until it is adopted or deleted */

static int is_clone_name(LLVMValueRef f) {
  size_t n;
  const char *s = LLVMGetValueName2(f, &n);
  return !s || strstr(s, ORION_CLONE_INFIX) != NULL;
}

static int instructions(LLVMValueRef f) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      n++;
  return n;
}

static const struct {
  const char *tag;
  int factor;
} factors[] = {
#define ORION_X(t, f) {t, f},
    ORION_UNROLL_LIST(ORION_X)
#undef ORION_X
};
#define NFACTORS (sizeof factors / sizeof *factors)

/* k cloned as cname with its small innermost loops unrolled `factor`
 * times (step 1), or NULL when the unroller took none.  requires no
 * function named cname. */
static LLVMValueRef unrolled_clone(LLVMValueRef k, const char *cname, int factor) {
  static const int limits[] = {ORION_UNROLL_MAX_INSTS, ORION_UNROLL_SMALL_INSTS};
  int size = instructions(k);
  for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) {
    LLVMValueRef c = orion_shim_clone_function(k, cname, NULL, 0);
    if (orion_shim_unroll_loops(c, factor, limits[l],
                                ORION_UNROLL_ASKED_FACTOR * limits[l]) == 0) {
      LLVMDeleteFunction(c);
      return NULL;
    }
    if (instructions(c) - size <= ORION_UNROLL_MAX_GROWTH ||
        l + 1 == sizeof limits / sizeof *limits)
      return c;
    LLVMDeleteFunction(c);
  }
  return NULL;
}

int orion_unroll_clones(LLVMModuleRef m) {
  size_t n = 0;
  LLVMValueRef *ks = orion_module_kernels(m, &n); /* before the clones join the list */
  int made = 0;
  for (size_t i = 0; ks && i < n; i++) {
    if (is_clone_name(ks[i]) || !orion_is_optimised(ks[i]))
      continue;
    size_t len;
    const char *name = LLVMGetValueName2(ks[i], &len);
    for (size_t f = 0; f < NFACTORS && len + 32 < ORION_RECORD_KERNEL_MAX; f++) {
      char cname[ORION_RECORD_KERNEL_MAX + 32];
      if (!orion_clone_name(name, factors[f].tag, cname, sizeof cname) ||
          LLVMGetNamedFunction(m, cname))
        continue;
      LLVMValueRef c = unrolled_clone(ks[i], cname, factors[f].factor);
      if (!c)
        break; /* no loop the unroller takes: none for a larger factor either */
      orion_set_str_attr(c, UNROLL_ATTR, "1");
      made++;
    }
  }
  free(ks);
  return made;
}

/* k's unroll clone tagged `tag` made by orion_unroll_clones and not yet
 * adopted, or NULL. */
static LLVMValueRef clone_of(LLVMModuleRef m, const char *kernel, const char *tag) {
  char cname[ORION_RECORD_KERNEL_MAX + 32];
  if (!orion_clone_name(kernel, tag, cname, sizeof cname))
    return NULL;
  LLVMValueRef c = LLVMGetNamedFunction(m, cname);
  return c && orion_str_attr(c, UNROLL_ATTR) ? c : NULL;
}

/* Make clone c, tagged `tag`, a version of rep (step 2). */
static void adopt(LLVMValueRef c, const char *tag, orion_maxlive_ctx *ml,
                  orion_kernel_report *rep) {
  orion_selection *sel = &rep->sel;
  orion_set_str_attr(c, UNROLL_ATTR, NULL);
  orion_version *v = &sel->versions[sel->n_versions++];
  memset(v, 0, sizeof *v);
  snprintf(v->tag, sizeof v->tag, "%s", tag);
  v->role = ORION_ROLE_UNROLL;
  int live = orion_maxlive(ml, c);
  if (rep->reg_limit && live > rep->reg_limit)
    live = rep->reg_limit;
  orion_occ_input in = {live < 255 ? live : 255, sel->block,
                        (unsigned)rep->features.smem_static, 0};
  orion_occ_result r;
  v->target_warps = orion_occupancy(rep->sm, &in, &r) == ORION_OK ? r.warps_per_sm : 0;
  rep->n_clones++;
}

int orion_unroll_adopt(LLVMModuleRef m, LLVMValueRef k, const char *kernel, int take,
                       orion_split_check *split_ok, orion_maxlive_ctx *ml,
                       orion_kernel_report *rep) {
  int adopted = 0, orig = instructions(k), last = orig;
  for (size_t f = 0; f < NFACTORS; f++) {
    LLVMValueRef c = clone_of(m, kernel, factors[f].tag);
    if (!c)
      continue;
    int size = instructions(c);
    char why[256];
    if (!take || rep->sel.n_versions >= ORION_MAX_RECORD_VERSIONS || size == orig ||
        size == last || (split_ok && split_ok(m, c, why, sizeof why))) {
      LLVMDeleteFunction(c);
      continue;
    }
    adopt(c, factors[f].tag, ml, rep);
    last = size;
    adopted++;
  }
  return adopted;
}

int orion_unroll_pending(LLVMValueRef f) { return orion_str_attr(f, UNROLL_ATTR) != NULL; }

int orion_unroll_sweep(LLVMModuleRef m) {
  int n = 0;
  LLVMValueRef f = LLVMGetFirstFunction(m);
  while (f) {
    LLVMValueRef next = LLVMGetNextFunction(f);
    if (orion_str_attr(f, UNROLL_ATTR)) {
      LLVMDeleteFunction(f);
      n++;
    }
    f = next;
  }
  return n;
}
