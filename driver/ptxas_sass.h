/* driver/ptxas_sass.h - orion-ptxas's SASS placement of a spilling
 * version (ptxas_sass.c), shared with the spill fallback (ptxas_spill.c).
 * Not a public interface. */
#ifndef ORION_DRIVER_PTXAS_SASS_H
#define ORION_DRIVER_PTXAS_SASS_H

#include "orion/cubin.h"
#include "orion/sassrw.h"
#include "ptxas_run.h"

/* Does policy p try the SASS rewrite (every policy but off and pragma)? */
static inline int optx_tries_sass(optx_spill_policy p) {
  return p != OPTX_SPILL_OFF && p != OPTX_SPILL_PRAGMA;
}

/* The first-run cubin, read and analysed once for every entry. */
typedef struct optx_sass_trial {
  const char *path;
  int tried;
  orion_cubin *cubin;
  orion_sassrw *an;
  char err[300];
} optx_sass_trial;

/* requires t from a {path, 0, NULL, NULL, ""} initialiser. */
void optx_sass_trial_free(optx_sass_trial *t);

/* Whether entry e's region goes to dynamic shared memory: policy dynamic
 * and a register-capped clone other than a split entry. */
int optx_sass_dynamic_entry(const optx_cmd *c, const optx_entry *e);

/* "occupancy loss (...; what)" when the model gives the build with figures
 * `after` fewer warps/SM than `before` at block threads, else NULL. */
char *optx_occupancy_loss(int sm, const ptxas_figures *before, const ptxas_figures *after, int block,
                          const char *what);

/* The single decision point for the SASS path (ptxas_sass.c): 1 when the
 * rewrite takes entry e (of module m, its PTX entry pe) at block threads,
 * tried on a copy of t's cubin; -1 when the placement model of policies
 * auto and smem keeps e's frame in local memory; else 0.  Not 1: *why
 * (allocated) says why; *need_reg 1 when partial placement was refused
 * only for want of a base register. */
int optx_sass_available(const optx_cmd *c, const ptx_module *m, const ptx_entry *pe, optx_entry *e,
                        int block, optx_sass_trial *t, char **why, int *need_reg);

/* Entry e's spill path and its reason (taken over). */
void optx_spill_set_path(optx_entry *e, const char *path, char *reason);

#endif /* ORION_DRIVER_PTXAS_SASS_H */
