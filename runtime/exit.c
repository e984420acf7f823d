/* exit.c - the runtime's work at exit (and on orion_rt_report): the
 * report of what each configuration chose and why (report.h; ORION_REPORT)
 * and the decisions tuning settled, saved to the decision cache
 * (cache.h; ORION_CACHE). */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orion/outfile.h"
#include "plan.h"
#include "report.h"

#define ORION_EXPORT __attribute__((visibility("default")))

/* Original's median time over candidate i's, or 0 when either is unmeasured. */
static double measured_speedup(const rt_config *c, int i) {
  double mo = orion_tuner_median(&c->tuner, c->orig), mi = orion_tuner_median(&c->tuner, i);
  return mo > 0 && mi > 0 ? mo / mi : 0;
}

/* The speedup the report prints for r's choice: the paired estimate with
 * its 95 % half-width (tune.h, step 9) where there are pairs, else 1 for
 * the original, the cached figure, or exhaustive mode's ratio of medians
 * (no interval).  c->mu held. */
static void speedup(const rt_config *c, orion_report_row *r) {
  double sp = 0, half = 0;
  int pairs = 0;
  if (r->chosen == r->orig)
    sp = 1.0;
  else if (orion_tuner_estimate(&c->tuner, r->chosen, &sp, &half, &pairs))
    ;
  else if (c->cached_speedup > 0)
    sp = c->cached_speedup;
  else if (orion_rt.mode == MODE_EXHAUSTIVE)
    sp = measured_speedup(c, r->chosen);
  r->speedup = sp;
  r->speedup_ci = half;
  r->speedup_pairs = pairs;
}

static int collect(orion_report_row **out) {
  int n = 0;
  for (rt_config *c = orion_rt.configs; c; c = c->list_next)
    n++;
  orion_report_row *rows = calloc((size_t)n + 1, sizeof *rows);
  if (!rows)
    return 0;
  int i = 0;
  for (rt_config *c = orion_rt.configs; c; c = c->list_next, i++) {
    orion_report_row *r = &rows[i];
    pthread_mutex_lock(&c->mu);
    r->kernel = c->k->name;
    r->bx = c->bx, r->by = c->by, r->bz = c->bz;
    r->shmem = c->shmem;
    r->mode = orion_rt_mode_names[orion_rt.mode];
    r->source = c->source;
    r->n = c->n;
    r->orig = c->orig;
    int f = atomic_load(&c->final);
    r->chosen = f >= 0 ? f : c->tuner.best;
    r->max_warps = orion_rt.dev[c->k->dev].max_warps;
    r->sms = orion_rt.dev[c->k->dev].sms;
    r->dir = c->tuner.n > 0 ? c->tuner.dir : 0;
    for (int j = 0; j < c->n; j++) {
      orion_report_cand *x = &r->c[j];
      snprintf(x->tag, sizeof x->tag, "%s", c->c[j].tag);
      x->warps = c->c[j].warps;
      x->regs = c->k->bin[c->c[j].bin].regs;
      x->pad = c->c[j].pad;
      x->median_ms_per_kblock = orion_tuner_median(&c->tuner, j) * 1000;
      x->samples = c->tuner.c[j].n > 0 ? c->tuner.c[j].n : 0;
      x->failed = atomic_load(&c->failed[j]);
      x->shares_orig = c->c[j].bin == 0;
      x->risk = c->tuner.n > j ? c->tuner.c[j].risk : 0;
    }
    speedup(c, r);
    r->rechecks = c->tuner.rechecks;
    r->samples = c->samples, r->gap_samples = c->gap_samples;
    r->confirmed = f >= 0 && orion_tuner_confirmed(&c->tuner);
    r->iterations = f >= 0 ? c->iterations : c->tuner.launches;
    r->launches = atomic_load(&c->launches);
    r->split_launches = c->split_launches;
    r->settled_at = c->settled_at;
    pthread_mutex_unlock(&c->mu);
  }
  *out = rows;
  return n;
}

static void write_report(void) {
  orion_report_row *rows = NULL;
  int n = collect(&rows);
  if (!rows)
    return;
  if (orion_rt.report == 1)
    orion_report_table(stderr, rows, n);
  else if (orion_rt.report == 2)
    orion_report_json(stderr, rows, n);
  else if (orion_rt.report == 3) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int ok = f != NULL;
    if (f) {
      orion_report_json(f, rows, n);
      ok = fclose(f) == 0;
    }
    if (!ok || orion_write_file_atomic(orion_rt.report_path, text, len, 0) != 0)
      orion_rt_warn(0, "cannot write the report to %s", orion_rt.report_path);
    free(text);
  }
  free(rows);
}

