/* driver/ptxas_versions.c - see ptxas_versions.h. */
#include "ptxas_versions.h"

#include "orion/cubin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion/rt.h"

int optx_record_block(const ptx_module *m, const char *kernel) {
  size_t len = 0;
  const char *line =
      m->records ? orion_record_table_find(m->records, strlen(m->records), kernel, &len) : NULL;
  int block = ORION_DEFAULT_BLOCK;
  orion_record rec;
  char *text = line ? drv_xstrndup(line, len) : NULL;
  if (text && orion_record_parse(text, &rec) == ORION_OK && rec.sel.block > 0)
    block = rec.sel.block;
  free(text);
  return block;
}

int optx_record_set_dsm(orion_cubin *c, const char *kernel, const char *tag, unsigned bytes) {
  char digits[ORION_RECORD_DSM_DIGITS + 2];
  if (snprintf(digits, sizeof digits, "%0*u", ORION_RECORD_DSM_DIGITS, bytes) != ORION_RECORD_DSM_DIGITS)
    return 0;
  size_t pre = strlen(ORION_RECORD_TABLE_PREFIX);
  for (size_t i = 1; i < orion_cubin_symbol_count(c); i++) {
    orion_cubin_symbol s;
    orion_cubin_section sec;
    if (orion_cubin_get_symbol(c, i, &s) || !s.name || strncmp(s.name, ORION_RECORD_TABLE_PREFIX, pre) ||
        orion_cubin_get_section(c, s.shndx, &sec) || !sec.data || s.value > sec.size || s.size > sec.size - s.value)
      continue;
    size_t len = 0;
    const char *table = (const char *)sec.data + s.value;
    const char *line = orion_record_table_find(table, (size_t)s.size, kernel, &len);
    long at = line ? orion_record_dsm_at(line, len, tag) : -1;
    if (at < 0)
      continue;
    unsigned char *copy = drv_xmalloc(sec.size);
    memcpy(copy, sec.data, sec.size);
    memcpy(copy + s.value + (size_t)(line - table) + (size_t)at, digits, ORION_RECORD_DSM_DIGITS);
    orion_status st = orion_cubin_replace_section_data(c, s.shndx, copy, sec.size);
    free(copy);
    return st == ORION_OK;
  }
  return 0;
}

int optx_warps_at(int sm, const ptxas_figures *f, int block) {
  orion_occ_input in = {f->registers, block, (unsigned)(f->smem > 0 ? f->smem : 0), 0};
  orion_occ_result r;
  if (sm <= 0 || block <= 0 || orion_occupancy(sm, &in, &r) != ORION_OK)
    return -1;
  return r.warps_per_sm;
}

int optx_cmd_sm(const optx_cmd *c) {
  int sm = 0;
  if (!c->gpu || orion_arch_from_name(c->gpu, &sm) != ORION_OK)
    return 0;
  return sm;
}

/* name is a capped clone: *kernel (caller frees) is set. */
static int is_capped_clone(const char *name, char **kernel) {
  char *tag = NULL;
  int capped = ptx_split_clone_name(name, kernel, &tag) && strcmp(tag, ORION_SPLIT_SUFFIX) != 0;
  free(tag);
  if (!capped && *kernel) {
    free(*kernel);
    *kernel = NULL;
  }
  return capped;
}

size_t optx_limit_drops(const optx_cmd *c, const ptx_module *m, ptx_edit *edits, char **why) {
  size_t n = 0;
  for (size_t i = 0; c->maxrregcount > 0 && i < m->n_entries; i++) {
    const ptx_entry *pe = &m->entries[i];
    char *kernel = NULL;
    if (!is_capped_clone(pe->name, &kernel) || pe->maxnreg <= c->maxrregcount) {
      free(kernel);
      continue;
    }
    int k = ptx_find_entry(m, kernel);
    free(kernel);
    if (k < 0)
      continue;
    const ptx_entry *orig = &m->entries[k];
    int own = orig->maxnreg || orig->n_maxntid || orig->n_reqntid || orig->minnctapersm;
    if (own && !c->override_directives)
      continue; /* ptxas does not hold the original to N */
    edits[i].drop = 1;
    why[i] = drv_xasprintf("cap %d above --maxrregcount %d, which holds the original: "
                           "not assembled",
                           pe->maxnreg, c->maxrregcount);
    n++;
  }
  return n;
}

