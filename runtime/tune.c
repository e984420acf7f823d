/* tune.c - version selection as a state machine; see tune.h for the rule
 * and the theory behind it.  Contract: pure, no allocation, no global
 * state; one tuner per (kernel, launch configuration), protected by its
 * caller's lock. */
#include "tune.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { PH_WARM, PH_WALK, PH_RECHECK, PH_EXH, PH_DONE };
enum { C_UNTRIED, C_TESTING, C_WON, C_LOST, C_DROPPED, C_SAME };

void orion_tune_cfg_default(orion_tune_cfg *cfg) {
  cfg->margin = 0.01;
  cfg->reject = 0.50;
  cfg->min_pairs = 4;
  cfg->max_pairs = 16;
  cfg->max_launches = 96;
  cfg->max_unpaired = 4;
  cfg->confirm_pairs = 3;
  cfg->exhaustive_samples = 3;
  cfg->risk = 0.25;
  cfg->risk_floor = 0.02;
  cfg->cold_ms = 5.0;
  cfg->side_last = 0;
}

static void moments(const orion_tune_stats *p, double *m, double *se) {
  int df;
  orion_stats_moments(p, m, se, &df);
}

static int live(const orion_tuner *t, int i) {
  int s = t->c[i].state;
  return s != C_DROPPED && s != C_SAME;
}

double orion_tuner_median(const orion_tuner *t, int i) {
  if (i < 0 || i >= t->n || t->c[i].n <= 0)
    return 0;
  return orion_stats_median(t->c[i].s, t->c[i].n);
}

/* The log-ratio of cand against the original along its chain of
 * baselines (tune.h, step 9): *lr the sum of the means, *var the sum of
 * the squared standard errors (INFINITY below two pairs somewhere), *n the
 * pairs.  0 when a link has no pair. */
static int chain(const orion_tuner *t, int cand, double *lr, double *var, int *n) {
  *lr = 0, *var = 0, *n = 0;
  for (int hops = 0; cand != t->orig; hops++) {
    const orion_tune_stats *p = &t->c[cand].pairs;
    if (hops >= t->n || p->n <= 0)
      return 0;
    double m, se;
    moments(p, &m, &se);
    *lr += m, *var += se * se, *n += p->n;
    cand = t->c[cand].base;
  }
  return *n > 0;
}

int orion_tuner_estimate(const orion_tuner *t, int cand, double *speedup, double *half,
                         int *pairs) {
  *pairs = 0;
  if (cand < 0 || cand >= t->n || cand == t->orig)
    return 0;
  double lr, var, m2, se2;
  int n;
  int have = chain(t, cand, &lr, &var, &n);
  const orion_tune_stats *rc = &t->c[cand].rc;
  if (rc->n > 0) {
    moments(rc, &m2, &se2);
    if (!have || (isinf(var) && rc->n >= 2)) { /* the re-checks alone */
      lr = m2, var = se2 * se2;
    } else if (!isinf(var) && rc->n >= 2) { /* pooled by inverse variance */
      double w1 = var > 0 ? 1 / var : 1e12, w2 = se2 > 0 ? 1 / (se2 * se2) : 1e12;
      lr = (w1 * lr + w2 * m2) / (w1 + w2);
      var = 1 / (w1 + w2);
    }
    n += rc->n;
  } else if (!have) {
    return 0;
  }
  *speedup = exp(-lr);
  *half = isinf(var) || n < 2 ? 0 : *speedup * orion_stats_t(ORION_T975, n - 1) * sqrt(var);
  *pairs = n;
  return 1;
}

static void add_sample(orion_tune_cand *c, double v) {
  if (c->n >= ORION_TUNE_MAX_SAMPLES) { /* keep the newest */
    memmove(c->s, c->s + 1, (ORION_TUNE_MAX_SAMPLES - 1) * sizeof *c->s);
    c->n--;
  }
  c->s[c->n++] = v;
}

