/* tune.h - the runtime's version selection, a pure state machine (paper
 * section 3.4, Fig. 9, made to need evidence).  No CUDA, no clock, no
 * allocation: the caller launches the candidate orion_tuner_next() names,
 * times it, and hands the time to orion_tuner_feed().  Unit-tested in
 * test/unit/rt/test_tune.c and test_tune_side.c.
 *
 * Candidates are indexed 0..n-1 in increasing occupancy, side candidates
 * (orion_tuner_side) aside; `orig` is the original version, `dir` (+1 /
 * -1) the direction to try first.
 *
 * The theory.  A program that turns Orion on must never get slower.  On
 * third-party programs the register headroom is small (measured on an H200:
 * the best fixed version beat the plain build by more than 1 % on 2 of 24
 * programs) while a wrong choice costs up to 26 %; and a launch's time
 * moves with its work (an LU grid that shrinks every launch, a BFS
 * frontier), not only with the version, while run-to-run noise of a few
 * percent made single samples claim 1.02-1.135 for a version 5 % slower.
 * So the original is the default, and the tuner leaves it only on evidence
 * that survives noise and drifting work:
 *
 * Adaptive:
 *   1. warm-up: the original's first launch and each clone binary's first
 *      launch are not samples (cold code; the host's submission after
 *      idling: 13-35 us on an H200), except a clone's first launch of
 *      cold_ms (5 ms) or more, where that cost is under 1 % and can only
 *      make the clone look slower.  Padding versions run the original's
 *      binary.
 *   2. pairs: a candidate is compared with the baseline, the best version
 *      so far (the original until a candidate wins: a champion and its
 *      challengers).  Launches alternate baseline, candidate, baseline, ...
 *      A candidate sample and the baseline's samples just before and after
 *      it, all three with the same comparability key (the caller's: the
 *      launch's grid), make one pair with the log-ratio
 *          x = ln c - (ln b_before + ln b_after) / 2.
 *      The mean of the two neighbours cancels work that drifts linearly
 *      from launch to launch; samples with different keys never pair.
 *      Bit 0 of a key (ORION_TUNE_KEY_TIMING) is the caller's way of
 *      timing the sample (rt.c: a busy or an idle stream); keys that
 *      differ there alone are the same kind of launch timed another way:
 *      such samples never pair either, but do not count as unpaired
 *      (step 6), so a walk whose samples are timed now one way, now the
 *      other, waits for pairs timed alike instead of ending.
 *      After every second pair one extra baseline launch shifts the
 *      candidate to the other parity of the launch count, so work that
 *      alternates between even and odd launches (ping-pong buffers, every
 *      other time step) cancels instead of biasing every pair alike.
 *   3. the test, after each pair of the candidate (n pairs, mean m,
 *      standard deviation s; se = 1.155 s / sqrt(n), as adjacent pairs
 *      share a baseline sample: correlation 1/6 under equal noise, and
 *      sqrt(1 + 2/6) = 1.155; t99 and t95 the one-sided 99 % and 95 %
 *      Student quantiles with n - 1 degrees of freedom, the normal's
 *      beyond 30).  Once both parities have pairs (n >= 3), m is the mean
 *      of the two parities' means and s the spread around each parity's
 *      own mean (n - 2 degrees of freedom): alternating work then costs
 *      neither bias nor noise.
 *        win  n >= min_pairs (4) and m + t99 se < ln(1 - margin) (margin
 *             1 %): faster by more than the margin with 99 % confidence
 *             (99 %, not 95 %: the test looks again after every pair; on
 *             an equal candidate under +-12 % noise 5 % of the runs
 *             switch, measured in test_tune, and the re-checks revert a
 *             choice that does not win; 4 pairs, not more, so a kernel
 *             of a hundred launches still keeps most of a real win);
 *        lose a single pair over ln(1 + reject) (50 % slower); or, with
 *             pairs on both parities, m - t95 se > 0 (slower with 95 %
 *             confidence); or
 *             n >= min_pairs and m > ln(1 - margin / 2) (the measured gain
 *             is under half the margin); or n = max_pairs (16) undecided.
 *   4. the walk (Fig. 9): candidates are tested one at a time from the
 *      original in direction dir; after a win the walk goes on that way
 *      and stops at the first loss; when the walk in dir ends without a
 *      win, the other direction is tried (the fail-safe reversal).  The
 *      choice is the last winner (each won against the one before), else
 *      the original.  Side candidates (orion_tuner_side: the unroll
 *      versions, other code rather than another occupancy) have no place
 *      in that order: they are tested first, in turn, each against the
 *      best so far (the original, or a side candidate that won), and the
 *      walk then starts from the original with the best so far as its
 *      baseline, so a cap must beat the unrolled code once that has won.
 *      With cfg.side_last the order turns round: the walk first, then the
 *      side candidates, each against the walk's choice (candidates.c sets
 *      it for a single launch tuned on chunks, where the side candidates' few
 *      percent cost the tuning chunks the occupancy walk's wins need).
 *   5. the stake (orion_tuner_stake, orion_tuner_wait): a trial of a
 *      candidate can cost more than it ever wins back when the kernel runs
 *      few launches (ten launches of a kernel whose clones are all slower:
 *      every trial launch is pure loss).  So the caller keeps a budget, a
 *      small fraction of the GPU time the program has run so far minus
 *      what tuning has lost (with a decision cache: in this run and the
 *      earlier ones), and starts a trial launch only when the budget
 *      covers its stake: the risk of the candidate (a prior the caller
 *      sets from what the compiler left, spills and occupancy; once paired,
 *      its worst measured pair) times the original's time for the launch.
 *      Otherwise the caller runs the best version untimed and calls wait.
 *      orion_tuner_loss() is the time tuning lost against the original
 *      (negative when it won), counted on every launch of another version.
 *   6. bounds: at most max_launches (96) fed launches per tuner; when
 *      max_unpaired (4) candidate samples in a row find no comparable
 *      neighbours (launches that differ every time), nothing can be
 *      decided.  Either way the choice is the best winner so far, else the
 *      original.
 *   7. re-checks (orion_tuner_recheck, at a rate the caller sets): a
 *      choice other than the original runs chosen, original, chosen, one
 *      pair with x = (ln c_before + ln c_after) / 2 - ln o.  When the
 *      median of the last (up to 6, at least 3) re-check pairs shows less
 *      than half the margin (> ln(1 - margin / 2)), the choice reverts to
 *      the original for good.  The median, not the mean: one pair whose
 *      sample a host delay distorted (an idle stream's submission, rt.c:
 *      timed, is subtracted up to half the sample) cannot revert a win the
 *      others show (on an H200 the mean reverted surfel_render's u8, 4-5 %
 *      faster than the original in each of its four re-checks by CUPTI).
 *      After confirm_pairs (3) re-check pairs without a revert the choice
 *      is confirmed (orion_tuner_confirmed): only a confirmed choice is a
 *      decision worth caching.  A cached choice starts settled
 *      (orion_tuner_settle_on) and is re-checked the same way.  A choice
 *      tuning settled on before its re-checks were all in is carried to
 *      the next run as evidence, with the pairs it has
 *      (orion_tuner_settle_checked; the cache keeps the window's pairs,
 *      so each weighs as one in the median there too): re-checked there
 *      at once, confirmed once it has confirm_pairs pairs in all.  As in step 1, a binary's
 *      first launch is no sample: the first re-check of a cached choice
 *      runs the original cold (13-35 us of its first launch on an H200)
 *      and gives no verdict; nor does a re-check whose three samples do
 *      not share one key (the caller's key can say how a sample was timed:
 *      rt.c, sample_key).
 *   8. the caller may mark a candidate that would run exactly as the
 *      original (orion_tuner_same: a padding version whose limit never
 *      binds: never tested), and skip one a model predicts much slower
 *      (orion_tuner_skip: the round guard of plan.h: a loss, not launched).
 *   9. the estimate the report prints (orion_tuner_estimate) is the
 *      original's time over the candidate's: exp(-m) summed along the
 *      chain of winners back to the original (variances added), pooled
 *      with the re-check pairs (each against the original directly) by
 *      inverse variance, with its 95 % confidence half-width.
 *  10. one launch ahead (orion_tuner_next_ahead): within a test the order
 *      of launches (baseline, candidate, baseline, the parity shift) does
 *      not depend on the times, only the verdict does; so the caller can
 *      launch the next sample before the time of the one in flight is
 *      known, keeping the GPU busy while the host submits it (on a
 *      stream with nothing queued, events also time the host's
 *      submission: 5-8 us, noise of several percent on a kernel of tens
 *      of microseconds).  A verdict that the late time brings costs at
 *      most that one launch of the loser; so no launch is chosen ahead
 *      where the pair being closed has the candidate slower so far.
 * Exhaustive (a measurement mode: no evidence rule): every candidate runs
 * `exhaustive_samples` times after one warm-up launch, round robin (so
 * drifting work reaches every candidate alike); the choice is the fastest
 * median.  Times are normalised by the launch's work (blocks) throughout.
 */
