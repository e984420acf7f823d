/* demangle.c - a small Itanium C++ ABI demangler for kernel names, and
 * clone names built on it (contract: orion/demangle.h).
 *
 * Recursive descent over the grammar's subset (<encoding>, <name>,
 * <nested-name>, <template-args>, <type>, <expr-primary>, <substitution>),
 * printing as it goes: every rule returns its text, allocated in an arena
 * freed at the end.  The substitution table holds the printed form of each
 * candidate in the order the ABI numbers them: the prefixes of a nested
 * name (not the whole name), an unscoped template name, every non-builtin
 * type (a qualified type and its unqualified part, a pointer and its
 * pointee), and a template parameter used as a type.  The function's own
 * template arguments are kept for T_, T0_, ...  A template function's
 * first type is its return type.  Anything else fails the whole parse
 * (depth is bounded, so hostile input cannot exhaust the stack).
 *
 * The parse also records where the function's own identifier lies (the
 * last <source-name> at the top level of its name), which is where
 * orion_clone_name inserts "__orion_<tag>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"

#define MAX_DEPTH 64
#define MAX_SUBS 256
#define MAX_ARGS 64

typedef struct dm {
  const char *s;
  size_t pos, len;
  int err, depth;
  char **arena;
  size_t n_arena, cap_arena;
  const char *subs[MAX_SUBS];
  int n_subs;
  const char *targs[MAX_ARGS];
  int n_targs;
  int top_targs;            /* the name being read is the function's own */
  size_t id_num, id_pos, id_len; /* the function's identifier: digits, text */
} dm;

static char peek(const dm *d) { return d->pos < d->len ? d->s[d->pos] : '\0'; }
static char peek2(const dm *d) { return d->pos + 1 < d->len ? d->s[d->pos + 1] : '\0'; }
static int eat(dm *d, char c) {
  if (peek(d) != c)
    return 0;
  d->pos++;
  return 1;
}
static const char *fail(dm *d) {
  d->err = 1;
  return NULL;
}

/* A new string a + b + c (any may be NULL), owned by the arena. */
static const char *cat3(dm *d, const char *a, const char *b, const char *c) {
  if (d->err)
    return NULL;
  size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0, lc = c ? strlen(c) : 0;
  if (d->n_arena == d->cap_arena) {
    size_t cap = d->cap_arena ? 2 * d->cap_arena : 32;
    char **na = realloc(d->arena, cap * sizeof *na);
    if (!na)
      return fail(d);
    d->arena = na;
    d->cap_arena = cap;
  }
  char *s = malloc(la + lb + lc + 1);
  if (!s)
    return fail(d);
  memcpy(s, a ? a : "", la);
  memcpy(s + la, b ? b : "", lb);
  memcpy(s + la + lb, c ? c : "", lc);
  s[la + lb + lc] = '\0';
  d->arena[d->n_arena++] = s;
  return s;
}

static void add_sub(dm *d, const char *s) {
  if (s && d->n_subs < MAX_SUBS)
    d->subs[d->n_subs++] = s;
}

static long number(dm *d) {
  if (peek(d) < '0' || peek(d) > '9')
    return -1;
  long v = 0;
  while (peek(d) >= '0' && peek(d) <= '9' && v < 1000000)
    v = v * 10 + (d->s[d->pos++] - '0');
  return v;
}

/* <source-name> ::= <length> <identifier>; top: the function's own. */
static const char *source_name(dm *d, int top) {
  size_t num = d->pos;
  long n = number(d);
  if (n <= 0 || d->pos + (size_t)n > d->len)
    return fail(d);
  size_t at = d->pos;
  d->pos += (size_t)n;
  if (top) {
    d->id_num = num;
    d->id_pos = at;
    d->id_len = (size_t)n;
  }
  if (n > 10 && strncmp(d->s + at, "_GLOBAL__N", 10) == 0)
    return cat3(d, "(anonymous namespace)", NULL, NULL);
  char *t = malloc((size_t)n + 1);
  if (!t)
    return fail(d);
  memcpy(t, d->s + at, (size_t)n);
  t[n] = '\0';
  const char *r = cat3(d, t, NULL, NULL);
  free(t);
  return r;
}