/* The winner with the lowest log-ratio against the original along its
 * chain, else the original. */
static int best_winner(const orion_tuner *t) {
  int best = t->orig;
  double bm = 0, lr, var;
  int n;
  for (int i = 0; i < t->n; i++)
    if (t->c[i].state == C_WON && chain(t, i, &lr, &var, &n) && lr < bm) {
      best = i;
      bm = lr;
    }
  return best;
}

static void settle(orion_tuner *t) {
  t->final = t->best = best_winner(t);
  t->phase = PH_DONE;
}

/* Next untried live candidate of the walk's order from i in direction d,
 * or -1. */
static int step(const orion_tuner *t, int i, int d) {
  for (i += d; i >= 0 && i < t->n; i += d)
    if (t->c[i].state == C_UNTRIED && !t->c[i].side)
      return i;
  return -1;
}

/* The first untried side candidate, or -1 (tune.h, step 4). */
static int next_side(const orion_tuner *t) {
  for (int i = 0; i < t->n; i++)
    if (t->c[i].side && t->c[i].state == C_UNTRIED)
      return i;
  return -1;
}

/* Test candidate i against the best so far: the baseline runs first
 * unless its last sample can be the pair's "before". */
static void start(orion_tuner *t, int i) {
  t->cur = i;
  t->c[i].state = C_TESTING;
  t->have_c = 0;
  if (t->best != t->base) { /* a new champion: no sample of it yet */
    t->base = t->best;
    t->have_o = 0;
  }
  t->c[i].base = t->base;
  t->want_orig = !t->have_o;
}

/* The walk has ended: with cfg.side_last the side candidates are tested
 * now, each against the best so far; then settle. */
static void side_or_settle(orion_tuner *t) {
  int i = t->cfg.side_last ? next_side(t) : -1;
  if (i < 0)
    settle(t);
  else
    start(t, i);
}

/* The walk in the current direction has ended (tune.h, step 4): settle
 * after a win or the reversal, else turn round. */
static void end_direction(orion_tuner *t) {
  int i = -1;
  if (!t->won_dir && !t->reversed) {
    t->reversed = 1;
    t->dir = -t->dir;
    i = step(t, t->orig, t->dir);
  }
  if (i < 0)
    side_or_settle(t);
  else
    start(t, i);
}

/* Go on from candidate `from` in the current direction; side candidates
 * first, and the walk from the original after them (cfg.side_last: the
 * walk first, and after a side candidate only the other side ones). */
static void go_on(orion_tuner *t, int from) {
  int i = t->cfg.side_last ? -1 : next_side(t);
  if (i >= 0) {
    start(t, i);
    return;
  }
  if (t->c[from].side) {
    if (t->cfg.side_last) { /* the walk has ended */
      side_or_settle(t);
      return;
    }
    from = t->orig;
  }
  i = step(t, from, t->dir);
  if (i < 0)
    end_direction(t);
  else
    start(t, i);
}

/* The candidate under test won or lost. */
static void finish(orion_tuner *t, int won) {
  t->c[t->cur].state = won ? C_WON : C_LOST;
  t->best = best_winner(t);
  if (t->c[t->cur].side) /* the walk proper has not begun (side_last: has ended) */
    go_on(t, t->cur);
  else if (won) {
    t->won_dir = 1;
    go_on(t, t->cur);
  } else {
    end_direction(t);
  }
}

/* The test of step 3 on the candidate under test after a new pair. */
static void judge(orion_tuner *t, double x) {
  const orion_tune_stats *p = &t->c[t->cur].pairs;
  double m, se;
  int df;
  orion_stats_moments(p, &m, &se, &df);
  double qw = orion_stats_t(ORION_T99, df), q = orion_stats_t(ORION_T95, df);
  int both = p->n1 > 0 && p->n1 < p->n; /* pairs on both parities */
  const orion_tune_cfg *k = &t->cfg;
  if (p->n >= k->min_pairs && m + qw * se < log(1 - k->margin))
    finish(t, 1);
  else if (x > log(1 + k->reject) || (both && m - q * se > 0) ||
           (p->n >= k->min_pairs && m > log(1 - k->margin / 2)) || p->n >= k->max_pairs)
    finish(t, 0);
}

