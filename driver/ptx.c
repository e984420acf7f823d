/* driver/ptx.c - see ptx.h.  A character scanner, not a parser: it knows
 * comments, strings, braces, the few directives Orion rewrites, and enough
 * of `call` to follow a kernel's call graph. */
#include "ptx.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"
#include "orion/record.h"

static int ident_char(int c) {
  return isalnum(c) || c == '_' || c == '$' || c == '%';
}

/* Skip a comment or string starting at p; return the position after it, or
 * p itself if none starts there. */
static size_t skip_comment_or_string(const char *t, size_t len, size_t p) {
  if (p + 1 < len && t[p] == '/' && t[p + 1] == '/') {
    while (p < len && t[p] != '\n')
      p++;
    return p;
  }
  if (p + 1 < len && t[p] == '/' && t[p + 1] == '*') {
    p += 2;
    while (p + 1 < len && !(t[p] == '*' && t[p + 1] == '/'))
      p++;
    return p + 1 < len ? p + 2 : len;
  }
  if (t[p] == '"') {
    p++;
    while (p < len && t[p] != '"' && t[p] != '\n') {
      if (t[p] == '\\' && p + 1 < len)
        p++;
      p++;
    }
    return p < len ? p + 1 : len;
  }
  return p;
}

static size_t skip_ws(const char *t, size_t len, size_t p) {
  for (;;) {
    while (p < len && isspace((unsigned char)t[p]))
      p++;
    size_t q = skip_comment_or_string(t, len, p);
    if (q == p || t[p] == '"')
      return p;
    p = q;
  }
}

static int word_at(const char *t, size_t len, size_t p, const char *w) {
  size_t n = strlen(w);
  if (p + n > len || memcmp(t + p, w, n) != 0)
    return 0;
  if (p > 0 && (ident_char((unsigned char)t[p - 1]) || t[p - 1] == '.'))
    return 0;
  return p + n == len || !ident_char((unsigned char)t[p + n]);
}

/* Parse "N" or "N, N, N" at p; returns count parsed (<= 3), advances *pp. */
static int parse_numbers(const char *t, size_t len, size_t *pp, int *vals) {
  size_t p = *pp;
  int n = 0;
  for (;;) {
    while (p < len && (t[p] == ' ' || t[p] == '\t'))
      p++;
    if (p >= len || !isdigit((unsigned char)t[p]))
      break;
    long v = 0;
    while (p < len && isdigit((unsigned char)t[p])) {
      if (v < 100000000)
        v = v * 10 + (t[p] - '0');
      p++;
    }
    if (n < 3)
      vals[n] = (int)v;
    n++;
    while (p < len && (t[p] == ' ' || t[p] == '\t'))
      p++;
    if (p < len && t[p] == ',') {
      p++;
      continue;
    }
    break;
  }
  *pp = p;
  return n > 3 ? 3 : n;
}

static void parse_directives(const char *t, size_t from, size_t to, ptx_entry *e) {
  size_t p = from;
  while (p < to) {
    p = skip_ws(t, to, p);
    if (p >= to)
      break;
    if (t[p] == '.') {
      size_t w = p + 1;
      while (w < to && ident_char((unsigned char)t[w]))
        w++;
      size_t q = w;
      int vals[3] = {0, 0, 0};
      if (word_at(t, to, p, ".maxnreg")) {
        if (parse_numbers(t, to, &q, vals) >= 1) {
          e->maxnreg = vals[0];
          e->maxnreg_pos = p;
          e->maxnreg_end = q;
        }
      } else if (word_at(t, to, p, ".maxntid")) {
        e->n_maxntid = parse_numbers(t, to, &q, e->maxntid);
      } else if (word_at(t, to, p, ".reqntid")) {
        e->n_reqntid = parse_numbers(t, to, &q, e->reqntid);
      } else if (word_at(t, to, p, ".minnctapersm")) {
        if (parse_numbers(t, to, &q, vals) >= 1)
          e->minnctapersm = vals[0];
      }
      p = q > p ? q : p + 1;
      continue;
    }
    size_t q = skip_comment_or_string(t, to, p);
    p = q > p ? q : p + 1;
  }
}

