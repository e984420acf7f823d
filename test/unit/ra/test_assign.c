/* test_assign.c - the Kuhn-Munkres assignment solver (matching.c).
 *
 * Small matrices against brute force over all n! permutations, larger ones
 * against an independent optimality certificate (no negative exchange
 * cycle, found by Floyd-Warshall), extreme values, and invalid input.
 */
#include <limits.h>

#include "check.h"
#include "ra_check.h"

static int is_perm(int n, const int *p) {
  unsigned char seen[512] = {0};
  for (int i = 0; i < n; i++)
    if (p[i] < 0 || p[i] >= n || seen[p[i]]++)
      return 0;
  return 1;
}

/* An assignment is optimal iff no cyclic exchange improves it: with
 * row_of[j] the row in column j, moving that row to column k costs
 * c(row_of[j], k) - c(row_of[j], j); a negative cycle in that graph of
 * columns is an improvement (for minimisation). */
static int no_negative_cycle(int n, const int *wt, int maximise,
                             const int *col) {
  int row_of[256];
  static long long d[256][256];
  for (int i = 0; i < n; i++)
    row_of[col[i]] = i;
  long long sg = maximise ? -1 : 1;
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++) {
      int i = row_of[j];
      d[j][k] = sg * ((long long)wt[i * n + k] - wt[i * n + j]);
    }
  for (int m = 0; m < n; m++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        if (d[j][m] + d[m][k] < d[j][k])
          d[j][k] = d[j][m] + d[m][k];
  for (int j = 0; j < n; j++)
    if (d[j][j] < 0)
      return 0;
  return 1;
}

static void test_hand(void) {
  /* The classic 3x3: min = 1+2+... */
  int w[9] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
  int col[3];
  long long t = -1;
  CHECK(orion_ra_assign(3, w, 0, col, &t) == ORION_OK, "min");
  CHECK(t == 5 && col[0] == 1 && col[1] == 0 && col[2] == 2,
        "min %lld: %d %d %d", t, col[0], col[1], col[2]);
  CHECK(orion_ra_assign(3, w, 1, col, &t) == ORION_OK, "max");
  CHECK(t == 11, "max %lld", t);
  /* n = 1 and n = 0. */
  int one = -7;
  CHECK(orion_ra_assign(1, &one, 0, col, &t) == ORION_OK && t == -7 &&
            col[0] == 0,
        "n=1");
  t = 99;
  CHECK(orion_ra_assign(0, &one, 0, col, &t) == ORION_OK && t == 0, "n=0");
  /* Extremes must not overflow (UBSan would say so). */
  int ext[4] = {INT_MIN, INT_MAX, INT_MAX, INT_MIN};
  CHECK(orion_ra_assign(2, ext, 0, col, &t) == ORION_OK &&
            t == 2LL * INT_MIN,
        "extreme min %lld", t);
  CHECK(orion_ra_assign(2, ext, 1, col, &t) == ORION_OK &&
            t == 2LL * INT_MAX,
        "extreme max %lld", t);
}

static void test_invalid(void) {
  int w[4] = {0}, col[2] = {5, 5};
  long long t = 42;
  CHECK(orion_ra_assign(-1, w, 0, col, &t) == ORION_ERR_RANGE, "n<0");
  CHECK(orion_ra_assign(ORION_RA_ASSIGN_MAX_N + 1, w, 0, col, &t) ==
            ORION_ERR_RANGE,
        "n too big");
  CHECK(orion_ra_assign(2, NULL, 0, col, &t) == ORION_ERR_INVALID_ARG,
        "NULL weight");
  CHECK(orion_ra_assign(2, w, 0, NULL, &t) == ORION_ERR_INVALID_ARG,
        "NULL out");
  CHECK(col[0] == 5 && t == 42, "outputs untouched on error");
  CHECK(orion_ra_assign(2, w, 0, col, NULL) == ORION_OK, "total optional");
}

static void test_brute(int rounds) {
  rng r = {0x5eed0003};
  int w[81], col[9];
  for (int it = 0; it < rounds; it++) {
    int n = rng_int(&r, 1, 8);
    int range = rng_chance(&r, 1, 4) ? 3 : rng_chance(&r, 1, 2) ? 100
                                                                : 1000000000;
    for (int c = 0; c < n * n; c++)
      w[c] = rng_int(&r, -range, range);
    int maximise = rng_chance(&r, 1, 2);
    long long t = 0;
    CHECK(orion_ra_assign(n, w, maximise, col, &t) == ORION_OK, "assign");
    CHECK(is_perm(n, col), "round %d: not a permutation", it);
    long long s = 0;
    for (int i = 0; i < n; i++)
      s += w[i * n + col[i]];
    long long best = chk_assign_brute(n, w, maximise);
    CHECK(s == t && t == best, "round %d n=%d max=%d: got %lld (sum %lld), "
                               "brute force %lld",
          it, n, maximise, t, s, best);
  }
  printf("assignment vs brute force: %d matrices, n <= 8\n", rounds);
}

static void test_certificate(int rounds) {
  rng r = {0x5eed0004};
  static int w[200 * 200];
  int col[200];
  for (int it = 0; it < rounds; it++) {
    int n = rng_int(&r, 9, it % 10 == 0 ? 200 : 60);
    int range = rng_chance(&r, 1, 3) ? 4 : 100000;
    for (int c = 0; c < n * n; c++)
      w[c] = rng_int(&r, -range, range);
    int maximise = rng_chance(&r, 1, 2);
    long long t = 0;
    CHECK(orion_ra_assign(n, w, maximise, col, &t) == ORION_OK, "assign");
    CHECK(is_perm(n, col), "round %d: not a permutation", it);
    CHECK(no_negative_cycle(n, w, maximise, col),
          "round %d n=%d: improving exchange cycle exists", it, n);
  }
  printf("assignment vs optimality certificate: %d matrices, n <= 200\n",
         rounds);
}

int main(void) {
  test_hand();
  test_invalid();
  test_brute(4000);
  test_certificate(60);
  return CHECK_DONE();
}
