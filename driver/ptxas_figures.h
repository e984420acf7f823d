/* driver/ptxas_figures.h - ptxas -v's per-function figures read from the
 * cubin of a run without -v (ptxas_figures.c states the mapping), so that
 * orion-ptxas's big first run need not pay for -v.
 */
#ifndef ORION_DRIVER_PTXAS_FIGURES_H
#define ORION_DRIVER_PTXAS_FIGURES_H

#include "ptxas_info.h"
#include "ptxas_run.h"
#include "util.h"

/* requires cubin a file ptxas wrote.  Fills *out with the figures of every
 * function of the cubin (spill bytes 0) and pushes onto *need the entries
 * with local memory, or a shared section of a layout it does not know,
 * whose spill bytes or smem only ptxas -v gives.  0, or -1 when
 * the cubin cannot be read (*out is then empty). */
int optx_figures_from_cubin(const char *cubin, ptxas_info *out, strvec *need);

/* requires into from optx_figures_from_cubin, verbose parsed from ptxas -v
 * on the entries names.  Their figures in into become verbose's. */
void optx_figures_merge(ptxas_info *into, const ptxas_info *verbose, const strvec *names);

/* requires cubin the output of ptxas (without -v) on input, with c's
 * options.  *out: the figures ptxas -v would give (cubin, then ptxas -v
 * --entry on the entries with local memory; if the cubin cannot be read,
 * ptxas -v on everything; if that -v run fails, those entries count as not
 * compiled). */
void optx_figures(const optx_cmd *c, const char *real, const char *input, const char *cubin,
                  ptxas_info *out);

#endif /* ORION_DRIVER_PTXAS_FIGURES_H */