/* <substitution> after its 'S': S_, S<seq-id>_, St (returns "std"), Sa, ... */
static const char *substitution(dm *d) {
  static const char *const abbrev[][2] = {
      {"t", "std"},           {"a", "std::allocator"}, {"b", "std::basic_string"},
      {"s", "std::string"},   {"i", "std::istream"},   {"o", "std::ostream"},
      {"d", "std::iostream"},
  };
  for (size_t i = 0; i < sizeof abbrev / sizeof *abbrev; i++)
    if (peek(d) == abbrev[i][0][0]) {
      d->pos++;
      return abbrev[i][1];
    }
  long id = 0;
  if (!eat(d, '_')) {
    long v = 0;
    char c;
    while ((c = peek(d)) && c != '_') {
      if (c >= '0' && c <= '9')
        v = v * 36 + (c - '0');
      else if (c >= 'A' && c <= 'Z')
        v = v * 36 + (c - 'A' + 10);
      else
        return fail(d);
      d->pos++;
      if (v > MAX_SUBS)
        return fail(d);
    }
    if (!eat(d, '_'))
      return fail(d);
    id = v + 1;
  }
  return id < d->n_subs ? d->subs[id] : fail(d);
}

static const char *type(dm *d);
static const char *template_args(dm *d, int top);

/* <template-param> (T_, T0_, ...): the function's template argument. */
static const char *template_param(dm *d) {
  if (!eat(d, 'T'))
    return fail(d);
  if (eat(d, '_'))
    return d->n_targs > 0 ? d->targs[0] : fail(d);
  long i = number(d); /* T<i>_ is argument i + 1 */
  if (i < 0 || !eat(d, '_') || i + 1 >= d->n_targs)
    return fail(d);
  return d->targs[i + 1];
}

/* Integer-like literal value after L<type>: [n]digits E. */
static const char *literal(dm *d) {
  static const char *const suffix[][2] = {{"i", ""},  {"j", "u"},  {"l", "l"},
                                          {"m", "ul"}, {"x", "ll"}, {"y", "ull"}};
  if (peek(d) == '_')
    return fail(d); /* L_Z...E: an entity's address */
  char code = peek(d);
  const char *ty = type(d);
  const char *neg = eat(d, 'n') ? "-" : "";
  size_t at = d->pos;
  if (number(d) < 0 || d->err)
    return fail(d);
  char digits[32];
  size_t n = d->pos - at;
  if (n >= sizeof digits || !eat(d, 'E'))
    return fail(d);
  memcpy(digits, d->s + at, n);
  digits[n] = '\0';
  if (code == 'b' && !*neg && n == 1 && (digits[0] == '0' || digits[0] == '1'))
    return digits[0] == '1' ? "true" : "false";
  for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++)
    if (code == suffix[i][0][0])
      return cat3(d, neg, digits, suffix[i][1]);
  return cat3(d, cat3(d, "(", ty, ")"), neg, digits);
}

/* <template-arg>: a type, a literal, or a pack J...E. */
static const char *template_arg(dm *d) {
  if (eat(d, 'L'))
    return literal(d);
  if (eat(d, 'J')) {
    const char *list = "";
    for (int first = 1; !eat(d, 'E'); first = 0) {
      if (!peek(d) || d->err)
        return fail(d);
      list = cat3(d, list, first ? NULL : ", ", template_arg(d));
    }
    return list;
  }
  return type(d);
}

/* <template-args> after its 'I': "<a, b>"; top: the function's own. */
static const char *template_args(dm *d, int top) {
  const char *args[MAX_ARGS];
  int n = 0;
  const char *list = "<";
  while (!eat(d, 'E')) {
    if (!peek(d) || d->err || n == MAX_ARGS)
      return fail(d);
    args[n] = template_arg(d);
    list = cat3(d, list, n ? ", " : NULL, args[n]);
    n++;
  }
  if (n == 0 || d->err)
    return fail(d);
  if (top) {
    memcpy(d->targs, args, (size_t)n * sizeof *args);
    d->n_targs = n;
  }
  size_t l = strlen(list);
  return cat3(d, list, l && list[l - 1] == '>' ? " >" : ">", NULL);
}

