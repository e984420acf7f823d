/* fuzz_ra.c - stress/fuzz target for the orion-ra allocation API.
 *
 * A byte buffer is read as a program of API calls on one graph and one
 * compressible stack (plus stand-alone assignment problems) with values
 * drawn from the bytes - mostly in range, often just out of it, sometimes
 * extreme (INT_MIN, INT_MAX, limits + 1) - and NULL pointers.  Every
 * function of orion/ra.h is called.  The harness mirrors the state (widths,
 * adjacency, liveness, heights, solved flag), predicts each call's status
 * and checks it, and whenever a call succeeds validates its output with
 * the independent checkers of ra_check.h (colouring validity, brute-force
 * optimality, simulated moves).  Any mismatch aborts.
 *
 * Built with -fsanitize=address,undefined -fno-sanitize-recover=all against
 * orion_ra_san, the library built the same way (test/unit/ra/CMakeLists.txt),
 * so memory and UB errors in the library abort too.
 *
 *   fuzz_ra [seconds [seed [max_iterations]]]   random buffers from a seeded
 *                                               PRNG until time runs out
 *   fuzz_ra -f FILE...                          replay buffers from files
 * Built with -DORION_RA_LIBFUZZER it is a libFuzzer target instead.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <limits.h>
#include <time.h>

#include "ra_check.h"

#define FZ_MAXN 40 /* graph nodes mirrored */
#define FZ_MAXM 9  /* slot sets mirrored */
#define FZ_MAXK 8  /* calls mirrored */

#define FZ_CHECK(cond, ...)                                                  \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz_ra: %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
      fprintf(stderr, __VA_ARGS__);                                          \
      fputc('\n', stderr);                                                   \
      abort();                                                               \
    }                                                                        \
  } while (0)

/* What the run exercised (printed at the end). */
static struct {
  long colour_ok, spills, verify_bad, solve_ok, solve_infeasible, layout_ok,
      assign_ok, moves, errors;
} stats;

typedef struct reader {
  const uint8_t *p;
  size_t n, i;
} reader;

static int rd_u8(reader *r) { return r->i < r->n ? r->p[r->i++] : 0; }

/* A value in [lo, hi] most of the time; one of `special` (count ns) for
 * bytes >= 240. */
static int rd_val(reader *r, int lo, int hi, const int *special, int ns) {
  int b = rd_u8(r);
  if (b >= 240 && ns > 0)
    return special[(b - 240) % ns];
  return lo + (int)((unsigned)b % (unsigned)(hi - lo + 1));
}

typedef struct fz {
  /* graph */
  orion_ra_graph *g;
  int gn, gmirror; /* gmirror: gn <= FZ_MAXN and the mirror is exact */
  int w[FZ_MAXN];
  unsigned char adj[FZ_MAXN * FZ_MAXN];
  /* compressible stack */
  orion_cstack *cs;
  int M, N, cmirror;
  unsigned char live[FZ_MAXM * FZ_MAXK];
  int want[FZ_MAXK];
  int solved;
} fz;

static const int sp_count[] = {-1, INT_MIN, INT_MAX, 0, 1, 2};
static const int sp_node[] = {-1, INT_MIN, INT_MAX, ORION_RA_MAX_NODES + 1};
static const int sp_colours[] = {0, -1, INT_MIN, ORION_RA_MAX_COLOURS,
                                 ORION_RA_MAX_COLOURS + 1, 1, 4};
static const int sp_sets[] = {-1, INT_MIN, INT_MAX, ORION_CSTACK_MAX_SETS + 1};
static const int sp_calls[] = {-1, INT_MIN, ORION_CSTACK_MAX_CALLS + 1,
                               ORION_CSTACK_MAX_CALLS, 0};
static const int sp_weight[] = {INT_MIN, INT_MAX, INT_MIN + 1, -1, 0};