size_t optx_rdc_drops(const optx_cmd *c, const ptx_module *m, const char *cubin, optx_result *res,
                      ptx_edit *edits) {
  if (!c->rdc || !m->n_funcs)
    return 0;
  orion_cubin *cb = NULL;
  if (orion_cubin_read_file(cubin, &cb, NULL) != ORION_OK)
    return 0;
  /* the register count of each .func of m, as ptxas compiled it (-1: unknown) */
  int64_t *regs = drv_xmalloc(m->n_funcs * sizeof *regs);
  for (size_t f = 0; f < m->n_funcs; f++)
    regs[f] = -1;
  for (size_t j = 0; j < orion_cubin_func_count(cb); j++) {
    orion_cubin_func fn;
    if (orion_cubin_get_func(cb, j, &fn) != ORION_OK || fn.is_kernel || !fn.name)
      continue;
    for (size_t f = 0; f < m->n_funcs; f++)
      if (strcmp(fn.name, m->funcs[f].name) == 0)
        regs[f] = fn.regcount;
  }
  unsigned char *reached = drv_xmalloc(m->n_funcs);
  size_t n = 0;
  for (size_t i = 0; i < res->n && i < m->n_entries; i++) {
    optx_entry *e = &res->e[i];
    if (!e->is_clone || e->maxnreg <= 0 || edits[i].drop)
      continue;
    ptx_entry_funcs(m, &m->entries[i], reached);
    size_t worst = 0;
    int64_t most = -1;
    for (size_t f = 0; f < m->n_funcs; f++)
      if (reached[f] && regs[f] > most)
        most = regs[f], worst = f;
    if (most <= e->maxnreg)
      continue;
    edits[i].drop = 1;
    free(e->reason);
    e->reason = drv_xasprintf("-rdc: calls %s, compiled once with %lld registers, above this "
                              "version's cap of %d (nvlink refuses the link)",
                              m->funcs[worst].name, (long long)most, e->maxnreg);
    n++;
  }
  free(reached);
  free(regs);
  orion_cubin_free(cb);
  return n;
}

/* An unroll version (orion/select.h): other code, not another cap, so
 * neither the warps walk nor the duplicate rule applies to it. */
static int is_unroll(const optx_entry *e) {
  return e->is_clone && orion_unroll_factor(e->tag) > 0;
}

static int same_figures(const ptxas_figures *a, const ptxas_figures *b) {
  return a->registers == b->registers && a->stack_frame == b->stack_frame &&
         a->spill_stores == b->spill_stores && a->spill_loads == b->spill_loads;
}

/* Clones realised like their kernel or an earlier clone of it.  The split
 * entry (uncapped, hidden parameters: orion/rt.h) is never merged: the
 * runtime needs it whenever it splits a launch, identical or not.  Clones
 * with hidden parameters merge like any other: a deleted version is one the
 * runtime does not try. */
static void mark_duplicates(optx_result *res) {
  for (size_t i = 0; i < res->n; i++) {
    optx_entry *e = &res->e[i];
    if (!e->is_clone || !e->realised || strcmp(e->tag, ORION_SPLIT_SUFFIX) == 0 || is_unroll(e))
      continue;
    int target = -1;
    for (size_t j = 0; j < res->n && target < 0; j++) {
      optx_entry *k = &res->e[j];
      if (j != i && !k->is_clone && k->realised && strcmp(k->name, e->kernel) == 0 &&
          same_figures(&k->fig, &e->fig))
        target = (int)j;
    }
    for (size_t j = 0; j < i && target < 0; j++) {
      optx_entry *k = &res->e[j];
      if (k->is_clone && k->realised && k->duplicate_of < 0 && !is_unroll(k) &&
          strcmp(k->kernel, e->kernel) == 0 && same_figures(&k->fig, &e->fig))
        target = (int)j;
    }
    e->duplicate_of = target;
    if (target >= 0)
      e->reason = drv_xasprintf("realised as %s (same registers, stack frame and spills)",
                                res->e[target].tag);
  }
}