/* Mark candidate i's binary warm; 1 if it was cold (the launch is then
 * no sample: tune.h, step 1). */
static int warm_up(orion_tuner *t, int i) {
  if (t->c[i].warm)
    return 0;
  t->tried++;
  for (int k = 0; k < t->n; k++)
    if (k == i || (t->c[i].shares_orig_binary && t->c[k].shares_orig_binary))
      t->c[k].warm = 1;
  return 1;
}

/* 1 unless keys a and b differ in their timing bit alone (step 2): a
 * mismatch that counts as unpaired. */
static int unpaired(unsigned long long a, unsigned long long b) {
  return (a ^ b) != ORION_TUNE_KEY_TIMING;
}

/* A sample of the walk (tune.h, steps 2-6).  v = ln(ms / work). */
static void walk_feed(orion_tuner *t, int cand, double v, unsigned long long key) {
  if (cand == t->base) {
    t->want_orig = 0;
    if (t->have_c) { /* the candidate sample's "after" */
      t->have_c = 0;
      if (key == t->c_key) {
        orion_tune_cand *c = &t->c[t->cur];
        if (t->dry) { /* the pattern only: no pair, no verdict */
          t->unpaired = 0;
          t->have_o = 1, t->o_key = key;
          t->want_orig = (c->pairs.n + 1) % 2 == 0;
          return;
        }
        double x = t->c_val - (t->cb_val + v) / 2;
        orion_stats_add(&c->pairs, x, t->c_odd);
        if (c->pairs.n == 1 || x > c->worst)
          c->worst = x;
        t->unpaired = 0;
        t->have_o = 1, t->o_val = v, t->o_key = key;
        t->want_orig = c->pairs.n % 2 == 0; /* the parity shift of step 2 */
        judge(t, x);
        return;
      }
      t->unpaired += unpaired(key, t->c_key);
    }
    t->have_o = 1, t->o_val = v, t->o_key = key;
  } else if (cand == t->cur) {
    t->want_orig = 1;
    if (t->have_o && t->o_key == key) {
      t->have_c = 1, t->c_val = v, t->c_key = key, t->cb_val = t->o_val;
      t->c_odd = (t->launches + t->waits) % 2;
    } else {
      t->unpaired += !t->have_o || unpaired(key, t->o_key);
    }
  }
  if (t->unpaired >= t->cfg.max_unpaired) /* launches differ every time */
    settle(t);
}

/* A sample of a re-check (tune.h, step 7). */
static void recheck_feed(orion_tuner *t, int cand, double v, unsigned long long key) {
  int want = t->rc_step == 1 ? t->orig : t->final;
  if (cand != want || (t->rc_step > 0 && key != t->rc_key)) {
    t->phase = PH_DONE; /* not comparable: no verdict this time */
    return;
  }
  if (!t->c[cand].warm) { /* its binary's first launch here is no sample (step 1) */
    warm_up(t, cand);
    t->phase = PH_DONE;
    return;
  }
  if (t->rc_step == 0) {
    t->rc_b = v, t->rc_key = key, t->rc_step = 1;
    return;
  }
  if (t->rc_step == 1) {
    t->rc_o = v, t->rc_step = 2;
    return;
  }
  t->phase = PH_DONE;
  if (t->dry)
    return;
  double x = (t->rc_b + v) / 2 - t->rc_o;
  orion_stats_add(&t->c[t->final].rc, x, 0);
  t->window[t->rechecks % ORION_TUNE_WINDOW] = x;
  t->rechecks++;
  int w = t->rechecks < ORION_TUNE_WINDOW ? t->rechecks : ORION_TUNE_WINDOW;
  if (w >= 3 && orion_stats_median(t->window, w) > log(1 - t->cfg.margin / 2)) { /* no longer wins */
    t->reverted = 1;
    t->final = t->best = t->orig;
  }
}