/* Find the matching close of the bracket at p (t[p] == open); returns its
 * position or len if unterminated. */
static size_t match_bracket(const char *t, size_t len, size_t p, char open, char close) {
  int depth = 0;
  while (p < len) {
    size_t q = skip_comment_or_string(t, len, p);
    if (q != p) {
      p = q;
      continue;
    }
    if (t[p] == open)
      depth++;
    else if (t[p] == close && --depth == 0)
      return p;
    p++;
  }
  return len;
}

/* Start of the declaration whose .entry keyword is at kw: back over
 * linkage directives, then to the start of the line if only blanks precede. */
static size_t decl_start(const char *t, size_t kw) {
  static const char *const linkage[] = {".visible", ".weak", ".extern"};
  size_t q = kw;
  for (;;) {
    size_t r = q;
    while (r > 0 && (t[r - 1] == ' ' || t[r - 1] == '\t' || t[r - 1] == '\n' || t[r - 1] == '\r'))
      r--;
    size_t w = r;
    while (w > 0 && (ident_char((unsigned char)t[w - 1]) || t[w - 1] == '.'))
      w--;
    int found = 0;
    for (size_t i = 0; i < sizeof linkage / sizeof *linkage; i++) {
      size_t n = strlen(linkage[i]);
      if (r - w == n && memcmp(t + w, linkage[i], n) == 0)
        found = 1;
    }
    if (!found)
      break;
    q = w;
  }
  size_t ls = q;
  while (ls > 0 && t[ls - 1] != '\n')
    ls--;
  for (size_t i = ls; i < q; i++)
    if (t[i] != ' ' && t[i] != '\t')
      return q;
  return ls;
}