#ifndef ORION_RT_TUNE_H
#define ORION_RT_TUNE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_TUNE_MAX_CANDS 8
#define ORION_TUNE_MAX_SAMPLES 8
#define ORION_TUNE_WINDOW 6 /* re-check pairs the revert rule looks at */
#define ORION_TUNE_KEY_TIMING 1ULL /* a key's bit for how its sample was timed (step 2) */
#define ORION_TUNE_WALK_MAX 600 /* orion_tuner_walk_text's longest token */

typedef enum orion_tune_mode {
  ORION_TUNE_ADAPTIVE = 0,
  ORION_TUNE_EXHAUSTIVE,
} orion_tune_mode;

typedef struct orion_tune_cfg {
  double margin;          /* a win must be faster by more than this (0.01) */
  double reject;          /* one pair slower by more than this loses (0.50) */
  int min_pairs;          /* pairs before a win (4) */
  int max_pairs;          /* pairs after which a candidate loses (16) */
  int max_launches;       /* fed launches per tuner at most (96) */
  int max_unpaired;       /* candidate samples in a row with no pair (4) */
  int confirm_pairs;      /* re-check pairs that confirm a choice (3) */
  double risk;            /* a candidate's stake before it is paired (0.25) */
  double risk_floor;      /* the least stake of a paired candidate (0.02) */
  double cold_ms;         /* a clone's first launch this long is a sample (5) */
  int exhaustive_samples; /* timed samples per candidate, exhaustive (3) */
  int side_last;          /* side candidates after the walk, not before it (0) */
} orion_tune_cfg;