/* Exhaustive: round robin over the candidates still short of samples (or
 * of their warm-up launch); settle on the fastest median when none is. */
static void exh_advance(orion_tuner *t) {
  for (int k = 1; k <= t->n; k++) {
    int i = (t->cur + k) % t->n;
    if (live(t, i) && (!t->c[i].warm || t->c[i].n < t->cfg.exhaustive_samples)) {
      t->cur = i;
      return;
    }
  }
  int best = t->orig;
  for (int i = 0; i < t->n; i++)
    if (live(t, i) && t->c[i].n > 0 && orion_tuner_median(t, i) < orion_tuner_median(t, best))
      best = i;
  t->final = t->best = best;
  t->phase = PH_DONE;
}

int orion_tuner_init(orion_tuner *t, orion_tune_mode mode, int n, int orig, int dir,
                     const int *shares_orig, const orion_tune_cfg *cfg) {
  memset(t, 0, sizeof *t);
  if (cfg)
    t->cfg = *cfg;
  else
    orion_tune_cfg_default(&t->cfg);
  orion_tune_cfg d;
  orion_tune_cfg_default(&d);
  if (!(t->cfg.margin > 0 && t->cfg.margin < 1))
    t->cfg.margin = d.margin;
  if (!(t->cfg.reject > 0))
    t->cfg.reject = d.reject;
  if (!(t->cfg.risk >= 0))
    t->cfg.risk = d.risk;
  if (!(t->cfg.cold_ms > 0))
    t->cfg.cold_ms = d.cold_ms;
  if (!(t->cfg.risk_floor >= 0))
    t->cfg.risk_floor = d.risk_floor;
  if (t->cfg.min_pairs < 2)
    t->cfg.min_pairs = d.min_pairs;
  if (t->cfg.max_pairs < t->cfg.min_pairs)
    t->cfg.max_pairs = t->cfg.min_pairs;
  if (t->cfg.max_launches < 1)
    t->cfg.max_launches = d.max_launches;
  if (t->cfg.max_unpaired < 1)
    t->cfg.max_unpaired = d.max_unpaired;
  if (t->cfg.confirm_pairs < 1)
    t->cfg.confirm_pairs = d.confirm_pairs;
  if (t->cfg.exhaustive_samples < 1 || t->cfg.exhaustive_samples > ORION_TUNE_MAX_SAMPLES)
    t->cfg.exhaustive_samples = d.exhaustive_samples;
  t->mode = mode;
  t->final = -1;
  int bad = n < 1 || n > ORION_TUNE_MAX_CANDS || orig < 0 || orig >= n || (dir != 1 && dir != -1);
  t->n = bad ? 1 : n;
  t->orig = bad ? 0 : orig;
  t->dir = dir == -1 ? -1 : 1;
  for (int i = 0; i < t->n; i++) {
    t->c[i].shares_orig_binary = shares_orig ? shares_orig[i] : 0;
    t->c[i].risk = t->cfg.risk;
  }
  t->c[t->orig].shares_orig_binary = 1;
  t->best = t->base = t->orig;
  if (bad || t->n == 1) {
    t->final = t->orig;
    t->phase = PH_DONE;
    return bad ? -1 : 0;
  }
  t->phase = mode == ORION_TUNE_EXHAUSTIVE ? PH_EXH : PH_WARM;
  t->cur = mode == ORION_TUNE_EXHAUSTIVE ? 0 : t->orig;
  return 0;
}

int orion_tuner_side(orion_tuner *t, int cand) {
  if (cand < 0 || cand >= t->n || cand == t->orig)
    return 0;
  t->c[cand].side = 1;
  return 1;
}