/* <nested-name> after its 'N': prefixes are substitution candidates. */
static const char *nested_name(dm *d, int top, int *templ) {
  while (peek(d) == 'r' || peek(d) == 'V' || peek(d) == 'K' || peek(d) == 'R' || peek(d) == 'O')
    d->pos++; /* member-function qualifiers: never on a kernel */
  const char *name = NULL;
  while (!eat(d, 'E')) {
    const char *part;
    *templ = 0;
    if (d->err || !peek(d))
      return fail(d);
    if (!name && peek(d) == 'S') {
      d->pos++;
      name = substitution(d);
      continue; /* already a candidate (or std) */
    }
    if (!name && peek(d) == 'T') { /* a template parameter as the prefix */
      name = template_param(d);
    } else if (peek(d) == 'I' && name) {
      d->pos++;
      name = cat3(d, name, template_args(d, top), NULL);
      *templ = 1;
    } else if (peek(d) == 'B' && name) {
      d->pos++;
      part = source_name(d, 0);
      name = cat3(d, name, cat3(d, "[abi:", part, "]"), NULL);
      continue;
    } else if (peek(d) >= '1' && peek(d) <= '9') {
      part = source_name(d, top);
      name = name ? cat3(d, name, "::", part) : part;
    } else {
      return fail(d); /* operators, ctors, locals, decltype, template params */
    }
    if (peek(d) != 'E')
      add_sub(d, name);
  }
  return name ? name : fail(d);
}

/* <name>; *templ: it ends with template arguments. */
static const char *name(dm *d, int top, int *templ) {
  *templ = 0;
  if (eat(d, 'N'))
    return nested_name(d, top, templ);
  const char *n;
  int from_sub = 0;
  if (peek(d) == 'S' && peek2(d) == 't') {
    d->pos += 2;
    n = cat3(d, "std::", source_name(d, top), NULL);
  } else if (peek(d) == 'S') {
    d->pos++;
    n = substitution(d);
    from_sub = 1; /* already a candidate */
    if (peek(d) != 'I')
      return fail(d);
  } else if (peek(d) >= '1' && peek(d) <= '9') {
    n = source_name(d, top);
  } else {
    return fail(d);
  }
  if (eat(d, 'I')) {
    if (!from_sub)
      add_sub(d, n); /* an unscoped template name */
    n = cat3(d, n, template_args(d, top), NULL);
    *templ = 1;
  }
  return n;
}

static const char *builtin(char c) {
  static const char *const b[][2] = {
      {"v", "void"},          {"w", "wchar_t"},   {"b", "bool"},
      {"c", "char"},          {"a", "signed char"}, {"h", "unsigned char"},
      {"s", "short"},         {"t", "unsigned short"}, {"i", "int"},
      {"j", "unsigned int"},  {"l", "long"},      {"m", "unsigned long"},
      {"x", "long long"},     {"y", "unsigned long long"}, {"n", "__int128"},
      {"o", "unsigned __int128"}, {"f", "float"}, {"d", "double"},
      {"e", "long double"},   {"g", "__float128"}, {"z", "..."},
  };
  for (size_t i = 0; i < sizeof b / sizeof *b; i++)
    if (c == b[i][0][0])
      return b[i][1];
  return NULL;
}

