/* record.c - text codec for the compiler's per-kernel decision record.
 *
 * Format (orion/record.h): "orion1" then ';'-separated key=value fields.
 * The writer emits every field; the reader requires k, sm, dir, ml, thr,
 * blk and v, accepts the rest when present and ignores unknown keys, so
 * newer writers stay readable.  Kernel names are PTX identifiers
 * ([A-Za-z0-9_$.%]) and never contain the separators ';', '=', ',' or ':'.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/record.h"

static const char role_letter[ORION_ROLE_COUNT] = {'o', 'c', 's', 'f', 'u'};

orion_status orion_record_format(const orion_record *rec, char *buf, size_t n) {
  if (!rec || !buf || n == 0)
    return ORION_ERR_INVALID_ARG;
  const orion_selection *s = &rec->sel;
  if (s->n_versions < 1 || s->n_versions > ORION_MAX_RECORD_VERSIONS ||
      strpbrk(rec->kernel, ";=,:") || rec->kernel[0] == '\0') {
    buf[0] = '\0';
    return ORION_ERR_INVALID_ARG;
  }
  size_t off = 0;
  int w = snprintf(buf, n,
                   "orion1;k=%s;sm=%d;dir=%s;ml=%d;thr=%d;blk=%d;bk=%d;"
                   "w0=%d;wmax=%d;v=",
                   rec->kernel, rec->sm,
                   s->direction == ORION_DIR_INCREASING ? "inc" : "dec",
                   rec->max_live, s->threshold, s->block, s->block_known,
                   s->original_warps, s->max_warps);
  if (w < 0 || (size_t)w >= n)
    goto overflow;
  off = (size_t)w;
  for (int i = 0; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    if ((unsigned)v->role >= ORION_ROLE_COUNT)
      goto bad;
    w = snprintf(buf + off, n - off, "%s%s:%c:%d:%d", i ? "," : "", v->tag,
                 role_letter[v->role], v->max_regs, v->target_warps);
    if (w < 0 || (size_t)w >= n - off)
      goto overflow;
    off += (size_t)w;
  }
  w = snprintf(buf + off, n - off, ";np=%d;hp=%d", rec->n_params, rec->hidden_params);
  if (w < 0 || (size_t)w >= n - off)
    goto overflow;
  off += (size_t)w;
  for (int i = 0, first = 1; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    if (v->role == ORION_ROLE_ORIGINAL || v->is_pad)
      continue;
    if (v->warp_smem > 999999u)
      goto bad;
    w = snprintf(buf + off, n - off, "%s%s:%0*u", first ? ";dsm=" : ",", v->tag, ORION_RECORD_DSM_DIGITS,
                 v->warp_smem);
    if (w < 0 || (size_t)w >= n - off)
      goto overflow;
    off += (size_t)w;
    first = 0;
  }
  return ORION_OK;
overflow:
  buf[0] = '\0';
  return ORION_ERR_RANGE;
bad:
  buf[0] = '\0';
  return ORION_ERR_INVALID_ARG;
}

static int parse_int(const char *s, size_t len, int *out) {
  char tmp[24];
  if (len == 0 || len >= sizeof tmp)
    return 0;
  memcpy(tmp, s, len);
  tmp[len] = '\0';
  char *end;
  errno = 0;
  long v = strtol(tmp, &end, 10);
  if (errno || *end || v < -1000000000L || v > 1000000000L)
    return 0;
  *out = (int)v;
  return 1;
}

/* Parse "tag:r:regs:warps" (len bytes) into *v. */
static int parse_version(const char *s, size_t len, orion_version *v) {
  const char *p = s, *end = s + len;
  const char *c1 = memchr(p, ':', len);
  if (!c1 || c1 == p || (size_t)(c1 - p) >= ORION_TAG_MAX)
    return 0;
  memset(v, 0, sizeof *v);
  memcpy(v->tag, p, (size_t)(c1 - p));
  p = c1 + 1;
  if (end - p < 2 || p[1] != ':')
    return 0;
  const char *rl = memchr(role_letter, p[0], ORION_ROLE_COUNT);
  if (!rl)
    return 0;
  v->role = (orion_role)(rl - role_letter);
  p += 2;
  const char *c3 = memchr(p, ':', (size_t)(end - p));
  if (!c3 || !parse_int(p, (size_t)(c3 - p), &v->max_regs) ||
      !parse_int(c3 + 1, (size_t)(end - c3 - 1), &v->target_warps))
    return 0;
  v->is_pad = v->tag[0] == 'p';
  return v->max_regs >= 0 && v->target_warps >= 0;
}

/* Apply dsm's "tag:N,..." (len bytes) to the versions of sel: each
 * figure to the version of its tag (tags sel does not list: ignored). */
static int apply_dsm(const char *s, size_t len, orion_selection *sel) {
  const char *q = s, *end = s + len;
  while (q < end) {
    const char *e = memchr(q, ',', (size_t)(end - q)), *c;
    if (!e)
      e = end;
    int n;
    if (!(c = memchr(q, ':', (size_t)(e - q))) || c == q || !parse_int(c + 1, (size_t)(e - c - 1), &n) || n < 0)
      return 0;
    for (int i = 0; i < sel->n_versions; i++)
      if (strlen(sel->versions[i].tag) == (size_t)(c - q) && !memcmp(sel->versions[i].tag, q, (size_t)(c - q)))
        sel->versions[i].warp_smem = (unsigned)n;
    q = e + 1;
  }
  return 1;
}