static void graph_drop(fz *f) {
  orion_ra_graph_destroy(f->g);
  f->g = NULL;
}

static void cs_drop(fz *f) {
  orion_cstack_destroy(f->cs);
  f->cs = NULL;
}

/* ------------------------------------------------------------- graph ops */

static void op_graph_create(fz *f, reader *r) {
  int n = rd_val(r, -1, FZ_MAXN, sp_node, 4);
  int null_out = rd_u8(r) % 16 == 0;
  orion_ra_graph *g = NULL;
  orion_status st = orion_ra_graph_create(n, null_out ? NULL : &g);
  orion_status want = null_out ? ORION_ERR_INVALID_ARG
                      : (n < 0 || n > ORION_RA_MAX_NODES) ? ORION_ERR_RANGE
                                                          : ORION_OK;
  FZ_CHECK(st == want, "graph_create(%d): %d, expected %d", n, st, want);
  if (st != ORION_OK) {
    FZ_CHECK(g == NULL, "output written on error");
    return;
  }
  graph_drop(f);
  f->g = g;
  f->gn = n;
  f->gmirror = n <= FZ_MAXN;
  if (f->gmirror) {
    for (int v = 0; v < n; v++)
      f->w[v] = 1;
    memset(f->adj, 0, sizeof f->adj);
  }
  FZ_CHECK(orion_ra_graph_num_nodes(g) == n, "num_nodes");
}

static void op_set_width(fz *f, reader *r) {
  int v = rd_val(r, -1, f->gn, sp_node, 4);
  int w = rd_val(r, -1, 5, sp_count, 6);
  orion_status st = orion_ra_graph_set_width(f->g, v, w);
  orion_status want = !f->g ? ORION_ERR_INVALID_ARG
                      : (v < 0 || v >= f->gn || w < 1 || w > 4)
                          ? ORION_ERR_RANGE
                          : ORION_OK;
  FZ_CHECK(st == want, "set_width(%d,%d): %d, expected %d", v, w, st, want);
  if (st == ORION_OK && f->gmirror)
    f->w[v] = w;
  if (f->g && v >= 0 && v < f->gn) {
    int got = 0;
    FZ_CHECK(orion_ra_graph_width(f->g, v, &got) == ORION_OK &&
                 (!f->gmirror || got == f->w[v]),
             "width(%d) = %d", v, got);
  }
}

static void op_add_edge(fz *f, reader *r) {
  int a = rd_val(r, -1, f->gn, sp_node, 4);
  int b = rd_val(r, -1, f->gn, sp_node, 4);
  orion_status st = orion_ra_graph_add_edge(f->g, a, b);
  orion_status want = !f->g                                ? ORION_ERR_INVALID_ARG
                      : (a < 0 || a >= f->gn || b < 0 || b >= f->gn)
                          ? ORION_ERR_RANGE
                      : a == b ? ORION_ERR_INVALID_ARG
                               : ORION_OK;
  FZ_CHECK(st == want, "add_edge(%d,%d): %d, expected %d", a, b, st, want);
  if (st == ORION_OK && f->gmirror)
    f->adj[a * f->gn + b] = f->adj[b * f->gn + a] = 1;
}

static void op_add_edges(fz *f, reader *r) {
  int k = rd_u8(r) % 48;
  if (!f->g || f->gn < 2)
    return;
  for (int e = 0; e < k; e++) {
    int a = rd_u8(r) % f->gn, b = rd_u8(r) % f->gn;
    if (a == b)
      b = (a + 1) % f->gn;
    FZ_CHECK(orion_ra_graph_add_edge(f->g, a, b) == ORION_OK, "add_edges");
    if (f->gmirror)
      f->adj[a * f->gn + b] = f->adj[b * f->gn + a] = 1;
  }
}

static orion_status colour_status(const fz *f, int C, int null_arr) {
  if (!f->g || null_arr)
    return ORION_ERR_INVALID_ARG;
  if (C < 1 || C > ORION_RA_MAX_COLOURS)
    return ORION_ERR_RANGE;
  return ORION_OK;
}

