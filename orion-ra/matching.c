/* matching.c - Kuhn-Munkres (Hungarian) assignment on a square int matrix.
 *
 * Paper section 3.2: the compressible stack's layout is a maximum-weight
 * perfect bipartite matching of slot sets to slots (weights -W_ij), solved
 * "using the modified Kuhn-Munkres algorithm, O(M^3)".  This file is the
 * generic solver; cstack.c builds the matrix.
 *
 * Algorithm: the primal-dual Hungarian method in its shortest-augmenting-
 * path form.  Maximisation is minimisation of the negated weights; below,
 * c(i,j) is the cost to minimise.
 *
 *   Duals u (rows) and v (columns) keep every reduced cost
 *   r(i,j) = c(i,j) - u[i] - v[j] >= 0, and every matched pair has
 *   r(i,j) = 0; a perfect matching of zero-reduced-cost pairs is optimal
 *   (its cost equals sum u + sum v, a lower bound on every matching).
 *
 *   1. Start: u[i] = min_j c(i,j); v[j] = min_i c(i,j) - u[i]; match
 *      greedily along zero reduced costs.
 *   2. For each unmatched row r: Dijkstra over columns with reduced costs as
 *      lengths (a column reached at distance d passes on to its matched row
 *      at the same distance, since matched pairs cost 0) until a free column
 *      f is reached at distance D.  Then raise u by D - d(row) on the rows
 *      reached and lower v by D - d(col) on the columns finished, which keeps
 *      r >= 0 and makes the path to f tight, and flip the path: one more row
 *      is matched.  Each step is O(n^2) with the unfinished columns kept
 *      in a packed list, so the whole is O(n^3).
 *
 * Contracts: orion/ra.h.  weight is read only; col_of_row is written only
 * on success.  Values are widened to 64 bits: duals stay within
 * n * 2 * 2^31 in magnitude, far from overflow for n <= 2^16.
 * Ties are broken by lowest index, so results are deterministic.
 */
#include <stdint.h>
#include <stdlib.h>

#include "orion/ra.h"

orion_status orion_ra_assign(int n, const int *weight, int maximise,
                             int *col_of_row, long long *total) {
  if (!weight || !col_of_row)
    return ORION_ERR_INVALID_ARG;
  if (n < 0 || n > ORION_RA_ASSIGN_MAX_N)
    return ORION_ERR_RANGE;
  if (n == 0) {
    if (total)
      *total = 0;
    return ORION_OK;
  }
  const int64_t sign = maximise ? -1 : 1;
  const size_t N = (size_t)n;
  /* One block: three int64 arrays, then four int arrays. */
  int64_t *u = malloc(N * (3 * sizeof(int64_t) + 4 * sizeof(int)));
  if (!u)
    return ORION_ERR_NOMEM;
  int64_t *v = u + N;
  int64_t *dist = v + N;
  int *pred = (int *)(dist + N); /* row that reached column */
  int *row_of = pred + N;        /* column -> row or -1 */
  int *col_of = row_of + N;      /* row -> column or -1 */
  int *todo = col_of + N;        /* [0,nt) unfinished columns */
#define COST(i, j) (sign * (int64_t)weight[(size_t)(i) * N + (size_t)(j)])
  /* Column k before column b in the Dijkstra: nearer, then free (ends the
   * search sooner), then lower index. */
#define BETTER(k, b)                                                      \
  (dist[k] < dist[b] ||                                                   \
   (dist[k] == dist[b] &&                                                 \
    ((row_of[k] < 0) > (row_of[b] < 0) ||                                 \
     ((row_of[k] < 0) == (row_of[b] < 0) && (k) < (b)))))

  /* 1. Row and column reduction, greedy zero matching. */
  for (int i = 0; i < n; i++) {
    int64_t m = COST(i, 0);
    for (int j = 1; j < n; j++)
      if (COST(i, j) < m)
        m = COST(i, j);
    u[i] = m;
    col_of[i] = -1;
  }
  for (int j = 0; j < n; j++) {
    int64_t m = COST(0, j) - u[0];
    for (int i = 1; i < n; i++)
      if (COST(i, j) - u[i] < m)
        m = COST(i, j) - u[i];
    v[j] = m;
    row_of[j] = -1;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (row_of[j] < 0 && COST(i, j) - u[i] - v[j] == 0) {
        row_of[j] = i;
        col_of[i] = j;
        break;
      }

  /* 2. One shortest augmenting path per unmatched row. */
  for (int r = 0; r < n; r++) {
    if (col_of[r] >= 0)
      continue;
    int nt = n, best = -1;
    for (int j = 0; j < n; j++) {
      todo[j] = j;
      dist[j] = COST(r, j) - u[r] - v[j];
      pred[j] = r;
      if (best < 0 || BETTER(j, best))
        best = j;
    }
    int f; /* the free column reached */
    for (;;) {
      int j = todo[best];
      todo[best] = todo[--nt];
      todo[nt] = j; /* finished columns collect in todo[nt..n-1] */
      if (row_of[j] < 0) {
        f = j;
        break;
      }
      int i = row_of[j];
      int64_t base = dist[j] - u[i];
      best = -1;
      for (int p = 0; p < nt; p++) {
        int k = todo[p];
        int64_t d = base + COST(i, k) - v[k];
        if (d < dist[k]) {
          dist[k] = d;
          pred[k] = i;
        }
        if (best < 0 || BETTER(k, todo[best]))
          best = p;
      }
    }
    /* Dual update over the finished columns and the rows they lead to. */
    int64_t D = dist[f];
    u[r] += D;
    for (int p = nt; p < n; p++) {
      int j = todo[p];
      int64_t delta = D - dist[j];
      v[j] -= delta;
      if (row_of[j] >= 0)
        u[row_of[j]] += delta;
    }
    /* Flip the alternating path ending at f. */
    for (int j = f;;) {
      int i = pred[j];
      int next = col_of[i];
      row_of[j] = i;
      col_of[i] = j;
      if (i == r)
        break;
      j = next;
    }
  }

  long long sum = 0;
  for (int i = 0; i < n; i++)
    sum += weight[(size_t)i * N + (size_t)col_of[i]];
  for (int i = 0; i < n; i++)
    col_of_row[i] = col_of[i];
  if (total)
    *total = sum;
#undef COST
#undef BETTER
  free(u);
  return ORION_OK;
}
