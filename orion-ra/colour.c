/* colour.c - single-procedure multi-class Chaitin-Briggs colouring.
 *
 * Paper section 3.2, Fig. 4.  The interference graph's nodes are 1..4
 * colours wide and need consecutive colours starting at an aligned colour
 * (width 1: any, 2: even, 3 and 4: multiple of 4; see orion/ra.h).
 *
 * Algorithm.
 *   (b) Simplify.  Repeatedly take a node out of the graph and push it on a
 *       stack.  Prefer a node that is guaranteed a colour whatever its
 *       remaining neighbours get ("trivially colourable"), of the smallest
 *       width, first in node order.  If there is none, push optimistically
 *       (Briggs) the node of smallest width, then fewest blocked windows
 *       (below), then first in node order - exactly Fig. 4(b)'s tie rules.
 *   (c) Select.  Pop nodes; give each the lowest aligned window of `width`
 *       colours that no coloured neighbour overlaps; if none exists the node
 *       is spilled.
 *
 * Reconstructions of Fig. 4 where its pseudocode is ambiguous:
 *
 *   - "v.width + v.edges <= C".  Counting neighbours (edges) is wrong for
 *     wide nodes, and counting neighbour widths is not enough once
 *     alignment is required: with C = 4, a width-2 node v and two width-1
 *     neighbours at colours 1 and 3, 2 + 2 <= 4 holds yet both aligned
 *     windows {0,1} and {2,3} are taken.  We count what a neighbour can
 *     actually take from v.  v's candidate windows start at multiples of
 *     a = align(v.width); as width <= align they are pairwise disjoint and
 *     there are win(v) = (C - width) / a + 1 of them (0 if width > C).  A
 *     neighbour u of width w_u placed at an aligned colour overlaps at most
 *     ceil(w_u / a) of them (if align(u) >= a it starts at a window
 *     boundary and spans that many a-blocks; if align(u) < a it lies within
 *     one a-block).  With edges(v) = sum over remaining neighbours u of
 *     ceil(w_u / a), v is trivially colourable iff edges(v) < win(v).  For
 *     width-1 nodes this is exactly the paper's width + sum(w_u) <= C; for
 *     wide nodes it is the aligned generalisation (the same bound as Smith,
 *     Ramsey and Holloway's generalised colourability test, specialised to
 *     aligned register pairs/quads).  The same edges(v) is the tie-breaker
 *     of the optimistic push.
 *
 *   - Restart after a spill.  Fig. 4(c) removes the spilled node from S and
 *     restarts from the top of the stack ("s = S").  If colours are kept the
 *     restart recolours nodes against neighbours coloured later, which can
 *     only add spills and is not what a restart means; so we read it as a
 *     restart with colours cleared.  That restart is a no-op: every node
 *     popped before the spilled one saw no colour from it (it had none yet),
 *     so replaying the same deterministic pops yields the same colours.  We
 *     therefore simply continue with the next node - O(n) instead of O(n^2)
 *     passes - and test/unit/ra/test_colour.c checks this against a literal
 *     restarting implementation.  Likewise "s.remove(v)" after a successful
 *     pop is redundant and "s.pop()" is a pop.
 *
 * Guarantee (tested): a node pushed non-optimistically is never spilled -
 * when it is popped only neighbours still in the graph at its push have
 * colours, and they block at most edges(v) < win(v) windows.
 *
 * Cost: simplify is O(n^2 + E) in the worst case (each optimistic push scans
 * the remaining nodes), O(n log n + E) when no push is optimistic;
 * select is O(E * 4 + n * C / align) at worst.  Duplicate edges are removed
 * when the adjacency is built, once per call.
 *
 * Contracts: see orion/ra.h.  The graph is never modified by colouring, so
 * concurrent colourings of one graph are safe; scratch memory is per call.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "orion/ra.h"

struct orion_ra_graph {
  int n;
  unsigned char *width; /* n entries, 1..4 */
  int *ea, *eb;         /* raw edges as added, possibly duplicated */
  size_t num_edges, cap_edges;
};

int orion_ra_alignment(int width) {
  switch (width) {
  case 1:
    return 1;
  case 2:
    return 2;
  case 3:
  case 4:
    return 4;
  default:
    return 0;
  }
}

