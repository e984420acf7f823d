/* tune.c - Fig. 9 selection as a state machine; see tune.h for the
 * algorithm.  Contract: pure, no allocation, no global state; one tuner per
 * (kernel, launch configuration), protected by its caller's lock. */
#include "tune.h"

#include <math.h>
#include <string.h>

enum { PH_WARM, PH_WALK, PH_CONFIRM, PH_EXH, PH_DONE };

void orion_tune_cfg_default(orion_tune_cfg *cfg) {
  cfg->stop = 0.02;
  cfg->equal = 0.01;
  cfg->noise_floor = 0.005;
  cfg->initial_noise = 0.03;
  cfg->max_samples = 3;
  cfg->exhaustive_samples = 3;
  cfg->reject = 0.50;
  cfg->probe_full = 0.90;
}

/* Candidates dropped after a failed launch carry n = -1. */
static int dropped(const orion_tuner *t, int i) { return t->c[i].n < 0; }

double orion_tuner_median(const orion_tuner *t, int i) {
  if (i < 0 || i >= t->n || t->c[i].n <= 0)
    return 0;
  double v[ORION_TUNE_MAX_SAMPLES];
  int n = t->c[i].n;
  memcpy(v, t->c[i].s, (size_t)n * sizeof *v);
  for (int a = 1; a < n; a++) /* insertion sort: n <= 8 */
    for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
      double x = v[b];
      v[b] = v[b - 1];
      v[b - 1] = x;
    }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Relative spread (max - min) / median of a candidate's samples; 0 below 2. */
static double spread(const orion_tuner *t, int i) {
  const orion_tune_cand *c = &t->c[i];
  if (c->n < 2)
    return 0;
  double lo = c->s[0], hi = c->s[0];
  for (int k = 1; k < c->n; k++) {
    lo = c->s[k] < lo ? c->s[k] : lo;
    hi = c->s[k] > hi ? c->s[k] : hi;
  }
  double m = orion_tuner_median(t, i);
  return m > 0 ? (hi - lo) / m : 0;
}

/* The noise band: the largest measured spread, at least the floor; before
 * any candidate has two samples, the initial guess. */
static double noise(const orion_tuner *t) {
  double u = t->cfg.noise_floor;
  int measured = 0;
  for (int i = 0; i < t->n; i++)
    if (t->c[i].n >= 2) {
      double s = spread(t, i);
      u = s > u ? s : u;
      measured = 1;
    }
  return measured ? u : t->cfg.initial_noise;
}

/* Noise guard: which of a and b (a preferred) to launch again when their
 * comparison is within the noise band u, or -1 when more samples would not
 * help: both have reached max_samples, or both have two or more and the
 * noise is below the tie band (their medians are then equal for our
 * purposes).  A cold sample (tune.h, step 1) is replaced first. */
static int guard_pick(const orion_tuner *t, int a, int b, double u) {
  int na = t->c[a].n, nb = t->c[b].n;
  /* a colder sample first (tune.h, step 1): it is the likelier error */
  if (t->c[a].cold != t->c[b].cold) {
    int cold = t->c[a].cold > t->c[b].cold ? a : b;
    if (t->c[cold].n == 1)
      return cold;
  }
  if (na >= 2 && nb >= 2 && u <= t->cfg.equal)
    return -1;
  int first = na <= nb ? a : b, other = first == a ? b : a;
  if (t->c[first].n < t->cfg.max_samples)
    return first;
  if (t->c[other].n < t->cfg.max_samples)
    return other;
  return -1;
}

static void settle(orion_tuner *t) {
  int best = -1, second = -1;
  for (int i = 0; i < t->n; i++) {
    if (dropped(t, i) || t->c[i].n <= 0)
      continue;
    if (best < 0 || orion_tuner_median(t, i) < orion_tuner_median(t, best)) {
      second = best;
      best = i;
    } else if (second < 0 || orion_tuner_median(t, i) < orion_tuner_median(t, second)) {
      second = i;
    }
  }
  /* Noise guard on the choice itself: a runner-up within the noise band
   * is measured again (the one with fewer samples first). */
  if (t->mode == ORION_TUNE_ADAPTIVE && best >= 0 && second >= 0 &&
      orion_tuner_median(t, second) <= orion_tuner_median(t, best) * (1 + noise(t))) {
    int r = guard_pick(t, second, best, noise(t));
    if (r >= 0) {
      t->resample = r;
      t->phase = PH_CONFIRM;
      return;
    }
  }
  if (best < 0)
    best = t->orig;
  else if (t->mode == ORION_TUNE_ADAPTIVE) {
    double limit = orion_tuner_median(t, best) * (1 + t->cfg.equal);
    for (int i = 0; i < best; i++)
      if (!dropped(t, i) && t->c[i].n > 0 && orion_tuner_median(t, i) <= limit) {
        best = i;
        break;
      }
  }
  t->final = best;
  t->best = best;
  t->phase = PH_DONE;
}

