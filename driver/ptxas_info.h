/* driver/ptxas_info.h - the figures `ptxas -v` prints, per function.
 *
 * Recognised lines (ptxas 12.x/13.x; unknown lines are ignored):
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
 *   ptxas info    : Function properties for NAME
 *       N bytes stack frame, N bytes spill stores, N bytes spill loads
 *   ptxas info    : Used N registers, used N barriers, N bytes smem,
 *                   N bytes cmem[B], N bytes cumulative stack size
 * "Used" lines belong to the entry named by the last "Compiling entry
 * function" line; "Function properties" belong to the function they name
 * (entries and non-inlined device functions alike).  Every comma-separated
 * item of a "Used" line is optional.
 *
 * ptxas_filter_verbose removes exactly what -v adds to ptxas's stderr (the
 * "ptxas info" lines and the indented line after "Function properties"), so
 * warnings and errors pass through unchanged.
 */
#ifndef ORION_DRIVER_PTXAS_INFO_H
#define ORION_DRIVER_PTXAS_INFO_H

#include <stddef.h>

#include "util.h"

typedef struct ptxas_figures {
  char *name;
  int is_entry;        /* seen in "Compiling entry function" */
  int has_used;        /* a "Used ..." line was seen */
  int has_props;       /* a "Function properties" figure line was seen */
  int has_cmem;        /* ptxas printed cmem (ptxas 13 no longer does) */
  int registers;
  long stack_frame, spill_stores, spill_loads;
  long smem, cmem, barriers, cumulative_stack;
} ptxas_figures;

typedef struct ptxas_info {
  ptxas_figures *f;
  size_t n;
} ptxas_info;

void ptxas_info_parse(const char *text, size_t len, ptxas_info *out);
void ptxas_info_free(ptxas_info *info);
const ptxas_figures *ptxas_info_find(const ptxas_info *info, const char *name);

void ptxas_filter_verbose(const char *text, size_t len, orion_strbuf *out);

#endif /* ORION_DRIVER_PTXAS_INFO_H */
