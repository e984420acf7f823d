/* test_colour.c - multi-class Chaitin-Briggs colouring (paper Fig. 4).
 *
 * Hand-built graphs with known answers, wide-node alignment, invalid input,
 * and thousands of seeded random graphs checked for (1) validity by an
 * independent checker, (2) the guarantee that non-optimistic pushes are
 * never spilled, and (3) identity with a literal transcription of Fig. 4
 * that recomputes every degree from scratch and restarts colouring from
 * the top of the stack after each spill.
 */
#include <limits.h>

#include "check.h"
#include "ra_check.h"

#define MAXN 64

/* ---- literal Fig. 4 on an adjacency matrix ---- */

static int ref_edges(int n, const int *w, const unsigned char *adj,
                     const unsigned char *in_g, int v) {
  int a = chk_align(w[v]), e = 0;
  for (int u = 0; u < n; u++)
    if (in_g[u] && adj[v * n + u])
      e += (w[u] + a - 1) / a;
  return e;
}

static int ref_windows(int w, int C) {
  return w > C ? 0 : (C - w) / chk_align(w) + 1;
}

/* Fig. 4(b).  S[0] is pushed first. */
static void ref_stack(int n, const int *w, const unsigned char *adj, int C,
                      int *S, unsigned char *opt) {
  unsigned char in_g[MAXN];
  for (int v = 0; v < n; v++)
    in_g[v] = 1;
  for (int s = 0; s < n; s++) {
    int next = -1;
    for (int v = 0; v < n; v++)
      if (in_g[v] && ref_edges(n, w, adj, in_g, v) < ref_windows(w[v], C))
        if (next < 0 || w[next] > w[v])
          next = v;
    opt[s] = next < 0;
    if (next < 0) {
      for (int v = 0; v < n; v++) {
        if (!in_g[v])
          continue;
        if (next < 0) {
          next = v;
          continue;
        }
        int en = ref_edges(n, w, adj, in_g, next);
        int ev = ref_edges(n, w, adj, in_g, v);
        if (w[next] > w[v] || (w[next] == w[v] && en > ev))
          next = v;
      }
    }
    S[s] = next;
    in_g[next] = 0;
  }
}

/* Fig. 4(c) read literally: pop; on a spill remove v from S, clear all
 * colours and start again from the top of S. */
static void ref_colour(int n, const int *w, const unsigned char *adj, int C,
                       const int *S0, int *col, int *spills, int *nspills) {
  int S[MAXN], len = n;
  memcpy(S, S0, sizeof(int) * (size_t)n);
  *nspills = 0;
restart:
  for (int v = 0; v < n; v++)
    col[v] = ORION_RA_SPILLED;
  for (int s = len - 1; s >= 0; s--) {
    int v = S[s];
    unsigned char used[4 * MAXN + 8] = {0};
    for (int u = 0; u < n; u++)
      if (adj[v * n + u] && col[u] != ORION_RA_SPILLED)
        for (int c = col[u]; c < col[u] + w[u]; c++)
          used[c] = 1;
    for (int c = 0; c <= C - w[v]; c += chk_align(w[v])) {
      int ok = 1;
      for (int d = c; d < c + w[v]; d++)
        ok &= !used[d];
      if (ok) {
        col[v] = c;
        break;
      }
    }
    if (col[v] == ORION_RA_SPILLED) {
      spills[(*nspills)++] = v;
      memmove(S + s, S + s + 1, sizeof(int) * (size_t)(len - s - 1));
      len--;
      goto restart;
    }
  }
}

/* ---- helpers ---- */

typedef struct tgraph {
  int n;
  int w[MAXN];
  unsigned char adj[MAXN * MAXN];
  orion_ra_graph *g;
} tgraph;

static void tg_init(tgraph *t, int n) {
  memset(t, 0, sizeof *t);
  t->n = n;
  for (int v = 0; v < n; v++)
    t->w[v] = 1;
  CHECK(orion_ra_graph_create(n, &t->g) == ORION_OK, "create %d", n);
}

static void tg_width(tgraph *t, int v, int w) {
  t->w[v] = w;
  CHECK(orion_ra_graph_set_width(t->g, v, w) == ORION_OK, "width");
}

static void tg_edge(tgraph *t, int a, int b) {
  t->adj[a * t->n + b] = t->adj[b * t->n + a] = 1;
  CHECK(orion_ra_graph_add_edge(t->g, a, b) == ORION_OK, "edge %d-%d", a, b);
}