void orion_tuner_settle_on(orion_tuner *t, int cand) {
  if (cand < 0 || cand >= t->n || !live(t, cand))
    cand = t->orig;
  t->final = t->best = cand;
  t->phase = PH_DONE;
  warm_up(t, cand); /* the caller runs it before its first re-check */
}

void orion_tuner_settle_checked(orion_tuner *t, int cand, int checks, double sum, double sumsq,
                                const double *win, int nwin) {
  orion_tuner_settle_on(t, cand);
  if (t->final == t->orig || checks <= 0)
    return;
  orion_tune_stats *rc = &t->c[t->final].rc;
  rc->n = checks, rc->sum = sum, rc->sumsq = sumsq;
  t->rechecks = checks;
  /* Pair j of all checks sits in slot j % ORION_TUNE_WINDOW, as
   * recheck_feed puts it.  Not kept: one or two pairs are exactly their
   * sum s and sum of squares q, x = (s +- sqrt(2q - s^2)) / 2; of more,
   * only the mean is known. */
  double d = checks == 2 && 2 * sumsq > sum * sum ? sqrt(2 * sumsq - sum * sum) : 0;
  for (int i = 0; i < ORION_TUNE_WINDOW && i < checks; i++)
    t->window[i] = checks == 2 ? (sum + (i ? d : -d)) / 2 : sum / checks;
  if (!win || nwin <= 0)
    return;
  if (nwin > checks)
    nwin = checks;
  int from = nwin > ORION_TUNE_WINDOW ? nwin - ORION_TUNE_WINDOW : 0;
  for (int i = from; i < nwin; i++)
    t->window[(checks - nwin + i) % ORION_TUNE_WINDOW] = win[i];
}

int orion_tuner_window(const orion_tuner *t, double *out) {
  int w = t->rechecks < ORION_TUNE_WINDOW ? t->rechecks : ORION_TUNE_WINDOW;
  int start = t->rechecks > ORION_TUNE_WINDOW ? t->rechecks % ORION_TUNE_WINDOW : 0;
  for (int i = 0; i < w; i++)
    out[i] = t->window[(start + i) % ORION_TUNE_WINDOW];
  return w;
}

int orion_tuner_next(const orion_tuner *t) {
  switch (t->phase) {
  case PH_DONE:
    return t->final;
  case PH_WARM:
    return t->orig;
  case PH_RECHECK:
    return t->rc_step == 1 ? t->orig : t->final;
  case PH_WALK:
    return t->want_orig ? t->base : t->cur;
  default:
    return t->cur;
  }
}

int orion_tuner_next_ahead(const orion_tuner *t, int cand, unsigned long long key) {
  if (t->mode != ORION_TUNE_ADAPTIVE || (t->phase != PH_WALK && t->phase != PH_RECHECK))
    return -1;
  if (t->phase == PH_WALK && cand == t->base && t->have_c && key == t->c_key &&
      t->c_val > t->cb_val)
    return -1; /* the pair it closes has the candidate slower so far: a verdict against it is
                  likely, and a launch ahead would be one of the loser */
  orion_tuner u = *t;
  u.dry = 1;
  orion_tuner_feed(&u, cand, 1e-9, 1, key); /* any time: a dry feed judges nothing */
  if (u.phase != t->phase || u.cur != t->cur || u.base != t->base)
    return -1;
  if (t->phase == PH_WALK && t->c[t->cur].pairs.n + 1 >= t->cfg.max_pairs)
    return -1; /* that pair ends the test whatever its time */
  return orion_tuner_next(&u);
}

int orion_tuner_settled(const orion_tuner *t) { return t->phase == PH_DONE; }

