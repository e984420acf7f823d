/* driver/ptxas_hide.h - versions left out by renaming them in the cubin
 * instead of assembling the module again (ptxas_hide.c says why that is
 * the same to the runtime). */
#ifndef ORION_DRIVER_PTXAS_HIDE_H
#define ORION_DRIVER_PTXAS_HIDE_H
#include "ptx.h"
#include "ptxas_run.h"
/* Rename every entry i of m with ed[i].drop (clones merged after the first
 * run, none limit-dropped) in cubin, the first run's output, to a name no
 * decision record lists, and set res->e[i].merged.  Requires m the PTX
 * that cubin was assembled from.  Returns 1 with *ptx (initialised here)
 * the PTX that gives the renamed cubin; 0, with cubin and res unchanged,
 * under -c or when any rename or the write fails. */
int optx_hide_left_out(const optx_cmd *c, const ptx_module *m, const ptx_edit *ed,
                       const char *cubin, optx_result *res, orion_strbuf *ptx);
#endif /* ORION_DRIVER_PTXAS_HIDE_H */