static int tg_colour(tgraph *t, int C, int *col, int *spills) {
  int ns = -1;
  char why[160];
  CHECK(orion_ra_colour(t->g, C, col, spills, &ns) == ORION_OK, "colour");
  CHECK(chk_colouring(t->n, t->w, t->adj, C, col, why, sizeof why), "%s",
        why);
  return ns;
}

/* ---- hand-built cases ---- */

static void test_alignment(void) {
  CHECK(orion_ra_alignment(1) == 1, "w1");
  CHECK(orion_ra_alignment(2) == 2, "w2");
  CHECK(orion_ra_alignment(3) == 4, "w3");
  CHECK(orion_ra_alignment(4) == 4, "w4");
  CHECK(orion_ra_alignment(0) == 0 && orion_ra_alignment(5) == 0 &&
            orion_ra_alignment(-1) == 0,
        "bad widths");
}

static void test_triangle(void) {
  tgraph t;
  int col[3], sp[3];
  tg_init(&t, 3);
  tg_edge(&t, 0, 1);
  tg_edge(&t, 1, 2);
  tg_edge(&t, 0, 2);
  tg_edge(&t, 2, 0); /* duplicate: harmless */
  CHECK(tg_colour(&t, 3, col, sp) == 0, "K3 in 3 colours");
  CHECK(col[0] != col[1] && col[1] != col[2] && col[0] != col[2],
        "distinct");
  int ns = tg_colour(&t, 2, col, sp);
  CHECK(ns == 1 && col[sp[0]] == ORION_RA_SPILLED, "K3 in 2: one spill");
  orion_ra_graph_destroy(t.g);
}

/* Fig. 4(b)'s tie rules and the aligned trivial-colourability test.
 * v (0, width 2) has width-1 neighbours a (1) and b (2); C = 4.  v is not
 * trivially colourable (a and b could sit at 1 and 3 and block both even
 * windows) although width + sum of neighbour widths = 4 <= C; a and b are.
 * Expected: push a, b (width 1 first), then v; pop v -> {0,1}; b, a -> 2. */
static void test_fig4_order(void) {
  tgraph t;
  int order[3], col[3], sp[3];
  unsigned char opt[3];
  tg_init(&t, 3);
  tg_width(&t, 0, 2);
  tg_edge(&t, 0, 1);
  tg_edge(&t, 0, 2);
  CHECK(orion_ra_stack_order(t.g, 4, order, opt) == ORION_OK, "order");
  CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0,
        "order %d %d %d", order[0], order[1], order[2]);
  CHECK(!opt[0] && !opt[1] && !opt[2], "no optimistic push");
  CHECK(tg_colour(&t, 4, col, sp) == 0, "no spill");
  CHECK(col[0] == 0 && col[1] == 2 && col[2] == 2, "colours %d %d %d",
        col[0], col[1], col[2]);
  orion_ra_graph_destroy(t.g);
}

/* Wide variables land on aligned consecutive colours. */
static void test_wide(void) {
  tgraph t;
  int col[6], sp[6];
  /* 0: w1, 1: w2, 2: w3, 3: w4, 4: w2, 5: w1, all pairwise interfering. */
  tg_init(&t, 6);
  int ws[6] = {1, 2, 3, 4, 2, 1};
  for (int v = 0; v < 6; v++)
    tg_width(&t, v, ws[v]);
  for (int a = 0; a < 6; a++)
    for (int b = a + 1; b < 6; b++)
      tg_edge(&t, a, b);
  /* Total width 13; with alignment the 3 needs a full quad: 16 suffices. */
  CHECK(tg_colour(&t, 16, col, sp) == 0, "fits in 16");
  CHECK(col[2] % 4 == 0 && col[3] % 4 == 0, "quads aligned %d %d", col[2],
        col[3]);
  CHECK(col[1] % 2 == 0 && col[4] % 2 == 0, "pairs aligned %d %d", col[1],
        col[4]);
  /* In 12 colours someone must be spilled (13 > 12). */
  int ns = tg_colour(&t, 12, col, sp);
  CHECK(ns >= 1, "spill in 12 colours");
  /* A width-4 node cannot fit in 3 colours at all; a width-3 one only at 0. */
  ns = tg_colour(&t, 3, col, sp);
  CHECK(col[3] == ORION_RA_SPILLED, "w4 spilled with C=3");
  CHECK(col[2] == ORION_RA_SPILLED || col[2] == 0, "w3 at %d with C=3",
        col[2]);
  orion_ra_graph_destroy(t.g);

  /* A chain of 64-bit values in 4 colours: alternating pairs. */
  tg_init(&t, 5);
  for (int v = 0; v < 5; v++)
    tg_width(&t, v, 2);
  for (int v = 0; v + 1 < 5; v++)
    tg_edge(&t, v, v + 1);
  CHECK(tg_colour(&t, 4, col, sp) == 0, "chain of pairs");
  for (int v = 0; v + 1 < 5; v++)
    CHECK(col[v] + col[v + 1] == 2, "pair %d at %d, %d at %d", v, col[v],
          v + 1, col[v + 1]);
  orion_ra_graph_destroy(t.g);

  /* A width-3 value next to a scalar at colour 0 goes to 4, not 1. */
  tg_init(&t, 2);
  tg_width(&t, 1, 3);
  tg_edge(&t, 0, 1);
  CHECK(tg_colour(&t, 8, col, sp) == 0, "w3");
  CHECK((col[0] == 0 && col[1] == 4) || (col[1] == 0 && col[0] == 3),
        "w3 at %d, scalar at %d", col[1], col[0]);
  orion_ra_graph_destroy(t.g);
}