/* D-types: half, char16_t, ..., vectors Dv<n>_<type>, packs Dp<type>. */
static const char *d_type(dm *d) {
  static const char *const dt[][2] = {{"h", "half"},     {"i", "char32_t"}, {"s", "char16_t"},
                                      {"u", "char8_t"},  {"n", "decltype(nullptr)"},
                                      {"a", "auto"}};
  char c = peek(d);
  d->pos++;
  for (size_t i = 0; i < sizeof dt / sizeof *dt; i++)
    if (c == dt[i][0][0])
      return dt[i][1];
  if (c == 'p')
    return type(d); /* a pack expansion prints as its elements */
  if (c == 'F' && strncmp(d->s + d->pos, "16_", 3) == 0) {
    d->pos += 3;
    return "_Float16";
  }
  if (c == 'v') {
    size_t at = d->pos;
    if (number(d) <= 0 || !eat(d, '_'))
      return fail(d);
    char n[16];
    snprintf(n, sizeof n, "%.*s", (int)(d->pos - 1 - at), d->s + at);
    const char *t = cat3(d, type(d), " __vector(", n);
    t = cat3(d, t, ")", NULL);
    add_sub(d, t);
    return t;
  }
  return fail(d);
}

/* <type>; adds the candidates the ABI numbers. */
static const char *type(dm *d) {
  if (++d->depth > MAX_DEPTH) {
    d->depth--;
    return fail(d);
  }
  const char *t = NULL, *b = builtin(peek(d));
  char c = peek(d);
  if (b) {
    d->pos++;
    t = b;
  } else if (c == 'r' || c == 'V' || c == 'K') {
    int q[3] = {0, 0, 0};
    for (;; d->pos++) {
      if (peek(d) == 'K')
        q[0] = 1;
      else if (peek(d) == 'V')
        q[1] = 1;
      else if (peek(d) == 'r')
        q[2] = 1;
      else
        break;
    }
    t = cat3(d, type(d), q[0] ? " const" : NULL, q[1] ? " volatile" : NULL);
    t = cat3(d, t, q[2] ? " restrict" : NULL, NULL);
    add_sub(d, t);
  } else if (c == 'P' || c == 'R' || c == 'O') {
    d->pos++;
    t = cat3(d, type(d), c == 'P' ? "*" : c == 'R' ? "&" : "&&", NULL);
    add_sub(d, t);
  } else if (c == 'T') {
    t = template_param(d);
    add_sub(d, t);
  } else if (c == 'D') {
    d->pos++;
    t = d_type(d);
  } else if (c == 'u') {
    d->pos++;
    t = source_name(d, 0);
  } else if (c == 'S' && peek2(d) != 't') {
    d->pos++;
    t = substitution(d);
    if (t && eat(d, 'I')) {
      t = cat3(d, t, template_args(d, 0), NULL);
      add_sub(d, t);
    }
  } else if (c == 'N' || c == 'S' || (c >= '1' && c <= '9')) {
    int templ;
    t = name(d, 0, &templ);
    add_sub(d, t);
  } else {
    t = fail(d); /* function, array, member-pointer types; decltype; ... */
  }
  d->depth--;
  return d->err ? NULL : t;
}

/* <encoding> of the whole of d->s ("_Z" already read); base: name only. */
static const char *encoding(dm *d, int base) {
  int templ;
  const char *n = name(d, 1, &templ);
  if (d->err || d->pos == d->len)
    return d->err ? NULL : n; /* a variable */
  const char *ret = templ ? type(d) : NULL;
  const char *params = "";
  if (peek(d) == 'v' && d->pos + 1 == d->len)
    d->pos++;
  else
    for (int first = 1; d->pos < d->len && !d->err; first = 0)
      params = cat3(d, params, first ? NULL : ", ", type(d));
  if (d->err)
    return NULL;
  if (base)
    return n;
  const char *decl = cat3(d, ret, ret ? " " : NULL, n);
  return cat3(d, decl, cat3(d, "(", params, ")"), NULL);
}

/* Parse mangled into *d; returns the text (NULL if not understood). */
static const char *parse(dm *d, const char *mangled, int base) {
  memset(d, 0, sizeof *d);
  d->s = mangled;
  d->len = strlen(mangled);
  if (d->len < 3 || strncmp(mangled, "_Z", 2) != 0)
    return NULL;
  d->pos = 2;
  const char *r = encoding(d, base);
  return d->err || d->pos != d->len || !d->id_len ? NULL : r;
}