orion_status orion_record_parse(const char *text, orion_record *rec) {
  if (!text || !rec)
    return ORION_ERR_INVALID_ARG;
  orion_record r;
  memset(&r, 0, sizeof r);
  memset(rec, 0, sizeof *rec);
  if (strncmp(text, "orion1;", 7) != 0)
    return ORION_ERR_PARSE;
  enum { K = 1, SM = 2, DIR = 4, ML = 8, THR = 16, BLK = 32, V = 64 };
  unsigned seen = 0;
  const char *dsm = NULL; /* applied once the versions are known */
  size_t dsm_len = 0;
  const char *p = text + 7;
  while (*p) {
    const char *semi = strchr(p, ';');
    size_t len = semi ? (size_t)(semi - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    if (!eq)
      return ORION_ERR_PARSE;
    size_t klen = (size_t)(eq - p);
    const char *val = eq + 1;
    size_t vlen = len - klen - 1;
#define KEY(s) (klen == sizeof(s) - 1 && memcmp(p, s, klen) == 0)
    if (KEY("k")) {
      if (vlen == 0 || vlen >= sizeof r.kernel)
        return ORION_ERR_PARSE;
      memcpy(r.kernel, val, vlen);
      seen |= K;
    } else if (KEY("sm")) {
      if (!parse_int(val, vlen, &r.sm))
        return ORION_ERR_PARSE;
      seen |= SM;
    } else if (KEY("dir")) {
      if (vlen == 3 && !memcmp(val, "inc", 3))
        r.sel.direction = ORION_DIR_INCREASING;
      else if (vlen == 3 && !memcmp(val, "dec", 3))
        r.sel.direction = ORION_DIR_DECREASING;
      else
        return ORION_ERR_PARSE;
      seen |= DIR;
    } else if (KEY("ml")) {
      if (!parse_int(val, vlen, &r.max_live))
        return ORION_ERR_PARSE;
      seen |= ML;
    } else if (KEY("thr")) {
      if (!parse_int(val, vlen, &r.sel.threshold))
        return ORION_ERR_PARSE;
      seen |= THR;
    } else if (KEY("blk")) {
      if (!parse_int(val, vlen, &r.sel.block))
        return ORION_ERR_PARSE;
      seen |= BLK;
    } else if (KEY("bk")) {
      if (!parse_int(val, vlen, &r.sel.block_known))
        return ORION_ERR_PARSE;
    } else if (KEY("w0")) {
      if (!parse_int(val, vlen, &r.sel.original_warps))
        return ORION_ERR_PARSE;
    } else if (KEY("wmax")) {
      if (!parse_int(val, vlen, &r.sel.max_warps))
        return ORION_ERR_PARSE;
    } else if (KEY("np")) {
      if (!parse_int(val, vlen, &r.n_params) || r.n_params < 0)
        return ORION_ERR_PARSE;
    } else if (KEY("hp")) {
      if (!parse_int(val, vlen, &r.hidden_params) || r.hidden_params < 0 ||
          r.hidden_params > 64)
        return ORION_ERR_PARSE;
    } else if (KEY("v")) {
      const char *q = val, *vend = val + vlen;
      while (q < vend) {
        const char *comma = memchr(q, ',', (size_t)(vend - q));
        const char *e = comma ? comma : vend;
        if (r.sel.n_versions >= ORION_MAX_RECORD_VERSIONS ||
            !parse_version(q, (size_t)(e - q), &r.sel.versions[r.sel.n_versions]))
          return ORION_ERR_PARSE;
        r.sel.n_versions++;
        q = comma ? comma + 1 : vend;
      }
      if (r.sel.n_versions == 0)
        return ORION_ERR_PARSE;
      seen |= V;
    } else if (KEY("dsm")) {
      dsm = val;
      dsm_len = vlen;
    } /* unknown keys: ignored */
#undef KEY
    p = semi ? semi + 1 : p + len;
  }
  if (seen != (K | SM | DIR | ML | THR | BLK | V) || (dsm && !apply_dsm(dsm, dsm_len, &r.sel)))
    return ORION_ERR_PARSE;
  *rec = r;
  return ORION_OK;
}

long orion_record_dsm_at(const char *line, size_t len, const char *tag) {
  size_t tl = tag ? strlen(tag) : 0;
  for (size_t p = 0; line && tl && p + 5 <= len; p++) {
    if (memcmp(line + p, ";dsm=", 5) != 0)
      continue;
    const char *q = line + p + 5, *end = memchr(q, ';', len - (size_t)(q - line));
    if (!end)
      end = line + len;
    while (q < end) { /* "tag:NNNNNN" entries, comma-separated */
      const char *e = memchr(q, ',', (size_t)(end - q));
      if (!e)
        e = end;
      if ((size_t)(e - q) == tl + 1 + ORION_RECORD_DSM_DIGITS && !memcmp(q, tag, tl) && q[tl] == ':')
        return (long)(q + tl + 1 - line);
      q = e + 1;
    }
    return -1;
  }
  return -1;
}
