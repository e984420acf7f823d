/* test_tune.c - the runtime's Fig. 9 selection (runtime/tune.c) on
 * synthetic time-vs-occupancy curves shaped like the paper's figures.
 * Each case simulates a program: the tuner names a candidate, the "GPU"
 * answers with the curve's time for that candidate times the launch's work,
 * plus noise and a warm-up penalty on the first launch of each binary.
 * Each asserts the candidate chosen and the launches tuning took. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "tune.h"

typedef struct sim {
  const double *curve;     /* true time per unit of work, per candidate */
  int n, orig, dir;
  const int *shares;       /* candidates running the original's binary */
  double noise;            /* uniform relative noise, +-noise */
  double penalty;          /* ms added to the first launch of a binary */
  const double *work;      /* per-launch work pattern (cycled), NULL = 1000 */
  int nwork;
  unsigned seed;
  orion_tune_mode mode;
  const orion_tune_cfg *cfg; /* NULL = defaults */
  double drift;              /* hidden work growing per launch (bfs), relative */
} sim;

static double urand(unsigned *s) { /* LCG, deterministic */
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) / (double)(1u << 24);
}

/* The warm-up penalty of a launch of candidate c: the first launch of each
 * binary (candidates sharing the original's count as the original). */
static double first_launch_penalty(const sim *s, int c, int *cold, int *orig_cold) {
  int shared = c == s->orig || (s->shares && s->shares[c]);
  int *flag = shared ? orig_cold : &cold[c];
  double p = *flag ? s->penalty : 0;
  *flag = 0;
  return p;
}

/* Runs until settled (or 100 launches); returns launches, *chosen = final. */
static int run(const sim *s, int *chosen) {
  orion_tuner t;
  orion_tuner_init(&t, s->mode, s->n, s->orig, s->dir, s->shares, s->cfg);
  int cold[ORION_TUNE_MAX_CANDS + 1];
  for (int i = 0; i < s->n; i++)
    cold[i] = 1;
  int orig_cold = 1;
  unsigned seed = s->seed ? s->seed : 12345u;
  int it = 0;
  while (!orion_tuner_settled(&t) && it < 100) {
    int c = orion_tuner_next(&t);
    double w = s->work ? s->work[it % s->nwork] : 1000.0;
    double ms = s->curve[c] * w * (1 + s->noise * (2 * urand(&seed) - 1)) * (1 + s->drift * it);
    ms += first_launch_penalty(s, c, cold, &orig_cold);
    orion_tuner_feed(&t, c, ms, w);
    it++;
  }
  *chosen = orion_tuner_next(&t);
  CHECK(t.launches == it, "launch count %d vs %d", t.launches, it);
  return it;
}

/* Like run, on a split launch: the walk's first look at a candidate is a
 * probe chunk of probe_work units when probe_work > 0 (full chunks are
 * 1000); every chunk also costs `overhead` ms (launch, ramp-up, tail).
 * *cost = the time spent beyond the true best candidate's. */
static int run_probed(const sim *s, double probe_work, double overhead, int *chosen,
                      double *cost) {
  orion_tuner t;
  orion_tuner_init(&t, s->mode, s->n, s->orig, s->dir, s->shares, s->cfg);
  int cold[ORION_TUNE_MAX_CANDS], orig_cold = 1, it = 0;
  double best = s->curve[0];
  for (int i = 0; i < s->n; i++) {
    cold[i] = 1;
    best = s->curve[i] < best ? s->curve[i] : best;
  }
  *cost = 0;
  while (!orion_tuner_settled(&t) && it < 100) {
    int c = orion_tuner_next(&t), probe = probe_work > 0 && orion_tuner_wants_probe(&t);
    double w = probe ? probe_work : 1000.0, ms = s->curve[c] * w + overhead;
    *cost += (s->curve[c] - best) * w;
    ms += first_launch_penalty(s, c, cold, &orig_cold);
    if (probe)
      orion_tuner_feed_probe(&t, c, ms, w);
    else
      orion_tuner_feed(&t, c, ms, w);
    it++;
  }
  *chosen = orion_tuner_next(&t);
  CHECK(t.launches == it, "launch count %d vs %d", t.launches, it);
  return it;
}