/* End of the line after position p if only blanks/comment follow. */
static size_t line_end_after(const char *t, size_t len, size_t p) {
  size_t q = p;
  while (q < len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
    q++;
  if (q + 1 < len && t[q] == '/' && t[q + 1] == '/')
    while (q < len && t[q] != '\n')
      q++;
  if (q < len && t[q] == '\n')
    return q + 1;
  if (q >= len)
    return len;
  return p;
}

static void push_entry(ptx_module *m, const ptx_entry *e, size_t *cap) {
  if (m->n_entries == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    m->entries = drv_xrealloc(m->entries, *cap * sizeof *m->entries);
  }
  m->entries[m->n_entries++] = *e;
}

/* A module-scope .func at kw: a definition is recorded in m->funcs.
 * Returns the position to continue from. */
static size_t scan_func(const char *t, size_t len, size_t kw, ptx_module *m, size_t *cap) {
  size_t r = skip_ws(t, len, kw + 5);
  if (r < len && t[r] == '(') { /* return parameters */
    size_t close = match_bracket(t, len, r, '(', ')');
    if (close >= len)
      return len;
    r = skip_ws(t, len, close + 1);
  }
  size_t name = r;
  while (r < len && ident_char((unsigned char)t[r]))
    r++;
  if (r == name)
    return kw + 5;
  size_t name_end = r;
  while (r < len && t[r] != '{' && t[r] != ';') {
    if (t[r] == '(') {
      size_t close = match_bracket(t, len, r, '(', ')');
      r = close < len ? close + 1 : len;
      continue;
    }
    size_t s = skip_comment_or_string(t, len, r);
    r = s != r ? s : r + 1;
  }
  if (r >= len || t[r] == ';')
    return r < len ? r + 1 : len;
  size_t close = match_bracket(t, len, r, '{', '}');
  if (close >= len)
    return len;
  if (m->n_funcs == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    m->funcs = drv_xrealloc(m->funcs, *cap * sizeof *m->funcs);
  }
  ptx_func *f = &m->funcs[m->n_funcs++];
  f->name = drv_xstrndup(t + name, name_end - name);
  f->body_pos = r;
  f->body_end = close;
  return close + 1;
}

/* `.extern .shared ... NAME[];` at kw (the .extern): record NAME. */
static void scan_extern_shared(const char *t, size_t len, size_t kw, ptx_module *m) {
  size_t r = skip_ws(t, len, kw + 7);
  if (!word_at(t, len, r, ".shared"))
    return;
  size_t last = 0, last_end = 0;
  for (r += 7; r < len && t[r] != ';' && t[r] != '[' && t[r] != '{' && t[r] != '\n';) {
    if (ident_char((unsigned char)t[r]) && (r == 0 || t[r - 1] != '.')) {
      size_t s = r;
      while (r < len && ident_char((unsigned char)t[r]))
        r++;
      if (!isdigit((unsigned char)t[s]))
        last = s, last_end = r;
      continue;
    }
    if (t[r] == '.') { /* a directive word: .align, .b8, ... */
      r++;
      while (r < len && ident_char((unsigned char)t[r]))
        r++;
      continue;
    }
    r++;
  }
  if (last_end > last) {
    char *n = drv_xstrndup(t + last, last_end - last);
    sv_push_owned(&m->dyn_shared, n);
  }
}

int ptx_scan(const char *t, size_t len, ptx_module *m, char **err) {
  memset(m, 0, sizeof *m);
  m->text = t;
  m->len = len;
  sv_init(&m->dyn_shared);
  size_t cap = 0, fcap = 0;
  int depth = 0;
  size_t p = 0;
  while (p < len) {
    size_t q = skip_comment_or_string(t, len, p);
    if (q != p) {
      p = q;
      continue;
    }
    char c = t[p];
    if (c == '{') {
      depth++;
    } else if (c == '}') {
      if (depth > 0)
        depth--;
    } else if (depth == 0 && c == '.' && word_at(t, len, p, ".target") && !m->target[0]) {
      size_t w = skip_ws(t, len, p + 7);
      size_t n = 0;
      while (w + n < len && ident_char((unsigned char)t[w + n]) && n + 1 < sizeof m->target)
        n++;
      memcpy(m->target, t + w, n);
      m->target[n] = 0;
    } else if (depth == 0 && c == '.' && word_at(t, len, p, ".func")) {
      p = scan_func(t, len, p, m, &fcap);
      continue;
    } else if (depth == 0 && c == '.' && word_at(t, len, p, ".extern")) {
      scan_extern_shared(t, len, p, m);
    } else if (depth == 0 && c == '.' && word_at(t, len, p, ".entry")) {
      ptx_entry e;
      memset(&e, 0, sizeof e);
      size_t r = skip_ws(t, len, p + 6);
      e.name_pos = r;
      while (r < len && ident_char((unsigned char)t[r]))
        r++;
      e.name_end = r;
      if (e.name_end == e.name_pos) {
        p += 6;
        continue;
      }
      r = skip_ws(t, len, r);
      if (r < len && t[r] == '(') {
        size_t close = match_bracket(t, len, r, '(', ')');
        if (close >= len) {
          *err = drv_xasprintf("unterminated parameter list of entry '%.*s'",
                               (int)(e.name_end - e.name_pos), t + e.name_pos);
          ptx_module_free(m);
          return -1;
        }
        r = close + 1;
      }
      e.dir_pos = r;
      /* Directives up to '{' (definition) or ';' (declaration). */
      while (r < len && t[r] != '{' && t[r] != ';') {
        size_t s = skip_comment_or_string(t, len, r);
        r = s != r ? s : r + 1;
      }
      if (r >= len || t[r] == ';') {
        p = r < len ? r + 1 : len;
        continue;
      }
      e.body_pos = r;
      size_t close = match_bracket(t, len, r, '{', '}');
      if (close >= len) {
        *err = drv_xasprintf("unterminated body of entry '%.*s'",
                             (int)(e.name_end - e.name_pos), t + e.name_pos);
        ptx_module_free(m);
        return -1;
      }
      e.body_end = close;
      parse_directives(t, e.dir_pos, e.body_pos, &e);
      e.start = decl_start(t, p);
      e.end = line_end_after(t, len, close + 1);
      e.name = drv_xstrndup(t + e.name_pos, e.name_end - e.name_pos);
      push_entry(m, &e, &cap);
      p = close + 1;
      continue;
    }
    p++;
  }
  m->records = ptx_global_string_prefix(m, ORION_RECORD_TABLE_PREFIX);
  return 0;
}

void ptx_module_free(ptx_module *m) {
  free(m->records);
  m->records = NULL;
  for (size_t i = 0; i < m->n_entries; i++)
    free(m->entries[i].name);
  free(m->entries);
  m->entries = NULL;
  m->n_entries = 0;
  for (size_t i = 0; i < m->n_funcs; i++)
    free(m->funcs[i].name);
  free(m->funcs);
  m->funcs = NULL;
  m->n_funcs = 0;
  sv_free(&m->dyn_shared);
}

int ptx_find_entry(const ptx_module *m, const char *name) {
  for (size_t i = 0; i < m->n_entries; i++)
    if (strcmp(m->entries[i].name, name) == 0)
      return (int)i;
  return -1;
}

static int product(const int *v, int n) {
  int r = 1;
  for (int i = 0; i < n; i++)
    r *= v[i] > 0 ? v[i] : 1;
  return r;
}

int ptx_entry_threads(const ptx_entry *e) {
  if (e->n_reqntid)
    return product(e->reqntid, e->n_reqntid);
  if (e->n_maxntid)
    return product(e->maxntid, e->n_maxntid);
  return 0;
}

int ptx_split_clone_name(const char *name, char **kernel, char **tag) {
  size_t n = strlen(name) + 1;
  char *k = drv_xmalloc(n), *t = drv_xmalloc(n);
  int ok = orion_clone_split(name, k, n, t, n);
  if (ok && kernel)
    *kernel = k;
  else
    free(k);
  if (ok && tag)
    *tag = t;
  else
    free(t);
  return ok;
}

void ptx_emit_without(const ptx_module *m, const unsigned char *keep, orion_strbuf *out) {
  ptx_edit *ed = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *ed);
  memset(ed, 0, (m->n_entries ? m->n_entries : 1) * sizeof *ed);
  for (size_t i = 0; i < m->n_entries; i++)
    ed[i].drop = !keep[i];
  ptx_emit_edited(m, ed, out);
  free(ed);
}

