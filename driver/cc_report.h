/* driver/cc_report.h - orion-cc --orion-report: join what OrionPass decided
 * with what ptxas made of it.
 *
 * Inputs, all in one directory (orion-cc's private temp dir):
 *   pass.jsonl     OrionPass's JSON Lines (env ORION_CC_REPORT), one object per
 *                  kernel and architecture (fields in passes/report.c:
 *                  kernel, sm, max_live, threshold, block, block_known,
 *                  direction, versions[{tag, role, max_regs, target_warps,
 *                  pad}], ...).  orion-cc's PTX-level path writes the same
 *                  form.
 *   ptxas-*.json   one orion-ptxas build report per ptxas run
 *                  (ptxas_driver.h: gpu, entries[{name, kernel, tag,
 *                  registers, stack_frame, spill_*, block, warps, reason,
 *                  status, merged_into}]).
 * Output: with json_file == NULL, a table per kernel on stderr (per
 * version: the model's warps/SM and the warps/SM of ptxas's build);
 * otherwise
 * one JSON document {"tool":"orion-cc","kernels":[...],"builds":[...]}
 * written atomically to json_file.  Missing or unreadable inputs yield a
 * note, not a failure; returns 0, or 1 if json_file cannot be written.
 */
#ifndef ORION_DRIVER_CC_REPORT_H
#define ORION_DRIVER_CC_REPORT_H

int cc_report_emit(const char *dir, const char *json_file);

#endif /* ORION_DRIVER_CC_REPORT_H */
