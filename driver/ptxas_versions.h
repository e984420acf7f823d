/* driver/ptxas_versions.h - which versions of each kernel orion-ptxas keeps
 * (ptxas_driver.h steps 3-4), and the occupancy each holds.
 *
 *  - The user's limit: under ptxas --maxrregcount N (-maxrregcount), a clone
 *    K__orion_T whose .maxnreg exceeds N is not assembled when N holds the
 *    original K, i.e. K has no per-entry directive (.maxnreg, .maxntid,
 *    .reqntid, .minnctapersm: ptxas ignores --maxrregcount for those unless
 *    --override-directive-values is given): capped at N it would be the
 *    original.  Its status is "dropped" with the reason.
 *  - Duplicates: a clone whose registers, stack frame, spill stores and
 *    spill loads equal those of K or of an earlier clone of K (text order)
 *    is realised identically ("merged"/"duplicate").  K__orion_split is
 *    never a duplicate.
 *  - No gain: the warps/SM of every realised version come from what ptxas
 *    gave it (registers, shared memory; orion-ra's occupancy model) at its
 *    block size (.reqntid/.maxntid, else the block of K's decision record,
 *    else ORION_DEFAULT_BLOCK).  A cap only lowers registers, so the walk
 *    over K's capped clones from the highest cap down should climb in
 *    occupancy: a clone that holds no more warps than K or a clone with a
 *    higher cap kept before it gains nothing (it spills more for the same
 *    or fewer warps): "dropped" (or "no-gain" when kept under
 *    --orion-no-merge), with the reason.
 *  - The unroll versions K__orion_u4 and K__orion_u8 (ORION_UNROLL_LIST)
 *    are other code, not another cap: equal figures do not make them K,
 *    nor fewer warps useless; neither rule applies to them, and no clone
 *    merges into them.
 */
#ifndef ORION_DRIVER_PTXAS_VERSIONS_H
#define ORION_DRIVER_PTXAS_VERSIONS_H

#include "orion/cubin.h"
#include "ptxas_run.h"

/* The block size K's decision record (its line of m's record table) says Orion
 * assumed, else ORION_DEFAULT_BLOCK.  Requires m scanned. */
int optx_record_block(const ptx_module *m, const char *kernel);

/* Write bytes as version tag's dsm figure in kernel's record, in the record
 * table the cubin holds (orion/record.h: the digits are replaced in place,
 * so nothing moves); 1 done, 0 when the cubin has no table, the table no
 * such record or the record no figure for tag, or bytes has more digits. */
int optx_record_set_dsm(orion_cubin *c, const char *kernel, const char *tag, unsigned bytes);

/* Warps/SM of a build with figures f at block threads on sm (orion-ra's
 * occupancy model); -1 when sm or block is unknown. */
int optx_warps_at(int sm, const ptxas_figures *f, int block);

/* The SM number of c's --gpu-name, 0 if none or unknown. */
int optx_cmd_sm(const optx_cmd *c);

/* The user's limit: sets edits[i].drop for every clone of m the limit rules
 * out and why[i] (malloc'd) to the reason; edits and why have
 * m->n_entries elements, zeroed by the caller.  Returns how many. */
size_t optx_limit_drops(const optx_cmd *c, const ptx_module *m, ptx_edit *edits, char **why);

/* Under -c (relocatable code), each .func is compiled once at its own
 * register count and nvlink refuses an entry whose cap is below a callee's
 * ("entry function with max regcount of 32 calls function with regcount of
 * 224").  Sets edits[i].drop, with the reason, for each capped clone of m
 * that reaches a .func defined in m with more registers than its cap
 * (counts read from cubin, the assembled module).  Callees of other
 * translation units are not known here.  Returns how many. */
size_t optx_rdc_drops(const optx_cmd *c, const ptx_module *m, const char *cubin, optx_result *res,
                      ptx_edit *edits);

/* res->e from m and ptxas's figures: names, tags, bounds, block, figures,
 * duplicates.  why (from optx_limit_drops, may be NULL) moves into the
 * entries' reasons. */
void optx_build_entries(const ptx_module *m, const ptxas_info *info, char **why,
                        optx_result *res);

/* Warps of every realised entry of res on sm, then the no-gain walk.
 * Returns the number of clones that gain nothing. */
size_t optx_mark_no_gain(int sm, optx_result *res);

/* "kept", "merged", "dropped", "duplicate", "no-gain" or "not-compiled". */
const char *optx_entry_status(const optx_entry *e);

#endif /* ORION_DRIVER_PTXAS_VERSIONS_H */
