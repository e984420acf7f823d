/* advise/output.c - what orion-advise prints and writes (advise.h):
 * compiler-style notes, a Markdown or JSON summary, and clang-tidy's
 * export-fixes YAML (a document with MainSourceFile and Diagnostics, each
 * with Replacements {FilePath, Offset, Length, ReplacementText}), the form
 * clang-apply-replacements reads.  Pure formatting into a orion_strbuf.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

static const char *file_of(const adv_loc *l) {
  return l->file ? l->file : "<unknown>";
}

static void note(orion_strbuf *b, const adv_loc *l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(orion_strbuf *b, const adv_loc *l, const char *fmt, ...) {
  orion_sb_addf(b, "%s:%u:%u: note: ", file_of(l), l->line, l->col);
  va_list ap;
  va_start(ap, fmt);
  orion_sb_vaddf(b, fmt, ap);
  va_end(ap);
  orion_sb_addc(b, '\n');
}

static void names(orion_strbuf *b, const adv_kernel *k) {
  for (size_t i = 0, n = 0; i < k->names.n; i++)
    if (strcmp(k->names.v[i], k->name))
      orion_sb_addf(b, "%s%s", n++ ? ", " : "", k->names.v[i]);
}

static void list_kernel(orion_strbuf *b, const adv_program *p, size_t ki) {
  const adv_kernel *k = &p->k[ki];
  orion_strbuf n;
  orion_sb_init(&n);
  names(&n, k);
  note(b, &k->loc, "kernel '%s'%s%s%s%s", k->name, k->is_template ? " (template)" : "",
       n.len ? " [" : "", n.len ? n.p : "", n.len ? "]" : "");
  orion_sb_free(&n);
  for (size_t i = 0; i < p->ns; i++)
    if (p->s[i].kernel == ki)
      note(b, &p->s[i].loc, "launch of '%s' %s%s", p->s[i].callee,
           p->s[i].api ? "through " : "", p->s[i].config);
}

static void build_note(orion_strbuf *b, const adv_kernel *k, const adv_build *bd) {
  orion_strbuf v;
  orion_sb_init(&v);
  for (int i = 0; i < bd->nv; i++) {
    orion_sb_addf(&v, "%s%s", i ? ", " : "", bd->v[i].tag);
    if (bd->v[i].registers >= 0)
      orion_sb_addf(&v, " %d regs %d warps/SM", bd->v[i].registers, bd->v[i].warps);
    else if (bd->v[i].max_regs)
      orion_sb_addf(&v, " cap %d, %d warps/SM (model)", bd->v[i].max_regs, bd->v[i].target_warps);
    else
      orion_sb_addf(&v, " padding to %d warps/SM (model)", bd->v[i].target_warps);
    if (bd->v[i].status && strcmp(bd->v[i].status, "kept"))
      orion_sb_addf(&v, " (%s)", bd->v[i].status);
  }
  note(b, &k->loc, "'%s': Orion's build for sm_%d at %d threads%s: direction %s; versions: %s%s%s",
       k->name, bd->sm, bd->block, bd->block_known ? "" : " (assumed)",
       bd->direction ? bd->direction : "?", v.len ? v.p : "none", bd->note ? "; " : "",
       bd->note ? bd->note : "");
  orion_sb_free(&v);
}

void adv_print_notes(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n, int list,
                     int sm_opt) {
  for (size_t i = 0; list && i < p->nk; i++)
    list_kernel(b, p, i);
  for (size_t i = 0; i < n; i++) {
    const adv_kernel *k = &p->k[a[i].kernel];
    int sm = sm_opt ? sm_opt : a[i].build ? a[i].build->sm : 0;
    if (a[i].build)
      build_note(b, k, a[i].build);
    for (size_t j = 0; j < a[i].nd; j++) {
      const adv_config *c = a[i].d[j].c;
      note(b, &k->loc, "'%s' at %ux%ux%u threads, %llu B dynamic shared memory: %s", k->name,
           c->bx, c->by, c->bz, c->shmem, a[i].d[j].why);
    }
    const char *nofix = !a[i].attr || a[i].fixable ? ""
                        : k->has_limit ? " (no fix exported: the kernel has a register limit already)"
                                       : " (no fix exported: the kernel's name is spelt in a macro)";
    note(b, &k->loc, "orion-advise: '%s': %s%s", k->name, a[i].text, nofix);
    for (size_t s = 0; a[i].pad && s < p->ns; s++)
      if (p->s[s].kernel == a[i].kernel)
        note(b, &p->s[s].loc, "orion-advise: launch of '%s': %s", k->name, a[i].text);
    for (size_t s = 0; s < p->ns; s++) {
      adv_block bs;
      if (p->s[s].kernel == a[i].kernel && !adv_block_advice(&p->s[s], a[i].build, sm, &bs))
        note(b, &p->s[s].loc, "launch of '%s': %s", p->s[s].callee, bs.text);
      else
        bs.text = NULL;
      free(bs.text);
    }
  }
}

static const char *verdict_name(adv_verdict v) {
  return v == ADV_CHANGE ? "change" : v == ADV_KEEP ? "keep" : "none";
}

static void json_loc(orion_strbuf *b, const adv_loc *l) {
  orion_sb_adds(b, "\"file\":");
  orion_sb_json(b, file_of(l));
  orion_sb_addf(b, ",\"line\":%u,\"col\":%u", l->line, l->col);
}

/* A launch's block-size advice as "block_advice":{...} or null. */
static void json_block(orion_strbuf *b, const adv_site *s, const adv_advice *a, int sm) {
  adv_block bs;
  orion_sb_adds(b, ",\"block_advice\":");
  if (!a || adv_block_advice(s, a->build, sm ? sm : a->build ? a->build->sm : 0, &bs)) {
    orion_sb_adds(b, "null");
    return;
  }
  orion_sb_addf(b, "{\"threads\":%ld,\"warps\":%d,\"advised\":%d,\"calculator\":%d,"
                   "\"max_warps\":%d,\"text\":",
                bs.threads, bs.warps, bs.advised, bs.calc, bs.calc_warps);
  orion_sb_json(b, bs.text);
  orion_sb_addc(b, '}');
  free(bs.text);
}

