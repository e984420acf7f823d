/* advise/reports.c - the build report, the run report and the decision
 * cache read into plain structs (advise.h, step 2).
 *
 * Build report: orion-cc's document {"tool":"orion-cc","kernels":[...],
 * "builds":[{"gpu":"sm_90","entries":[{kernel, tag, registers, warps,
 * status}]}]} or OrionPass's JSON lines (kernels only, no ptxas figures).
 * Run report: {"orion_report":1,"configs":[...]} as liborionrt writes it
 * (runtime/report.c).  Cache: runtime/cache.c's own reader.  Names are
 * taken as the reports give them; nothing here interprets a decision.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "advise.h"

static json_value *read_json(const char *path, int allow_lines, char **err) {
  orion_strbuf b;
  if (drv_read_file(path, &b) != 0) {
    *err = drv_xasprintf("%s: %s", path, strerror(errno));
    return NULL;
  }
  char *e1 = NULL, *e2 = NULL;
  json_value *v = json_parse(b.p, b.len, &e1);
  if (!v && allow_lines)
    v = json_parse_lines(b.p, b.len, &e2);
  if (!v)
    *err = drv_xasprintf("%s: malformed JSON (%s)", path, e2 ? e2 : e1 ? e1 : "?");
  free(e1);
  free(e2);
  orion_sb_free(&b);
  return v;
}

static void copy_tag(char *dst, const char *src) {
  snprintf(dst, 16, "%s", src ? src : "");
}

static char *dup_or_null(const char *s) {
  return s ? drv_xstrdup(s) : NULL;
}

static int sm_of(const char *gpu) {
  while (gpu && *gpu && (*gpu < '0' || *gpu > '9'))
    gpu++;
  return gpu ? atoi(gpu) : 0;
}

/* ptxas's figures for (kernel, tag) on sm from orion-cc's "builds". */
static void ptxas_figures(const json_value *builds, int sm, const char *kernel, adv_version *v) {
  for (size_t i = 0; builds && builds->kind == JSON_ARR && i < builds->n; i++) {
    const json_value *b = builds->items[i];
    if (sm && sm_of(json_get_str(b, "gpu")) != sm)
      continue;
    const json_value *es = json_get(b, "entries");
    for (size_t j = 0; es && es->kind == JSON_ARR && j < es->n; j++) {
      const char *k = json_get_str(es->items[j], "kernel"), *t = json_get_str(es->items[j], "tag");
      if (!k || !t || strcmp(k, kernel) || strcmp(t, v->tag))
        continue;
      v->registers = (int)json_get_num(es->items[j], "registers", -1);
      v->warps = (int)json_get_num(es->items[j], "warps", -1);
      v->smem = (int)json_get_num(es->items[j], "smem", -1);
      free(v->status);
      v->status = dup_or_null(json_get_str(es->items[j], "status"));
    }
  }
}

/* The pass's static features (passes/kernel_features.h); f->known only
 * when the report splits loads and stores by address space. */
static void features_of(const json_value *k, adv_features *f) {
  const json_value *j = json_get(k, "features");
  memset(f, 0, sizeof *f);
  if (!j || j->kind != JSON_OBJ || !json_get(j, "global_loads"))
    return;
  f->known = 1;
  f->instructions = (long)json_get_num(j, "instructions", 0);
  f->barriers = (long)json_get_num(j, "barriers", 0);
  f->atomics = (long)json_get_num(j, "atomics", 0);
  f->global = (long)(json_get_num(j, "global_loads", 0) + json_get_num(j, "global_stores", 0));
  f->shared = (long)(json_get_num(j, "shared_loads", 0) + json_get_num(j, "shared_stores", 0));
  f->local = (long)(json_get_num(j, "local_loads", 0) + json_get_num(j, "local_stores", 0));
  f->constant = (long)(json_get_num(j, "const_loads", 0) + json_get_num(j, "const_stores", 0));
  f->generic = (long)(json_get_num(j, "generic_loads", 0) + json_get_num(j, "generic_stores", 0));
}