/* A clique of k scalars: no spill with k colours, exactly one with k-1. */
static void test_clique(void) {
  for (int k = 1; k <= 12; k++) {
    tgraph t;
    int col[12], sp[12];
    tg_init(&t, k);
    for (int a = 0; a < k; a++)
      for (int b = a + 1; b < k; b++)
        tg_edge(&t, a, b);
    CHECK(tg_colour(&t, k, col, sp) == 0, "K%d in %d", k, k);
    if (k > 1)
      CHECK(tg_colour(&t, k - 1, col, sp) == 1, "K%d in %d", k, k - 1);
    orion_ra_graph_destroy(t.g);
  }
}

static void test_invalid(void) {
  orion_ra_graph *g = NULL;
  int col[4], order[4], w;
  CHECK(orion_ra_graph_create(-1, &g) == ORION_ERR_RANGE, "n<0");
  CHECK(orion_ra_graph_create(ORION_RA_MAX_NODES + 1, &g) == ORION_ERR_RANGE,
        "n too big");
  CHECK(orion_ra_graph_create(4, NULL) == ORION_ERR_INVALID_ARG, "NULL out");
  CHECK(g == NULL, "untouched on error");
  CHECK(orion_ra_graph_create(4, &g) == ORION_OK, "create");
  CHECK(orion_ra_graph_add_edge(g, 1, 1) == ORION_ERR_INVALID_ARG,
        "self-edge");
  CHECK(orion_ra_graph_add_edge(g, -1, 1) == ORION_ERR_RANGE, "id<0");
  CHECK(orion_ra_graph_add_edge(g, 0, 4) == ORION_ERR_RANGE, "id>=n");
  CHECK(orion_ra_graph_add_edge(g, INT_MIN, INT_MAX) == ORION_ERR_RANGE,
        "id extremes");
  CHECK(orion_ra_graph_add_edge(NULL, 0, 1) == ORION_ERR_INVALID_ARG,
        "NULL graph");
  CHECK(orion_ra_graph_set_width(g, 0, 0) == ORION_ERR_RANGE, "width 0");
  CHECK(orion_ra_graph_set_width(g, 0, 5) == ORION_ERR_RANGE, "width 5");
  CHECK(orion_ra_graph_set_width(g, 4, 2) == ORION_ERR_RANGE, "width node");
  CHECK(orion_ra_graph_set_width(NULL, 0, 2) == ORION_ERR_INVALID_ARG,
        "width NULL");
  CHECK(orion_ra_graph_width(g, 0, &w) == ORION_OK && w == 1, "width get");
  CHECK(orion_ra_graph_width(g, 0, NULL) == ORION_ERR_INVALID_ARG,
        "width out NULL");
  CHECK(orion_ra_graph_width(g, 9, &w) == ORION_ERR_RANGE, "width get id");
  CHECK(orion_ra_graph_num_nodes(g) == 4 && orion_ra_graph_num_nodes(NULL) ==
                                               -1,
        "num_nodes");
  CHECK(orion_ra_colour(g, 0, col, NULL, NULL) == ORION_ERR_RANGE, "C=0");
  CHECK(orion_ra_colour(g, -5, col, NULL, NULL) == ORION_ERR_RANGE, "C<0");
  CHECK(orion_ra_colour(g, ORION_RA_MAX_COLOURS + 1, col, NULL, NULL) ==
            ORION_ERR_RANGE,
        "C too big");
  CHECK(orion_ra_colour(g, 4, NULL, NULL, NULL) == ORION_ERR_INVALID_ARG,
        "colour NULL");
  CHECK(orion_ra_colour(NULL, 4, col, NULL, NULL) == ORION_ERR_INVALID_ARG,
        "graph NULL");
  CHECK(orion_ra_stack_order(g, 0, order, NULL) == ORION_ERR_RANGE,
        "order C=0");
  CHECK(orion_ra_stack_order(g, 4, NULL, NULL) == ORION_ERR_INVALID_ARG,
        "order NULL");
  CHECK(orion_ra_verify(g, 4, NULL) == ORION_ERR_INVALID_ARG, "verify NULL");
  CHECK(orion_ra_colour(g, 1, col, NULL, NULL) == ORION_OK, "C=1 ok");
  orion_ra_graph_destroy(g);
  orion_ra_graph_destroy(NULL);

  /* The empty graph is fine. */
  CHECK(orion_ra_graph_create(0, &g) == ORION_OK, "n=0");
  int ns = -1;
  CHECK(orion_ra_colour(g, 1, col, NULL, &ns) == ORION_OK && ns == 0,
        "colour n=0");
  orion_ra_graph_destroy(g);
}

