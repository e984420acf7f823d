/* stats.h - the statistics of the tuner's paired test (tune.h, steps 3
 * and 7): Student's t quantiles, the moments of a candidate's log-ratios
 * with alternating work cancelled, and a small median.  Pure: no
 * allocation, no state.  Unit-tested through test/unit/rt/test_tune.c. */
#ifndef ORION_RT_STATS_H
#define ORION_RT_STATS_H

#include "tune.h"

/* One-sided 99 % (a win), 95 % (a loss), 97.5 % (a two-sided 95 %
 * interval). */
typedef enum { ORION_T99, ORION_T95, ORION_T975 } orion_stats_level;

/* Student's t quantile at df degrees of freedom (the normal's beyond 30);
 * INFINITY when df < 1. */
double orion_stats_t(orion_stats_level level, int df);

/* Add the log-ratio x of one pair to *p; odd: its candidate sample fell on
 * an odd launch.  requires p != NULL. */
void orion_stats_add(orion_tune_stats *p, double x, int odd);

/* Mean *m and standard error *se of p's log-ratios, *df the degrees of
 * freedom of se (tune.h, step 3): se widened by 1.155 for the baseline
 * samples adjacent pairs share; once both parities have pairs (n >= 3)
 * the mean of the two parities' means, and the spread around each
 * parity's own mean.  *se is INFINITY below two pairs.  requires p, m, se,
 * df != NULL. */
void orion_stats_moments(const orion_tune_stats *p, double *m, double *se, int *df);

/* The median of w[0..n) (for even n the mean of the middle two).
 * requires 1 <= n <= ORION_TUNE_MAX_SAMPLES. */
double orion_stats_median(const double *w, int n);

#endif