static int add_build(adv_reports *r, const json_value *k, const json_value *builds,
                     const char *path, size_t idx, char **err) {
  const char *name = json_get_str(k, "kernel");
  const json_value *vs = json_get(k, "versions");
  if (!name || !vs || vs->kind != JSON_ARR) {
    *err = drv_xasprintf("%s: kernel %zu has no \"kernel\" name or \"versions\" array: not an "
                         "Orion build report",
                         path, idx);
    return -1;
  }
  r->b = drv_xrealloc(r->b, (r->nb + 1) * sizeof *r->b);
  adv_build *b = &r->b[r->nb++];
  memset(b, 0, sizeof *b);
  b->kernel = drv_xstrdup(name);
  b->sm = (int)json_get_num(k, "sm", 0);
  b->block = (int)json_get_num(k, "block", 0);
  b->block_known = json_get_bool(k, "block_known", 0);
  b->direction = dup_or_null(json_get_str(k, "direction"));
  b->note = dup_or_null(json_get_str(k, "note"));
  features_of(k, &b->f);
  for (size_t i = 0; i < vs->n && b->nv < 8; i++) {
    adv_version *v = &b->v[b->nv++];
    copy_tag(v->tag, json_get_str(vs->items[i], "tag"));
    v->max_regs = (int)json_get_num(vs->items[i], "max_regs", 0);
    v->target_warps = (int)json_get_num(vs->items[i], "target_warps", 0);
    v->registers = v->warps = v->smem = -1;
    v->status = NULL;
    ptxas_figures(builds, b->sm, name, v);
  }
  return 0;
}

int adv_load_build(adv_reports *r, const char *path, char **err) {
  json_value *v = read_json(path, 1, err);
  if (!v)
    return -1;
  const json_value *ks = v->kind == JSON_ARR ? v : json_get(v, "kernels");
  int rc = 0;
  if (!ks || ks->kind != JSON_ARR) {
    *err = drv_xasprintf("%s: no \"kernels\" array: not an Orion build report "
                         "(orion-cc --orion-report or ORION_CC_REPORT)",
                         path);
    rc = -1;
  }
  for (size_t i = 0; rc == 0 && i < ks->n; i++)
    rc = add_build(r, ks->items[i], json_get(v, "builds"), path, i, err);
  json_free(v);
  return rc;
}

static adv_config *new_config(adv_reports *r, const char *kernel, const char *path) {
  r->c = drv_xrealloc(r->c, (r->nc + 1) * sizeof *r->c);
  adv_config *c = &r->c[r->nc++];
  memset(c, 0, sizeof *c);
  c->kernel = drv_xstrdup(kernel);
  c->origin = drv_xstrdup(path);
  c->confirmed = -1;
  c->chosen_regs = c->chosen_warps = c->orig_regs = c->orig_warps = c->max_warps = -1;
  return c;
}

/* The candidate figures of the chosen and the original versions. */
static void config_versions(adv_config *c, const json_value *vs) {
  for (size_t i = 0; vs && vs->kind == JSON_ARR && i < vs->n; i++) {
    const char *t = json_get_str(vs->items[i], "tag");
    if (!t)
      continue;
    if (!strcmp(t, c->chosen))
      c->chosen_pad = (unsigned long long)json_get_num(vs->items[i], "pad", 0);
    if (!strcmp(t, c->original)) {
      c->orig_regs = (int)json_get_num(vs->items[i], "regs", -1);
      c->orig_warps = (int)json_get_num(vs->items[i], "warps", -1);
    }
  }
}

static int add_run_config(adv_reports *r, const json_value *o, const char *path, size_t i,
                          char **err) {
  const char *k = json_get_str(o, "kernel"), *chosen = json_get_str(o, "chosen");
  const json_value *blk = json_get(o, "block");
  int dims = blk && blk->kind == JSON_ARR && blk->n == 3;
  for (size_t j = 0; dims && j < 3; j++)
    dims = blk->items[j]->kind == JSON_NUM && blk->items[j]->num >= 1;
  if (!k || !chosen || !dims) {
    *err = drv_xasprintf("%s: configs[%zu] lacks \"kernel\", \"chosen\" or a 3-element \"block\"",
                         path, i);
    return -1;
  }
  adv_config *c = new_config(r, k, path);
  c->bx = (unsigned)blk->items[0]->num, c->by = (unsigned)blk->items[1]->num;
  c->bz = (unsigned)blk->items[2]->num;
  c->shmem = (unsigned long long)json_get_num(o, "shmem", 0);
  c->source = drv_xstrdup(json_get_str(o, "source") ? json_get_str(o, "source") : "?");
  copy_tag(c->chosen, chosen);
  copy_tag(c->original, json_get_str(o, "original") ? json_get_str(o, "original") : "orig");
  c->chosen_regs = (int)json_get_num(o, "chosen_regs", -1);
  c->chosen_warps = (int)json_get_num(o, "chosen_warps", -1);
  c->max_warps = (int)json_get_num(o, "max_warps", -1);
  c->speedup = json_get_num(o, "speedup", 0);
  c->ci95 = json_get_num(o, "speedup_ci95", 0);
  c->pairs = (int)json_get_num(o, "speedup_pairs", 0);
  c->rechecks = (int)json_get_num(o, "rechecks", 0);
  c->confirmed = json_get_bool(o, "confirmed", -1);
  config_versions(c, json_get(o, "versions"));
  return 0;
}

