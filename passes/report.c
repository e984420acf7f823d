/* report.c - OrionPass's per-kernel decision report as JSON Lines.
 *
 * One JSON object per kernel, on one line, appended to the report file with
 * a single write(2) on an O_APPEND descriptor, so the concurrent device
 * compilations clang runs (one per --cuda-gpu-arch) can share one file
 * without interleaving lines.  Path "-" means stderr.  Fields: module,
 * kernel, sm, max_live, threshold, block, block_known, direction,
 * original_warps, max_warps, features{...}, versions[{tag, role, max_regs,
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

#include "orion_pass.h"

typedef struct sbuf {
  char *p;
  size_t n, cap;
  int oom;
} sbuf;

static void sb_putf(sbuf *b, const char *fmt, ...) {
  if (b->oom)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (w < 0) {
      b->oom = 1;
      return;
    }
    if ((size_t)w < b->cap - b->n) {
      b->n += (size_t)w;
      return;
    }
    size_t ncap = (b->cap + (size_t)w + 1) * 2;
    char *np = realloc(b->p, ncap);
    if (!np) {
      b->oom = 1;
      return;
    }
    b->p = np;
    b->cap = ncap;
  }
}

static void sb_str(sbuf *b, const char *s) {
  sb_putf(b, "\"");
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sb_putf(b, "\\%c", c);
    else if (c < 0x20)
      sb_putf(b, "\\u%04x", c);
    else
      sb_putf(b, "%c", c);
  }
  sb_putf(b, "\"");
}

int orion_report_write(const char *path, const orion_kernel_report *r) {
  if (!path || !*path)
    return 0;
  sbuf b = {malloc(1024), 0, 1024, 0};
  if (!b.p)
    return -1;
  const orion_selection *s = &r->sel;
  sb_putf(&b, "{\"module\":");
  sb_str(&b, r->module);
  sb_putf(&b, ",\"kernel\":");
  sb_str(&b, r->kernel);
  sb_putf(&b, ",\"sm\":%d,\"max_live\":%d,\"threshold\":%d,\"block\":%d,"
              "\"block_known\":%s,\"direction\":\"%s\",\"original_warps\":%d,"
              "\"max_warps\":%d,\"features\":{",
          r->sm, r->max_live, s->threshold, s->block, s->block_known ? "true" : "false",
          s->n_versions ? orion_direction_name(s->direction) : "none",
          s->original_warps, s->max_warps);
  const orion_features *f = &r->features;
#define ORION_X(fld, nm) sb_putf(&b, "\"%s\":%ld,", nm, f->fld);
  ORION_FEATURE_COUNTS(ORION_X)
#undef ORION_X
  sb_putf(&b, "\"smem_static\":%ld,\"recursive\":%s,\"indirect_calls\":%d},\"versions\":[",
          f->smem_static, f->recursive ? "true" : "false", f->indirect_calls);
  for (int i = 0; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    sb_putf(&b, "%s{\"tag\":\"%s\",\"role\":\"%s\",\"max_regs\":%d,\"target_warps\":%d,\"pad\":%s}",
            i ? "," : "", v->tag, orion_role_name(v->role), v->max_regs, v->target_warps,
            v->is_pad ? "true" : "false");
  }
  sb_putf(&b, "],\"clones\":%d,\"record\":", r->n_clones);
  if (r->record)
    sb_str(&b, r->record);
  else
    sb_putf(&b, "null");
  sb_putf(&b, ",\"note\":");
  if (r->note)
    sb_str(&b, r->note);
  else
    sb_putf(&b, "null");
  sb_putf(&b, ",\"reg_limit\":");
  if (r->reg_limit)
    sb_putf(&b, "%d,\"limit_note\":", r->reg_limit);
  else
    sb_putf(&b, "null,\"limit_note\":");
  if (r->limit_note)
    sb_str(&b, r->limit_note);
  else
    sb_putf(&b, "null");
  sb_putf(&b, ",\"hidden_params\":%d,\"split_note\":", r->hidden_params);
  if (r->split_note)
    sb_str(&b, r->split_note);
  else
    sb_putf(&b, "null");
  sb_putf(&b, "}\n");
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
      if (write(fd, b.p, b.n) != (ssize_t)b.n) {
        fprintf(stderr, "orion: warning: short write to report file '%s'\n", path);
        rc = -1;
      }
      if (fd != STDERR_FILENO)
        close(fd);
    }
  }
  free(b.p);
  return rc;
}
