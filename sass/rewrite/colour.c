/* colour.c - slot colouring: one function's private frame granules that are
 * never live at the same time share a slot (paper Fig. 4, orion-ra's
 * multi-class Chaitin-Briggs colourer, every granule a node of width 1).
 *
 * Interference from SASS liveness (sass/rewrite/stack.c computes the live-in
 * sets): a granule written at instruction i (every STL, guarded or partial
 * ones too) interferes with every other granule live after i, and the
 * granules live at the function's entry (read before any write on some
 * path) interfere pairwise.  Two granules without an edge are never live
 * together: going back from a point where both were live, each stays live
 * up to a store that kills it or to the entry, and the later of those is a
 * write while the other is live (an edge), or both reach the entry (an
 * edge).  Colours: orion_ra_colour with C = M (every node colourable),
 * then C lowered while the colourer still places every node; the result is
 * checked with orion_ra_verify.
 */
#include <stdlib.h>

#include "orion/ra.h"
#include "sassrw_internal.h"

/* Edges of the interference graph among the M granules setg[] (out: a
 * W-word scratch set). */
static orion_status edges(const sassrw_live_view *v, const uint32_t *setg, uint32_t M, orion_ra_graph *gr,
                          uint64_t *out) {
  size_t W = v->W;
  orion_status st = ORION_OK;
  for (size_t i = 0; i < v->n && st == ORION_OK; i++) {
    const uint64_t *wr = &v->wr[i * W];
    int any = 0;
    for (size_t w = 0; w < W; w++)
      any |= wr[w] != 0;
    if (!any)
      continue;
    for (size_t w = 0; w < W; w++)
      out[w] = 0;
    for (int e = 0; e < 2; e++)
      if (v->succ[2 * i + e] != UINT32_MAX)
        for (size_t w = 0; w < W; w++)
          out[w] |= v->in[(size_t)v->succ[2 * i + e] * W + w];
    for (uint32_t a = 0; a < M && st == ORION_OK; a++)
      if (sassrw_bit(wr, setg[a]))
        for (uint32_t b = 0; b < M && st == ORION_OK; b++)
          if (b != a && sassrw_bit(out, setg[b]))
            st = orion_ra_graph_add_edge(gr, (int)a, (int)b);
  }
  for (uint32_t a = 0; v->n && a < M && st == ORION_OK; a++)
    for (uint32_t b = a + 1; b < M && st == ORION_OK && sassrw_bit(v->in, setg[a]); b++)
      if (sassrw_bit(v->in, setg[b]))
        st = orion_ra_graph_add_edge(gr, (int)a, (int)b);
  return st;
}

orion_status sassrw_colour_sets(const sassrw_live_view *v, const uint32_t *setg, uint32_t M, uint32_t *cls,
                                uint32_t *nsets) {
  for (uint32_t s = 0; s < M; s++)
    cls[s] = s;
  *nsets = M;
  if (M < 2)
    return ORION_OK;
  orion_ra_graph *gr = NULL;
  int *col = malloc(M * sizeof *col), *best = malloc(M * sizeof *best);
  uint64_t *out = calloc(v->W ? v->W : 1, 8);
  orion_status st = col && best && out ? orion_ra_graph_create((int)M, &gr) : ORION_ERR_NOMEM;
  if (st == ORION_OK)
    st = edges(v, setg, M, gr, out);
  int used = -1;
  for (int C = (int)M; st == ORION_OK && C >= 1; C = used - 1) {
    int spills = 0;
    if ((st = orion_ra_colour(gr, C, col, NULL, &spills)) != ORION_OK || spills)
      break;
    int mx = 0;
    for (uint32_t s = 0; s < M; s++)
      mx = col[s] + 1 > mx ? col[s] + 1 : mx;
    if (used >= 0 && mx >= used)
      break;
    used = mx;
    for (uint32_t s = 0; s < M; s++)
      best[s] = col[s];
  }
  if (st == ORION_OK && used > 0 && orion_ra_verify(gr, used, best) == ORION_OK) {
    for (uint32_t s = 0; s < M; s++)
      cls[s] = (uint32_t)best[s];
    *nsets = (uint32_t)used;
  }
  orion_ra_graph_destroy(gr);
  free(col);
  free(best);
  free(out);
  return st;
}