void optx_build_entries(const ptx_module *m, const ptxas_info *info, char **why,
                        optx_result *res) {
  res->n = m->n_entries;
  res->e = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *res->e);
  for (size_t i = 0; i < m->n_entries; i++) {
    const ptx_entry *pe = &m->entries[i];
    optx_entry *e = &res->e[i];
    memset(e, 0, sizeof *e);
    e->name = drv_xstrdup(pe->name);
    if (ptx_split_clone_name(pe->name, &e->kernel, &e->tag)) {
      e->is_clone = 1;
    } else {
      e->kernel = drv_xstrdup(pe->name);
      e->tag = drv_xstrdup("orig");
    }
    e->maxnreg = pe->maxnreg;
    e->threads = ptx_entry_threads(pe);
    e->block = e->threads ? e->threads : optx_record_block(m, e->kernel);
    e->warps = -1;
    e->duplicate_of = e->no_gain_of = -1;
    if (why && why[i]) {
      e->limit_dropped = 1;
      e->reason = why[i];
      why[i] = NULL;
      continue;
    }
    const ptxas_figures *f = ptxas_info_find(info, pe->name);
    if (f && f->has_used) {
      e->realised = 1;
      e->fig = *f;
      e->fig.name = e->name;
    }
  }
  mark_duplicates(res);
}

static int is_walked(const optx_entry *e) {
  return e->is_clone && e->realised && e->warps >= 0 && e->duplicate_of < 0 &&
         strcmp(e->tag, ORION_SPLIT_SUFFIX) != 0 && !is_unroll(e);
}

/* The walk's order: K's clones by cap, highest first (each lower cap should
 * hold more warps), ties in text order. */
typedef struct walk_key {
  int cap;
  size_t index;
} walk_key;

static int walk_cmp(const void *a, const void *b) {
  const walk_key *x = a, *y = b;
  if (x->cap != y->cap)
    return x->cap > y->cap ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Of K's original and the clones of K kept so far (kept[0..n)), the one
 * holding the most warps; -1 if none is known. */
static int best_kept(const optx_result *res, const char *kernel, const size_t *kept, size_t n) {
  int best = -1;
  for (size_t j = 0; j < res->n; j++) {
    const optx_entry *k = &res->e[j];
    if (!k->is_clone && k->realised && k->warps >= 0 && strcmp(k->name, kernel) == 0)
      best = (int)j;
  }
  for (size_t q = 0; q < n; q++)
    if (strcmp(res->e[kept[q]].kernel, kernel) == 0 &&
        (best < 0 || res->e[kept[q]].warps > res->e[best].warps))
      best = (int)kept[q];
  return best;
}

size_t optx_mark_no_gain(int sm, optx_result *res) {
  walk_key *order = drv_xmalloc((res->n ? res->n : 1) * sizeof *order);
  size_t *kept = drv_xmalloc((res->n ? res->n : 1) * sizeof *kept);
  size_t n_order = 0, n_kept = 0, n = 0;
  for (size_t i = 0; i < res->n; i++) {
    optx_entry *e = &res->e[i];
    e->warps = e->realised ? optx_warps_at(sm, &e->fig, e->block) : -1;
    if (is_walked(e))
      order[n_order++] = (walk_key){e->maxnreg, i};
  }
  qsort(order, n_order, sizeof *order, walk_cmp);
  for (size_t q = 0; q < n_order; q++) {
    optx_entry *e = &res->e[order[q].index];
    int b = best_kept(res, e->kernel, kept, n_kept);
    if (b < 0 || e->warps > res->e[b].warps) {
      kept[n_kept++] = order[q].index;
      continue;
    }
    e->no_gain_of = b;
    e->reason = drv_xasprintf("%d warps/SM at %d threads (%d registers), no more than %s's %d",
                              e->warps, e->block, e->fig.registers, res->e[b].tag,
                              res->e[b].warps);
    n++;
  }
  free(order);
  free(kept);
  return n;
}

const char *optx_entry_status(const optx_entry *e) {
  if (e->limit_dropped)
    return "dropped";
  if (!e->realised)
    return "not-compiled";
  if (e->merged)
    return e->duplicate_of >= 0 ? "merged" : "dropped";
  if (e->duplicate_of >= 0)
    return "duplicate";
  return e->no_gain_of >= 0 ? "no-gain" : "kept";
}
