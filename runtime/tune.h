/* tune.h - the runtime's version selection, a pure state machine (paper
 * section 3.4, Fig. 9).  No CUDA, no clock, no allocation: the caller
 * launches the candidate orion_tuner_next() names, times it, and hands the
 * time to orion_tuner_feed().  Unit-tested on synthetic curves
 * (test/unit/rt/test_tune.c).
 *
 * Candidates are indexed 0..n-1 in increasing occupancy; `orig` is the
 * original version, `dir` (+1 / -1) the direction the compiler predicted.
 *
 * Adaptive (Fig. 9, with the paper's fail-safe reversal and a noise guard):
 *   1. run the original.  The first launch of a version can be slower on a
 *      GPU (cold code, the first launch after an idle host: about 10-25 us
 *      on an H200, measured; a profiler's one-time set-up: milliseconds),
 *      so a binary's first sample is "cold": used as measured, it can only
 *      make its candidate look slower.  The original's first sample is the
 *      coldest (it is also the program's first launch of the kernel, after
 *      host work: the 10-25 us above; clones are loaded at discovery and
 *      their first launches showed at most 5 us).  Whenever a decision
 *      would rest on a colder sample making the other side win, that
 *      candidate runs again and its warm sample replaces the cold one: the
 *      best so far when a less cold candidate looks faster (the original's
 *      first sample, typically), or is close to it at the choice (step 5);
 *      a clone's first sample when it is beyond the stop (step 2) against
 *      a warm best by no more than the warm-up penalty explains.  The
 *      penalty is the original's first launch minus its warm one;
 *   2. walk from the original in the predicted direction, one candidate per
 *      launch, while no launch is more than `stop` (2 %) slower than the best
 *      so far; the best so far moves to any candidate that is faster;
 *   3. if the walk ends with the original still best, walk the other way
 *      (fail-safe reversal);
 *   4. noise guard: when a comparison is within the noise band of a
 *      decision boundary (faster than the best, or `stop` slower), launch
 *      the candidate with fewer samples again, up to `max_samples` each;
 *      the band is the largest relative spread measured on any candidate
 *      (at least `noise_floor`), or `initial_noise` before any candidate
 *      has two samples, so the first close call measures the noise;
 *   5. the choice is the fastest candidate by median, after the same guard
 *      on the runner-up, or the one with the fewest resident warps among
 *      those within `equal` (1 %) of it: the same speed with fewer
 *      resources.
 *   6. probes (when the caller can launch part of a grid): a candidate the
 *      walk reaches for the first time may first run on a small chunk
 *      (orion_tuner_wants_probe / orion_tuner_feed_probe).  A probe at
 *      least `probe_full` (90 %) as large as the smallest chunk the best so
 *      far was measured on is an ordinary sample (steps 2 and 4: the chunk
 *      sizes the caller picks carry the same fixed cost).  A smaller one
 *      that is more than `reject` (50 %) slower per unit of work than the
 *      best so far, even less the warm-up penalty it may carry, counts as a
 *      measured stop (step 2), and the candidate is not run on a full
 *      chunk; otherwise it only warmed its binary and is
 *      not a sample.  A small chunk carries more fixed cost per unit
 *      (launch, ramp-up, the tail of its last blocks: up to a third more
 *      than a four-wave chunk on an H200, measured), hence the wide band;
 *   7. predicted stops: the caller may skip the candidate the walk reaches
 *      when a model predicts it much slower (orion_tuner_skip; the round
 *      guard of plan.h); it then counts as a stop without a launch;
 *   8. candidates that cannot differ: the caller may mark a candidate that
 *      would run exactly as the original (orion_tuner_same: a padding
 *      version on a grid that never fills an SM up to its limit); it is
 *      left out, and when only the original is left, nothing is timed.
 * Exhaustive: every candidate runs `exhaustive_samples` times after one
 * warm-up launch, round robin (so work that drifts from launch to launch
 * reaches every candidate alike); the choice is the fastest median.
 *
 * Times are normalised by the work of the launch (blocks launched) so
 * launches of different size compare.
 */
#ifndef ORION_RT_TUNE_H
#define ORION_RT_TUNE_H

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_TUNE_MAX_CANDS 8
#define ORION_TUNE_MAX_SAMPLES 8

typedef enum orion_tune_mode {
  ORION_TUNE_ADAPTIVE = 0,
  ORION_TUNE_EXHAUSTIVE,
} orion_tune_mode;