/* requires cfg != NULL. */
void orion_tune_cfg_default(orion_tune_cfg *cfg);

/* Sums of the log-ratios x of one candidate's pairs; n1 and sum1 over
 * the pairs whose candidate sample fell on an odd launch (step 3). */
typedef struct orion_tune_stats {
  int n, n1;
  double sum, sumsq, sum1;
} orion_tune_stats;

typedef struct orion_tune_cand {
  int shares_orig_binary; /* padding versions: warm with the original */
  int side;               /* a side candidate (orion_tuner_side): not in the walk's order */
  int warm;               /* its binary has run */
  int runs;               /* launches of it fed */
  int state;              /* internal: untried, testing, won, lost, dropped, same */
  int n;                  /* samples in s */
  int base;               /* the baseline its pairs were taken against */
  double risk;            /* its stake before its first pair (step 5) */
  double worst;           /* its worst pair's x */
  double s[ORION_TUNE_MAX_SAMPLES]; /* the newest normalised times */
  orion_tune_stats pairs; /* x of its tuning pairs, against base */
  orion_tune_stats rc;    /* x of its re-check pairs, against the original */
} orion_tune_cand;

typedef struct orion_tuner {
  orion_tune_mode mode;
  orion_tune_cfg cfg;
  int n, orig, dir;
  int base;      /* the baseline of the walk: the best version so far */
  double loss;   /* ms lost against the original by tuning (step 5) */
  int waits;     /* trials the caller put off (step 5) */
  int phase;     /* internal */
  int cur;       /* candidate under test (adaptive) or in turn (exhaustive) */
  int best;      /* the choice if tuning stopped now */
  int reversed;  /* the walk turned round */
  int won_dir;   /* a candidate won in the current direction */
  int resumed;   /* the walk goes on from an earlier run's (orion_tuner_resume) */
  int final;     /* -1 until settled */
  int launches;  /* launches fed so far (tuning iterations) */
  int tried;     /* distinct candidates launched */
  int want_orig; /* the walk's next launch is the original */
  int unpaired;  /* candidate samples in a row with no pair */
  /* the pair being built: the original's last sample, a candidate sample
   * waiting for the original after it */
  int have_o, have_c;
  double o_val, c_val, cb_val;
  int c_odd; /* the candidate sample fell on an odd launch */
  unsigned long long o_key, c_key;
  /* re-checks */
  int rc_step;   /* 0: chosen, 1: original, 2: chosen */
  double rc_b, rc_o;
  unsigned long long rc_key;
  int rechecks, reverted;
  double window[ORION_TUNE_WINDOW];
  int dry; /* orion_tuner_next_ahead's copy: feeds move the launch pattern only */
  orion_tune_cand c[ORION_TUNE_MAX_CANDS];
} orion_tuner;