static void op_colour(fz *f, reader *r) {
  int C = rd_val(r, -1, 24, sp_colours, 7);
  int flags = rd_u8(r);
  int null_col = flags % 16 == 0;
  int n = f->g ? f->gn : 0;
  if (f->g && !f->gmirror && (n > 4096 || C > 4096))
    return; /* keep big unmirrored graphs cheap */
  int *col = malloc(sizeof(int) * (size_t)(n + 1));
  int *spl = malloc(sizeof(int) * (size_t)(n + 1));
  int *order = malloc(sizeof(int) * (size_t)(n + 1));
  unsigned char *opt = malloc((size_t)n + 1);
  int ns = -1;
  orion_status st =
      orion_ra_colour(f->g, C, null_col ? NULL : col, (flags & 2) ? spl : NULL,
                      (flags & 4) ? &ns : NULL);
  orion_status want = colour_status(f, C, null_col);
  FZ_CHECK(st == want, "colour(C=%d): %d, expected %d", C, st, want);
  stats.errors += st != ORION_OK;
  if (st == ORION_OK) {
    stats.colour_ok++;
    FZ_CHECK(orion_ra_verify(f->g, C, col) == ORION_OK, "verify(own result)");
    int uncoloured = 0;
    for (int v = 0; v < n; v++)
      uncoloured += col[v] == ORION_RA_SPILLED;
    stats.spills += uncoloured;
    if (flags & 4)
      FZ_CHECK(ns == uncoloured, "%d spills, %d uncoloured", ns, uncoloured);
    if ((flags & 6) == 6)
      for (int s = 0; s < ns; s++)
        FZ_CHECK(spl[s] >= 0 && spl[s] < n && col[spl[s]] == ORION_RA_SPILLED,
                 "spill list");
    if (f->gmirror) {
      char why[160];
      FZ_CHECK(chk_colouring(n, f->w, f->adj, C, col, why, sizeof why), "%s",
               why);
    }
    /* Guarantee: non-optimistic pushes are coloured. */
    FZ_CHECK(orion_ra_stack_order(f->g, C, order, opt) == ORION_OK, "order");
    for (int s = 0; s < n; s++)
      FZ_CHECK(opt[s] || col[order[s]] != ORION_RA_SPILLED,
               "guaranteed node %d spilled", order[s]);
  }
  free(col);
  free(spl);
  free(order);
  free(opt);
}

static void op_stack_order(fz *f, reader *r) {
  int C = rd_val(r, -1, 24, sp_colours, 7);
  int flags = rd_u8(r);
  int n = f->g ? f->gn : 0;
  if (f->g && !f->gmirror && n > 4096)
    return;
  int *order = malloc(sizeof(int) * (size_t)(n + 1));
  unsigned char *opt = malloc((size_t)n + 1);
  unsigned char *seen = calloc((size_t)n + 1, 1);
  int null_order = flags % 16 == 0;
  orion_status st = orion_ra_stack_order(f->g, C, null_order ? NULL : order,
                                         (flags & 1) ? opt : NULL);
  FZ_CHECK(st == colour_status(f, C, null_order), "stack_order: %d", st);
  if (st == ORION_OK)
    for (int s = 0; s < n; s++)
      FZ_CHECK(order[s] >= 0 && order[s] < n && !seen[order[s]]++,
               "order not a permutation");
  free(order);
  free(opt);
  free(seen);
}