orion_status orion_ra_graph_create(int num_nodes, orion_ra_graph **graph) {
  if (!graph)
    return ORION_ERR_INVALID_ARG;
  if (num_nodes < 0 || num_nodes > ORION_RA_MAX_NODES)
    return ORION_ERR_RANGE;
  orion_ra_graph *g = calloc(1, sizeof *g);
  if (!g)
    return ORION_ERR_NOMEM;
  g->n = num_nodes;
  g->width = malloc(num_nodes ? (size_t)num_nodes : 1);
  if (!g->width) {
    free(g);
    return ORION_ERR_NOMEM;
  }
  memset(g->width, 1, (size_t)num_nodes);
  *graph = g;
  return ORION_OK;
}

void orion_ra_graph_destroy(orion_ra_graph *graph) {
  if (!graph)
    return;
  free(graph->width);
  free(graph->ea);
  free(graph->eb);
  free(graph);
}

int orion_ra_graph_num_nodes(const orion_ra_graph *graph) {
  return graph ? graph->n : -1;
}

orion_status orion_ra_graph_set_width(orion_ra_graph *graph, int node,
                                      int width) {
  if (!graph)
    return ORION_ERR_INVALID_ARG;
  if (node < 0 || node >= graph->n || orion_ra_alignment(width) == 0)
    return ORION_ERR_RANGE;
  graph->width[node] = (unsigned char)width;
  return ORION_OK;
}

orion_status orion_ra_graph_width(const orion_ra_graph *graph, int node,
                                  int *width) {
  if (!graph || !width)
    return ORION_ERR_INVALID_ARG;
  if (node < 0 || node >= graph->n)
    return ORION_ERR_RANGE;
  *width = graph->width[node];
  return ORION_OK;
}

orion_status orion_ra_graph_add_edge(orion_ra_graph *graph, int a, int b) {
  if (!graph)
    return ORION_ERR_INVALID_ARG;
  if (a < 0 || a >= graph->n || b < 0 || b >= graph->n)
    return ORION_ERR_RANGE;
  if (a == b)
    return ORION_ERR_INVALID_ARG;
  if (graph->num_edges >= (size_t)ORION_RA_MAX_EDGES)
    return ORION_ERR_RANGE;
  if (graph->num_edges == graph->cap_edges) {
    size_t cap = graph->cap_edges ? graph->cap_edges * 2 : 16;
    if (cap > (size_t)ORION_RA_MAX_EDGES)
      cap = ORION_RA_MAX_EDGES;
    int *na = realloc(graph->ea, cap * sizeof *na);
    if (!na)
      return ORION_ERR_NOMEM;
    graph->ea = na;
    int *nb = realloc(graph->eb, cap * sizeof *nb);
    if (!nb)
      return ORION_ERR_NOMEM; /* ea grew but still holds every edge */
    graph->eb = nb;
    graph->cap_edges = cap;
  }
  graph->ea[graph->num_edges] = a;
  graph->eb[graph->num_edges] = b;
  graph->num_edges++;
  return ORION_OK;
}

/* Deduplicated adjacency in compressed rows: the neighbours of v are
 * adj[start[v] .. start[v+1]-1]. */
typedef struct adjacency {
  size_t *start; /* n + 1 */
  int *adj;
} adjacency;

static void adjacency_free(adjacency *a) {
  free(a->start);
  free(a->adj);
}

static orion_status adjacency_build(const orion_ra_graph *g, adjacency *out) {
  int n = g->n;
  size_t m = g->num_edges;
  size_t *start = calloc((size_t)n + 1, sizeof *start);
  int *adj = malloc((m > 0 ? 2 * m : 1) * sizeof *adj);
  int *mark = malloc((n ? (size_t)n : 1) * sizeof *mark);
  if (!start || !adj || !mark) {
    free(start);
    free(adj);
    free(mark);
    return ORION_ERR_NOMEM;
  }
  for (size_t e = 0; e < m; e++) {
    start[g->ea[e] + 1]++;
    start[g->eb[e] + 1]++;
  }
  for (int v = 0; v < n; v++)
    start[v + 1] += start[v];
  /* Fill using mark[] as the per-node write cursor, then dedupe in place. */
  for (int v = 0; v < n; v++)
    mark[v] = 0;
  for (size_t e = 0; e < m; e++) {
    int a = g->ea[e], b = g->eb[e];
    adj[start[a] + (size_t)mark[a]++] = b;
    adj[start[b] + (size_t)mark[b]++] = a;
  }
  for (int v = 0; v < n; v++)
    mark[v] = -1;
  size_t w = 0;
  for (int v = 0; v < n; v++) {
    size_t lo = start[v], hi = start[v + 1];
    start[v] = w;
    for (size_t p = lo; p < hi; p++) {
      int u = adj[p];
      if (mark[u] != v) {
        mark[u] = v;
        adj[w++] = u;
      }
    }
  }
  start[n] = w;
  free(mark);
  out->start = start;
  out->adj = adj;
  return ORION_OK;
}

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* Windows of `width` colours, aligned, inside C colours. */
static int windows(int width, int C) {
  return width > C ? 0 : (C - width) / orion_ra_alignment(width) + 1;
}

