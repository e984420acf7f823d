/* report.c - OrionPass's per-kernel decision report as JSON Lines.
 *
 * One JSON object per kernel, on one line, appended to the report file with
 * a single write(2) on an O_APPEND descriptor, so the concurrent device
 * compilations clang runs (one per --cuda-gpu-arch) can share one file
 * without interleaving lines.  Path "-" means stderr.  Fields: module,
 * kernel, sm, max_live, threshold, block, block_known, direction,
 * original_warps, max_warps, features{...} (kernel_features.h: counts, loads
 * and stores per inferred address space), versions[{tag, role, max_regs,
 * target_warps, pad}], clones, record, note, reg_limit (the user's register
 * ceiling, null if none), limit_note (what it did), hidden_params (0 or 6: the
 * split parameters of orion/rt.h), split_note (why not split, or null).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orion/strbuf.h"
#include "report.h"

int orion_report_write(const char *path, const orion_kernel_report *r) {
  if (!path || !*path)
    return 0;
  orion_strbuf b;
  orion_sb_init(&b);
  const orion_selection *s = &r->sel;
  orion_sb_adds(&b, "{\"module\":");
  orion_sb_json(&b, r->module);
  orion_sb_adds(&b, ",\"kernel\":");
  orion_sb_json(&b, r->kernel);
  orion_sb_addf(&b, ",\"sm\":%d,\"max_live\":%d,\"threshold\":%d,\"block\":%d,"
              "\"block_known\":%s,\"direction\":\"%s\",\"original_warps\":%d,"
              "\"max_warps\":%d,\"features\":{",
          r->sm, r->max_live, s->threshold, s->block, s->block_known ? "true" : "false",
          s->n_versions ? orion_direction_name(s->direction) : "none",
          s->original_warps, s->max_warps);
  const orion_features *f = &r->features;
#define ORION_X(fld, nm) orion_sb_addf(&b, "\"%s\":%ld,", nm, f->fld);
  ORION_FEATURE_COUNTS(ORION_X)
#undef ORION_X
  orion_sb_addf(&b, "\"smem_static\":%ld,\"recursive\":%s,\"indirect_calls\":%d},\"versions\":[",
          f->smem_static, f->recursive ? "true" : "false", f->indirect_calls);
  for (int i = 0; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    orion_sb_addf(&b, "%s{\"tag\":\"%s\",\"role\":\"%s\",\"max_regs\":%d,\"target_warps\":%d,\"pad\":%s}",
            i ? "," : "", v->tag, orion_role_name(v->role), v->max_regs, v->target_warps,
            v->is_pad ? "true" : "false");
  }
  orion_sb_addf(&b, "],\"clones\":%d,\"record\":", r->n_clones);
  if (r->record)
    orion_sb_json(&b, r->record);
  else
    orion_sb_adds(&b, "null");
  orion_sb_adds(&b, ",\"note\":");
  if (r->note)
    orion_sb_json(&b, r->note);
  else
    orion_sb_adds(&b, "null");
  orion_sb_adds(&b, ",\"reg_limit\":");
  if (r->reg_limit)
    orion_sb_addf(&b, "%d,\"limit_note\":", r->reg_limit);
  else
    orion_sb_adds(&b, "null,\"limit_note\":");
  if (r->limit_note)
    orion_sb_json(&b, r->limit_note);
  else
    orion_sb_adds(&b, "null");
  orion_sb_addf(&b, ",\"hidden_params\":%d,\"split_note\":", r->hidden_params);
  if (r->split_note)
    orion_sb_json(&b, r->split_note);
  else
    orion_sb_adds(&b, "null");
  orion_sb_adds(&b, "}\n");
  int rc = 0;
  if (b.oom) {
    rc = -1;
  } else {
    int fd = strcmp(path, "-") == 0
                 ? STDERR_FILENO
                 : open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
      fprintf(stderr, "orion: warning: cannot open report file '%s': %s\n", path,
              strerror(errno));
      rc = -1;
    } else {
      if (write(fd, b.p, b.len) != (ssize_t)b.len) {
        fprintf(stderr, "orion: warning: short write to report file '%s'\n", path);
        rc = -1;
      }
      if (fd != STDERR_FILENO)
        close(fd);
    }
  }
  orion_sb_free(&b);
  return rc;
}