void ptx_emit_edited(const ptx_module *m, const ptx_edit *edits, orion_strbuf *out) {
  size_t p = 0;
  for (size_t i = 0; i < m->n_entries; i++) {
    const ptx_entry *e = &m->entries[i];
    const ptx_edit *ed = &edits[i];
    if (ed->drop) {
      orion_sb_add(out, m->text + p, e->start - p);
      p = e->end;
      continue;
    }
    if (ed->maxnreg > 0 && e->maxnreg > 0) {
      orion_sb_add(out, m->text + p, e->maxnreg_pos - p);
      orion_sb_addf(out, ".maxnreg %d", ed->maxnreg);
      p = e->maxnreg_end;
    }
    if (ed->maxntid > 0) {
      orion_sb_add(out, m->text + p, e->body_pos - p);
      if (out->len && out->p[out->len - 1] != '\n')
        orion_sb_addc(out, '\n');
      orion_sb_addf(out, ".maxntid %d, 1, 1\n", ed->maxntid);
      p = e->body_pos;
    }
    if (ed->smem_pragma) {
      orion_sb_add(out, m->text + p, e->body_pos + 1 - p);
      orion_sb_adds(out, "\n\t.pragma \"enable_smem_spilling\";");
      p = e->body_pos + 1;
    }
  }
  orion_sb_add(out, m->text + p, m->len - p);
}

static int find_func(const ptx_module *m, const char *name, size_t n) {
  for (size_t i = 0; i < m->n_funcs; i++)
    if (strlen(m->funcs[i].name) == n && memcmp(m->funcs[i].name, name, n) == 0)
      return (int)i;
  return -1;
}

static int is_dyn_shared(const ptx_module *m, const char *name, size_t n) {
  for (size_t i = 0; i < m->dyn_shared.n; i++)
    if (strlen(m->dyn_shared.v[i]) == n && memcmp(m->dyn_shared.v[i], name, n) == 0)
      return 1;
  return 0;
}

static void set_what(char *dst, size_t cap, const char *s, size_t n) {
  if (dst[0])
    return;
  if (n >= cap)
    n = cap - 1;
  memcpy(dst, s, n);
  dst[n] = 0;
}

/* Scan one body [from, to): references to dynamic shared memory, and
 * calls; defined callees not yet seen are marked in want[]. */
