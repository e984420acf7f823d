/* ra_check.h - independent checkers for orion-ra's tests and fuzzer.
 *
 * Nothing here calls the code under test except through its public API;
 * the checkers re-derive every property from first principles (an
 * adjacency matrix, brute force over permutations, a simulation of the
 * stack's slots), so a bug shared with the library cannot hide itself.
 */
#ifndef ORION_TEST_RA_CHECK_H
#define ORION_TEST_RA_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/ra.h"

/* splitmix64: small, seeded, good enough for test inputs. */
typedef struct rng {
  uint64_t s;
} rng;

static inline uint64_t rng_next(rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline int rng_int(rng *r, int lo, int hi) {
  return lo + (int)(rng_next(r) % (uint64_t)((int64_t)hi - lo + 1));
}

/* 1 with probability num/den. */
static inline int rng_chance(rng *r, int num, int den) {
  return (int)(rng_next(r) % (uint64_t)den) < num;
}

static inline int chk_align(int w) { return w == 1 ? 1 : w == 2 ? 2 : 4; }

/* A colouring of n nodes with widths w[] and adjacency matrix adj[n*n] is
 * valid for C colours: every non-spilled node on an aligned in-range window
 * and no two adjacent windows overlapping.  Writes why not to why[]. */
static inline int chk_colouring(int n, const int *w, const unsigned char *adj,
                                int C, const int *col, char *why,
                                size_t whylen) {
  for (int v = 0; v < n; v++) {
    if (col[v] == ORION_RA_SPILLED)
      continue;
    if (col[v] < 0 || col[v] > C - w[v] || col[v] % chk_align(w[v])) {
      snprintf(why, whylen, "node %d width %d at colour %d, C=%d", v, w[v],
               col[v], C);
      return 0;
    }
  }
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++) {
      if (!adj[a * n + b] || col[a] == ORION_RA_SPILLED ||
          col[b] == ORION_RA_SPILLED)
        continue;
      if (col[a] < col[b] + w[b] && col[b] < col[a] + w[a]) {
        snprintf(why, whylen, "adjacent %d@%d(w%d) and %d@%d(w%d) overlap",
                 a, col[a], w[a], b, col[b], w[b]);
        return 0;
      }
    }
  return 1;
}

/* Visit every permutation of 0..n-1 (Heap's algorithm, iterative); calls
 * f(perm, ctx) for each. */