/* Next live candidate from i in direction d, or -1. */
static int step(const orion_tuner *t, int i, int d) {
  for (i += d; i >= 0 && i < t->n; i += d)
    if (!dropped(t, i))
      return i;
  return -1;
}

static void end_walk(orion_tuner *t) {
  if (t->best == t->orig && !t->reversed) {
    t->reversed = 1;
    t->dir = -t->dir;
    t->cur = step(t, t->orig, t->dir);
    if (t->cur >= 0)
      return;
  }
  settle(t);
}

/* The walk's current candidate cand left the walk (dropped, or the same as
 * the original): go on to the next one. */
static void walk_past(orion_tuner *t, int cand) {
  if (t->phase != PH_WALK || t->cur != cand)
    return;
  t->cur = step(t, cand, t->dir);
  if (t->cur < 0)
    end_walk(t);
}

static void start_walk(orion_tuner *t) {
  t->phase = PH_WALK;
  t->best = t->orig;
  t->cur = step(t, t->orig, t->dir);
  if (t->cur < 0)
    end_walk(t);
}

/* The walk's decision after a sample of cur or best (tune.h, steps 2-4). */
static void decide(orion_tuner *t) {
  int cur = t->cur, best = t->best;
  if (t->c[cur].n <= 0 || t->c[best].n <= 0)
    return;
  double d = orion_tuner_median(t, cur) / orion_tuner_median(t, best) - 1;
  double u = noise(t);
  /* Cold samples (tune.h, step 1).  The best so far looks slower than a
   * candidate on a sample that may carry a warm-up penalty (the original's
   * first launch): measure it again, warm, before moving on. */
  const orion_tune_cand *cb = &t->c[best], *cc = &t->c[cur];
  if (d < 0 && cb->cold > cc->cold && cb->n == 1) {
    t->resample = best;
    return;
  }
  /* The candidate's cold sample is beyond the stop by no more than the
   * penalty explains: measure it again, warm. */
  if (d > t->cfg.stop && cc->cold && cc->n == 1 && !cb->cold &&
      (orion_tuner_median(t, cur) - t->penalty / cc->cold_work) / orion_tuner_median(t, best) -
              1 <=
          t->cfg.stop + u) {
    t->resample = cur;
    return;
  }
  if ((d < 0 && -d <= u) || fabs(d - t->cfg.stop) <= u) {
    int r = guard_pick(t, cur, best, u);
    if (r >= 0) {
      t->resample = r;
      return;
    }
  }
  if (d < 0)
    t->best = cur;
  if (d > t->cfg.stop) {
    end_walk(t);
    return;
  }
  t->cur = step(t, cur, t->dir);
  if (t->cur < 0)
    end_walk(t);
}

/* Exhaustive: round robin over the candidates still short of samples (or
 * of their warm-up launch), so that work drifting from launch to launch
 * reaches every candidate alike; settle when none is. */
static void exh_advance(orion_tuner *t) {
  for (int k = 1; k <= t->n; k++) {
    int i = (t->cur + k) % t->n;
    if (!dropped(t, i) && (!t->c[i].warm || t->c[i].n < t->cfg.exhaustive_samples)) {
      t->cur = i;
      return;
    }
  }
  settle(t);
}

