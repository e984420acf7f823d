/* driver/ptxas_spill.h - orion-ptxas's spill fallback (the algorithm is in
 * ptxas_spill.c's opening comment): what happens to a version that spills or
 * keeps a stack frame in local memory. */
#ifndef ORION_DRIVER_PTXAS_SPILL_H
#define ORION_DRIVER_PTXAS_SPILL_H

#include "ptxas_run.h"

int optx_spill_policy_parse(const char *s); /* -1 if unknown */
const char *optx_spill_policy_name(optx_spill_policy p);
/* Decide the spill path of every kept, realised entry of res (m: the input
 * module) and fill edits (m->n_entries, zeroed by the caller) with the
 * pragma and .maxntid of the versions that take the smem-pragma path; those
 * entries' figures become the pragma build's (the originals go to
 * `before`).  Runs ptxas -v --entry ... on the candidates.  Returns the
 * number of versions that take the pragma path. */
int optx_spill_fallback(const optx_cmd *c, const char *real, const ptx_module *m,
                        const char *cubin, optx_result *res, ptx_edit *edits);
/* The SASS path on the final cubin (ptxas_sass.c; path cubin, rewritten in place,
 * atomically): every entry whose spill_path is "sass" is rewritten; one
 * the rewrite now refuses becomes "kept" with the reason.  Returns 0, or
 * -1 with an error printed when the cubin cannot be read or written. */
int optx_spill_apply_sass(const optx_cmd *c, const ptx_module *m, const char *cubin,
                          optx_result *res);
/* Undo the pragma path of every entry (the final assembly failed). */
void optx_spill_revert(optx_result *res, const char *why);

#endif /* ORION_DRIVER_PTXAS_SPILL_H */