/* requires n in 1..ORION_TUNE_MAX_CANDS, 0 <= orig < n, dir +1 or -1.
 * shares_orig (may be NULL) marks candidates that run the original's
 * binary.  cfg NULL = defaults.  Returns 0, or -1 on bad arguments (the
 * tuner is then settled on candidate 0 or orig). */
int orion_tuner_init(orion_tuner *t, orion_tune_mode mode, int n, int orig, int dir,
                     const int *shares_orig, const orion_tune_cfg *cfg);
/* Make `cand` a side candidate (see 4): other code at its own occupancy,
 * not a step on the occupancy axis.  requires the tuner just initialised
 * (before orion_tuner_resume and any feed).  Returns 1 if marked, 0 when
 * cand is the original or out of range. */
int orion_tuner_side(orion_tuner *t, int cand);
/* Settle at once on `cand` (a cached decision): no tuning, re-checks as
 * for a choice tuning made.  cand's binary counts as warm: requires the
 * caller to run it before its first re-check. */
void orion_tuner_settle_on(orion_tuner *t, int cand);
/* The walk's evidence so far as one token of at most ORION_TUNE_WALK_MAX
 * printable characters without spaces (the candidate under test, the
 * baseline, the direction, and each candidate's state and pairs), for a
 * later run to go on from (orion_tuner_resume).  Returns its length, or
 * -1 when the tuner is not walking (settled, re-checking, exhaustive). */
int orion_tuner_walk_text(const orion_tuner *t, char *buf, size_t n);
/* Go on with the walk `text` describes (orion_tuner_walk_text of a tuner
 * with the same candidates), right after orion_tuner_init: the pairs of
 * earlier runs count, the candidate then under test is tested on after
 * the original's warm-up launch.  Returns 0, or -1 (the tuner unchanged)
 * when text is malformed or describes other candidates. */
int orion_tuner_resume(orion_tuner *t, const char *text);

/* Settle on `cand` with the re-check pairs earlier runs took of it (a
 * cached choice: `checks` pairs, their log-ratios' sum and sum of squares,
 * and the last nwin of them, oldest first, in win; NULL and 0 where they
 * were not kept): they count toward confirmation and the revert rule of
 * step 7.  The window gets win; a pair of it not in win comes from sum and
 * sumsq (one or two pairs exactly, of more their mean, where one
 * distorted pair weighs as all).  requires checks >= 0, nwin >= 0. */
void orion_tuner_settle_checked(orion_tuner *t, int cand, int checks, double sum, double sumsq,
                                const double *win, int nwin);