/* What a configuration that adaptive mode tuned leaves to later runs
 * (cache.h): a decision (the original, or a choice re-checks confirmed; a
 * choice a re-check reverted is replaced by the original), a tentative
 * choice (settled on, its re-checks not all in: the evidence so far), or
 * an open walk (the original, once walks stayed open in
 * ORION_CACHE_OPEN_RUNS runs); and the budget: the GPU time it ran and what tuning lost,
 * added to what earlier runs carried.  c->mu held; 0 when there is none. */
static int cache_entry(rt_config *c, orion_cache_entry *e) {
  const char *s = c->source;
  if (strcmp(s, "tuning") && strcmp(s, "tuned") && strcmp(s, "reverted") && strcmp(s, "cached") &&
      strcmp(s, "tentative"))
    return 0;
  /* the tuner's choice: it stays set while a re-check is under way */
  int f = c->tuner.final >= 0 ? c->tuner.final : atomic_load(&c->final);
  orion_rt_cache_key(c, e);
  int open_runs;
  e->state = orion_plan_carry(f >= 0, f == c->orig, orion_tuner_confirmed(&c->tuner),
                              c->prev_open_runs, &open_runs);
  int tag = f < 0 ? c->orig : f;
  snprintf(e->tag, sizeof e->tag, "%s", c->c[tag].tag);
  double sp = 1.0, half;
  int pairs;
  if (tag != c->orig && !orion_tuner_estimate(&c->tuner, tag, &sp, &half, &pairs))
    sp = c->cached_speedup > 0 ? c->cached_speedup : 1.0;
  e->speedup = sp;
  e->iterations = c->iterations;
  const orion_tune_stats *rc = &c->tuner.c[tag].rc;
  if (e->state == ORION_CACHE_OPEN) /* (orion_rt_cache_key zeroed the rest) */
    e->checks = open_runs;
  else if (tag != c->orig) {
    _Static_assert(ORION_TUNE_WINDOW == ORION_CACHE_WINDOW, "the re-check window fits the cache");
    e->checks = rc->n, e->rc_sum = rc->sum, e->rc_sumsq = rc->sumsq;
    e->nwin = orion_tuner_window(&c->tuner, e->win); /* <= checks: rc counts the same pairs */
  }
  int n = atomic_load(&c->timed_n);
  double ran = n > 0 ? (double)atomic_load(&c->launches) * (double)atomic_load(&c->timed_ns) / n
                     : 0;
  _Static_assert(ORION_TUNE_WALK_MAX < ORION_CACHE_WALK_MAX, "a walk fits the cache");
  if (e->state != ORION_CACHE_OPEN || orion_tuner_walk_text(&c->tuner, e->walk, sizeof e->walk) < 0)
    snprintf(e->walk, sizeof e->walk, "-");
  e->credit_ms = c->prev_credit_ms + ran * 1e-6;
  e->loss_ms = c->prev_loss_ms + orion_tuner_loss(&c->tuner);
  return 1;
}

static void save_cache(void) {
  if (!orion_rt.cache_path[0] || orion_rt.mode != MODE_ADAPTIVE)
    return;
  orion_cache mine = {0};
  for (rt_config *c = orion_rt.configs; c; c = c->list_next) {
    orion_cache_entry e;
    pthread_mutex_lock(&c->mu);
    if (cache_entry(c, &e))
      orion_cache_put(&mine, &e);
    pthread_mutex_unlock(&c->mu);
  }
  char err[512];
  if (mine.n && orion_cache_save(&mine, orion_rt.cache_path, err, sizeof err) != 0)
    orion_rt_warn(W_CACHE_WRITE, "cannot write the decision cache %s", err);
  orion_cache_free(&mine);
}

ORION_EXPORT void orion_rt_report(void) {
  pthread_mutex_lock(&orion_rt.mu);
  write_report();
  pthread_mutex_unlock(&orion_rt.mu);
}

void orion_rt_at_exit(void) {
  pthread_mutex_lock(&orion_rt.mu);
  if (orion_rt.report)
    write_report();
  save_cache();
  pthread_mutex_unlock(&orion_rt.mu);
}