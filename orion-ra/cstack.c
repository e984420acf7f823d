/* cstack.c - the compressible stack: the move-minimising slot layout.
 *
 * Paper section 3.2, "Minimizing Data Movement", Table 1, Theorem 1, Fig. 6
 * and Fig. 7.  M slot sets SS_i (what colouring put in each stack slot), N
 * call sites, liveness L_ik of SS_i across call k, and a compressed height
 * B_k per call (default and minimum: the number of sets live across k; at
 * most M).  Before call k every live set in a slot j >= B_k is moved into a
 * slot below B_k whose set is dead across k; after the call it is moved
 * back.  The layout (SS_i -> SLOT_j, a permutation) is chosen to minimise
 * the moves before all calls.
 *
 * Theorem 1: a set's moves depend only on its own slot, so placing SS_i in
 * SLOT_j costs W_ij = sum_k [L_ik and j >= B_k] whatever the other sets do,
 * and the total is sum_i W_{i,slot(i)}.  A move target always exists: below
 * B_k there are B_k slots holding at most live_k - (moved sets) live sets,
 * so at least B_k - live_k + moved >= moved free ones.  Hence the optimum is
 * the maximum-weight perfect matching with weights -W_ij (Fig. 7), found by
 * orion_ra_assign() (matching.c) in O(M^3).
 *
 * Building W: for set i, count its live calls by B_k and take prefix sums
 * over j: O(M (M + N)) for the whole matrix.
 *
 * Moves at call k: the live sets at slots >= B_k in increasing slot order
 * go, in that order, to the free slots below B_k in increasing slot order.
 * Restores: the same moves reversed, last first.  solve() checks that the
 * number of moves it emits equals the matching's optimum.
 *
 * orion_cstack_use_layout() emits the moves of a caller-given layout by the
 * same rule (the naive identity layout of Fig. 6(a), for instance).
 *
 * Contracts: orion/ra.h.  A solution is dropped by any setter; the const
 * queries refuse (INVALID_ARG) until solve() or use_layout() runs again.
 */
#include <stdlib.h>
#include <string.h>

#include "orion/ra.h"

struct orion_cstack {
  int m, n;
  unsigned char *live; /* m * n, [set * n + call] */
  int *want;           /* n requested heights, or ORION_CSTACK_MIN_HEIGHT */
  /* solution, valid when solved */
  int solved;
  int *slot;           /* m: slot of each set */
  int *height;         /* n: effective B_k */
  size_t *first;       /* n + 1: moves of call k are [first[k], first[k+1]) */
  orion_cstack_move *moves, *restores;
  long long total;
};

static void *xmalloc(size_t count, size_t size) {
  return malloc((count ? count : 1) * size);
}

orion_status orion_cstack_create(int num_sets, int num_calls,
                                 orion_cstack **cstack) {
  if (!cstack)
    return ORION_ERR_INVALID_ARG;
  if (num_sets < 0 || num_sets > ORION_CSTACK_MAX_SETS || num_calls < 0 ||
      num_calls > ORION_CSTACK_MAX_CALLS ||
      (long long)num_sets * num_calls > ORION_CSTACK_MAX_CELLS)
    return ORION_ERR_RANGE;
  orion_cstack *cs = calloc(1, sizeof *cs);
  if (!cs)
    return ORION_ERR_NOMEM;
  size_t m = (size_t)num_sets, n = (size_t)num_calls;
  cs->m = num_sets;
  cs->n = num_calls;
  cs->live = calloc(m > 0 && n > 0 ? m * n : 1, 1);
  cs->want = xmalloc(n, sizeof *cs->want);
  cs->slot = xmalloc(m, sizeof *cs->slot);
  cs->height = xmalloc(n, sizeof *cs->height);
  cs->first = xmalloc(n + 1, sizeof *cs->first);
  if (!cs->live || !cs->want || !cs->slot || !cs->height || !cs->first) {
    orion_cstack_destroy(cs);
    return ORION_ERR_NOMEM;
  }
  for (size_t k = 0; k < n; k++)
    cs->want[k] = ORION_CSTACK_MIN_HEIGHT;
  *cstack = cs;
  return ORION_OK;
}

void orion_cstack_destroy(orion_cstack *cstack) {
  if (!cstack)
    return;
  free(cstack->live);
  free(cstack->want);
  free(cstack->slot);
  free(cstack->height);
  free(cstack->first);
  free(cstack->moves);
  free(cstack->restores);
  free(cstack);
}

static void unsolve(orion_cstack *cs) {
  cs->solved = 0;
  free(cs->moves);
  free(cs->restores);
  cs->moves = cs->restores = NULL;
}

orion_status orion_cstack_set_live(orion_cstack *cstack, int set, int call,
                                   int live) {
  if (!cstack)
    return ORION_ERR_INVALID_ARG;
  if (set < 0 || set >= cstack->m || call < 0 || call >= cstack->n)
    return ORION_ERR_RANGE;
  unsolve(cstack);
  cstack->live[(size_t)set * (size_t)cstack->n + (size_t)call] = live != 0;
  return ORION_OK;
}