static void reach_body(const ptx_module *m, size_t from, size_t to, unsigned char *want,
                       ptx_reach *out) {
  const char *t = m->text;
  size_t p = from;
  while (p < to) {
    size_t q = skip_comment_or_string(t, to, p);
    if (q != p) {
      p = q;
      continue;
    }
    if (!ident_char((unsigned char)t[p]) || (p > from && (ident_char((unsigned char)t[p - 1]) ||
                                                           t[p - 1] == '.'))) {
      p++;
      continue;
    }
    size_t s = p;
    while (p < to && ident_char((unsigned char)t[p]))
      p++;
    size_t n = p - s;
    if ((n == 16 && !memcmp(t + s, "%total_smem_size", 16)) ||
        (n == 18 && !memcmp(t + s, "%dynamic_smem_size", 18))) {
      if (!out->smem_size)
        set_what(out->size_what, sizeof out->size_what, t + s, n);
      out->smem_size = 1;
      continue;
    }
    if (is_dyn_shared(m, t + s, n)) {
      out->dyn_smem = 1;
      set_what(out->dyn_what, sizeof out->dyn_what, t + s, n);
      continue;
    }
    if (n != 4 || memcmp(t + s, "call", 4) != 0)
      continue;
    /* call{.uni} {(ret, ...),} callee, ... */
    while (p < to && t[p] == '.') {
      p++;
      while (p < to && ident_char((unsigned char)t[p]))
        p++;
    }
    p = skip_ws(t, to, p);
    if (p < to && t[p] == '(') {
      size_t close = match_bracket(t, to, p, '(', ')');
      p = skip_ws(t, to, close < to ? close + 1 : to);
      if (p < to && t[p] == ',')
        p = skip_ws(t, to, p + 1);
    }
    size_t cs = p;
    while (p < to && ident_char((unsigned char)t[p]))
      p++;
    if (p == cs)
      continue;
    if (t[cs] == '%') {
      out->abi_call = 1;
      set_what(out->abi_what, sizeof out->abi_what, "indirect call", 13);
      continue;
    }
    int f = find_func(m, t + cs, p - cs);
    if (f < 0) {
      out->abi_call = 1;
      set_what(out->abi_what, sizeof out->abi_what, t + cs, p - cs);
    } else if (!want[f]) {
      want[f] = 1;
    }
  }
}

/* ptx_entry_reach, leaving in want[i] 2 for each .func definition reached. */
static void reach_all(const ptx_module *m, const ptx_entry *e, ptx_reach *out,
                      unsigned char *want) {
  memset(out, 0, sizeof *out);
  size_t nf = m->n_funcs;
  /* want: 0 unseen, 1 to scan, 2 scanned */
  memset(want, 0, nf ? nf : 1);
  reach_body(m, e->body_pos + 1, e->body_end, want, out);
  for (int again = 1; again;) {
    again = 0;
    for (size_t i = 0; i < nf; i++)
      if (want[i] == 1) {
        want[i] = 2;
        reach_body(m, m->funcs[i].body_pos + 1, m->funcs[i].body_end, want, out);
        again = 1;
      }
  }
}

void ptx_entry_reach(const ptx_module *m, const ptx_entry *e, ptx_reach *out) {
  unsigned char *want = drv_xmalloc(m->n_funcs ? m->n_funcs : 1);
  reach_all(m, e, out, want);
  free(want);
}

void ptx_entry_funcs(const ptx_module *m, const ptx_entry *e, unsigned char *reached) {
  ptx_reach r;
  reach_all(m, e, &r, reached);
  for (size_t i = 0; i < m->n_funcs; i++)
    reached[i] = reached[i] == 2;
}

/* The string initialiser after a global's name (t[r] is its '['): the
 * bytes up to the first NUL, or up to the closing '}' (LLVM leaves out the
 * trailing zeros of an array it initialises; PTX zero-fills the rest). */