static void op_verify(fz *f, reader *r) {
  int C = rd_val(r, -1, 24, sp_colours, 7);
  int n = f->g ? f->gn : 0;
  if (f->g && !f->gmirror)
    return;
  int col[FZ_MAXN + 1];
  for (int v = 0; v < n; v++)
    col[v] = rd_val(r, -2, 24, sp_count, 6);
  int null_col = rd_u8(r) % 16 == 0;
  orion_status st = orion_ra_verify(f->g, C, null_col ? NULL : col);
  orion_status want = colour_status(f, C, null_col);
  if (want == ORION_OK) {
    char why[160];
    want = chk_colouring(n, f->w, f->adj, C, col, why, sizeof why)
               ? ORION_OK
               : ORION_ERR_INFEASIBLE;
  }
  FZ_CHECK(st == want, "verify: %d, expected %d", st, want);
  stats.verify_bad += st == ORION_ERR_INFEASIBLE;
}

static void op_graph_queries(fz *f, reader *r) {
  int v = rd_val(r, -1, f->gn, sp_node, 4);
  int w = -5;
  orion_status st = orion_ra_graph_width(f->g, v, (rd_u8(r) & 7) ? &w : NULL);
  FZ_CHECK(orion_ra_graph_num_nodes(f->g) == (f->g ? f->gn : -1),
           "num_nodes");
  if (st == ORION_OK)
    FZ_CHECK(w >= 1 && w <= 4 && (!f->gmirror || w == f->w[v]), "width");
  else
    FZ_CHECK(w == -5, "width written on error");
  for (int x = -2; x <= 6; x++)
    FZ_CHECK(orion_ra_alignment(x) == (x == 1   ? 1
                                       : x == 2 ? 2
                                       : x == 3 || x == 4 ? 4
                                                          : 0),
             "alignment(%d)", x);
}

/* ------------------------------------------------------------ cstack ops */

static int cs_live_count(const fz *f, int k) {
  int c = 0;
  for (int i = 0; i < f->M; i++)
    c += f->live[i * f->N + k];
  return c;
}

/* The effective heights, or 0 when infeasible. */
static int cs_heights(const fz *f, int *B) {
  for (int k = 0; k < f->N; k++) {
    int nl = cs_live_count(f, k);
    if (f->want[k] == ORION_CSTACK_MIN_HEIGHT)
      B[k] = nl;
    else if (f->want[k] < nl)
      return 0;
    else
      B[k] = f->want[k];
  }
  return 1;
}

static void op_cs_create(fz *f, reader *r) {
  int M = rd_val(r, -1, FZ_MAXM, sp_sets, 4);
  int N = rd_val(r, -1, FZ_MAXK, sp_calls, 5);
  int null_out = rd_u8(r) % 16 == 0;
  orion_cstack *cs = NULL;
  orion_status st = orion_cstack_create(M, N, null_out ? NULL : &cs);
  orion_status want =
      null_out ? ORION_ERR_INVALID_ARG
      : (M < 0 || M > ORION_CSTACK_MAX_SETS || N < 0 ||
         N > ORION_CSTACK_MAX_CALLS ||
         (long long)M * N > ORION_CSTACK_MAX_CELLS)
          ? ORION_ERR_RANGE
          : ORION_OK;
  FZ_CHECK(st == want, "cstack_create(%d,%d): %d, expected %d", M, N, st,
           want);
  if (st != ORION_OK) {
    FZ_CHECK(cs == NULL, "output written on error");
    return;
  }
  cs_drop(f);
  f->cs = cs;
  f->M = M;
  f->N = N;
  f->cmirror = M <= FZ_MAXM && N <= FZ_MAXK;
  f->solved = 0;
  memset(f->live, 0, sizeof f->live);
  for (int k = 0; k < FZ_MAXK; k++)
    f->want[k] = ORION_CSTACK_MIN_HEIGHT;
}

