/* report.h - one kernel's decision as the pass reports it (report.c): a
 * JSON object on one line, appended to the report file.  Private to
 * OrionPass.
 */
#ifndef ORION_PASS_REPORT_H
#define ORION_PASS_REPORT_H

#include "kernel_features.h"
#include "orion/select.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* ORION_PASS_REPORT_H */
