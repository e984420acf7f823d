/* stats.c - the statistics of the tuner's paired test (stats.h). */
#include "stats.h"

#include <math.h>
#include <string.h>

/* Student's t quantiles for 1..30 degrees of freedom, per level. */
static const double table[3][30] = {
    {31.821, 6.965, 4.541, 3.747, 3.365, 3.143, 2.998, 2.896, 2.821, 2.764,
     2.718,  2.681, 2.650, 2.624, 2.602, 2.583, 2.567, 2.552, 2.539, 2.528,
     2.518,  2.508, 2.500, 2.492, 2.485, 2.479, 2.473, 2.467, 2.462, 2.457},
    {6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
     1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725,
     1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697},
    {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042},
};
static const double normal[3] = {2.326, 1.645, 1.960};

double orion_stats_t(orion_stats_level level, int df) {
  return df < 1 ? INFINITY : df <= 30 ? table[level][df - 1] : normal[level];
}

void orion_stats_add(orion_tune_stats *p, double x, int odd) {
  p->n++;
  p->sum += x;
  p->sumsq += x * x;
  if (odd)
    p->n1++, p->sum1 += x;
}

void orion_stats_moments(const orion_tune_stats *p, double *m, double *se, int *df) {
  int n0 = p->n - p->n1;
  *m = p->n > 0 ? p->sum / p->n : 0;
  *se = INFINITY;
  *df = p->n - 1;
  if (p->n1 > 0 && n0 > 0 && p->n >= 3) {
    double m1 = p->sum1 / p->n1, m0 = (p->sum - p->sum1) / n0;
    double rss = p->sumsq - p->n1 * m1 * m1 - n0 * m0 * m0;
    *m = (m0 + m1) / 2;
    *se = 1.155 * sqrt((rss > 0 ? rss : 0) / (p->n - 2) * (1.0 / p->n1 + 1.0 / n0) / 4);
    *df = p->n - 2;
  } else if (p->n >= 2) {
    double var = (p->sumsq - p->n * *m * *m) / (p->n - 1);
    *se = 1.155 * sqrt(var > 0 ? var : 0) / sqrt((double)p->n);
  }
}

_Static_assert(ORION_TUNE_WINDOW <= ORION_TUNE_MAX_SAMPLES, "the median's buffer");

double orion_stats_median(const double *w, int n) {
  double v[ORION_TUNE_MAX_SAMPLES];
  memcpy(v, w, (size_t)n * sizeof *v);
  for (int a = 1; a < n; a++) /* insertion sort: n <= 8 */
    for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
      double x = v[b];
      v[b] = v[b - 1];
      v[b - 1] = x;
    }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