int main(void) {
  int chosen, launches;

  /* Fig. 1: a single minimum, increasing direction.  Candidates are the
   * original (8 warps) and clones at 16, 24, 40 and 64 warps.  Launches:
   * the original, 16 (faster than the original's cold first sample, so the
   * original runs again, warm), 24 (best), 40 (worse by > 2 %). */
  static const double fig1[] = {1.00, 0.80, 0.70, 0.90, 1.50};
  sim s1 = {fig1, 5, 0, +1, NULL, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s1, &chosen);
  CHECK(chosen == 2, "fig1 chose %d", chosen);
  CHECK(launches == 5, "fig1 took %d launches", launches);

  /* Monotone: the highest occupancy is best; the walk runs out. */
  static const double mono[] = {1.00, 0.90, 0.80, 0.70};
  sim s1b = {mono, 4, 0, +1, NULL, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s1b, &chosen);
  CHECK(chosen == 3 && launches == 5, "monotone chose %d in %d", chosen, launches);

  /* Fig. 2 / Fig. 10 (srad): decreasing direction by padding (candidates
   * 0..2 run the original's binary), a plateau down to half the warps.
   * Walk 48 (within the initial noise band of the stop threshold, so it
   * runs again and the noise is measured: none), 32 (equal), 16 (10 %
   * worse); the original is confirmed against the runner-up 48; the choice
   * is the fewest warps at the same speed, 32. */
  static const double plateau[] = {1.10, 1.004, 1.002, 1.00};
  static const int pad3[] = {1, 1, 1, 0};
  sim s2 = {plateau, 4, 3, -1, pad3, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s2, &chosen);
  CHECK(chosen == 1, "plateau chose %d", chosen);
  CHECK(launches == 7, "plateau took %d launches", launches);

  /* Low-pressure kernel whose first step down is clearly slower: settles on
   * the original after two launches (no candidates the other way): a
   * slower candidate needs no warm sample of the original. */
  static const double steep[] = {1.6, 1.3, 1.00};
  static const int pad2[] = {1, 1, 0};
  sim s3 = {steep, 3, 2, -1, pad2, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s3, &chosen);
  CHECK(chosen == 2 && launches == 2, "steep chose %d in %d", chosen, launches);

  /* Mispredicted direction: predicted increasing, but the first step up is
   * 20 % slower; the fail-safe reversal walks down (padding) and finds the
   * minimum at candidate 1. */
  static const double mis[] = {1.05, 0.85, 1.00, 1.20, 1.40};
  static const int pad_mis[] = {1, 1, 0, 0, 0};
  sim s4 = {mis, 5, 2, +1, pad_mis, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s4, &chosen);
  CHECK(chosen == 1, "mispredicted chose %d", chosen);
  CHECK(launches == 5, "mispredicted took %d launches", launches);

  /* Work that changes per launch (the paper's bfs failure): per-unit times
   * favour candidate 2, but the launches happen to get smaller as the walk
   * goes on, so raw times would favour the last one.  Normalising by work
   * chooses 2. */
  static const double wc[] = {1.00, 0.90, 0.80, 0.85, 0.95};
  static const double work[] = {4000, 4000, 3000, 2000, 500, 400, 300, 200};
  sim s5 = {wc, 5, 0, +1, NULL, 0, 0, work, 8, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s5, &chosen);
  CHECK(chosen == 2, "changing work chose %d", chosen);
  CHECK(launches <= 7, "changing work took %d launches", launches);

  /* +-3 % noise on a curve whose minimum is 4.5 % ahead of its neighbour:
   * over 200 seeds the choice is always the minimum, and tuning takes at
   * most 12 launches; the same runs without the noise guard (one sample
   * per candidate) pick the neighbour in some runs. */
  static const double noisy[] = {1.00, 0.86, 0.78, 0.815, 0.95};
  int worst_launches = 0, wrong = 0;
  double total = 0;
  for (unsigned seed = 1; seed <= 200; seed++) {
    sim s6 = {noisy, 5, 0, +1, NULL, 0.03, 0, NULL, 0, seed, ORION_TUNE_ADAPTIVE, NULL, 0};
    launches = run(&s6, &chosen);
    total += launches;
    worst_launches = launches > worst_launches ? launches : worst_launches;
    if (noisy[chosen] > 1.02 * 0.78)
      wrong++;
  }
  CHECK(wrong == 0, "noise: %d of 200 runs chose a version > 2 %% off the best", wrong);
  orion_tune_cfg no_guard;
  orion_tune_cfg_default(&no_guard);
  no_guard.max_samples = 1;
  int wrong_unguarded = 0;
  for (unsigned seed = 1; seed <= 200; seed++) {
    sim s6 = {noisy, 5, 0, +1, NULL, 0.03, 0, NULL, 0, seed, ORION_TUNE_ADAPTIVE, &no_guard, 0};
    run(&s6, &chosen);
    wrong_unguarded += noisy[chosen] > 1.02 * 0.78;
  }
  CHECK(wrong_unguarded > 0, "noise: the case is hard enough that one sample errs");
  printf("noise +-3%%: %d of 200 runs wrong without the guard\n", wrong_unguarded);
  CHECK(worst_launches <= 12, "noise: worst case %d launches", worst_launches);
  printf("noise +-3%%: mean %.2f launches, worst %d\n", total / 200, worst_launches);

  /* Noise guard: a candidate 2.2 % slower than the original sits within the
   * noise of the stop threshold, so it is measured again before the walk
   * decides; without the guard one sample would decide. */
  static const double edge[] = {1.00, 1.022, 0.90};
  sim s7 = {edge, 3, 0, +1, NULL, 0.01, 0, NULL, 0, 7, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s7, &chosen);
  CHECK(launches >= 4, "edge: guard resampled (%d launches)", launches);

  /* Warm-up penalty: every binary's first launch costs 6 % extra.  The
   * original's two launches measure it; candidate 1's cold sample (1.03)
   * is beyond the stop by less than the penalty explains, so it runs again
   * warm (0.97) and the walk goes on to the true minimum instead of
   * stopping at the inflated first sample: orig x2, 1 x2, 2 (stop). */
  static const double warm[] = {1.00, 0.97, 1.10};
  sim s8 = {warm, 3, 0, +1, NULL, 0, 60.0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&s8, &chosen);
  CHECK(chosen == 1, "warm-up chose %d", chosen);
  CHECK(launches == 5, "warm-up took %d launches", launches);

  /* Exhaustive: one warm-up plus three samples per binary; padding versions
   * share the original's warm-up. */
  static const double ex[] = {1.2, 1.1, 1.0, 0.95, 1.3};
  static const int padex[] = {1, 1, 0, 0, 0};
  sim s9 = {ex, 5, 2, +1, padex, 0, 0, NULL, 0, 0, ORION_TUNE_EXHAUSTIVE, NULL, 0};
  launches = run(&s9, &chosen);
  CHECK(chosen == 3, "exhaustive chose %d", chosen);
  CHECK(launches == 5 * 3 + 3, "exhaustive took %d launches", launches);

  /* Exhaustive under work that grows 1 % per launch while the blocks stay
   * the same (bfs's frontier): round robin spreads the drift over every
   * candidate, so the truly 3 % faster candidate 1 wins; sampling one
   * candidate after the other would blame the drift on candidate 1. */
  static const double dr[] = {1.00, 0.97};
  sim s10 = {dr, 2, 0, +1, NULL, 0, 0, NULL, 0, 0, ORION_TUNE_EXHAUSTIVE, NULL, 0.01};
  launches = run(&s10, &chosen);
  CHECK(chosen == 1, "exhaustive with drift chose %d", chosen);

  /* Probes (euler_flux on the H200): p20 (padding) 1.2x, the original,
   * r40 2.25x, predicted increasing.  The probe of r40 (a quarter of a full
   * chunk) is > 50 % slower: a stop without a full chunk; the reversal's
   * p20 probe is within 50 %, so p20 also runs a full chunk (1.2x: stop).
   * The choice is the original either way; probing costs less than half. */
  static const double eu[] = {1.20, 1.00, 2.25};
  static const int eush[] = {1, 0, 0};
  sim se = {eu, 3, 1, +1, eush, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  double cost_probe, cost_full;
  launches = run_probed(&se, 250, 0, &chosen, &cost_probe);
  CHECK(chosen == 1 && launches == 4, "euler probed chose %d in %d", chosen, launches);
  launches = run_probed(&se, 0, 0, &chosen, &cost_full);
  CHECK(chosen == 1 && launches == 3, "euler unprobed chose %d in %d", chosen, launches);
  CHECK(cost_probe < 0.5 * cost_full, "probing cost %g vs %g", cost_probe, cost_full);
  printf("euler-like curve: tuning cost %.0f with probes, %.0f without\n", cost_probe, cost_full);

  /* A faster candidate passes its probe and is then measured in full
   * (particles after pruning: p28 1.34x, orig, r40 0.94x). */
  static const double pa[] = {1.34, 1.00, 0.94};
  static const int pash[] = {1, 0, 0};
  sim sp = {pa, 3, 1, +1, pash, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run_probed(&sp, 250, 0, &chosen, &cost_probe);
  CHECK(chosen == 2 && launches == 4, "particles probed chose %d in %d", chosen, launches);

  /* The probe is a binary's first launch: its warm-up penalty (150, i.e.
   * +60 % on a 250 probe) would reject a 2 % faster clone; the correction
   * measured on the original's two launches keeps it. */
  static const double wp[] = {1.00, 0.98};
  sim sw = {wp, 2, 0, +1, NULL, 0, 150.0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run_probed(&sw, 250, 0, &chosen, &cost_probe);
  CHECK(chosen == 1, "cold probe chose %d", chosen);

  /* A fixed cost per chunk (100: +40 % on a probe of 250, +10 % on a full
   * chunk; particles' long tails) leaves an equally fast padding version
   * (no warm-up correction: it runs the original's binary) within the 50 %
   * band: measured in full, then chosen as the one with fewer warps. */
  static const double eq[] = {1.00, 1.00};
  static const int eqsh[] = {1, 0};
  sim sq = {eq, 2, 1, -1, eqsh, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run_probed(&sq, 250, 100, &chosen, &cost_probe);
  CHECK(chosen == 0, "overhead: probe kept the equal pad (chose %d)", chosen);

  /* A probe as large as the original's chunks is a sample (nlm_denoise on
   * the H200: orig, r80 1.22x, r48, r32, predicted increasing, the probe
   * chunk of r80 cut to the same 1156 blocks as the original's): the walk
   * stops on it, no full chunk of r80, two launches in all. */
  static const double nl[] = {1.00, 1.22, 1.30, 1.60};
  sim sn = {nl, 4, 0, +1, NULL, 0, 0, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  double cost_same;
  launches = run_probed(&sn, 1000, 0, &chosen, &cost_same);
  CHECK(chosen == 0 && launches == 2, "nlm same-size probe chose %d in %d", chosen, launches);
  launches = run_probed(&sn, 250, 0, &chosen, &cost_probe);
  CHECK(chosen == 0 && launches == 3, "nlm small probe chose %d in %d", chosen, launches);
  CHECK(cost_same < cost_probe, "same-size probe cost %g vs %g", cost_same, cost_probe);
  /* ... and a faster candidate's same-size probe moves the walk on at once
   * (Fig. 1's curve: orig x2, 16, 24, 40: as without probes). */
  launches = run_probed(&s1, 1000, 0, &chosen, &cost_same);
  CHECK(chosen == 2 && launches == 5, "fig1 same-size probes chose %d in %d", chosen, launches);
  /* A probe just below probe_full of the best's chunk is not a sample. */
  orion_tuner tp;
  orion_tuner_init(&tp, ORION_TUNE_ADAPTIVE, 2, 0, +1, NULL, NULL);
  orion_tuner_feed(&tp, 0, 1000.0, 1000);
  orion_tuner_feed(&tp, 0, 1000.0, 1000);
  orion_tuner_feed_probe(&tp, 1, 890 * 1.1, 890);
  CHECK(tp.c[1].n == 0 && !orion_tuner_settled(&tp) && orion_tuner_next(&tp) == 1,
        "a probe of 89 %% is a warm-up, not a sample");
  orion_tuner_init(&tp, ORION_TUNE_ADAPTIVE, 2, 0, +1, NULL, NULL);
  orion_tuner_feed(&tp, 0, 1000.0, 1000);
  orion_tuner_feed(&tp, 0, 1000.0, 1000);
  orion_tuner_feed_probe(&tp, 1, 900 * 1.1, 900);
  CHECK(tp.c[1].n == 1 && orion_tuner_settled(&tp) && orion_tuner_next(&tp) == 0,
        "a probe of 90 %% 10 %% slower is a stop");

  /* A one-time set-up paid by the program's first launch only (a profiler
   * under CUPTI on the H200: the first chunk of nlm_denoise took 1.95 ms
   * against 0.49 ms; clones' first chunks were not slowed).  The penalty
   * measured on the original must not make a 1.22x slower clone look
   * faster (it did when it was subtracted: r80 chosen).  The clone's cold
   * sample could be explained by the penalty, so it runs once more, warm,
   * and the walk stops on it: the original, four launches. */
  orion_tuner tc;
  orion_tuner_init(&tc, ORION_TUNE_ADAPTIVE, 4, 0, +1, NULL, NULL);
  orion_tuner_feed(&tc, 0, 1.95, 1156);
  CHECK(orion_tuner_next(&tc) == 1 && orion_tuner_wants_probe(&tc), "one-time: walk at r80");
  orion_tuner_feed_probe(&tc, 1, 0.6047, 1156);
  CHECK(!orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 0,
        "one-time: r80 looks faster than the cold original: the original again");
  orion_tuner_feed(&tc, 0, 0.4968, 1156);
  CHECK(!orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 1 && tc.c[1].cold,
        "one-time: cold r80 sample measured again");
  orion_tuner_feed(&tc, 1, 0.6031, 1156);
  CHECK(orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 0 && tc.launches == 4 &&
            tc.c[1].n == 1 && !tc.c[1].cold && tc.c[0].n == 1,
        "one-time: settled on %d after %d launches (r80 %d samples)", orion_tuner_next(&tc),
        tc.launches, tc.c[1].n);
  /* ... and with a small probe, the cold original keeps it from being a
   * stop; the full chunk that follows is warm. */
  orion_tuner_init(&tc, ORION_TUNE_ADAPTIVE, 4, 0, +1, NULL, NULL);
  orion_tuner_feed(&tc, 0, 1.95, 1156);
  orion_tuner_feed_probe(&tc, 1, 0.40, 408);
  CHECK(!orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 1 && tc.c[1].n == 0 &&
            !tc.c[1].cold,
        "one-time: small probe only warmed r80");
  orion_tuner_feed(&tc, 1, 0.6031, 1156);
  CHECK(!orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 0, "one-time: original again");
  orion_tuner_feed(&tc, 0, 0.4968, 1156);
  CHECK(orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 0 && tc.launches == 4,
        "one-time: small probe, orig in %d", tc.launches);
  /* A clone's cold sample faster than a warm best is taken as it is (the
   * penalty can only have slowed it). */
  orion_tuner_init(&tc, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_feed(&tc, 0, 1.95, 1000);
  orion_tuner_feed(&tc, 1, 0.90, 1000);
  orion_tuner_feed(&tc, 0, 1.00, 1000);
  CHECK(orion_tuner_next(&tc) == 2 && tc.c[1].cold, "one-time: walk at 2");
  orion_tuner_feed(&tc, 2, 0.80, 1000); /* cold, faster than cold 1: taken */
  CHECK(orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 2 && tc.launches == 4,
        "one-time: the faster clone chosen (%d in %d)", orion_tuner_next(&tc), tc.launches);

  /* A candidate within the noise of the original's cold first sample: the
   * original runs again first, not the candidate (streamcluster on the
   * H200: orig 0.1374 ms cold, p48 0.1376, orig 0.1104 warm; p48 was
   * launched twice before).  Three launches, the original chosen. */
  static const int scsh[] = {1, 1, 1, 0};
  orion_tuner_init(&tc, ORION_TUNE_ADAPTIVE, 4, 3, -1, scsh, NULL);
  orion_tuner_feed(&tc, 3, 0.1374, 8192);
  CHECK(orion_tuner_next(&tc) == 2, "streamcluster: walk at p48");
  orion_tuner_feed(&tc, 2, 0.1376, 8192);
  CHECK(orion_tuner_next(&tc) == 3 && !orion_tuner_settled(&tc),
        "streamcluster: the cold original runs again (next %d)", orion_tuner_next(&tc));
  orion_tuner_feed(&tc, 3, 0.1104, 8192);
  CHECK(orion_tuner_settled(&tc) && orion_tuner_next(&tc) == 3 && tc.launches == 3,
        "streamcluster: settled on %d after %d launches", orion_tuner_next(&tc), tc.launches);

  /* Predicted stops (the round guard): recursive_gauss after pruning, p24
   * (padding) and the original, predicted increasing.  Nothing above the
   * original; the reversal reaches p24, which the caller skips: settled on
   * the original after its two launches. */
  orion_tuner t;
  static const int rgsh[] = {1, 0};
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 2, 1, +1, rgsh, NULL);
  CHECK(!orion_tuner_skip(&t, 0), "no skip before the walk");
  orion_tuner_feed(&t, 1, 1.0, 1);
  orion_tuner_feed(&t, 1, 1.0, 1);
  CHECK(orion_tuner_next(&t) == 0 && orion_tuner_wants_probe(&t), "walk reaches p24");
  CHECK(!orion_tuner_skip(&t, 1), "only the walk's candidate can be skipped");
  CHECK(orion_tuner_skip(&t, 0), "p24 skipped");
  CHECK(orion_tuner_settled(&t) && orion_tuner_next(&t) == 1 && t.launches == 2,
        "settled on the original after 2 launches");
  /* A skip in the predicted direction ends that direction; the reversal
   * goes on (mispredicted: 0.9x below the original). */
  static const int sk_sh[] = {1, 0, 0};
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 1, +1, sk_sh, NULL);
  orion_tuner_feed(&t, 1, 1.0, 1);
  orion_tuner_feed(&t, 1, 1.0, 1);
  CHECK(orion_tuner_skip(&t, 2) && orion_tuner_next(&t) == 0, "skip up, reverse down");
  orion_tuner_feed(&t, 0, 0.9, 1);
  CHECK(orion_tuner_settled(&t) && orion_tuner_next(&t) == 0, "reversal chose 0");
  /* Exhaustive mode measures everything: no skips, no probes. */
  orion_tuner_init(&t, ORION_TUNE_EXHAUSTIVE, 3, 1, +1, NULL, NULL);
  CHECK(!orion_tuner_skip(&t, 0) && !orion_tuner_wants_probe(&t), "exhaustive");
  /* A probe fed when none is wanted is ignored. */
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_feed_probe(&t, 0, 1.0, 1);
  CHECK(t.launches == 0 && orion_tuner_next(&t) == 0, "unwanted probe ignored");

  /* A version that fails to launch is dropped and never chosen. */
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_feed(&t, 0, 1.0, 1);
  orion_tuner_feed(&t, 0, 1.0, 1);
  CHECK(orion_tuner_next(&t) == 1, "walk at 1");
  orion_tuner_drop(&t, 1);
  CHECK(orion_tuner_next(&t) == 2, "skips dropped 1");
  orion_tuner_feed(&t, 2, 2.0, 1);
  CHECK(orion_tuner_settled(&t) && orion_tuner_next(&t) == 0, "settles on original");
  orion_tuner_drop(&t, 0); /* the original cannot be dropped */
  CHECK(orion_tuner_next(&t) == 0, "original stays");
  /* Exhaustive: a version that fails on its first (warm-up) launch is
   * never named again; the others are still measured in full.  (The
   * runtime's padded launches of the original fail so when the program
   * lowers the original's dynamic shared memory limit again.) */
  orion_tuner_init(&t, ORION_TUNE_EXHAUSTIVE, 3, 1, +1, NULL, NULL);
  int named[3] = {0, 0, 0}, guard = 0;
  while (!orion_tuner_settled(&t) && guard++ < 100) {
    int i = orion_tuner_next(&t);
    named[i]++;
    if (i == 0)
      orion_tuner_drop(&t, 0);
    else
      orion_tuner_feed(&t, i, i == 2 ? 0.5 : 1.0, 1);
  }
  CHECK(orion_tuner_settled(&t) && named[0] == 1 && orion_tuner_next(&t) == 2,
        "exhaustive drop: named %d/%d/%d times, chose %d", named[0], named[1], named[2],
        orion_tuner_next(&t));
  CHECK(named[1] == named[2] && named[1] >= 2, "exhaustive drop: others measured (%d, %d)",
        named[1], named[2]);
  /* A settled choice that fails later becomes the original. */
  orion_tuner_drop(&t, 2);
  CHECK(orion_tuner_settled(&t) && orion_tuner_next(&t) == 1, "settled drop chose %d",
        orion_tuner_next(&t));

  /* Bad arguments settle at once; junk samples are ignored. */
  CHECK(orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 0, 0, 1, NULL, NULL) == -1 &&
            orion_tuner_settled(&t) && orion_tuner_next(&t) == 0,
        "n=0");
  CHECK(orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 5, 1, NULL, NULL) == -1, "orig out of range");
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 1, 1, NULL, NULL);
  orion_tuner_feed(&t, 1, NAN, 1);
  orion_tuner_feed(&t, 1, 1.0, 0);
  orion_tuner_feed(&t, 7, 1.0, 1);
  CHECK(t.launches == 0 && !orion_tuner_settled(&t), "junk ignored");
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 1, 0, 1, NULL, NULL);
  CHECK(orion_tuner_settled(&t) && orion_tuner_next(&t) == 0, "single candidate");

  /* backprop's layer_forward, H200 figures: orig 2.5, p48 3.4 per unit.
   * The host's submission of the program's first launch (in the events)
   * made the original's first sample 1.7x its warm time (here 1.5x): it
   * looked slower than p48 and ran again, warm: three launches. */
  static const double lf[] = {1.45, 1.40, 1.36, 1.00};
  sim g2c = {lf, 4, 3, -1, pad3, 0, 500, NULL, 0, 0, ORION_TUNE_ADAPTIVE, NULL, 0};
  launches = run(&g2c, &chosen);
  CHECK(chosen == 3 && launches == 3, "layer_forward chose %d in %d", chosen, launches);

  /* Idle padding (orion_tuner_same).  srad's roi_stats launches one block:
   * no padding version's limit binds, all three run as the original, and
   * the tuner settles on it with nothing timed. */
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 4, 3, -1, pad3, NULL);
  CHECK(!orion_tuner_same(&t, 3), "the original is never marked");
  CHECK(orion_tuner_same(&t, 0) && orion_tuner_same(&t, 1) && !orion_tuner_settled(&t),
        "two of three marked, not settled");
  CHECK(orion_tuner_same(&t, 2) && orion_tuner_settled(&t) && orion_tuner_next(&t) == 3 &&
            t.launches == 0,
        "all marked: settled on the original, nothing timed");
  CHECK(!orion_tuner_same(&t, 1), "settled: nothing marked");
  /* Only p48 idle (a grid that fills two of its three blocks per SM): the
   * walk goes from the original straight to p32; marking the walk's
   * current candidate moves it on; a measured candidate is refused. */
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 4, 3, -1, pad3, NULL);
  CHECK(orion_tuner_same(&t, 2), "p48 marked");
  orion_tuner_feed(&t, 3, 1.0, 1);
  CHECK(orion_tuner_next(&t) == 1, "walk skips p48: next %d", orion_tuner_next(&t));
  orion_tuner_feed(&t, 1, 1.001, 1);
  CHECK(!orion_tuner_same(&t, 1), "measured: refused");
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 4, 3, -1, pad3, NULL);
  orion_tuner_feed(&t, 3, 1.0, 1);
  CHECK(orion_tuner_same(&t, 2) && orion_tuner_next(&t) == 1, "current marked: walk on to %d",
        orion_tuner_next(&t));
  CHECK(orion_tuner_same(&t, 1) && orion_tuner_same(&t, 0) && orion_tuner_settled(&t) &&
            orion_tuner_next(&t) == 3 && t.launches == 1,
        "marked to the end: the original");
  orion_tuner_init(&t, ORION_TUNE_EXHAUSTIVE, 4, 3, -1, pad3, NULL);
  CHECK(!orion_tuner_same(&t, 0), "exhaustive: every candidate runs");
  return CHECK_DONE();
}