static void op_set_live(fz *f, reader *r) {
  int i = rd_val(r, -1, f->M, sp_sets, 4);
  int k = rd_val(r, -1, f->N, sp_calls, 5);
  int v = rd_val(r, 0, 2, sp_weight, 5);
  orion_status st = orion_cstack_set_live(f->cs, i, k, v);
  orion_status want = !f->cs ? ORION_ERR_INVALID_ARG
                      : (i < 0 || i >= f->M || k < 0 || k >= f->N)
                          ? ORION_ERR_RANGE
                          : ORION_OK;
  FZ_CHECK(st == want, "set_live(%d,%d): %d, expected %d", i, k, st, want);
  if (st == ORION_OK) {
    f->solved = 0;
    if (f->cmirror)
      f->live[i * f->N + k] = v != 0;
  }
}

static void op_set_liveness(fz *f, reader *r) {
  if (!f->cs || !f->cmirror) {
    FZ_CHECK(orion_cstack_set_liveness(f->cs, NULL) == ORION_ERR_INVALID_ARG,
             "set_liveness(NULL)");
    return;
  }
  unsigned char buf[FZ_MAXM * FZ_MAXK + 1];
  int dens = rd_u8(r);
  for (int c = 0; c < f->M * f->N; c++)
    buf[c] = (unsigned char)(rd_u8(r) < dens ? rd_u8(r) | 1 : 0);
  FZ_CHECK(orion_cstack_set_liveness(f->cs, buf) == ORION_OK, "set_liveness");
  for (int c = 0; c < f->M * f->N; c++)
    f->live[c] = buf[c] != 0;
  f->solved = 0;
}

static void op_set_height(fz *f, reader *r) {
  int k = rd_val(r, -1, f->N, sp_calls, 5);
  int h = rd_val(r, -2, f->M + 1, sp_sets, 4);
  orion_status st = orion_cstack_set_height(f->cs, k, h);
  orion_status want =
      !f->cs ? ORION_ERR_INVALID_ARG
      : (k < 0 || k >= f->N ||
         (h != ORION_CSTACK_MIN_HEIGHT && (h < 0 || h > f->M)))
          ? ORION_ERR_RANGE
          : ORION_OK;
  FZ_CHECK(st == want, "set_height(%d,%d): %d, expected %d", k, h, st, want);
  if (st == ORION_OK) {
    f->solved = 0;
    if (f->cmirror)
      f->want[k] = h;
  }
}

/* After a successful solve/use_layout: the moves simulate, and solve's
 * total is the brute-force optimum for small M. */
static void cs_validate(fz *f, int optimal) {
  int B[FZ_MAXK], slot[FZ_MAXM];
  char why[200];
  long long total = -1;
  FZ_CHECK(cs_heights(f, B), "solved an infeasible instance");
  FZ_CHECK(orion_cstack_layout(f->cs, slot) == ORION_OK, "layout");
  FZ_CHECK(orion_cstack_total_moves(f->cs, &total) == ORION_OK, "total");
  FZ_CHECK(total == chk_layout_moves(f->M, f->N, f->live, B, slot),
           "total %lld is not the layout's cost", total);
  stats.moves += total;
  if (optimal && f->M <= 7) {
    long long best = chk_cs_brute(f->M, f->N, f->live, B);
    FZ_CHECK(total == best, "M=%d N=%d: %lld moves, optimum %lld", f->M, f->N,
             total, best);
  }
  FZ_CHECK(chk_cs_simulate(f->cs, f->M, f->N, f->live, B, total, why,
                           sizeof why),
           "%s", why);
}

static void op_solve(fz *f, reader *r) {
  (void)r;
  orion_status st = orion_cstack_solve(f->cs);
  if (!f->cs) {
    FZ_CHECK(st == ORION_ERR_INVALID_ARG, "solve(NULL)");
    return;
  }
  f->solved = st == ORION_OK;
  if (!f->cmirror) {
    FZ_CHECK(st == ORION_OK || st == ORION_ERR_INFEASIBLE, "solve: %d", st);
    return;
  }
  int B[FZ_MAXK];
  orion_status want = cs_heights(f, B) ? ORION_OK : ORION_ERR_INFEASIBLE;
  FZ_CHECK(st == want, "solve: %d, expected %d", st, want);
  stats.solve_ok += st == ORION_OK;
  stats.solve_infeasible += st == ORION_ERR_INFEASIBLE;
  if (st == ORION_OK)
    cs_validate(f, 1);
}

