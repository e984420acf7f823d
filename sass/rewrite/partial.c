/* partial.c - partial placement of a frame layout: which of its granules
 * stay on chip when the whole region does not fit (include/orion/sassrw.h
 * has the contract, sass/rewrite/rewrite.c applies the choice).
 *
 * Algorithm:
 *   1. Estimated dynamic access count, as a register allocator weights
 *      spill costs: an instruction at loop depth d of its function counts
 *      10^min(d, 6), loop depth being the number of backward edges
 *      (branch at k to a target t <= k) whose range [t, k] holds it.  A
 *      callee's counts are multiplied by the sum of its call sites' counts
 *      (the tree is in topological order, callers first, so one pass does).
 *      Every frame access adds its count to the layout granule(s) it
 *      touches (with a split granule, each 4-byte word its own).
 *   2. The k granules of largest count go on chip (ties: the lower
 *      granule), renumbered 0..k-1 in their layout order; the rest keep
 *      ptxas's own place in the local frame, whatever the layout, so a
 *      value is in shared memory at every access or at none: a layout
 *      granule is one location, either one.
 *   3. R1 stays the stack pointer (the local part stays where ptxas put
 *      it, and tools such as compute-sanitizer check local accesses
 *      against R1); the on-chip part's per-thread base goes to the first
 *      register above every one the tree's instructions name (with their
 *      widths).  ptxas names registers up to its count less three on
 *      sm_80-90 (the two above are not the program's: naming them stops the
 *      kernel with an illegal instruction), so that register usually
 *      needs the count raised by one: allowed where it allocates no more
 *      (registers go 8 at a time per thread) or stays within the caller's
 *      limit; otherwise refused (assemble one register lower).
 */
#include <stdlib.h>
#include <string.h>

#include "orion/sass.h"
#include "sassrw_internal.h"

#define MAX_DEPTH 6

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static uint64_t sat_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

static uint64_t depth_weight(unsigned d) {
  uint64_t w = 1;
  for (unsigned i = 0; i < d && i < MAX_DEPTH; i++)
    w *= 10;
  return w;
}

/* Decode tree function ti into *xs (n instructions) and its loop depths. */
static orion_status decode_depths(const orion_cubin *c, const sassrw_tree *t, size_t ti, orion_cubin_func *f,
                                  orion_sass_insn **xs, unsigned **depth, size_t *n) {
  const unsigned char *text;
  size_t size;
  if (orion_cubin_get_func(c, t->funcs[ti], f) || orion_cubin_func_own_text(c, t->funcs[ti], &text, &size))
    return ORION_ERR_INTERNAL;
  *n = size / 16;
  *xs = calloc(*n ? *n : 1, sizeof **xs);
  *depth = calloc(*n + 1, sizeof **depth);
  int *diff = calloc(*n + 1, sizeof *diff);
  if (!*xs || !*depth || !diff) {
    free(diff);
    return ORION_ERR_NOMEM;
  }
  unsigned sm = sassrw_sm(c);
  for (size_t k = 0; k < *n; k++) {
    orion_sass_insn *x = &(*xs)[k];
    if (sassrw_decode(text + 16 * k, sm, x) != ORION_OK) {
      x->op = ORION_SASS_OP_COUNT; /* the analysis found none in a safe function */
      continue;
    }
    uint32_t s[2];
    size_t callee;
    if (sassrw_insn_flow(c, t, f, size, k, x, s, &callee) == 0 && s[1] != UINT32_MAX && s[1] <= k) {
      diff[s[1]]++;
      diff[k + 1]--;
    }
  }
  int d = 0;
  for (size_t k = 0; k < *n; k++) {
    d += diff[k];
    (*depth)[k] = d > 0 ? (unsigned)d : 0;
  }
  free(diff);
  return ORION_OK;
}

/* Step 1 for tree function ti (count multiplier mult): its accesses into
 * p->weight, its calls into cmult; raises p->top_gpr to the highest
 * register it names (step 3). */
