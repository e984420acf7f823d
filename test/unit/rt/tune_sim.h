/* tune_sim.h - the simulated GPU of the tuner's unit tests (test_tune.c,
 * test_tune_side.c): the tuner names a candidate, the "GPU" answers with
 * the candidate's true time per unit of work times the launch's work, a
 * drift of the work from launch to launch (a shrinking LU grid, a BFS
 * frontier), uniform noise, and a warm-up penalty on each binary's first
 * launch. */
#ifndef ORION_TEST_TUNE_SIM_H
#define ORION_TEST_TUNE_SIM_H
#include <math.h>
#include <string.h>

#include "check.h"
#include "tune.h"

typedef struct sim {
  const double *curve; /* true time per unit of work, per candidate */
  int n, orig, dir;
  const int *shares;              /* candidates running the original's binary */
  double noise;                   /* uniform relative noise, +-noise */
  double penalty;                 /* relative extra time of a binary's first launch */
  double (*drift)(int);           /* work of launch i relative to the first, NULL = 1 */
  unsigned long long (*key)(int); /* the comparability key of launch i, NULL = 0 */
  unsigned seed;
  orion_tune_mode mode;
  const int *side; /* side candidates (orion_tuner_side), NULL = none */
} sim;

static inline double urand(unsigned *s) { /* LCG, deterministic */
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) / (double)(1u << 24);
}

typedef struct gpu {
  const sim *s;
  const double *curve; /* the truth now (a re-check case changes it) */
  int it;              /* launches so far */
  unsigned seed;
  int cold[ORION_TUNE_MAX_CANDS], orig_cold;
} gpu;

static inline void gpu_init(gpu *g, const sim *s) {
  memset(g, 0, sizeof *g);
  g->s = s;
  g->curve = s->curve;
  g->seed = s->seed ? s->seed : 12345u;
  for (int i = 0; i < s->n; i++)
    g->cold[i] = 1;
  g->orig_cold = 1;
}

/* One launch of candidate c fed to the tuner. */
static inline void launch(gpu *g, orion_tuner *t, int c) {
  const sim *s = g->s;
  double w = 1000.0 * (s->drift ? s->drift(g->it) : 1.0);
  /* about 1 ms a launch: under cold_ms, so first launches are no samples */
  double ms = g->curve[c] * w * 1e-3 * (1 + s->noise * (2 * urand(&g->seed) - 1));
  int *cold = c == s->orig || (s->shares && s->shares[c]) ? &g->orig_cold : &g->cold[c];
  if (*cold)
    ms *= 1 + s->penalty;
  *cold = 0;
  /* the tuner normalises by blocks; a drifting frontier does not change
   * them (drift is hidden work), a shrinking grid does (key changes) */
  orion_tuner_feed(t, c, ms, 1000.0, s->key ? s->key(g->it) : 0);
  g->it++;
}

/* Tune until settled (or 500 launches); returns launches, *chosen. */
static inline int run(gpu *g, orion_tuner *t, int *chosen) {
  const sim *s = g->s;
  orion_tuner_init(t, s->mode, s->n, s->orig, s->dir, s->shares, NULL);
  for (int i = 0; s->side && i < s->n; i++)
    if (s->side[i])
      CHECK(orion_tuner_side(t, i) == 1, "side %d not marked", i);
  int it = 0;
  while (!orion_tuner_settled(t) && it < 500) {
    launch(g, t, orion_tuner_next(t));
    it++;
  }
  *chosen = orion_tuner_next(t);
  CHECK(t->launches == it, "launch count %d vs %d", t->launches, it);
  return it;
}

#endif /* ORION_TEST_TUNE_SIM_H */