/* A layout from the bytes: a permutation, or sometimes not. */
static void rd_layout(reader *r, int M, int *slot, int *is_perm) {
  for (int i = 0; i < M; i++)
    slot[i] = i;
  for (int i = M - 1; i > 0; i--) {
    int j = rd_u8(r) % (i + 1), t = slot[i];
    slot[i] = slot[j];
    slot[j] = t;
  }
  *is_perm = 1;
  if (M > 0 && rd_u8(r) % 4 == 0) {
    int i = rd_u8(r) % M;
    slot[i] = rd_val(r, -1, M, sp_sets, 4);
    int seen[FZ_MAXM + 1] = {0};
    for (int q = 0; q < M; q++)
      if (slot[q] < 0 || slot[q] >= M || seen[slot[q]]++)
        *is_perm = 0;
  }
}

static void op_use_layout(fz *f, reader *r) {
  if (!f->cs || !f->cmirror) {
    int z[1] = {0};
    FZ_CHECK(orion_cstack_use_layout(f->cs, f->cs ? NULL : z) ==
                 ORION_ERR_INVALID_ARG,
             "use_layout NULL");
    return;
  }
  int slot[FZ_MAXM + 1], is_perm, B[FZ_MAXK];
  rd_layout(r, f->M, slot, &is_perm);
  orion_status st = orion_cstack_use_layout(f->cs, slot);
  orion_status want = !is_perm           ? ORION_ERR_RANGE
                      : !cs_heights(f, B) ? ORION_ERR_INFEASIBLE
                                          : ORION_OK;
  FZ_CHECK(st == want, "use_layout: %d, expected %d", st, want);
  f->solved = st == ORION_OK;
  stats.layout_ok += st == ORION_OK;
  if (st == ORION_OK) {
    int got[FZ_MAXM + 1];
    FZ_CHECK(orion_cstack_layout(f->cs, got) == ORION_OK &&
                 !memcmp(got, slot, sizeof(int) * (size_t)f->M),
             "use_layout kept another layout");
    cs_validate(f, 0);
  }
}

static void op_layout_cost(fz *f, reader *r) {
  if (!f->cs || !f->cmirror) {
    long long t;
    FZ_CHECK(orion_cstack_layout_cost(f->cs, NULL, &t) ==
                 ORION_ERR_INVALID_ARG,
             "layout_cost NULL");
    return;
  }
  int slot[FZ_MAXM + 1], is_perm, B[FZ_MAXK];
  long long t = -7;
  rd_layout(r, f->M, slot, &is_perm);
  int null_total = rd_u8(r) % 16 == 0;
  orion_status st =
      orion_cstack_layout_cost(f->cs, slot, null_total ? NULL : &t);
  int feasible = cs_heights(f, B);
  orion_status want = null_total ? ORION_ERR_INVALID_ARG
                      : !is_perm ? ORION_ERR_RANGE
                      : !feasible ? ORION_ERR_INFEASIBLE
                                  : ORION_OK;
  FZ_CHECK(st == want, "layout_cost: %d, expected %d", st, want);
  if (st == ORION_OK)
    FZ_CHECK(t == chk_layout_moves(f->M, f->N, f->live, B, slot),
             "layout_cost %lld", t);
  else
    FZ_CHECK(t == -7, "total written on error");
}