int orion_tuner_init(orion_tuner *t, orion_tune_mode mode, int n, int orig, int dir,
                     const int *shares_orig, const orion_tune_cfg *cfg) {
  memset(t, 0, sizeof *t);
  if (cfg)
    t->cfg = *cfg;
  else
    orion_tune_cfg_default(&t->cfg);
  if (t->cfg.max_samples < 1 || t->cfg.max_samples > ORION_TUNE_MAX_SAMPLES)
    t->cfg.max_samples = 3;
  if (t->cfg.exhaustive_samples < 1 || t->cfg.exhaustive_samples > ORION_TUNE_MAX_SAMPLES)
    t->cfg.exhaustive_samples = 3;
  if (!(t->cfg.reject > 0))
    t->cfg.reject = 0.50;
  if (!(t->cfg.probe_full > 0))
    t->cfg.probe_full = 0.90;
  t->mode = mode;
  t->resample = -1;
  t->final = -1;
  int bad = n < 1 || n > ORION_TUNE_MAX_CANDS || orig < 0 || orig >= n || (dir != 1 && dir != -1);
  t->n = bad ? 1 : n;
  t->orig = bad ? 0 : orig;
  t->dir = dir == -1 ? -1 : 1;
  for (int i = 0; i < t->n; i++)
    t->c[i].shares_orig_binary = shares_orig ? shares_orig[i] : 0;
  t->c[t->orig].shares_orig_binary = 1;
  t->best = t->orig;
  if (bad || t->n == 1) {
    t->final = t->orig;
    t->phase = PH_DONE;
    return bad ? -1 : 0;
  }
  t->phase = mode == ORION_TUNE_EXHAUSTIVE ? PH_EXH : PH_WARM;
  t->cur = mode == ORION_TUNE_EXHAUSTIVE ? 0 : t->orig;
  return 0;
}

int orion_tuner_next(const orion_tuner *t) {
  if (t->phase == PH_DONE)
    return t->final;
  if (t->phase == PH_WARM)
    return t->orig;
  return t->resample >= 0 ? t->resample : t->cur;
}

int orion_tuner_settled(const orion_tuner *t) { return t->phase == PH_DONE; }

static void add_sample(orion_tuner *t, int i, double v, double work) {
  orion_tune_cand *c = &t->c[i];
  if (c->work_min <= 0 || work < c->work_min)
    c->work_min = work;
  if (c->n >= ORION_TUNE_MAX_SAMPLES) { /* keep the newest */
    memmove(c->s, c->s + 1, (ORION_TUNE_MAX_SAMPLES - 1) * sizeof *c->s);
    c->n--;
  }
  c->s[c->n++] = v;
}

/* Mark the binary of candidate i warm: the original's binary covers every
 * candidate sharing it. */
static void warm_up(orion_tuner *t, int i) {
  if (!t->c[i].shares_orig_binary) {
    t->c[i].warm = 1;
    return;
  }
  for (int k = 0; k < t->n; k++)
    if (t->c[k].shares_orig_binary)
      t->c[k].warm = 1;
}

/* The normalised time of a launch of cand, as measured; a binary's first
 * launch marks it warm and its sample cold (tune.h, step 1).  The warm-up
 * penalty is never subtracted from a sample: on a GPU where the program's
 * very first launch paid for a one-time set-up (a profiler's, a lazy
 * load's: milliseconds), subtracting it made slower versions look up to
 * twice as fast. */
static double first_launch(orion_tuner *t, int cand, double ms, double work) {
  orion_tune_cand *c = &t->c[cand];
  if (!c->warm) {
    if (!c->shares_orig_binary) {
      c->cold = 1;
      c->cold_work = work;
    }
    warm_up(t, cand);
    t->tried++;
  }
  return ms / work;
}

/* A sample of cand in the walk or the confirmation (PH_WALK, PH_CONFIRM).
 * A warm sample replaces a cold one (once: the candidate is warm then). */
static void walk_feed(orion_tuner *t, int cand, double ms, double work) {
  orion_tune_cand *c = &t->c[cand];
  if (c->cold) { /* set by an earlier first launch: the candidate is warm now */
    c->cold = 0;
    c->n = 0;
    c->work_min = 0;
    if (cand == t->orig) { /* the warm-up penalty: first launch minus a warm one */
      t->penalty = t->orig_first_ms - ms / work * t->orig_first_work;
      t->penalty = t->penalty > 0 ? t->penalty : 0;
    }
  }
  double v = first_launch(t, cand, ms, work);
  add_sample(t, cand, v, work);
  if (t->phase == PH_CONFIRM) {
    if (cand == t->resample) {
      t->resample = -1;
      settle(t);
    }
    return;
  }
  if (t->phase != PH_WALK)
    return;
  if (cand == t->resample)
    t->resample = -1;
  if (cand == t->cur || cand == t->best)
    decide(t);
}

