/* driver/ptxas_info.c - see ptxas_info.h. */
#include "ptxas_info.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define INFO_PREFIX "ptxas info"

static ptxas_figures *get(ptxas_info *info, const char *name, size_t n) {
  for (size_t i = 0; i < info->n; i++)
    if (strlen(info->f[i].name) == n && memcmp(info->f[i].name, name, n) == 0)
      return &info->f[i];
  info->f = drv_xrealloc(info->f, (info->n + 1) * sizeof *info->f);
  ptxas_figures *f = &info->f[info->n++];
  memset(f, 0, sizeof *f);
  f->name = drv_xstrndup(name, n);
  return f;
}

/* Text after "ptxas info    : " on this line, or NULL. */
static const char *info_body(const char *line, const char *eol) {
  if ((size_t)(eol - line) < strlen(INFO_PREFIX) ||
      memcmp(line, INFO_PREFIX, strlen(INFO_PREFIX)) != 0)
    return NULL;
  const char *c = memchr(line, ':', (size_t)(eol - line));
  if (!c)
    return NULL;
  c++;
  while (c < eol && *c == ' ')
    c++;
  return c;
}

static int starts(const char *s, const char *eol, const char *w) {
  size_t n = strlen(w);
  return (size_t)(eol - s) >= n && memcmp(s, w, n) == 0;
}

/* Parse "N bytes stack frame, N bytes spill stores, N bytes spill loads". */
static void parse_props(const char *s, const char *eol, ptxas_figures *f) {
  while (s < eol) {
    while (s < eol && (*s == ' ' || *s == '\t' || *s == ','))
      s++;
    if (s >= eol || !isdigit((unsigned char)*s))
      break;
    long v = strtol(s, NULL, 10);
    while (s < eol && isdigit((unsigned char)*s))
      s++;
    while (s < eol && *s == ' ')
      s++;
    if (starts(s, eol, "bytes stack frame"))
      f->stack_frame = v;
    else if (starts(s, eol, "bytes spill stores"))
      f->spill_stores = v;
    else if (starts(s, eol, "bytes spill loads"))
      f->spill_loads = v;
    while (s < eol && *s != ',')
      s++;
  }
  f->has_props = 1;
}

/* Parse "Used N registers, used N barriers, N bytes smem, ...". */
static void parse_used(const char *s, const char *eol, ptxas_figures *f) {
  while (s < eol) {
    const char *item_end = memchr(s, ',', (size_t)(eol - s));
    if (!item_end)
      item_end = eol;
    const char *p = s;
    while (p < item_end && *p == ' ')
      p++;
    if (starts(p, item_end, "Used ") || starts(p, item_end, "used "))
      p += 5;
    if (p < item_end && isdigit((unsigned char)*p)) {
      long v = strtol(p, NULL, 10);
      while (p < item_end && isdigit((unsigned char)*p))
        p++;
      while (p < item_end && *p == ' ')
        p++;
      if (starts(p, item_end, "registers"))
        f->registers = (int)v;
      else if (starts(p, item_end, "barriers"))
        f->barriers = v;
      else if (starts(p, item_end, "bytes smem"))
        f->smem = v;
      else if (starts(p, item_end, "bytes cmem")) {
        f->cmem += v;
        f->has_cmem = 1;
      }
      else if (starts(p, item_end, "bytes cumulative stack size"))
        f->cumulative_stack = v;
    }
    s = item_end < eol ? item_end + 1 : eol;
  }
  f->has_used = 1;
}

void ptxas_info_parse(const char *text, size_t len, ptxas_info *out) {
  memset(out, 0, sizeof *out);
  const char *end = text + len;
  ptxas_figures *cur_entry = NULL; /* for "Used" lines */
  ptxas_figures *props_for = NULL; /* the next figure line belongs here */
  for (const char *line = text; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol)
      eol = end;
    const char *body = info_body(line, eol);
    if (body) {
      props_for = NULL;
      if (starts(body, eol, "Compiling entry function '")) {
        const char *n = body + strlen("Compiling entry function '");
        const char *q = memchr(n, '\'', (size_t)(eol - n));
        if (q) {
          cur_entry = get(out, n, (size_t)(q - n));
          cur_entry->is_entry = 1;
        }
      } else if (starts(body, eol, "Function properties for ")) {
        const char *n = body + strlen("Function properties for ");
        const char *q = eol;
        while (q > n && (q[-1] == ' ' || q[-1] == '\r'))
          q--;
        if (q > n)
          props_for = get(out, n, (size_t)(q - n));
      } else if (starts(body, eol, "Used ") && cur_entry) {
        parse_used(body, eol, cur_entry);
      }
    } else if (props_for && line < eol && (*line == ' ' || *line == '\t')) {
      parse_props(line, eol, props_for);
      props_for = NULL;
    } else {
      props_for = NULL;
    }
    line = eol < end ? eol + 1 : end;
  }
}

void ptxas_info_free(ptxas_info *info) {
  for (size_t i = 0; i < info->n; i++)
    free(info->f[i].name);
  free(info->f);
  info->f = NULL;
  info->n = 0;
}

const ptxas_figures *ptxas_info_find(const ptxas_info *info, const char *name) {
  for (size_t i = 0; i < info->n; i++)
    if (strcmp(info->f[i].name, name) == 0)
      return &info->f[i];
  return NULL;
}

void ptxas_filter_verbose(const char *text, size_t len, orion_strbuf *out) {
  const char *end = text + len;
  int after_props = 0;
  for (const char *line = text; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    const char *next = eol ? eol + 1 : end;
    if (!eol)
      eol = end;
    const char *body = info_body(line, eol);
    int drop = 0;
    if (body) {
      drop = 1;
      after_props = starts(body, eol, "Function properties for ");
    } else if (after_props && line < eol && (*line == ' ' || *line == '\t')) {
      drop = 1;
      after_props = 0;
    } else {
      after_props = 0;
    }
    if (!drop)
      orion_sb_add(out, line, (size_t)(next - line));
    line = next;
  }
}