static void json_kernel(orion_strbuf *b, const adv_program *p, size_t ki, const adv_advice *a,
                        int sm) {
  const adv_kernel *k = &p->k[ki];
  orion_sb_adds(b, "{\"kernel\":");
  orion_sb_json(b, k->name);
  orion_sb_addc(b, ',');
  json_loc(b, &k->loc);
  orion_sb_addf(b, ",\"template\":%s,\"names\":[", k->is_template ? "true" : "false");
  for (size_t i = 0; i < k->names.n; i++) {
    orion_sb_adds(b, i ? "," : "");
    orion_sb_json(b, k->names.v[i]);
  }
  orion_sb_adds(b, "],\"launches\":[");
  for (size_t i = 0, m = 0; i < p->ns; i++)
    if (p->s[i].kernel == ki) {
      orion_sb_adds(b, m++ ? ",{" : "{");
      json_loc(b, &p->s[i].loc);
      orion_sb_adds(b, ",\"callee\":");
      orion_sb_json(b, p->s[i].callee);
      orion_sb_adds(b, ",\"config\":");
      orion_sb_json(b, p->s[i].config);
      orion_sb_addf(b, ",\"api\":%s", p->s[i].api ? "true" : "false");
      json_block(b, &p->s[i], a, sm);
      orion_sb_addc(b, '}');
    }
  orion_sb_adds(b, "],\"decisions\":[");
  for (size_t j = 0; a && j < a->nd; j++) {
    const adv_config *c = a->d[j].c;
    orion_sb_addf(b, "%s{\"block\":[%u,%u,%u],\"shmem\":%llu,\"source\":", j ? "," : "", c->bx, c->by,
            c->bz, c->shmem);
    orion_sb_json(b, c->source);
    orion_sb_adds(b, ",\"chosen\":");
    orion_sb_json(b, c->chosen);
    orion_sb_addf(b, ",\"verdict\":\"%s\",\"why\":", verdict_name(a->d[j].verdict));
    orion_sb_json(b, a->d[j].why);
    orion_sb_addc(b, '}');
  }
  orion_sb_adds(b, "],\"attribute\":");
  if (a && a->attr)
    orion_sb_json(b, a->attr);
  else
    orion_sb_adds(b, "null");
  orion_sb_addf(b, ",\"fix\":%s,\"advice\":", a && a->attr && a->fixable ? "true" : "false");
  if (a)
    orion_sb_json(b, a->text);
  else
    orion_sb_adds(b, "null");
  orion_sb_addc(b, '}');
}

