/* bench_cstack.c - time the compressible stack's layout solver.
 *
 * For M = 16, 32, ..., 1024 slot sets and N calls (default 64), random
 * liveness (each set live across each call with probability 1/2, fixed
 * seed) and minimal heights B_k, time orion_cstack_solve() - building W,
 * Kuhn-Munkres on -W and emitting every call's moves - with
 * clock_gettime(CLOCK_MONOTONIC).  Each size is solved `reps` times (at
 * least 5, more for small M up to ~0.5 s per size) on a fresh problem of
 * the same seed; the median is reported.
 *
 * Output: CSV on stdout, one line per M:
 *   m,n,reps,median_ms,min_ms,max_ms,moves
 * Usage: bench_cstack [n_calls] [max_m] [seed]
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "orion/ra.h"

static uint64_t next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  int max_m = argc > 2 ? atoi(argv[2]) : 1024;
  uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 20240601;
  if (n < 1 || max_m < 16 || max_m > ORION_CSTACK_MAX_SETS) {
    fprintf(stderr, "usage: bench_cstack [n_calls>=1] [max_m 16..%d] [seed]\n",
            ORION_CSTACK_MAX_SETS);
    return 2;
  }
  printf("m,n,reps,median_ms,min_ms,max_ms,moves\n");
  for (int m = 16; m <= max_m; m *= 2) {
    unsigned char *live = malloc((size_t)m * (size_t)n);
    uint64_t s = seed ^ (uint64_t)m;
    for (size_t c = 0; c < (size_t)m * (size_t)n; c++)
      live[c] = (unsigned char)(next(&s) & 1);
    enum { MAXREPS = 201 };
    double t[MAXREPS];
    double spent = 0;
    int reps = 0;
    long long moves = -1;
    while (reps < MAXREPS && (reps < 5 || spent < 500.0)) {
      orion_cstack *cs;
      if (orion_cstack_create(m, n, &cs) != ORION_OK ||
          orion_cstack_set_liveness(cs, live) != ORION_OK) {
        fprintf(stderr, "setup failed at m=%d\n", m);
        return 1;
      }
      double t0 = now_ms();
      orion_status st = orion_cstack_solve(cs);
      double t1 = now_ms();
      long long mv;
      if (st != ORION_OK || orion_cstack_total_moves(cs, &mv) != ORION_OK ||
          (moves >= 0 && mv != moves)) {
        fprintf(stderr, "solve failed at m=%d: %s\n", m, orion_strerror(st));
        return 1;
      }
      moves = mv;
      orion_cstack_destroy(cs);
      t[reps++] = t1 - t0;
      spent += t1 - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    printf("%d,%d,%d,%.4f,%.4f,%.4f,%lld\n", m, n, reps, med, t[0],
           t[reps - 1], moves);
    fflush(stdout);
    free(live);
  }
  return 0;
}