int adv_load_run(adv_reports *r, const char *path, char **err) {
  json_value *v = read_json(path, 0, err);
  if (!v)
    return -1;
  const json_value *cs = json_get(v, "configs");
  int rc = 0;
  if (!json_get(v, "orion_report") || !cs || cs->kind != JSON_ARR) {
    *err = drv_xasprintf("%s: no \"orion_report\" / \"configs\": not a run report "
                         "(ORION_REPORT=<file>)",
                         path);
    rc = -1;
  }
  for (size_t i = 0; rc == 0 && i < cs->n; i++)
    rc = add_run_config(r, cs->items[i], path, i, err);
  json_free(v);
  return rc;
}

int adv_load_cache(adv_reports *r, const char *path, char **err) {
  orion_cache c = {0};
  char msg[600];
  int bad = 0, first_bad = 0;
  if (orion_cache_load(&c, path, &bad, &first_bad, msg, sizeof msg) != 0) {
    *err = drv_xstrdup(msg);
    return -1;
  }
  if (bad) {
    *err = drv_xasprintf("%s:%d: malformed decision cache line (%d in all)", path, first_bad, bad);
    orion_cache_free(&c);
    return -1;
  }
  for (size_t i = 0; i < c.n; i++) {
    const orion_cache_entry *e = &c.e[i];
    adv_config *x = new_config(r, e->kernel, path);
    x->bx = e->bx, x->by = e->by, x->bz = e->bz;
    x->shmem = e->shmem;
    /* a decision; a tentative choice is a tuned one short of its re-checks;
     * an open entry, tuning that had not settled */
    x->source = drv_xstrdup(e->state == ORION_CACHE_CONFIRMED   ? "cached"
                            : e->state == ORION_CACHE_TENTATIVE ? "tuned"
                                                                : "tuning");
    x->rechecks = e->checks;
    if (e->state == ORION_CACHE_TENTATIVE)
      x->confirmed = 0;
    copy_tag(x->chosen, e->tag);
    copy_tag(x->original, "orig");
    x->speedup = e->speedup;
  }
  orion_cache_free(&c);
  return 0;
}

const adv_version *adv_build_version(const adv_build *b, const char *tag) {
  for (int i = 0; b && i < b->nv; i++)
    if (!strcmp(b->v[i].tag, tag))
      return &b->v[i];
  return NULL;
}

const adv_build *adv_build_for(const adv_reports *r, const char *kernel, int sm) {
  for (size_t i = 0; i < r->nb; i++)
    if (!strcmp(r->b[i].kernel, kernel) && (!sm || r->b[i].sm == sm))
      return &r->b[i];
  return NULL;
}

void adv_reports_free(adv_reports *r) {
  for (size_t i = 0; i < r->nb; i++) {
    free(r->b[i].kernel);
    free(r->b[i].direction);
    free(r->b[i].note);
    for (int j = 0; j < r->b[i].nv; j++)
      free(r->b[i].v[j].status);
  }
  for (size_t i = 0; i < r->nc; i++) {
    free(r->c[i].kernel);
    free(r->c[i].source);
    free(r->c[i].origin);
  }
  for (size_t i = 0; i < r->nu; i++)
    free(r->u[i].kernel);
  free(r->b);
  free(r->c);
  free(r->u);
  memset(r, 0, sizeof *r);
}