static void release(dm *d) {
  for (size_t i = 0; i < d->n_arena; i++)
    free(d->arena[i]);
  free(d->arena);
}

static int demangle(const char *mangled, char *out, size_t n, int base) {
  dm d;
  const char *r = parse(&d, mangled, base);
  snprintf(out, n, "%s", r ? r : mangled);
  release(&d);
  return r != NULL;
}

int orion_demangle(const char *mangled, char *out, size_t n) {
  return demangle(mangled, out, n, 0);
}

int orion_demangle_base(const char *mangled, char *out, size_t n) {
  return demangle(mangled, out, n, 1);
}

int orion_names_kernel(const char *given, size_t len, const char *kernel) {
  if (strlen(kernel) == len && !memcmp(given, kernel, len))
    return 1;
  dm d;
  const char *base = parse(&d, kernel, 1);
  int yes = 0;
  if (base) {
    const char *lt = strchr(base, '<');
    size_t bl = strlen(base), bare = lt ? (size_t)(lt - base) : bl;
    yes = (len == bl || len == bare) && !memcmp(given, base, len);
  }
  release(&d);
  return yes;
}

#define INFIX "__orion_"

int orion_clone_name(const char *kernel, const char *tag, char *out, size_t n) {
  dm d;
  int w;
  if (parse(&d, kernel, 0)) {
    size_t idn = d.id_len + strlen(INFIX) + strlen(tag);
    w = snprintf(out, n, "%.*s%zu%.*s%s%s%s", (int)d.id_num, kernel, idn, (int)d.id_len,
                 kernel + d.id_pos, INFIX, tag, kernel + d.id_pos + d.id_len);
  } else {
    w = snprintf(out, n, "%s%s%s", kernel, INFIX, tag);
  }
  release(&d);
  return w >= 0 && (size_t)w < n;
}

/* The split of name at at, an infix inside the identifier [id_pos, id_end)
 * whose length digits start at id_num (id_num >= id_pos: no digits, the
 * suffix form): kernel = name with the identifier cut before the infix,
 * tag = the identifier's rest; accepted only if the clone rebuilds. */
static int try_split(const char *name, size_t id_num, size_t id_pos, size_t id_end, const char *at,
                     char *kernel, size_t kn, char *tag, size_t tn) {
  size_t base_len = (size_t)(at - (name + id_pos)), tag_len = id_end - (size_t)(at - name) - strlen(INFIX);
  if (!base_len || !tag_len || tag_len >= tn)
    return 0;
  int w;
  if (id_num < id_pos) /* mangled: <digits><identifier> */
    w = snprintf(kernel, kn, "%.*s%zu%.*s%s", (int)id_num, name, base_len, (int)base_len,
                 name + id_pos, name + id_end);
  else
    w = snprintf(kernel, kn, "%.*s", (int)base_len, name);
  if (w < 0 || (size_t)w >= kn)
    return 0;
  snprintf(tag, tn, "%.*s", (int)tag_len, at + strlen(INFIX));
  char back[1024];
  return orion_clone_name(kernel, tag, back, sizeof back) && strcmp(back, name) == 0;
}

/* The last infix in [from, to), or NULL. */
static const char *last_infix(const char *from, const char *to) {
  const char *last = NULL;
  for (const char *at = from; (at = strstr(at, INFIX)) && at < to; at++)
    last = at;
  return last;
}

int orion_clone_split(const char *name, char *kernel, size_t kn, char *tag, size_t tn) {
  dm d;
  int ok = 0;
  size_t len = strlen(name);
  if (parse(&d, name, 0)) {
    const char *at = last_infix(name + d.id_pos, name + d.id_pos + d.id_len);
    ok = at && try_split(name, d.id_num, d.id_pos, d.id_pos + d.id_len, at, kernel, kn, tag, tn);
  }
  release(&d);
  if (!ok) { /* the suffix form: names this demangler does not read */
    const char *at = last_infix(name, name + len);
    ok = at && try_split(name, len, 0, len, at, kernel, kn, tag, tn);
  }
  return ok;
}