static orion_status fn_counts(const orion_cubin *c, const sassrw_tree *t, size_t ti, int layout, int split,
                              uint64_t mult, uint64_t *cmult, sassrw_part *p) {
  orion_cubin_func f;
  orion_sass_insn *xs = NULL;
  unsigned *depth = NULL;
  size_t n = 0;
  orion_status st = decode_depths(c, t, ti, &f, &xs, &depth, &n);
  for (size_t k = 0; st == ORION_OK && k < n; k++) {
    const orion_sass_insn *x = &xs[k];
    if (x->op == ORION_SASS_OP_COUNT)
      continue;
    for (unsigned r = 0; r < x->nregs; r++) {
      const orion_sass_reg *g = &x->regs[r];
      if (g->file == ORION_SASS_R && g->num != ORION_SASS_RZ && g->num + g->width - 1u > p->top_gpr)
        p->top_gpr = g->num + g->width - 1u;
    }
    uint64_t w = sat_mul(mult, depth_weight(depth[k]));
    uint32_t s[2];
    size_t callee;
    if (x->cls == ORION_SASS_CALL && sassrw_insn_flow(c, t, &f, 16 * n, k, x, s, &callee) == 0 &&
        callee != (size_t)-1)
      cmult[callee] = sat_add(cmult[callee], w);
    if (x->op != ORION_SASS_OP_LDL && x->op != ORION_SASS_OP_STL)
      continue;
    uint32_t G = t->gran, words = split && x->mem_bytes > G ? x->mem_bytes / 4 : 1;
    for (uint32_t j = 0; j < words; j++) {
      uint32_t pos;
      if (sassrw_tree_pos(t, layout, t->funcs[ti], (uint32_t)x->mem_off / G + j, &pos) || pos >= p->n) {
        st = ORION_ERR_INTERNAL;
        break;
      }
      p->weight[pos] = sat_add(p->weight[pos], w);
    }
  }
  free(xs);
  free(depth);
  return st;
}

/* Step 2: the k heaviest granules on chip. */
typedef struct {
  uint64_t w;
  uint32_t i;
} ranked;

static int by_weight(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->w != y->w)
    return x->w > y->w ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

static orion_status choose(sassrw_part *p, uint32_t k) {
  ranked *order = malloc((p->n ? p->n : 1) * sizeof *order);
  unsigned char *on = calloc(p->n ? p->n : 1, 1);
  if (!order || !on) {
    free(order);
    free(on);
    return ORION_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < p->n; i++)
    order[i] = (ranked){p->weight[i], i};
  qsort(order, p->n, sizeof *order, by_weight);
  for (uint32_t i = 0; i < k && i < p->n; i++)
    on[order[i].i] = 1;
  p->k = 0;
  for (uint32_t i = 0; i < p->n; i++) {
    p->weight_total = sat_add(p->weight_total, p->weight[i]);
    p->slot[i] = on[i] ? p->k++ : UINT32_MAX;
    if (on[i])
      p->weight_on_chip = sat_add(p->weight_on_chip, p->weight[i]);
  }
  free(on);
  free(order);
  return ORION_OK;
}

orion_status sassrw_part_build(const orion_cubin *c, const sassrw_tree *t, int layout, int split, uint32_t k,
                               sassrw_part *p) {
  memset(p, 0, sizeof *p);
  p->n = t->region[layout];
  p->weight = calloc(p->n ? p->n : 1, sizeof *p->weight);
  p->slot = calloc(p->n ? p->n : 1, sizeof *p->slot);
  uint64_t *cmult = calloc(t->n ? t->n : 1, sizeof *cmult);
  orion_status st = p->weight && p->slot && cmult ? ORION_OK : ORION_ERR_NOMEM;
  if (st == ORION_OK)
    cmult[0] = 1; /* the kernel */
  for (size_t i = 0; st == ORION_OK && i < t->n; i++)
    st = fn_counts(c, t, i, layout, split, cmult[i], cmult, p);
  free(cmult);
  if (st == ORION_OK)
    st = choose(p, k);
  if (st != ORION_OK)
    sassrw_part_free(p);
  return st;
}

/* Step 3: registers are allocated in granules of 8 per thread. */
static unsigned granule8(unsigned n) { return (n + 7) & ~7u; }

unsigned sassrw_part_base(const sassrw_part *p, unsigned regcount, unsigned limit, unsigned *count) {
  unsigned r = p->top_gpr + 1, need = r + 3;
  *count = regcount;
  if (r <= ORION_SASS_SP || need > 255)
    return ORION_SASS_RZ;
  if (need <= regcount)
    return r;
  if (granule8(need) != granule8(regcount) && need > limit)
    return ORION_SASS_RZ;
  *count = need;
  return r;
}

int sassrw_part_slot(const sassrw_part *p, uint32_t pos, uint32_t *slot) {
  if (!p) {
    *slot = pos;
    return 1;
  }
  *slot = pos < p->n ? p->slot[pos] : UINT32_MAX;
  return *slot != UINT32_MAX;
}

void sassrw_part_free(sassrw_part *p) {
  free(p->weight);
  free(p->slot);
  memset(p, 0, sizeof *p);
}