static void op_cs_queries(fz *f, reader *r) {
  int k = rd_val(r, -1, f->N, sp_calls, 5);
  int nulls = rd_u8(r);
  const orion_cstack_move *mv = NULL;
  int cnt = -1, h = -1;
  long long t = -1;
  int slot[FZ_MAXM + 1];
  int in_range = k >= 0 && k < f->N;
  orion_status bad = !f->cs || !f->solved ? ORION_ERR_INVALID_ARG : ORION_OK;
  orion_status st;

  st = orion_cstack_moves(f->cs, k, (nulls & 1) ? NULL : &mv,
                          (nulls & 2) ? NULL : &cnt);
  orion_status want = (bad || (nulls & 3)) ? ORION_ERR_INVALID_ARG
                      : !in_range          ? ORION_ERR_RANGE
                                           : ORION_OK;
  FZ_CHECK(st == want, "moves(%d): %d, expected %d", k, st, want);
  if (st == ORION_OK)
    FZ_CHECK(cnt >= 0 && cnt <= f->M && (cnt == 0 || mv), "moves count %d",
             cnt);
  st = orion_cstack_restores(f->cs, k, (nulls & 1) ? NULL : &mv,
                             (nulls & 2) ? NULL : &cnt);
  FZ_CHECK(st == want, "restores(%d): %d, expected %d", k, st, want);
  st = orion_cstack_height(f->cs, k, (nulls & 4) ? NULL : &h);
  want = (bad || (nulls & 4)) ? ORION_ERR_INVALID_ARG
         : !in_range          ? ORION_ERR_RANGE
                              : ORION_OK;
  FZ_CHECK(st == want, "height(%d): %d, expected %d", k, st, want);
  if (st == ORION_OK)
    FZ_CHECK(h >= 0 && h <= f->M, "height %d", h);
  if (f->M <= FZ_MAXM) {
    st = orion_cstack_layout(f->cs, (nulls & 8) ? NULL : slot);
    FZ_CHECK(st == ((bad || (nulls & 8)) ? ORION_ERR_INVALID_ARG : ORION_OK),
             "layout: %d", st);
  }
  st = orion_cstack_total_moves(f->cs, (nulls & 16) ? NULL : &t);
  FZ_CHECK(st == ((bad || (nulls & 16)) ? ORION_ERR_INVALID_ARG : ORION_OK),
           "total_moves: %d", st);
}

/* ------------------------------------------------------------ assignment */

static void op_assign(reader *r) {
  static const int sp_n[] = {-1, INT_MIN, ORION_RA_ASSIGN_MAX_N + 1, 0};
  int n = rd_val(r, 0, 7, sp_n, 4);
  int maximise = rd_u8(r) & 1;
  int nulls = rd_u8(r) % 16;
  int range = rd_u8(r) % 3 == 0 ? 2 : 200;
  int w[64], col[8];
  long long t = 12345;
  int m = n >= 0 && n <= 7 ? n : 0;
  for (int c = 0; c < m * m; c++)
    w[c] = rd_val(r, -range, range, sp_weight, 5);
  orion_status st = orion_ra_assign(n, nulls == 1 ? NULL : w, maximise,
                                    nulls == 2 ? NULL : col,
                                    nulls == 3 ? NULL : &t);
  orion_status want = (nulls == 1 || nulls == 2) ? ORION_ERR_INVALID_ARG
                      : (n < 0 || n > ORION_RA_ASSIGN_MAX_N) ? ORION_ERR_RANGE
                                                             : ORION_OK;
  FZ_CHECK(st == want, "assign(%d): %d, expected %d", n, st, want);
  stats.assign_ok += st == ORION_OK;
  if (st != ORION_OK) {
    FZ_CHECK(t == 12345, "total written on error");
    return;
  }
  int seen[8] = {0};
  long long s = 0;
  for (int i = 0; i < n; i++) {
    FZ_CHECK(col[i] >= 0 && col[i] < n && !seen[col[i]]++, "not a perm");
    s += w[i * n + col[i]];
  }
  FZ_CHECK(s == chk_assign_brute(n, w, maximise), "assign not optimal");
  if (nulls != 3)
    FZ_CHECK(t == s, "total %lld, sum %lld", t, s);
}