static char *string_init(const char *t, size_t len, size_t r) {
  while (r < len && t[r] != '=' && t[r] != ';')
    r++;
  if (r >= len || t[r] != '=')
    return NULL;
  r = skip_ws(t, len, r + 1);
  if (r >= len || t[r] != '{')
    return NULL;
  r++;
  orion_strbuf b;
  orion_sb_init(&b);
  for (;;) {
    r = skip_ws(t, len, r);
    if (r >= len || !isdigit((unsigned char)t[r])) {
      orion_sb_free(&b);
      return NULL;
    }
    long v = 0;
    while (r < len && isdigit((unsigned char)t[r]) && v < 256)
      v = v * 10 + (t[r++] - '0');
    if (v > 255) {
      orion_sb_free(&b);
      return NULL;
    }
    if (v == 0)
      return orion_sb_detach(&b);
    orion_sb_addc(&b, (char)v);
    r = skip_ws(t, len, r);
    if (r < len && t[r] == ',') {
      r++;
      continue;
    }
    if (r < len && t[r] == '}')
      return orion_sb_detach(&b);
    orion_sb_free(&b);
    return NULL; /* garbage */
  }
}

/* The first global whose name is sym (exact) or starts with it (prefix). */
static char *global_string(const ptx_module *m, const char *sym, int prefix) {
  const char *t = m->text;
  size_t len = m->len, n = strlen(sym);
  for (size_t p = 0; p + n < len; p++) {
    size_t q = skip_comment_or_string(t, len, p);
    if (q != p) {
      p = q - 1;
      continue;
    }
    if (memcmp(t + p, sym, n) != 0 || (p > 0 && ident_char((unsigned char)t[p - 1])))
      continue;
    size_t r = p + n;
    while (prefix && r < len && ident_char((unsigned char)t[r]))
      r++;
    if (r < len && t[r] == '[')
      return string_init(t, len, r);
  }
  return NULL;
}

char *ptx_global_string(const ptx_module *m, const char *sym) {
  return global_string(m, sym, 0);
}

char *ptx_global_string_prefix(const ptx_module *m, const char *prefix) {
  return global_string(m, prefix, 1);
}

/* Copy the directive region, dropping .maxnreg and (without a thread
 * count) .minnctapersm with their numbers. */
static void copy_directives(const char *t, size_t from, size_t to, int drop_minncta,
                            orion_strbuf *out) {
  size_t p = from;
  while (p < to) {
    size_t q = skip_comment_or_string(t, to, p);
    if (q != p) {
      orion_sb_add(out, t + p, q - p);
      p = q;
      continue;
    }
    if (t[p] == '.' && (word_at(t, to, p, ".maxnreg") ||
                        (drop_minncta && word_at(t, to, p, ".minnctapersm")))) {
      size_t w = p + 1;
      while (w < to && ident_char((unsigned char)t[w]))
        w++;
      int vals[3];
      parse_numbers(t, to, &w, vals);
      p = w;
      continue;
    }
    orion_sb_addc(out, t[p]);
    p++;
  }
}

void ptx_emit_clone(const ptx_module *m, const ptx_entry *e, const char *new_name,
                    int maxnreg, orion_strbuf *out) {
  const char *t = m->text;
  orion_sb_add(out, t + e->start, e->name_pos - e->start);
  orion_sb_adds(out, new_name);
  orion_sb_add(out, t + e->name_end, e->dir_pos - e->name_end);
  int has_ntid = e->n_maxntid || e->n_reqntid;
  copy_directives(t, e->dir_pos, e->body_pos, !has_ntid, out);
  if (maxnreg > 0) {
    if (out->len && out->p[out->len - 1] != '\n')
      orion_sb_addc(out, '\n');
    orion_sb_addf(out, ".maxnreg %d\n", maxnreg);
  }
  orion_sb_add(out, t + e->body_pos, e->end - e->body_pos);
  if (out->len && out->p[out->len - 1] != '\n')
    orion_sb_addc(out, '\n');
}

void ptx_emit_string_global(const char *sym, const char *value, orion_strbuf *out) {
  size_t n = strlen(value) + 1;
  orion_sb_addf(out, ".visible .global .align 1 .b8 %s[%zu] = {", sym, n);
  for (size_t i = 0; i < n; i++)
    orion_sb_addf(out, "%s%u", i ? ", " : "", (unsigned)(unsigned char)value[i]);
  orion_sb_adds(out, "};\n");
}