/* Min-heap of node ids (smallest id on top). */
typedef struct heap {
  int *a;
  int n;
} heap;

static void heap_push(heap *h, int x) {
  int i = h->n++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (h->a[p] <= x)
      break;
    h->a[i] = h->a[p];
    i = p;
  }
  h->a[i] = x;
}

static int heap_pop(heap *h) {
  int top = h->a[0];
  int x = h->a[--h->n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && h->a[c + 1] < h->a[c])
      c++;
    if (x <= h->a[c])
      break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n > 0)
    h->a[i] = x;
  return top;
}

/* Fig. 4(b) on a built adjacency.  order and optimistic (optional) have n
 * entries. */
static orion_status simplify(const orion_ra_graph *g, const adjacency *A,
                             int C, int *order, unsigned char *optimistic) {
  int n = g->n;
  size_t nn = n ? (size_t)n : 1;
  int *edges = malloc(nn * sizeof *edges);   /* edges(v), see header */
  int *alive = malloc(nn * sizeof *alive);   /* remaining nodes, id order */
  int *heapmem = malloc(nn * sizeof *heapmem);
  unsigned char *state = calloc(nn, 1); /* 0 in G, 1 trivial (in a heap),
                                           2 removed */
  if (!edges || !alive || !heapmem || !state) {
    free(edges);
    free(alive);
    free(heapmem);
    free(state);
    return ORION_ERR_NOMEM;
  }
  /* One heap per width, carved out of heapmem by width counts: a node
   * enters its width's heap at most once. */
  heap hp[ORION_RA_MAX_WIDTH + 1];
  int count[ORION_RA_MAX_WIDTH + 1] = {0};
  for (int v = 0; v < n; v++)
    count[g->width[v]]++;
  int off = 0;
  for (int w = 1; w <= ORION_RA_MAX_WIDTH; w++) {
    hp[w].a = heapmem + off;
    hp[w].n = 0;
    off += count[w];
  }

  for (int v = 0; v < n; v++) {
    int a = orion_ra_alignment(g->width[v]);
    int e = 0;
    for (size_t p = A->start[v]; p < A->start[v + 1]; p++)
      e += ceil_div(g->width[A->adj[p]], a);
    edges[v] = e;
    alive[v] = v;
    if (e < windows(g->width[v], C)) {
      state[v] = 1;
      heap_push(&hp[g->width[v]], v);
    }
  }

  int nalive = n;
  for (int step = 0; step < n; step++) {
    int next = -1, opt = 0;
    for (int w = 1; w <= ORION_RA_MAX_WIDTH && next < 0; w++)
      if (hp[w].n > 0)
        next = heap_pop(&hp[w]);
    if (next < 0) {
      /* No trivially colourable node: scan the remaining ones (compacting
       * out removed nodes) for min (width, edges), first in id order. */
      opt = 1;
      int k = 0;
      for (int p = 0; p < nalive; p++) {
        int v = alive[p];
        if (state[v] == 2)
          continue;
        alive[k++] = v;
        if (next < 0 || g->width[v] < g->width[next] ||
            (g->width[v] == g->width[next] && edges[v] < edges[next]))
          next = v;
      }
      nalive = k;
    }
    if (next < 0) { /* cannot happen: step < n nodes remain */
      free(edges);
      free(alive);
      free(heapmem);
      free(state);
      return ORION_ERR_INTERNAL;
    }
    order[step] = next;
    if (optimistic)
      optimistic[step] = (unsigned char)opt;
    state[next] = 2;
    int wn = g->width[next];
    for (size_t p = A->start[next]; p < A->start[next + 1]; p++) {
      int u = A->adj[p];
      if (state[u] == 2)
        continue;
      edges[u] -= ceil_div(wn, orion_ra_alignment(g->width[u]));
      if (state[u] == 0 && edges[u] < windows(g->width[u], C)) {
        state[u] = 1;
        heap_push(&hp[g->width[u]], u);
      }
    }
  }
  free(edges);
  free(alive);
  free(heapmem);
  free(state);
  return ORION_OK;
}