/* verify() accepts valid colourings and rejects broken ones. */
static void test_verify(void) {
  tgraph t;
  int col[3];
  tg_init(&t, 3);
  tg_width(&t, 1, 2);
  tg_edge(&t, 0, 1);
  CHECK(tg_colour(&t, 4, col, NULL) == 0, "colour");
  CHECK(orion_ra_verify(t.g, 4, col) == ORION_OK, "valid");
  int bad[3] = {0, 0, 0}; /* 0 and 1 overlap */
  CHECK(orion_ra_verify(t.g, 4, bad) == ORION_ERR_INFEASIBLE, "overlap");
  int mis[3] = {0, 1, 0}; /* width 2 at odd colour */
  CHECK(orion_ra_verify(t.g, 4, mis) == ORION_ERR_INFEASIBLE, "misaligned");
  int out[3] = {0, 2, 4}; /* colour 4 with C=4 */
  CHECK(orion_ra_verify(t.g, 4, out) == ORION_ERR_INFEASIBLE, "out of range");
  int neg[3] = {-7, 2, 0};
  CHECK(orion_ra_verify(t.g, 4, neg) == ORION_ERR_INFEASIBLE, "negative");
  int sp[3] = {ORION_RA_SPILLED, 0, 0}; /* 2 is no neighbour of 1 */
  CHECK(orion_ra_verify(t.g, 4, sp) == ORION_OK, "spilled + disjoint");
  orion_ra_graph_destroy(t.g);
}

/* ---- random graphs ---- */