int orion_tuner_wants_probe(const orion_tuner *t) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_WALK || t->resample >= 0)
    return 0;
  const orion_tune_cand *c = &t->c[t->cur];
  return t->cur != t->orig && c->n == 0 && !c->probed && !c->skipped;
}

void orion_tuner_feed_probe(orion_tuner *t, int cand, double ms, double work) {
  if (!orion_tuner_wants_probe(t) || cand != t->cur || !(ms >= 0) || !(work > 0))
    return;
  t->launches++;
  t->c[cand].probed = 1;
  double bw = t->c[t->best].work_min;
  if (bw > 0 && work >= bw * t->cfg.probe_full) {
    walk_feed(t, cand, ms, work); /* as large as the best's chunks: a sample */
    return;
  }
  /* A small probe: a stop only if it is far slower even without the
   * warm-up penalty it may carry; otherwise it just warmed the binary. */
  double v = first_launch(t, cand, ms, work), b = orion_tuner_median(t, t->best);
  double lo = t->c[cand].cold ? v - t->penalty / work : v;
  t->c[cand].cold = 0;
  if (b > 0 && lo > b * (1 + t->cfg.reject)) {
    add_sample(t, cand, v, work); /* kept for the report; far slower than best */
    end_walk(t);
  }
}

int orion_tuner_skip(orion_tuner *t, int cand) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase != PH_WALK || t->resample >= 0 ||
      cand != t->cur || cand == t->orig || t->c[cand].n != 0)
    return 0;
  t->c[cand].skipped = 1;
  end_walk(t);
  return 1;
}

void orion_tuner_feed(orion_tuner *t, int cand, double ms, double work) {
  if (t->phase == PH_DONE || cand < 0 || cand >= t->n || dropped(t, cand) || !(ms >= 0) ||
      !(work > 0))
    return;
  t->launches++;
  double v = ms / work;
  switch (t->phase) {
  case PH_WARM: /* the original's first launch: a cold sample (tune.h, 1) */
    if (cand != t->orig)
      break;
    t->orig_first_ms = ms;
    t->orig_first_work = work;
    warm_up(t, cand);
    t->tried = 1;
    add_sample(t, cand, v, work);
    t->c[cand].cold = 2;
    start_walk(t);
    return;
  case PH_EXH:
    if (!t->c[cand].warm) {
      warm_up(t, cand);
      t->tried++;
    } else {
      add_sample(t, cand, v, work);
    }
    if (cand == t->cur)
      exh_advance(t);
    return;
  default:
    break;
  }
  walk_feed(t, cand, ms, work);
}

int orion_tuner_same(orion_tuner *t, int cand) {
  if (t->mode != ORION_TUNE_ADAPTIVE || t->phase == PH_DONE || cand < 0 || cand >= t->n ||
      cand == t->orig || dropped(t, cand) || t->c[cand].n != 0 || t->resample == cand)
    return 0;
  t->c[cand].n = -1; /* out of the walk and of the choice, as a dropped one */
  int live = 0;
  for (int i = 0; i < t->n; i++)
    live += i != t->orig && !dropped(t, i);
  if (!live) { /* only the original is left */
    t->resample = -1;
    t->final = t->best = t->orig;
    t->phase = PH_DONE;
    return 1;
  }
  walk_past(t, cand);
  return 1;
}

void orion_tuner_drop(orion_tuner *t, int cand) {
  if (cand < 0 || cand >= t->n || cand == t->orig || dropped(t, cand))
    return;
  t->c[cand].n = -1;
  if (t->phase == PH_DONE) {
    if (t->final == cand)
      t->final = t->best = t->orig;
    return;
  }
  if (t->resample == cand)
    t->resample = -1;
  if (t->phase == PH_CONFIRM) {
    settle(t);
    return;
  }
  if (t->best == cand)
    t->best = t->orig;
  if (t->phase == PH_EXH) {
    if (t->cur == cand)
      exh_advance(t);
  } else {
    walk_past(t, cand);
  }
}