orion_status orion_ra_stack_order(const orion_ra_graph *graph, int num_colours,
                                  int *order, unsigned char *optimistic) {
  if (!graph || !order)
    return ORION_ERR_INVALID_ARG;
  if (num_colours < 1 || num_colours > ORION_RA_MAX_COLOURS)
    return ORION_ERR_RANGE;
  adjacency A;
  orion_status st = adjacency_build(graph, &A);
  if (st != ORION_OK)
    return st;
  st = simplify(graph, &A, num_colours, order, optimistic);
  adjacency_free(&A);
  return st;
}

orion_status orion_ra_colour(const orion_ra_graph *graph, int num_colours,
                             int *colour, int *spills, int *num_spills) {
  if (!graph || !colour)
    return ORION_ERR_INVALID_ARG;
  if (num_colours < 1 || num_colours > ORION_RA_MAX_COLOURS)
    return ORION_ERR_RANGE;
  int n = graph->n, C = num_colours;
  size_t nn = n ? (size_t)n : 1;
  adjacency A;
  orion_status st = adjacency_build(graph, &A);
  if (st != ORION_OK)
    return st;
  int *order = malloc(nn * sizeof *order);
  int *col = malloc(nn * sizeof *col);
  int *spl = malloc(nn * sizeof *spl);
  int *stamp = malloc((size_t)C * sizeof *stamp); /* colour -> last user */
  if (!order || !col || !spl || !stamp) {
    st = ORION_ERR_NOMEM;
    goto out;
  }
  st = simplify(graph, &A, C, order, NULL);
  if (st != ORION_OK)
    goto out;

  for (int v = 0; v < n; v++)
    col[v] = ORION_RA_SPILLED;
  for (int c = 0; c < C; c++)
    stamp[c] = -1;
  int ns = 0;
  for (int s = n - 1; s >= 0; s--) {
    int v = order[s];
    int w = graph->width[v], a = orion_ra_alignment(w);
    for (size_t p = A.start[v]; p < A.start[v + 1]; p++) {
      int u = A.adj[p];
      if (col[u] == ORION_RA_SPILLED)
        continue; /* uncoloured (not popped yet) or spilled */
      for (int c = col[u]; c < col[u] + graph->width[u]; c++)
        stamp[c] = v;
    }
    for (int c = 0; c + w <= C; c += a) {
      int free_window = 1;
      for (int d = c; d < c + w; d++)
        if (stamp[d] == v) {
          free_window = 0;
          break;
        }
      if (free_window) {
        col[v] = c;
        break;
      }
    }
    if (col[v] == ORION_RA_SPILLED)
      spl[ns++] = v; /* Fig. 4(c): S.remove(v); spillList.add(v) */
  }
  memcpy(colour, col, (size_t)n * sizeof *col);
  if (spills)
    memcpy(spills, spl, (size_t)ns * sizeof *spl);
  if (num_spills)
    *num_spills = ns;
  st = ORION_OK;
out:
  free(order);
  free(col);
  free(spl);
  free(stamp);
  adjacency_free(&A);
  return st;
}

orion_status orion_ra_verify(const orion_ra_graph *graph, int num_colours,
                             const int *colour) {
  if (!graph || !colour)
    return ORION_ERR_INVALID_ARG;
  if (num_colours < 1 || num_colours > ORION_RA_MAX_COLOURS)
    return ORION_ERR_RANGE;
  for (int v = 0; v < graph->n; v++) {
    int c = colour[v], w = graph->width[v];
    if (c == ORION_RA_SPILLED)
      continue;
    if (c < 0 || c > num_colours - w || c % orion_ra_alignment(w) != 0)
      return ORION_ERR_INFEASIBLE;
  }
  for (size_t e = 0; e < graph->num_edges; e++) {
    int a = graph->ea[e], b = graph->eb[e];
    int ca = colour[a], cb = colour[b];
    if (ca == ORION_RA_SPILLED || cb == ORION_RA_SPILLED)
      continue;
    if (ca < cb + graph->width[b] && cb < ca + graph->width[a])
      return ORION_ERR_INFEASIBLE;
  }
  return ORION_OK;
}