typedef struct orion_tune_cfg {
  double stop;            /* walk stops at a slowdown above this (0.02) */
  double equal;           /* tie band for the final choice (0.01) */
  double noise_floor;     /* smallest noise band (0.005) */
  double initial_noise;   /* noise band before any spread is measured (0.03) */
  int max_samples;        /* noise guard: samples per candidate at most (3) */
  double reject;          /* a probe slower than best by more than this stops (0.50) */
  double probe_full;      /* a probe this large relative to best's chunks is a sample (0.90) */
  int exhaustive_samples; /* timed samples per candidate, exhaustive (3) */
} orion_tune_cfg;

void orion_tune_cfg_default(orion_tune_cfg *cfg);

typedef struct orion_tune_cand {
  int shares_orig_binary;  /* padding versions: no warm-up correction */
  int warm;                /* launched at least once */
  int cold;                /* its one sample may carry a warm-up penalty: 2 the
                              original's first launch, 1 another binary's */
  double cold_work;        /* the work of that sample */
  int probed;              /* ran a probe chunk */
  int skipped;             /* predicted much slower, never launched */
  int n;                   /* samples */
  double work_min;         /* smallest work of a sample (0: none) */
  double s[ORION_TUNE_MAX_SAMPLES]; /* normalised times */
} orion_tune_cand;

typedef struct orion_tuner {
  orion_tune_mode mode;
  orion_tune_cfg cfg;
  int n, orig, dir;
  int phase;       /* internal */
  int cur;         /* candidate the walk is looking at */
  int resample;    /* candidate to launch again (noise guard), or -1 */
  int best;
  int reversed;
  int final;       /* -1 until settled */
  int launches;    /* launches fed so far (tuning iterations) */
  int tried;       /* distinct candidates measured */
  double penalty;  /* warm-up penalty in ms (step 1) */
  double orig_first_ms, orig_first_work;
  orion_tune_cand c[ORION_TUNE_MAX_CANDS];
} orion_tuner;

/* n in 1..ORION_TUNE_MAX_CANDS, 0 <= orig < n, dir +1 or -1.  shares_orig
 * (may be NULL) marks candidates that run the original's binary.  cfg NULL =
 * defaults.  Returns 0, or -1 on bad arguments (the tuner is then settled
 * on candidate 0 or orig). */
int orion_tuner_init(orion_tuner *t, orion_tune_mode mode, int n, int orig, int dir,
                     const int *shares_orig, const orion_tune_cfg *cfg);

/* The candidate to launch now; when settled, the final choice. */
int orion_tuner_next(const orion_tuner *t);
/* 1 once the choice is final. */
int orion_tuner_settled(const orion_tuner *t);
/* Feed the time (ms) of a launch of candidate `cand` that did `work` units
 * (> 0).  Feeding a candidate other than orion_tuner_next() is allowed (it
 * adds a sample); feeding after settling is ignored. */
void orion_tuner_feed(orion_tuner *t, int cand, double ms, double work);
/* 1 when the next launch (orion_tuner_next) may be a probe: the walk's
 * candidate has never run in full and has not been probed. */
int orion_tuner_wants_probe(const orion_tuner *t);
/* Feed the time of a probe of the walk's candidate `cand` (see 6 above);
 * ignored unless orion_tuner_wants_probe and cand is that candidate. */
void orion_tuner_feed_probe(orion_tuner *t, int cand, double ms, double work);
/* The walk's next candidate `cand` is predicted much slower: treat it as a
 * stop without launching it (see 7).  Returns 1 if the tuner moved on, 0
 * when cand is not the walk's untried candidate (nothing changes). */
int orion_tuner_skip(orion_tuner *t, int cand);
/* Candidate `cand` would run exactly as the original does (a padding
 * version whose limit on blocks per SM the launches never reach, see 8):
 * it is never launched nor chosen, and the walk passes over it as over a
 * tie.  When no other candidate is left, the tuner settles on the original
 * at once.  Returns 1 if cand was marked, 0 when it is the original,
 * measured already, or the tuner is not adaptive or has settled. */
int orion_tuner_same(orion_tuner *t, int cand);
/* A candidate failed to launch: it is never chosen; the original is used
 * instead of it. */
void orion_tuner_drop(orion_tuner *t, int cand);
/* Median normalised time of a candidate, or 0 if it has no samples. */
double orion_tuner_median(const orion_tuner *t, int cand);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RT_TUNE_H */