/* The re-check window (step 7), oldest pair first, into out (room for
 * ORION_TUNE_WINDOW); returns how many pairs it holds. */
int orion_tuner_window(const orion_tuner *t, double *out);

/* The candidate to launch now; when settled, the final choice. */
int orion_tuner_next(const orion_tuner *t);
/* The candidate orion_tuner_next would name after a launch of `cand`
 * with key `key` is fed, provided that feed ends neither the test under
 * way nor the re-check (see 10); -1 when the feed would move the walk on
 * whatever the time (a warm-up, a step of the walk, the last pair), when
 * it closes a pair whose candidate sample was slower than the baseline's
 * before it (a verdict against the candidate is likely), or in exhaustive
 * mode.  The tuner is not changed. */
int orion_tuner_next_ahead(const orion_tuner *t, int cand, unsigned long long key);
/* 1 once the choice is final (and no re-check is under way). */
int orion_tuner_settled(const orion_tuner *t);
/* Feed the time (ms) of a launch of candidate `cand` that did `work` units
 * (> 0), with the caller's comparability key (equal keys: the same launch
 * configuration and grid).  Ignored when settled, or for junk. */
void orion_tuner_feed(orion_tuner *t, int cand, double ms, double work, unsigned long long key);

/* Start a re-check of a settled choice (see 7).  Returns 1 if one started
 * (settled adaptive on a version other than the original, not reverted),
 * else 0.  Until it ends the tuner is not settled. */
int orion_tuner_recheck(orion_tuner *t);
/* 1 while a re-check runs (orion_tuner_recheck started one, no verdict yet). */
int orion_tuner_rechecking(const orion_tuner *t);
/* 1 when the choice is the original, or has passed confirm_pairs re-check
 * pairs without a revert (counting those of orion_tuner_settle_checked). */
int orion_tuner_confirmed(const orion_tuner *t);

/* The walk's next candidate `cand` is predicted much slower: a loss
 * without a launch (see 8).  Returns 1 if the tuner moved on, 0 when cand
 * is not the candidate under test or has been launched already. */
int orion_tuner_skip(orion_tuner *t, int cand);
/* Candidate `cand` would run exactly as the original does (see 8): never
 * launched nor chosen.  When no other candidate is left, the tuner settles
 * on the original at once.  Returns 1 if cand was marked, 0 when it is the
 * original, launched already, or the tuner is not adaptive or settled. */
int orion_tuner_same(orion_tuner *t, int cand);
/* A candidate failed to launch: it is never chosen; the original is used
 * instead of it. */
void orion_tuner_drop(orion_tuner *t, int cand);

/* Candidate cand's stake before its first pair (step 5; >= 0). */
void orion_tuner_set_risk(orion_tuner *t, int cand, double risk);
/* The relative stake of the next launch: > 0 when it would start or go on
 * with a trial (the candidate, or the baseline sample before it), 0 when
 * it completes a pair, re-checks or runs a settled choice.  The caller
 * multiplies it by the original's time for the launch
 * (orion_tuner_median(t, t->orig) * work, when > 0). */
double orion_tuner_stake(const orion_tuner *t);
/* The caller put the trial off and ran the best version untimed instead:
 * the next trial starts with a fresh baseline sample. */
void orion_tuner_wait(orion_tuner *t);
/* Time (ms) tuning lost against the original so far; negative: gained. */
double orion_tuner_loss(const orion_tuner *t);

/* Median normalised time of a candidate, or 0 if it has no samples. */
double orion_tuner_median(const orion_tuner *t, int cand);
/* The measured speedup of cand over the original from its pairs:
 * *speedup = exp(-m), *half = its 95 % confidence half-width (0 below two
 * pairs), *pairs = n.  Returns 0 when cand has no pair (nothing written
 * but *pairs = 0). */
int orion_tuner_estimate(const orion_tuner *t, int cand, double *speedup, double *half,
                         int *pairs);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RT_TUNE_H */