orion_status orion_cstack_set_liveness(orion_cstack *cstack,
                                       const unsigned char *live) {
  if (!cstack || !live)
    return ORION_ERR_INVALID_ARG;
  unsolve(cstack);
  size_t cells = (size_t)cstack->m * (size_t)cstack->n;
  for (size_t c = 0; c < cells; c++)
    cstack->live[c] = live[c] != 0;
  return ORION_OK;
}

orion_status orion_cstack_set_height(orion_cstack *cstack, int call,
                                     int height) {
  if (!cstack)
    return ORION_ERR_INVALID_ARG;
  if (call < 0 || call >= cstack->n ||
      (height != ORION_CSTACK_MIN_HEIGHT && (height < 0 || height > cstack->m)))
    return ORION_ERR_RANGE;
  unsolve(cstack);
  cstack->want[call] = height;
  return ORION_OK;
}

/* Effective heights into height[n]; INFEASIBLE when one is below its live
 * count. */
static orion_status resolve_heights(const orion_cstack *cs, int *height) {
  size_t n = (size_t)cs->n;
  for (int k = 0; k < cs->n; k++) {
    int live = 0;
    for (int i = 0; i < cs->m; i++)
      live += cs->live[(size_t)i * n + (size_t)k];
    if (cs->want[k] == ORION_CSTACK_MIN_HEIGHT)
      height[k] = live;
    else if (cs->want[k] < live)
      return ORION_ERR_INFEASIBLE;
    else
      height[k] = cs->want[k];
  }
  return ORION_OK;
}

/* Moves of `layout` at every call, counted by the definition. */
static long long count_moves(const orion_cstack *cs, const int *height,
                             const int *slot_of_set) {
  long long total = 0;
  for (int i = 0; i < cs->m; i++)
    for (int k = 0; k < cs->n; k++)
      total += cs->live[(size_t)i * (size_t)cs->n + (size_t)k] &&
               slot_of_set[i] >= height[k];
  return total;
}

/* Emit the moves and restores of layout `slot` (a permutation) under
 * effective heights `height`, and make them the cstack's solution.  `total`
 * is the move count the caller expects (the matching's optimum, or the
 * count by definition); a mismatch is an internal error. */
static orion_status emit(orion_cstack *cs, const int *height, const int *slot,
                         long long total) {
  int m = cs->m, n = cs->n;
  size_t M = (size_t)m, N = (size_t)n;
  if (count_moves(cs, height, slot) != total)
    return ORION_ERR_INTERNAL;
  int *owner = xmalloc(M, sizeof *owner); /* slot -> set */
  int *dst = xmalloc(M, sizeof *dst);
  orion_cstack_move *mv = xmalloc((size_t)total, sizeof *mv);
  orion_cstack_move *rs = xmalloc((size_t)total, sizeof *rs);
  orion_status st = ORION_ERR_NOMEM;
  if (!owner || !dst || !mv || !rs)
    goto out;
  for (int i = 0; i < m; i++)
    owner[slot[i]] = i;
  size_t pos = 0;
  st = ORION_ERR_INTERNAL;
  for (int k = 0; k < n; k++) {
    int B = height[k], nd = 0;
    cs->first[k] = pos;
    for (int j = 0; j < B; j++)
      if (!cs->live[(size_t)owner[j] * N + (size_t)k])
        dst[nd++] = j;
    size_t begin = pos;
    int used = 0;
    for (int j = B; j < m; j++) {
      int set = owner[j];
      if (!cs->live[(size_t)set * N + (size_t)k])
        continue;
      if (used == nd || pos == (size_t)total) /* Theorem 1 says never */
        goto out;
      mv[pos].set = set;
      mv[pos].from = j;
      mv[pos].to = dst[used++];
      pos++;
    }
    for (size_t p = begin; p < pos; p++) {
      orion_cstack_move back = mv[begin + (pos - 1 - p)];
      rs[p].set = back.set;
      rs[p].from = back.to;
      rs[p].to = back.from;
    }
  }
  cs->first[n] = pos;
  if (pos != (size_t)total)
    goto out;
  memcpy(cs->slot, slot, M * sizeof *slot);
  memcpy(cs->height, height, N * sizeof *height);
  cs->moves = mv;
  cs->restores = rs;
  mv = rs = NULL;
  cs->total = total;
  cs->solved = 1;
  st = ORION_OK;
out:
  free(owner);
  free(dst);
  free(mv);
  free(rs);
  return st;
}