static const adv_advice *advice_of(const adv_advice *a, size_t n, size_t ki) {
  for (size_t i = 0; i < n; i++)
    if (a[i].kernel == ki)
      return &a[i];
  return NULL;
}

void adv_summary_json(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n, int sm) {
  orion_sb_adds(b, "{\"tool\":\"orion-advise\",\"kernels\":[");
  for (size_t i = 0; i < p->nk; i++) {
    orion_sb_adds(b, i ? ",\n " : "\n ");
    json_kernel(b, p, i, advice_of(a, n, i), sm);
  }
  orion_sb_adds(b, "\n]}\n");
}

/* Markdown table cells: | and newlines would break the row. */
static void md_cell(orion_strbuf *b, const char *s) {
  for (; s && *s; s++)
    if (*s == '|')
      orion_sb_adds(b, "\\|");
    else
      orion_sb_addc(b, *s == '\n' ? ' ' : *s);
  orion_sb_adds(b, " | ");
}

void adv_summary_md(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n) {
  orion_sb_adds(b, "# orion-advise\n\n| kernel | defined at | launches | attribute | advice |\n"
             "|---|---|---:|---|---|\n");
  for (size_t i = 0; i < p->nk; i++) {
    const adv_kernel *k = &p->k[i];
    const adv_advice *x = advice_of(a, n, i);
    size_t launches = 0;
    for (size_t s = 0; s < p->ns; s++)
      launches += p->s[s].kernel == i;
    orion_sb_adds(b, "| `");
    md_cell(b, k->name);
    b->len -= 3, b->p[b->len] = 0;
    orion_sb_addf(b, "` | %s:%u:%u | %zu | ", file_of(&k->loc), k->loc.line, k->loc.col, launches);
    md_cell(b, x && x->attr ? x->attr : "-");
    md_cell(b, x ? x->text : "no report names this kernel");
    b->len -= 1, b->p[b->len] = 0;
    orion_sb_addc(b, '\n');
  }
}

static void yaml_str(orion_strbuf *b, const char *s) {
  orion_sb_addc(b, '\'');
  for (; s && *s; s++)
    orion_sb_adds(b, *s == '\'' ? "''" : (char[2]){*s, 0});
  orion_sb_addc(b, '\'');
}

void adv_fixes_yaml(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n,
                    const char *main_file) {
  orion_sb_adds(b, "---\nMainSourceFile:  ");
  yaml_str(b, main_file);
  orion_sb_adds(b, "\nDiagnostics:\n");
  size_t fixes = 0;
  for (size_t i = 0; i < n; i++) {
    const adv_kernel *k = &p->k[a[i].kernel];
    if (!a[i].attr || !a[i].fixable)
      continue;
    char *text = drv_xasprintf("%s ", a[i].attr);
    orion_sb_adds(b, "  - DiagnosticName:  orion-advise-register-limit\n    DiagnosticMessage:\n"
               "      Message:         ");
    yaml_str(b, a[i].text);
    orion_sb_adds(b, "\n      FilePath:        ");
    yaml_str(b, k->loc.file);
    orion_sb_addf(b, "\n      FileOffset:      %u\n      Replacements:\n        - FilePath:        ",
            k->loc.offset);
    yaml_str(b, k->loc.file);
    orion_sb_addf(b, "\n          Offset:          %u\n          Length:          0\n"
               "          ReplacementText: ",
            k->loc.offset);
    yaml_str(b, text);
    orion_sb_adds(b, "\n    Level:           Warning\n");
    free(text);
    fixes++;
  }
  if (!fixes) { /* an empty list, as clang-tidy writes it */
    b->len -= 1, b->p[b->len] = 0;
    orion_sb_adds(b, " []\n");
  }
  orion_sb_adds(b, "...\n");
}
