/* strbuf.c - orion/strbuf.h: a doubling byte buffer kept NUL-terminated,
 * printf-style appends by vsnprintf into the free space (retried once after
 * growing), and JSON string escaping. */
#include "orion/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*oom_handler)(void);

void orion_sb_set_oom_handler(void (*handler)(void)) { oom_handler = handler; }

static void out_of_memory(orion_strbuf *b) {
  if (oom_handler)
    oom_handler();
  b->oom = 1;
}

void orion_sb_init(orion_strbuf *b) {
  b->len = 0;
  b->oom = 0;
  b->cap = 64;
  b->p = malloc(b->cap);
  if (!b->p) {
    b->cap = 0;
    out_of_memory(b);
    return;
  }
  b->p[0] = 0;
}

void orion_sb_free(orion_strbuf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}

void orion_sb_reserve(orion_strbuf *b, size_t extra) {
  if (b->oom || b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) {
    out_of_memory(b);
    return;
  }
  b->p = p;
  b->cap = cap;
}

void orion_sb_add(orion_strbuf *b, const char *s, size_t n) {
  orion_sb_reserve(b, n);
  if (b->oom)
    return;
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void orion_sb_adds(orion_strbuf *b, const char *s) { orion_sb_add(b, s, strlen(s)); }

void orion_sb_addc(orion_strbuf *b, char c) { orion_sb_add(b, &c, 1); }

void orion_sb_vaddf(orion_strbuf *b, const char *fmt, va_list ap) {
  orion_sb_reserve(b, 0);
  if (b->oom)
    return;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, aq);
  va_end(aq);
  if (n < 0)
    return;
  if ((size_t)n >= b->cap - b->len) {
    orion_sb_reserve(b, (size_t)n);
    if (b->oom)
      return;
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
  }
  b->len += (size_t)n;
}

void orion_sb_addf(orion_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  orion_sb_vaddf(b, fmt, ap);
  va_end(ap);
}

char *orion_sb_detach(orion_strbuf *b) {
  char *p = b->p;
  b->p = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
  return p;
}

void orion_sb_json(orion_strbuf *b, const char *s) {
  orion_sb_addc(b, '"');
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
    if (*c == '"' || *c == '\\')
      orion_sb_addf(b, "\\%c", *c);
    else if (*c == '\n')
      orion_sb_adds(b, "\\n");
    else if (*c == '\t')
      orion_sb_adds(b, "\\t");
    else if (*c == '\r')
      orion_sb_adds(b, "\\r");
    else if (*c < 0x20)
      orion_sb_addf(b, "\\u%04x", *c);
    else
      orion_sb_addc(b, (char)*c);
  }
  orion_sb_addc(b, '"');
}