/* ------------------------------------------------------------ driver */

static void fuzz_one(const uint8_t *data, size_t size) {
  reader r = {data, size, 0};
  fz f;
  memset(&f, 0, sizeof f);
  int steps = 0;
  while (r.i < r.n && steps++ < 400) {
    switch (rd_u8(&r) % 20) {
    case 0: op_graph_create(&f, &r); break;
    case 1: op_set_width(&f, &r); break;
    case 2: op_add_edge(&f, &r); break;
    case 3: op_add_edges(&f, &r); break;
    case 4: op_colour(&f, &r); break;
    case 5: op_stack_order(&f, &r); break;
    case 6: op_verify(&f, &r); break;
    case 7: op_graph_queries(&f, &r); break;
    case 8: op_cs_create(&f, &r); break;
    case 9: op_set_live(&f, &r); break;
    case 10: op_set_liveness(&f, &r); break;
    case 11: op_set_height(&f, &r); break;
    case 12: op_solve(&f, &r); break;
    case 13: op_use_layout(&f, &r); break;
    case 14: op_layout_cost(&f, &r); break;
    case 15: op_cs_queries(&f, &r); break;
    case 16: op_assign(&r); break;
    case 17: graph_drop(&f); break;
    case 18: cs_drop(&f); f.solved = 0; break;
    default: /* a fresh, sizeable colouring round */
      op_colour(&f, &r);
      break;
    }
  }
  graph_drop(&f);
  cs_drop(&f);
}

#ifdef ORION_RA_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_one(data, size);
  return 0;
}
#else
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int replay(int argc, char **argv) {
  for (int a = 2; a < argc; a++) {
    FILE *fp = fopen(argv[a], "rb");
    if (!fp) {
      perror(argv[a]);
      return 1;
    }
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    fuzz_one(buf, n);
    printf("%s: ok\n", argv[a]);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "-f"))
    return replay(argc, argv);
  double seconds = argc > 1 ? atof(argv[1]) : 15.0;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
  long max_it = argc > 3 ? atol(argv[3]) : -1;
  double t0 = now_s();
  static uint8_t buf[4096];
  long it;
  size_t bytes = 0;
  for (it = 0; max_it < 0 || it < max_it; it++) {
    if ((it & 15) == 0 && now_s() - t0 > seconds)
      break;
    /* Buffer `it` depends only on (seed, it): rerun with the same seed and
     * max_iterations = it + 1 to reproduce. */
    rng r = {seed * 0x100000001B3ull + (uint64_t)it};
    size_t n = (size_t)rng_int(&r, 0, (int)sizeof buf - 1);
    for (size_t i = 0; i < n; i++)
      buf[i] = (uint8_t)rng_next(&r);
    /* Half the buffers open with a sizeable graph and a cstack so that
     * later bytes act on something. */
    if ((it & 1) && n >= 6) {
      buf[0] = 0;
      buf[1] = (uint8_t)(FZ_MAXN - (it % 8));
      buf[2] = 1;
      buf[3] = 8;
      buf[4] = (uint8_t)rng_int(&r, 1, FZ_MAXM);
      buf[5] = (uint8_t)rng_int(&r, 1, FZ_MAXK);
    }
    fuzz_one(buf, n);
    bytes += n;
  }
  printf("fuzz_ra: %ld buffers (%zu bytes) in %.1f s, seed %llu: ok\n", it,
         bytes, now_s() - t0, (unsigned long long)seed);
  printf("  colourings %ld (%ld spills, %ld colour errors), bad colourings "
         "caught %ld,\n  solves %ld (+%ld infeasible), given layouts %ld, "
         "moves simulated %ld, assignments %ld\n",
         stats.colour_ok, stats.spills, stats.errors, stats.verify_bad,
         stats.solve_ok, stats.solve_infeasible, stats.layout_ok, stats.moves,
         stats.assign_ok);
  return 0;
}
#endif
