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

/* The solver's state: the cost matrix and one allocation holding the
 * potentials, distances and matching. */
typedef struct {
  const int *weight;
  int64_t sign; /* -1 when maximising */
  int n;
  size_t N;
  int64_t *u, *v, *dist;
  int *pred;   /* row that reached column */
  int *row_of; /* column -> row or -1 */
  int *col_of; /* row -> column or -1 */
  int *todo;   /* [0,nt) unfinished columns */
} km;

static int64_t cost(const km *m, int i, int j) {
  return m->sign * (int64_t)m->weight[(size_t)i * m->N + (size_t)j];
}

/* Column k before column b in the Dijkstra: nearer, then free (ends the
 * search sooner), then lower index. */
static int better(const km *m, int k, int b) {
  const int64_t *dist = m->dist;
  const int *row_of = m->row_of;
  return dist[k] < dist[b] ||
         (dist[k] == dist[b] &&
          ((row_of[k] < 0) > (row_of[b] < 0) ||
           ((row_of[k] < 0) == (row_of[b] < 0) && k < b)));
}

/* 1. Row and column reduction, greedy zero matching. */
static void reduce(km *m) {
  int n = m->n;
  for (int i = 0; i < n; i++) {
    int64_t c = cost(m, i, 0);
    for (int j = 1; j < n; j++)
      if (cost(m, i, j) < c)
        c = cost(m, i, j);
    m->u[i] = c;
    m->col_of[i] = -1;
  }
  for (int j = 0; j < n; j++) {
    int64_t c = cost(m, 0, j) - m->u[0];
    for (int i = 1; i < n; i++)
      if (cost(m, i, j) - m->u[i] < c)
        c = cost(m, i, j) - m->u[i];
    m->v[j] = c;
    m->row_of[j] = -1;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (m->row_of[j] < 0 && cost(m, i, j) - m->u[i] - m->v[j] == 0) {
        m->row_of[j] = i;
        m->col_of[i] = j;
        break;
      }
}

/* The Dijkstra from unmatched row r: the free column reached; the finished
 * columns are left in todo[*nt..n-1]. */
static int shortest_path(km *m, int r, int *nt_out) {
  int n = m->n, nt = n, best = -1;
  int64_t *dist = m->dist;
  int *todo = m->todo;
  for (int j = 0; j < n; j++) {
    todo[j] = j;
    dist[j] = cost(m, r, j) - m->u[r] - m->v[j];
    m->pred[j] = r;
    if (best < 0 || better(m, j, best))
      best = j;
  }
  for (;;) {
    int j = todo[best];
    todo[best] = todo[--nt];
    todo[nt] = j; /* finished columns collect in todo[nt..n-1] */
    if (m->row_of[j] < 0) {
      *nt_out = nt;
      return j;
    }
    int i = m->row_of[j];
    int64_t base = dist[j] - m->u[i];
    best = -1;
    for (int p = 0; p < nt; p++) {
      int k = todo[p];
      int64_t d = base + cost(m, i, k) - m->v[k];
      if (d < dist[k]) {
        dist[k] = d;
        m->pred[k] = i;
      }
      if (best < 0 || better(m, k, todo[best]))
        best = p;
    }
  }
}

/* 2. One shortest augmenting path for unmatched row r: the dual update over
 * the finished columns and the rows they lead to, then the alternating
 * path flipped. */
static void augment(km *m, int r) {
  int nt;
  int f = shortest_path(m, r, &nt);
  int64_t D = m->dist[f];
  m->u[r] += D;
  for (int p = nt; p < m->n; p++) {
    int j = m->todo[p];
    int64_t delta = D - m->dist[j];
    m->v[j] -= delta;
    if (m->row_of[j] >= 0)
      m->u[m->row_of[j]] += delta;
  }
  for (int j = f;;) {
    int i = m->pred[j];
    int next = m->col_of[i];
    m->row_of[j] = i;
    m->col_of[i] = j;
    if (i == r)
      break;
    j = next;
  }
}

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
  km m = {.weight = weight, .sign = maximise ? -1 : 1, .n = n, .N = (size_t)n};
  const size_t N = m.N;
  /* One block: three int64 arrays, then four int arrays. */
  if (!(m.u = malloc(N * (3 * sizeof(int64_t) + 4 * sizeof(int)))))
    return ORION_ERR_NOMEM;
  m.v = m.u + N;
  m.dist = m.v + N;
  m.pred = (int *)(m.dist + N);
  m.row_of = m.pred + N;
  m.col_of = m.row_of + N;
  m.todo = m.col_of + N;
  reduce(&m);
  for (int r = 0; r < n; r++)
    if (m.col_of[r] < 0)
      augment(&m, r);
  long long sum = 0;
  for (int i = 0; i < n; i++)
    sum += weight[(size_t)i * N + (size_t)m.col_of[i]];
  for (int i = 0; i < n; i++)
    col_of_row[i] = m.col_of[i];
  if (total)
    *total = sum;
  free(m.u);
  return ORION_OK;
}