void orion_tuner_feed(orion_tuner *t, int cand, double ms, double work, unsigned long long key) {
  if (t->phase == PH_DONE || cand < 0 || cand >= t->n || !live(t, cand) || !(ms > 0) ||
      !(work > 0))
    return;
  t->launches++;
  t->c[cand].runs++;
  double o = orion_tuner_median(t, t->orig), v = log(ms / work);
  if (cand != t->orig && o > 0 && t->phase != PH_EXH)
    t->loss += ms - o * work;
  if (t->phase == PH_RECHECK) {
    recheck_feed(t, cand, v, key);
    return;
  }
  /* a clone's cold launch of cold_ms or more is a sample: its cold cost
   * (microseconds) is noise there, and it counts against the clone */
  int cold = warm_up(t, cand) && !(cand != t->orig && ms >= t->cfg.cold_ms);
  if (!cold)
    add_sample(&t->c[cand], ms / work);
  if (t->phase == PH_EXH) {
    if (cand == t->cur)
      exh_advance(t);
    return;
  }
  if (t->phase == PH_WARM) { /* the original's first launch */
    t->phase = PH_WALK;
    if (t->resumed && t->cur != t->orig && t->c[t->cur].state == C_TESTING)
      start(t, t->cur); /* an earlier run's test goes on */
    else if (t->resumed)
      go_on(t, t->best);
    else
      go_on(t, t->orig);
  } else if (cold) {
    t->want_orig = cand != t->base; /* a clone's warm-up: no sample */
  } else {
    walk_feed(t, cand, v, key);
  }
  if (t->phase == PH_WALK && t->launches >= t->cfg.max_launches)
    settle(t);
}

int orion_tuner_recheck(orion_tuner *t) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_DONE || t->final == t->orig ||
      t->reverted)
    return 0;
  t->phase = PH_RECHECK;
  t->rc_step = 0;
  return 1;
}

int orion_tuner_rechecking(const orion_tuner *t) { return t->phase == PH_RECHECK; }

int orion_tuner_confirmed(const orion_tuner *t) {
  return t->phase == PH_DONE &&
         (t->final == t->orig || (!t->reverted && t->rechecks >= t->cfg.confirm_pairs));
}

int orion_tuner_skip(orion_tuner *t, int cand) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_WALK || cand != t->cur ||
      cand == t->orig || t->c[cand].runs)
    return 0;
  finish(t, 0);
  return 1;
}

int orion_tuner_same(orion_tuner *t, int cand) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase == PH_DONE || t->phase == PH_RECHECK ||
      cand < 0 || cand >= t->n || cand == t->orig || !live(t, cand) || t->c[cand].runs ||
      t->c[cand].state == C_WON || cand == t->base) /* (a walk resumed with it) */
    return 0;
  int testing = t->phase == PH_WALK && t->cur == cand;
  t->c[cand].state = C_SAME;
  int left = 0;
  for (int i = 0; i < t->n; i++)
    left += i != t->orig && live(t, i);
  if (!left) /* only the original is left */
    settle(t);
  else if (testing)
    go_on(t, cand);
  return 1;
}

void orion_tuner_drop(orion_tuner *t, int cand) {
  if (cand < 0 || cand >= t->n || cand == t->orig || !live(t, cand))
    return;
  int testing = t->phase == PH_WALK && t->cur == cand;
  t->c[cand].state = C_DROPPED;
  if (t->phase == PH_WALK && cand == t->base) { /* the champion cannot run */
    settle(t); /* best_winner passes over the dropped champion */
    return;
  }
  if (t->final == cand)
    t->final = t->orig;
  t->best = t->phase == PH_DONE || t->phase == PH_RECHECK ? t->final : best_winner(t);
  if (t->phase == PH_RECHECK)
    t->phase = PH_DONE;
  else if (t->phase == PH_EXH && t->cur == cand)
    exh_advance(t);
  else if (testing && t->c[cand].side)
    go_on(t, cand); /* the walk proper has not begun (side_last: has ended) */
  else if (testing)
    end_direction(t);
}