static inline void chk_permutations(int n, void (*f)(const int *, void *),
                                    void *ctx) {
  int p[16], c[16];
  for (int i = 0; i < n; i++) {
    p[i] = i;
    c[i] = 0;
  }
  f(p, ctx);
  int i = 1;
  while (i < n) {
    if (c[i] < i) {
      int j = (i % 2 == 0) ? 0 : c[i];
      int t = p[j];
      p[j] = p[i];
      p[i] = t;
      f(p, ctx);
      c[i]++;
      i = 1;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

/* ---- assignment brute force */

typedef struct chk_assign_ctx {
  int n, maximise;
  const int *wt;
  long long best;
  int any;
} chk_assign_ctx;

static inline void chk_assign_visit(const int *p, void *vctx) {
  chk_assign_ctx *c = vctx;
  long long s = 0;
  for (int i = 0; i < c->n; i++)
    s += c->wt[i * c->n + p[i]];
  if (!c->any || (c->maximise ? s > c->best : s < c->best)) {
    c->best = s;
    c->any = 1;
  }
}

/* Optimal total of the n x n assignment problem by trying all n! (n<=9). */
static inline long long chk_assign_brute(int n, const int *wt, int maximise) {
  chk_assign_ctx c = {n, maximise, wt, 0, 0};
  if (n == 0)
    return 0;
  chk_permutations(n, chk_assign_visit, &c);
  return c.best;
}

/* ---- compressible stack */

/* Moves of a layout by the definition: at each call, the live sets whose
 * slot is at or above B_k.  live is [set*N + call]. */
static inline long long chk_layout_moves(int M, int N,
                                         const unsigned char *live,
                                         const int *B, const int *slot) {
  long long t = 0;
  for (int k = 0; k < N; k++)
    for (int i = 0; i < M; i++)
      if (live[i * N + k] && slot[i] >= B[k])
        t++;
  return t;
}

typedef struct chk_cs_ctx {
  int M, N;
  const unsigned char *live;
  const int *B;
  long long best;
  int any;
} chk_cs_ctx;

static inline void chk_cs_visit(const int *p, void *vctx) {
  chk_cs_ctx *c = vctx;
  long long t = chk_layout_moves(c->M, c->N, c->live, c->B, p);
  if (!c->any || t < c->best) {
    c->best = t;
    c->any = 1;
  }
}

/* Fewest moves over all M! layouts (M <= 9). */
static inline long long chk_cs_brute(int M, int N, const unsigned char *live,
                                     const int *B) {
  chk_cs_ctx c = {M, N, live, B, 0, 0};
  if (M == 0)
    return 0;
  chk_permutations(M, chk_cs_visit, &c);
  return c.best;
}

/* Simulate a solved cstack's moves and restores at every call, from its
 * layout: before the call, each move takes a live set from where it sits to
 * a slot that holds nothing live; afterwards every live set must sit in a
 * slot < B_k and alone there; the restores must bring every live set back
 * to its layout slot.  B[] is the height each call must reach.  Also checks
 * the layout is a permutation and the total move count.  Returns 1 if all
 * holds, else 0 with why[]. */
static inline int chk_cs_simulate(const orion_cstack *cs, int M, int N,
                                  const unsigned char *live, const int *B,
                                  long long expect_total, char *why,
                                  size_t whylen) {
  int slot[64], holder[64], seen[64];
  if (M > 64) {
    snprintf(why, whylen, "M too large for the checker");
    return 0;
  }
  if (orion_cstack_layout(cs, slot) != ORION_OK) {
    snprintf(why, whylen, "layout query failed");
    return 0;
  }
  memset(seen, 0, sizeof seen);
  for (int i = 0; i < M; i++) {
    if (slot[i] < 0 || slot[i] >= M || seen[slot[i]]++) {
      snprintf(why, whylen, "layout not a permutation (set %d -> %d)", i,
               slot[i]);
      return 0;
    }
  }
  long long total = 0, reported = -1;
  if (orion_cstack_total_moves(cs, &reported) != ORION_OK ||
      reported != expect_total) {
    snprintf(why, whylen, "total_moves %lld, expected %lld", reported,
             expect_total);
    return 0;
  }
  for (int k = 0; k < N; k++) {
    int h = -1;
    if (orion_cstack_height(cs, k, &h) != ORION_OK || h != B[k]) {
      snprintf(why, whylen, "call %d: height %d, expected %d", k, h, B[k]);
      return 0;
    }
    /* holder[j]: the live set whose value is in slot j, or -1. */
    for (int j = 0; j < M; j++)
      holder[j] = -1;
    for (int i = 0; i < M; i++)
      if (live[i * N + k])
        holder[slot[i]] = i;
    const orion_cstack_move *mv = NULL;
    int cnt = -1;
    if (orion_cstack_moves(cs, k, &mv, &cnt) != ORION_OK || cnt < 0 ||
        (cnt > 0 && !mv)) {
      snprintf(why, whylen, "call %d: moves query failed", k);
      return 0;
    }
    for (int q = 0; q < cnt; q++) {
      orion_cstack_move m = mv[q];
      if (m.set < 0 || m.set >= M || m.from < 0 || m.from >= M || m.to < 0 ||
          m.to >= M || holder[m.from] != m.set || holder[m.to] != -1 ||
          !live[m.set * N + k]) {
        snprintf(why, whylen, "call %d: bad move %d: set %d %d->%d", k, q,
                 m.set, m.from, m.to);
        return 0;
      }
      holder[m.to] = m.set;
      holder[m.from] = -1;
    }
    total += cnt;
    for (int j = B[k]; j < M; j++)
      if (holder[j] != -1) {
        snprintf(why, whylen, "call %d: set %d still in slot %d >= B=%d", k,
                 holder[j], j, B[k]);
        return 0;
      }
    memset(seen, 0, sizeof seen);
    for (int j = 0; j < M; j++)
      if (holder[j] >= 0)
        seen[holder[j]]++;
    for (int i = 0; i < M; i++)
      if (seen[i] != (live[i * N + k] ? 1 : 0)) {
        snprintf(why, whylen, "call %d: set %d held %d times", k, i, seen[i]);
        return 0;
      }
    const orion_cstack_move *rs = NULL;
    int rc = -1;
    if (orion_cstack_restores(cs, k, &rs, &rc) != ORION_OK || rc != cnt) {
      snprintf(why, whylen, "call %d: %d restores for %d moves", k, rc, cnt);
      return 0;
    }
    for (int q = 0; q < rc; q++) {
      orion_cstack_move m = rs[q];
      if (m.set < 0 || m.set >= M || m.from < 0 || m.from >= M || m.to < 0 ||
          m.to >= M || holder[m.from] != m.set || holder[m.to] != -1) {
        snprintf(why, whylen, "call %d: bad restore %d: set %d %d->%d", k, q,
                 m.set, m.from, m.to);
        return 0;
      }
      holder[m.to] = m.set;
      holder[m.from] = -1;
    }
    for (int i = 0; i < M; i++)
      if (live[i * N + k] && holder[slot[i]] != i) {
        snprintf(why, whylen, "call %d: set %d not restored to slot %d", k,
                 i, slot[i]);
        return 0;
      }
  }
  if (total != expect_total) {
    snprintf(why, whylen, "%lld moves emitted, expected %lld", total,
             expect_total);
    return 0;
  }
  return 1;
}

#endif