orion_status orion_cstack_solve(orion_cstack *cstack) {
  if (!cstack)
    return ORION_ERR_INVALID_ARG;
  orion_cstack *cs = cstack;
  unsolve(cs);
  int m = cs->m, n = cs->n;
  size_t M = (size_t)m, N = (size_t)n;
  int *height = xmalloc(N, sizeof *height);
  int *w = xmalloc(M * M, sizeof *w);       /* -W, row-major */
  int *hist = xmalloc(M + 1, sizeof *hist); /* live calls by B_k */
  int *slot = xmalloc(M, sizeof *slot);
  orion_status st = ORION_ERR_NOMEM;
  if (!height || !w || !hist || !slot)
    goto out;
  st = resolve_heights(cs, height);
  if (st != ORION_OK)
    goto out;

  /* W_ij = #{k : L_ik and B_k <= j}; the matrix holds -W_ij (Fig. 7). */
  for (int i = 0; i < m; i++) {
    memset(hist, 0, (M + 1) * sizeof *hist);
    const unsigned char *row = cs->live + (size_t)i * N;
    for (int k = 0; k < n; k++)
      if (row[k])
        hist[height[k]]++;
    int acc = 0;
    for (int j = 0; j < m; j++) {
      acc += hist[j];
      w[(size_t)i * M + (size_t)j] = -acc;
    }
  }
  long long best;
  st = orion_ra_assign(m, w, 1, slot, &best);
  if (st == ORION_OK)
    st = emit(cs, height, slot, -best);
out:
  free(height);
  free(w);
  free(hist);
  free(slot);
  return st;
}

/* Validate a layout: RANGE unless a permutation of 0..M-1. */
static orion_status check_layout(const orion_cstack *cs, const int *slot) {
  size_t M = (size_t)cs->m;
  unsigned char *seen = calloc(M ? M : 1, 1);
  if (!seen)
    return ORION_ERR_NOMEM;
  orion_status st = ORION_OK;
  for (size_t i = 0; i < M && st == ORION_OK; i++) {
    int j = slot[i];
    if (j < 0 || j >= cs->m || seen[j])
      st = ORION_ERR_RANGE;
    else
      seen[j] = 1;
  }
  free(seen);
  return st;
}

/* Validate a caller-given layout and resolve every call's height.  On
 * success *height is a fresh array of n heights the caller frees. */
static orion_status layout_heights(const orion_cstack *cs, const int *slot,
                                   int **height) {
  orion_status st = check_layout(cs, slot);
  if (st != ORION_OK)
    return st;
  int *h = xmalloc((size_t)cs->n, sizeof *h);
  if (!h)
    return ORION_ERR_NOMEM;
  st = resolve_heights(cs, h);
  if (st != ORION_OK) {
    free(h);
    return st;
  }
  *height = h;
  return ORION_OK;
}

orion_status orion_cstack_use_layout(orion_cstack *cstack,
                                     const int *slot_of_set) {
  if (!cstack || !slot_of_set)
    return ORION_ERR_INVALID_ARG;
  unsolve(cstack);
  int *height;
  orion_status st = layout_heights(cstack, slot_of_set, &height);
  if (st != ORION_OK)
    return st;
  st = emit(cstack, height, slot_of_set,
            count_moves(cstack, height, slot_of_set));
  free(height);
  return st;
}

orion_status orion_cstack_layout(const orion_cstack *cstack,
                                 int *slot_of_set) {
  if (!cstack || !slot_of_set || !cstack->solved)
    return ORION_ERR_INVALID_ARG;
  memcpy(slot_of_set, cstack->slot, (size_t)cstack->m * sizeof *slot_of_set);
  return ORION_OK;
}

orion_status orion_cstack_total_moves(const orion_cstack *cstack,
                                      long long *total) {
  if (!cstack || !total || !cstack->solved)
    return ORION_ERR_INVALID_ARG;
  *total = cstack->total;
  return ORION_OK;
}

orion_status orion_cstack_height(const orion_cstack *cstack, int call,
                                 int *height) {
  if (!cstack || !height || !cstack->solved)
    return ORION_ERR_INVALID_ARG;
  if (call < 0 || call >= cstack->n)
    return ORION_ERR_RANGE;
  *height = cstack->height[call];
  return ORION_OK;
}

static orion_status get_moves(const orion_cstack *cs, int call,
                              const orion_cstack_move *all,
                              const orion_cstack_move **moves, int *count) {
  if (!cs || !moves || !count || !cs->solved)
    return ORION_ERR_INVALID_ARG;
  if (call < 0 || call >= cs->n)
    return ORION_ERR_RANGE;
  *moves = all + cs->first[call];
  *count = (int)(cs->first[call + 1] - cs->first[call]);
  return ORION_OK;
}

orion_status orion_cstack_moves(const orion_cstack *cstack, int call,
                                const orion_cstack_move **moves, int *count) {
  return get_moves(cstack, call, cstack ? cstack->moves : NULL, moves, count);
}

orion_status orion_cstack_restores(const orion_cstack *cstack, int call,
                                   const orion_cstack_move **moves,
                                   int *count) {
  return get_moves(cstack, call, cstack ? cstack->restores : NULL, moves,
                   count);
}

orion_status orion_cstack_layout_cost(const orion_cstack *cstack,
                                      const int *slot_of_set,
                                      long long *total) {
  if (!cstack || !slot_of_set || !total)
    return ORION_ERR_INVALID_ARG;
  int *height;
  orion_status st = layout_heights(cstack, slot_of_set, &height);
  if (st != ORION_OK)
    return st;
  *total = count_moves(cstack, height, slot_of_set);
  free(height);
  return ORION_OK;
}