static void test_random(int rounds) {
  rng r = {0x5eed0001};
  long spilled = 0, optimistic = 0, nodes = 0;
  for (int it = 0; it < rounds; it++) {
    tgraph t;
    int n = rng_int(&r, 1, 40);
    int C = rng_int(&r, 1, 24);
    int dens = rng_int(&r, 0, 100);
    tg_init(&t, n);
    for (int v = 0; v < n; v++)
      if (rng_chance(&r, 1, 2))
        tg_width(&t, v, rng_int(&r, 1, 4));
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n; b++)
        if (rng_int(&r, 0, 99) < dens) {
          if (rng_chance(&r, 1, 2))
            tg_edge(&t, a, b);
          else
            tg_edge(&t, b, a);
          if (rng_chance(&r, 1, 10))
            tg_edge(&t, a, b); /* duplicate */
        }

    int order[MAXN], col[MAXN], sp[MAXN], ns = -1;
    unsigned char opt[MAXN];
    int rorder[MAXN], rcol[MAXN], rsp[MAXN], rns;
    unsigned char ropt[MAXN];
    char why[160];
    CHECK(orion_ra_stack_order(t.g, C, order, opt) == ORION_OK, "order");
    CHECK(orion_ra_colour(t.g, C, col, sp, &ns) == ORION_OK, "colour");
    int valid = chk_colouring(n, t.w, t.adj, C, col, why, sizeof why);
    CHECK(valid, "graph %d: %s", it, why);
    CHECK(orion_ra_verify(t.g, C, col) == ORION_OK, "verify agrees");

    /* Spill list = exactly the uncoloured nodes; order a permutation. */
    unsigned char seen[MAXN] = {0};
    int perm = 1;
    for (int s = 0; s < n; s++)
      perm &= order[s] >= 0 && order[s] < n && !seen[order[s]]++;
    CHECK(perm, "graph %d: order not a permutation", it);
    int uncoloured = 0;
    for (int v = 0; v < n; v++)
      uncoloured += col[v] == ORION_RA_SPILLED;
    CHECK(ns == uncoloured, "graph %d: %d spills, %d uncoloured", it, ns,
          uncoloured);
    for (int s = 0; s < ns && s < n; s++)
      CHECK(col[sp[s]] == ORION_RA_SPILLED, "spill list");

    /* Non-optimistic pushes are never spilled. */
    for (int s = 0; s < n && perm; s++) {
      optimistic += opt[s];
      if (!opt[s])
        CHECK(col[order[s]] != ORION_RA_SPILLED,
              "graph %d: guaranteed node %d spilled", it, order[s]);
    }

    /* Identical to the literal Fig. 4. */
    ref_stack(n, t.w, t.adj, C, rorder, ropt);
    ref_colour(n, t.w, t.adj, C, rorder, rcol, rsp, &rns);
    CHECK(!memcmp(order, rorder, sizeof(int) * (size_t)n),
          "graph %d: order differs from Fig. 4(b)", it);
    CHECK(!memcmp(opt, ropt, (size_t)n), "graph %d: optimistic flags", it);
    CHECK(!memcmp(col, rcol, sizeof(int) * (size_t)n),
          "graph %d: colours differ from Fig. 4(c) with restarts", it);
    CHECK(ns == rns && !memcmp(sp, rsp, sizeof(int) * (size_t)rns),
          "graph %d: spill list differs", it);

    /* Enough colours: nothing spilled.  4n colours make every node
     * trivially colourable. */
    CHECK(tg_colour(&t, 4 * n, col, sp) == 0, "graph %d: spill with C=4n",
          it);

    /* Corrupt that (spill-free) colouring: move b onto an aligned window
     * overlapping its neighbour a; verify must notice. */
    for (int a = 0, done = 0; a < n && !done; a++)
      for (int b = 0; b < n && !done; b++) {
        int s = col[a] - col[a] % chk_align(t.w[b]);
        if (!t.adj[a * n + b] || s + t.w[b] <= col[a])
          continue;
        int save = col[b];
        col[b] = s;
        CHECK(orion_ra_verify(t.g, 4 * n, col) == ORION_ERR_INFEASIBLE,
              "graph %d: overlap %d-%d not caught", it, a, b);
        col[b] = save;
        CHECK(orion_ra_verify(t.g, 4 * n, col) == ORION_OK, "restored");
        done = 1;
      }

    spilled += ns;
    nodes += n;
    orion_ra_graph_destroy(t.g);
  }
  printf("random graphs: %d graphs, %ld nodes, %ld optimistic pushes, "
         "%ld spills\n",
         rounds, nodes, optimistic, spilled);
  CHECK(spilled > 0 && optimistic > spilled, "the sample exercises spills");
}

/* A larger graph: only validity and no crash, through the API. */
static void test_large(void) {
  rng r = {0x5eed0002};
  int n = 3000;
  orion_ra_graph *g;
  CHECK(orion_ra_graph_create(n, &g) == ORION_OK, "create large");
  for (int v = 0; v < n; v++)
    orion_ra_graph_set_width(g, v, rng_int(&r, 1, 4));
  for (int e = 0; e < 60000; e++) {
    int a = rng_int(&r, 0, n - 1), b = rng_int(&r, 0, n - 1);
    if (a != b)
      CHECK(orion_ra_graph_add_edge(g, a, b) == ORION_OK, "edge");
  }
  int *col = malloc(sizeof(int) * (size_t)n);
  int ns = -1;
  CHECK(orion_ra_colour(g, 40, col, NULL, &ns) == ORION_OK, "colour large");
  CHECK(orion_ra_verify(g, 40, col) == ORION_OK, "large valid");
  printf("large graph: %d nodes, 60000 edges, C=40: %d spills\n", n, ns);
  free(col);
  orion_ra_graph_destroy(g);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3000;
  test_alignment();
  test_triangle();
  test_fig4_order();
  test_wide();
  test_clique();
  test_invalid();
  test_verify();
  test_random(rounds);
  test_large();
  return CHECK_DONE();
}