void orion_tuner_set_risk(orion_tuner *t, int cand, double risk) {
  if (cand >= 0 && cand < t->n && risk >= 0)
    t->c[cand].risk = risk;
}

double orion_tuner_stake(const orion_tuner *t) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_WALK || t->have_c)
    return 0;
  const orion_tune_cand *c = &t->c[t->cur];
  if (c->pairs.n <= 0)
    return c->risk;
  double r = exp(c->worst) - 1;
  return r > t->cfg.risk_floor ? r : t->cfg.risk_floor;
}

void orion_tuner_wait(orion_tuner *t) {
  if (t->phase != PH_WALK)
    return;
  t->have_o = 0;
  t->want_orig = 1;
  t->waits++;
}

double orion_tuner_loss(const orion_tuner *t) { return t->loss; }

/* The walk's token (tune.h): "w1,<n>,<cur>,<base>,<dir>,<reversed>,<won_dir>"
 * then per candidate "/<state>,<base>,<n>,<n1>,<sum>,<sumsq>,<sum1>,<worst>". */
int orion_tuner_walk_text(const orion_tuner *t, char *buf, size_t n) {
  if (t->mode != ORION_TUNE_ADAPTIVE || (t->phase != PH_WALK && t->phase != PH_WARM))
    return -1;
  int w = snprintf(buf, n, "w1,%d,%d,%d,%d,%d,%d", t->n, t->cur, t->base, t->dir, t->reversed,
                   t->won_dir);
  for (int i = 0; i < t->n && w >= 0 && (size_t)w < n; i++) {
    const orion_tune_cand *c = &t->c[i];
    /* per-run facts (left out as the original, failed) start afresh */
    int st = c->state == C_SAME || c->state == C_DROPPED ? C_UNTRIED : c->state;
    const orion_tune_stats *p = &c->pairs;
    w += snprintf(buf + w, n - (size_t)w, "/%d,%d,%d,%d,%.6g,%.6g,%.6g,%.6g", st, c->base, p->n,
                  p->n1, p->sum, p->sumsq, p->sum1, c->worst);
  }
  return w < 0 || (size_t)w >= n || w > ORION_TUNE_WALK_MAX ? -1 : w;
}

int orion_tuner_resume(orion_tuner *t, const char *text) {
  orion_tuner r = *t;
  int n, used = 0;
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_WARM ||
      sscanf(text, "w1,%d,%d,%d,%d,%d,%d%n", &n, &r.cur, &r.base, &r.dir, &r.reversed, &r.won_dir,
             &used) != 6 ||
      n != t->n || r.cur < 0 || r.cur >= n || r.base < 0 || r.base >= n ||
      (r.dir != 1 && r.dir != -1))
    return -1;
  const char *p = text + used;
  for (int i = 0; i < n; i++) {
    orion_tune_cand *c = &r.c[i];
    orion_tune_stats *q = &c->pairs;
    int st, k = 0;
    if (sscanf(p, "/%d,%d,%d,%d,%lf,%lf,%lf,%lf%n", &st, &c->base, &q->n, &q->n1, &q->sum,
               &q->sumsq, &q->sum1, &c->worst, &k) != 8 ||
        st < C_UNTRIED || st > C_LOST || c->base < 0 || c->base >= n || q->n < 0 ||
        q->n1 < 0 || q->n1 > q->n || q->n > 1000 || !(q->sumsq >= 0) || !isfinite(q->sum) ||
        !isfinite(q->sum1) || !isfinite(q->sumsq) || !isfinite(c->worst))
      return -1;
    c->state = i == t->orig ? C_UNTRIED : st;
    p += k;
  }
  if (*p || r.c[r.base].state != (r.base == t->orig ? C_UNTRIED : C_WON))
    return -1;
  r.best = best_winner(&r);
  if (r.best != r.base) /* the baseline is the best winner while walking */
    return -1;
  r.resumed = 1;
  *t = r;
  return 0;
}
