/* stack.c - where each frame slot of a kernel's call tree goes in the
 * per-thread shared region (paper section 3.2, Table 1 and
 * Theorem 1: the compressible stack).
 *
 * Input: a safe kernel whose callees (whole-program ptxas output: CALL.REL
 * into the kernel's own text section) never load or move R1.  ptxas then
 * gives the whole call tree ONE frame, [R1, R1 + F) with F the kernel's
 * entry R1 move: every function addresses absolute offsets of it, and a
 * callee's slots reuse caller slots that are dead across the call.  The
 * frame is cut into granules of G bytes (the caller's choice: the widest
 * access of the tree, or 4 when wider accesses are split); an access lies
 * inside one granule or, when wider than G, covers whole ones (accesses
 * are naturally aligned, G is a power of two).
 *
 * Granules through which a value crosses a call are shared: one a callee
 * may read before writing it (a stack argument: ptxas spills a callee's
 * return address in the caller's frame), or one a callee (or its callees)
 * may write while it is live after the call in the caller (a result).
 * SUM, CSTACK and MOVES keep each of them at one position for the whole
 * tree, as ptxas's frame does, at the bottom of the region (0 ..
 * shared - 1), and give every function a private frame of the others (its
 * slot sets) above them; that is exact because no other value flows
 * between functions through the frame.
 *
 * Four layouts map (function, old granule) -> new granule:
 *   PTXAS   the identity; F / G granules.  Always valid.
 *   SUM     every function gets its private granules to itself, one after
 *           the other: the sum of the frames (no reuse across calls).
 *   CSTACK  the compressible stack with no moves.  Per function f, its
 *           private granules are slot sets and its call sites the calls
 *           k; live(i,k) says granule i is live after call k (backward
 *           liveness over f's instructions: LDL reads its granule, an
 *           unguarded STL covering a whole granule kills it).  Call k
 *           compresses f's frame to height B_k and the callee's frame
 *           starts there; with no moves every set must already sit below
 *           the height of each call it is live across.  Bottom-up over the
 *           call graph, each function gets the smallest region R (itself
 *           plus what its callees need) for which the heights B_k =
 *           min(M, R - sub(callee)) admit a 0-move layout;
 *           orion_cstack_solve (orion-ra, Theorem 1's matching) decides
 *           that and gives the layout, and R is found by binary search (a
 *           larger R only raises heights).
 *   MOVES   the compressible stack with moves (Table 1): R is the smallest
 *           any heights allow, max(M, max_k(live_k + sub(callee_k))), and
 *           B_k = min(M, R - sub(callee_k)), as high as R allows (the
 *           fewest moves), or, with min_heights, B_k = live_k (the paper's
 *           rule: every call compressed to its live sets); Theorem 1's
 *           matching gives the layout with the fewest moves for those
 *           heights, and each call with moves becomes a site
 *           (sassrw_site: live sets above B_k go to dead slots below it
 *           before the call and come back after it; sass/rewrite/callsite.c places
 *           them).
 * For CSTACK and MOVES, top-down, a callee's base is the largest (caller
 * base + B_k) over its call sites: a static base gives the same region as
 * lowering R1 at each call would (the maximum over call paths), and the
 * callee's accesses keep constant offsets.  A tree with a function of more
 * than 512 private granules gets neither (the matching is O(M^3)).
 *
 * Contract: requires orion_sassrw_analyze's record of the same, unedited
 * cubin; reads the cubin, changes nothing.  Control flow for liveness:
 * fall-through unless an unguarded BRA (with a PT condition), EXIT or RET
 * ends the path, plus every encoded target except calls' and RET's
 * (BSSY's reconvergence target included: extra edges only make liveness
 * larger, never wrong).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/ra.h"
#include "orion/sass.h"
#include "sassrw_internal.h"

#define MAX_CSTACK_SETS 512

typedef struct fn_live {
  size_t func;
  const orion_sassrw_func *fr;
  size_t n;           /* instructions */
  uint64_t *in;       /* n * W: live-in bitsets (absolute granules) */
  uint64_t *use, *def;
  uint64_t *wr;       /* n * W: granules each instruction stores to */
  uint64_t *mdef;     /* W: granules f or its callees may write */
  uint64_t *touched;  /* W: granules f accesses */
  uint64_t *priv;     /* W: those not shared across calls (the slot sets) */
  size_t ncalls;
  size_t *call_at;    /* instruction index of each call */
  size_t *call_to;    /* tree index of the callee */
  uint32_t *succ;     /* n * 2, UINT32_MAX none */
} fn_live;

size_t sassrw_tree_index(const sassrw_tree *t, size_t func) {
  for (size_t i = 0; i < t->n; i++)
    if (t->funcs[i] == func)
      return i;
  return (size_t)-1;
}

/* Depth-first postorder from v (callees before callers); the call graph is
 * acyclic (the analysis marks recursion unsafe). */
static int collect(sassrw_tree *t, const orion_sassrw *a, size_t v, unsigned char *seen, size_t cap) {
  const orion_sassrw_func *fr = orion_sassrw_get(a, v);
  if (!fr || seen[v])
    return 0;
  seen[v] = 1;
  for (size_t k = 0; k < fr->n_callees; k++)
    if (collect(t, a, fr->callees[k], seen, cap))
      return -1;
  if (t->n == cap)
    return -1;
  t->funcs[t->n++] = v;
  return 0;
}

/* sassrw_internal.h has the contract (shared with sass/rewrite/callsite.c). */
int sassrw_insn_flow(const orion_cubin *c, const sassrw_tree *t, const orion_cubin_func *f, size_t size,
                     size_t k, const orion_sass_insn *x, uint32_t s[2], size_t *callee) {
  int cond = x->guard != ORION_SASS_PT || x->guard_neg, rc = 0;
  if (x->cls == ORION_SASS_BRANCH)
    for (unsigned r = 0; r < x->nregs; r++)
      if (x->regs[r].file == ORION_SASS_P && !x->regs[r].def && x->regs[r].num != ORION_SASS_PT)
        cond = 1;
  int ends = (x->cls == ORION_SASS_BRANCH || x->cls == ORION_SASS_EXIT || x->cls == ORION_SASS_RET) && !cond;
  s[0] = !ends && 16 * (k + 1) < size ? (uint32_t)(k + 1) : UINT32_MAX;
  s[1] = UINT32_MAX;
  if (x->has_target && x->cls != ORION_SASS_CALL && x->cls != ORION_SASS_RET) {
    int64_t tg = (int64_t)(16 * k) + 16 + x->target;
    if (tg >= 0 && tg < (int64_t)size && tg % 16 == 0)
      s[1] = (uint32_t)(tg / 16);
    else
      rc = -1;
  }
  *callee = (size_t)-1;
  if (x->cls == ORION_SASS_CALL && x->has_target) {
    uint64_t abs = f->value + 16 * k + 16 + (uint64_t)x->target;
    for (size_t j = 0; j < t->n && *callee == (size_t)-1; j++) {
      orion_cubin_func g;
      if (!orion_cubin_get_func(c, t->funcs[j], &g) && g.text == f->text && g.value == abs)
        *callee = j;
    }
  }
  return rc;
}

static int decode_fn(const orion_cubin *c, fn_live *L, uint32_t G, uint32_t nb, size_t W,
                     const sassrw_tree *t) {
  const unsigned char *text;
  size_t size;
  orion_cubin_func f;
  if (orion_cubin_func_own_text(c, L->func, &text, &size) || orion_cubin_get_func(c, L->func, &f))
    return -1;
  L->n = size / 16;
  size_t n = L->n ? L->n : 1;
  L->in = calloc(n * W, 8);
  L->use = calloc(n * W, 8);
  L->def = calloc(n * W, 8);
  L->wr = calloc(n * W, 8);
  L->mdef = calloc(W, 8);
  L->touched = calloc(W, 8);
  L->priv = calloc(W, 8);
  L->succ = malloc(n * 2 * sizeof *L->succ);
  L->call_at = malloc(n * sizeof *L->call_at);
  L->call_to = malloc(n * sizeof *L->call_to);
  if (!L->in || !L->use || !L->def || !L->wr || !L->mdef || !L->touched || !L->priv || !L->succ || !L->call_at || !L->call_to)
    return -1;
  unsigned sm = sassrw_sm(c);
  for (size_t i = 0; i < L->n; i++) {
    orion_sass_insn x;
    uint32_t *s = &L->succ[2 * i];
    if (sassrw_decode(text + 16 * i, sm, &x) != ORION_OK)
      return -1; /* a safe function decodes fully */
    int guarded = x.guard != ORION_SASS_PT || x.guard_neg;
    size_t to;
    sassrw_insn_flow(c, t, &f, size, i, &x, s, &to); /* an out-of-range target adds no edge */
    if (x.cls == ORION_SASS_CALL && x.has_target) {
      if (to == (size_t)-1)
        return -1;
      L->call_at[L->ncalls] = i;
      L->call_to[L->ncalls++] = to;
    }
    if (x.op == ORION_SASS_OP_LDL || x.op == ORION_SASS_OP_STL) {
      if (x.mem_off < 0 || (uint32_t)x.mem_off + x.mem_bytes > nb * G)
        return -1; /* checked by the caller before: cannot happen */
      uint32_t g0 = (uint32_t)x.mem_off / G, g1 = ((uint32_t)x.mem_off + x.mem_bytes - 1) / G;
      for (uint32_t g = g0; g <= g1; g++) {
        sassrw_bit_set(L->touched, g);
        if (x.op == ORION_SASS_OP_LDL) {
          sassrw_bit_set(&L->use[i * W], g);
        } else {
          sassrw_bit_set(L->mdef, g);
          sassrw_bit_set(&L->wr[i * W], g);
          if (x.mem_bytes >= G && !guarded) /* covers g whole */
            sassrw_bit_set(&L->def[i * W], g);
        }
      }
    }
  }
  /* backward liveness to a fixed point */
  uint64_t *out = calloc(W, 8);
  if (!out)
    return -1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = L->n; i-- > 0;) {
      memset(out, 0, W * 8);
      for (int e = 0; e < 2; e++)
        if (L->succ[2 * i + e] != UINT32_MAX)
          for (size_t w = 0; w < W; w++)
            out[w] |= L->in[(size_t)L->succ[2 * i + e] * W + w];
      for (size_t w = 0; w < W; w++) {
        uint64_t v = L->use[i * W + w] | (out[w] & ~L->def[i * W + w]);
        if (v != L->in[i * W + w]) {
          L->in[i * W + w] = v;
          changed = 1;
        }
      }
    }
  }
  free(out);
  return 0;
}

/* Live granules after call k of L (the union of its successors' live-in). */
static void live_after(const fn_live *L, size_t k, size_t W, uint64_t *out) {
  memset(out, 0, W * 8);
  size_t i = L->call_at[k];
  for (int e = 0; e < 2; e++)
    if (L->succ[2 * i + e] != UINT32_MAX)
      for (size_t w = 0; w < W; w++)
        out[w] |= L->in[(size_t)L->succ[2 * i + e] * W + w];
}

void sassrw_tree_free(sassrw_tree *t) {
  if (!t)
    return;
  free(t->funcs);
  for (int l = 0; l < SASSRW_NLAYOUTS; l++)
    free(t->newpos[l]);
  for (size_t j = 0; j < t->nsites; j++) {
    free(t->sites[j].from);
    free(t->sites[j].to);
  }
  free(t->sites);
  memset(t, 0, sizeof *t);
}

static void invalid(sassrw_tree *t, int l, const char *why) {
  if (!t->valid[l])
    return;
  t->valid[l] = 0;
  snprintf(t->why[l], sizeof t->why[l], "%s", why);
}

/* Layout of f's M slot sets for region R (relative to f's base): call k
 * gets B_k = min(M, R - sub(callee)) and the layout is Theorem 1's
 * matching (the fewest moves for those heights; 0 exactly when every set
 * fits below the height of every call it is live across).  Returns the
 * moves (slot[] and B[] filled; with keep, *keep is the solved cstack, the
 * caller's to destroy), -2 when R is too small, -1 on error. */
static long long solve_region(uint32_t M, size_t N, const unsigned char *live, const uint32_t *sub_k,
                              uint32_t R, int minh, int *slot, uint32_t *B, orion_cstack **keep) {
  for (size_t k = 0; k < N; k++) {
    if (R < sub_k[k])
      return -2;
    uint32_t h = R - sub_k[k] < M ? R - sub_k[k] : M, nl = 0;
    for (uint32_t s = 0; s < M; s++)
      nl += live[(size_t)s * N + k];
    if (h < nl)
      return -2;
    B[k] = minh ? nl : h;
  }
  orion_cstack *cs = NULL;
  long long mv = -1;
  if (orion_cstack_create((int)M, (int)N, &cs) == ORION_OK && orion_cstack_set_liveness(cs, live) == ORION_OK) {
    int ok = 1;
    for (size_t k = 0; k < N && ok; k++)
      ok = orion_cstack_set_height(cs, (int)k, (int)B[k]) == ORION_OK;
    if (!ok || orion_cstack_solve(cs) != ORION_OK || orion_cstack_total_moves(cs, &mv) != ORION_OK ||
        orion_cstack_layout(cs, slot) != ORION_OK)
      mv = -1;
  }
  if (keep && mv >= 0)
    *keep = cs;
  else
    orion_cstack_destroy(cs);
  return mv;
}

/* Record call k of tree function i (solved cstack cs, f's granules setg)
 * as a MOVES site when it has moves; slots relative to f's base. */
static int add_site(sassrw_tree *t, const fn_live *L, size_t i, size_t k, uint32_t B,
                    const orion_cstack *cs) {
  const orion_cstack_move *mv;
  int n;
  if (orion_cstack_moves(cs, (int)k, &mv, &n) != ORION_OK)
    return -1;
  if (!n)
    return 0;
  sassrw_site *ns = realloc(t->sites, (t->nsites + 1) * sizeof *ns);
  if (!ns)
    return -1;
  t->sites = ns;
  sassrw_site *s = &t->sites[t->nsites];
  memset(s, 0, sizeof *s);
  s->from = malloc((size_t)n * sizeof *s->from);
  s->to = malloc((size_t)n * sizeof *s->to);
  if (!s->from || !s->to) {
    free(s->from);
    free(s->to);
    return -1;
  }
  t->nsites++;
  s->fi = i;
  s->call = L[i].call_at[k];
  s->height = B;
  s->nmoves = (size_t)n;
  for (int j = 0; j < n; j++) {
    s->from[j] = (uint32_t)mv[j].from;
    s->to[j] = (uint32_t)mv[j].to;
  }
  t->nmoves += (size_t)n;
  return 0;
}

/* CSTACK or MOVES (layout) for tree function i, callees already done
 * (their sub[] final).  CSTACK: the smallest region R whose zero-move
 * layout exists (binary search: feasibility grows with R).  MOVES: the
 * smallest region at all, R = max(M, max_k(live_k + sub(callee_k))), with
 * the fewest moves for it (its sites are recorded).  Sets sub[i] = R,
 * newpos relative to f's base (fixed up by the caller), and h[i][k] per
 * call (the height the callee starts at, relative to f's base). */
static int cstack_fn(sassrw_tree *t, fn_live *L, size_t i, int layout, uint32_t *sub, uint32_t **h, size_t W,
                     uint64_t *tmp) {
  uint32_t nb = t->nb, M = 0;
  size_t N = L[i].ncalls;
  uint32_t *setg = malloc((nb ? nb : 1) * sizeof *setg), *cls = malloc((nb ? nb : 1) * sizeof *cls), np = 0;
  int *slot = malloc((nb ? nb : 1) * sizeof *slot);
  uint32_t *B = malloc((N ? N : 1) * sizeof *B), *subk = malloc((N ? N : 1) * sizeof *subk);
  unsigned char *live = NULL;
  orion_cstack *cs = NULL;
  int rc = -1;
  if (!setg || !cls || !slot || !B || !subk)
    goto out;
  for (uint32_t g = 0; g < nb; g++)
    if (sassrw_bit(L[i].priv, g))
      setg[np++] = g;
  /* the slot sets: one per private granule, or per colour class */
  sassrw_live_view v = {L[i].n, W, L[i].in, L[i].wr, L[i].succ};
  if (!t->colour || sassrw_colour_sets(&v, setg, np, cls, &M) != ORION_OK)
    for (uint32_t s = 0; s < (M = np); s++)
      cls[s] = s;
  if (!(live = calloc((size_t)(M ? M : 1) * (N ? N : 1), 1)))
    goto out;
  uint32_t lo = M, hi = M;
  for (size_t k = 0; k < N; k++) {
    live_after(&L[i], k, W, tmp);
    uint32_t nl = 0;
    for (uint32_t s = 0; s < np; s++)
      live[(size_t)cls[s] * N + k] |= (unsigned char)sassrw_bit(tmp, setg[s]);
    for (uint32_t s = 0; s < M; s++)
      nl += live[(size_t)s * N + k];
    subk[k] = sub[L[i].call_to[k]];
    if (nl + subk[k] > lo)
      lo = nl + subk[k];
    if (M + subk[k] > hi)
      hi = M + subk[k];
  }
  if (layout == SASSRW_LAYOUT_MOVES) {
    hi = lo; /* always feasible with moves */
  } else {
    /* hi is always feasible (every B_k = M: nothing to move) */
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      long long mv = M && N ? solve_region(M, N, live, subk, mid, 0, slot, B, NULL) : 0;
      if (mv == -1)
        goto out;
      if (mv == 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  }
  if (M && N) {
    int mvs = layout == SASSRW_LAYOUT_MOVES;
    long long mv = solve_region(M, N, live, subk, hi, mvs && t->min_heights, slot, B, mvs ? &cs : NULL);
    if (mv < 0 || (layout != SASSRW_LAYOUT_MOVES && mv != 0))
      goto out;
    for (size_t k = 0; cs && k < N; k++)
      if (add_site(t, L, i, k, B[k], cs))
        goto out;
  } else {
    for (uint32_t s = 0; s < M; s++)
      slot[s] = (int)s;
    for (size_t k = 0; k < N; k++)
      B[k] = M;
  }
  sub[i] = hi;
  for (uint32_t s = 0; s < np; s++)
    t->newpos[layout][i * nb + setg[s]] = (uint32_t)slot[cls[s]];
  if (!(h[i] = malloc((N ? N : 1) * sizeof **h)))
    goto out;
  for (size_t k = 0; k < N; k++)
    h[i][k] = B[k];
  rc = 0;
out:
  orion_cstack_destroy(cs);
  free(setg);
  free(cls);
  free(slot);
  free(B);
  free(subk);
  free(live);
  return rc;
}

/* The tree of kernel (callers before callees) and its newpos tables, every
 * entry UINT32_MAX.  On error nothing is left to free. */
static orion_status tree_init(sassrw_tree *t, const orion_sassrw *a, size_t kernel, uint32_t G,
                              uint32_t frame_bytes, int min_heights, int colour) {
  memset(t, 0, sizeof *t);
  t->min_heights = min_heights;
  t->colour = colour;
  size_t nf = orion_sassrw_count(a);
  unsigned char *seen = calloc(nf ? nf : 1, 1);
  t->funcs = malloc((nf ? nf : 1) * sizeof *t->funcs);
  if (!seen || !t->funcs) {
    free(seen);
    return ORION_ERR_NOMEM;
  }
  int bad = collect(t, a, kernel, seen, nf);
  free(seen);
  if (bad)
    return ORION_ERR_INTERNAL;
  /* postorder has the kernel last: reverse it, callers before callees */
  for (size_t i = 0; i < t->n / 2; i++) {
    size_t x = t->funcs[i];
    t->funcs[i] = t->funcs[t->n - 1 - i];
    t->funcs[t->n - 1 - i] = x;
  }
  t->gran = G;
  t->nb = (frame_bytes + G - 1) / G;
  for (int l = 0; l < SASSRW_NLAYOUTS; l++) {
    t->valid[l] = 1;
    size_t cells = t->n * (size_t)t->nb;
    cells = cells ? cells : 1;
    t->newpos[l] = malloc(cells * sizeof(uint32_t));
    if (!t->newpos[l]) {
      sassrw_tree_free(t);
      return ORION_ERR_NOMEM;
    }
    memset(t->newpos[l], 0xff, cells * sizeof(uint32_t));
  }
  return ORION_OK;
}

/* The may-write sets (callees first, the reverse of the caller-first
 * order), then the granules through which a value crosses a call: read by
 * a callee before it writes them (stack arguments: the return address a
 * caller spilled), or written by a callee (or its callees) while live
 * after the call in the caller (results).  They stay shared, as in
 * ptxas's frame: each at one position (pinpos) below every private frame. */
static uint32_t find_pins(sassrw_tree *t, fn_live *L, size_t W, uint64_t *tmp, uint64_t *pin, uint32_t *pinpos) {
  for (size_t i = t->n; i-- > 0;)
    for (size_t k = 0; k < L[i].ncalls; k++)
      for (size_t w = 0; w < W; w++)
        L[i].mdef[w] |= L[L[i].call_to[k]].mdef[w];
  for (size_t i = 0; i < t->n; i++) {
    if (i > 0)
      for (size_t w = 0; w < W; w++)
        pin[w] |= L[i].in[w];
    for (size_t k = 0; k < L[i].ncalls; k++) {
      live_after(&L[i], k, W, tmp);
      for (size_t w = 0; w < W; w++)
        pin[w] |= tmp[w] & L[L[i].call_to[k]].mdef[w];
    }
  }
  uint32_t npin = 0;
  for (uint32_t g = 0; g < t->nb; g++)
    if (sassrw_bit(pin, g))
      pinpos[g] = npin++;
  t->shared = npin;
  return npin;
}

/* PTXAS (the identity) and SUM (the shared granules, then the private
 * frames one after the other); each function's private granules. */
static void lay_flat(sassrw_tree *t, fn_live *L, size_t W, const uint64_t *pin, const uint32_t *pinpos,
                     uint32_t npin) {
  uint32_t nb = t->nb;
  t->region[SASSRW_LAYOUT_PTXAS] = nb;
  for (size_t i = 0; i < t->n; i++)
    for (uint32_t g = 0; g < nb; g++)
      if (sassrw_bit(L[i].touched, g))
        t->newpos[SASSRW_LAYOUT_PTXAS][i * nb + g] = g;
  uint32_t next = npin;
  for (size_t i = 0; i < t->n; i++)
    for (uint32_t g = 0; g < nb; g++)
      if (sassrw_bit(L[i].touched, g))
        t->newpos[SASSRW_LAYOUT_SUM][i * nb + g] = sassrw_bit(pin, g) ? pinpos[g] : next++;
  t->region[SASSRW_LAYOUT_SUM] = next;
  for (size_t i = 0; i < t->n; i++)
    for (size_t w = 0; w < W; w++) /* the private granules from here on */
      L[i].priv[w] = L[i].touched[w] & ~pin[w];
}

/* Layout l's bases top-down (a callee's base is the highest its call sites
 * give, h the heights at the calls), its positions moved up by them, the
 * shared granules placed, and the region; MOVES' moves moved up too. */
static void place_bases(sassrw_tree *t, const fn_live *L, int l, uint32_t *base, uint32_t *const *h,
                        const uint32_t *sub, const uint64_t *pin, const uint32_t *pinpos, uint32_t npin) {
  uint32_t nb = t->nb;
  base[0] = npin;
  for (size_t i = 0; i < t->n; i++) {
    for (uint32_t g = 0; g < nb; g++)
      if (t->newpos[l][i * nb + g] != UINT32_MAX)
        t->newpos[l][i * nb + g] += base[i];
      else if (sassrw_bit(pin, g) && sassrw_bit(L[i].touched, g))
        t->newpos[l][i * nb + g] = pinpos[g];
    for (size_t k = 0; k < L[i].ncalls; k++) {
      size_t to = L[i].call_to[k];
      if (base[i] + h[i][k] > base[to])
        base[to] = base[i] + h[i][k];
    }
  }
  t->region[l] = npin + sub[0];
  if (l == SASSRW_LAYOUT_MOVES)
    for (size_t j = 0; j < t->nsites; j++)
      for (size_t m = 0; m < t->sites[j].nmoves; m++) {
        t->sites[j].from[m] += base[t->sites[j].fi];
        t->sites[j].to[m] += base[t->sites[j].fi];
      }
}

/* CSTACK or MOVES (l): regions bottom-up (callees first, cstack_fn), then
 * the bases top-down. */
static orion_status lay_stacked(sassrw_tree *t, fn_live *L, int l, uint32_t *base, size_t W, uint64_t *tmp,
                                const uint64_t *pin, const uint32_t *pinpos, uint32_t npin) {
  orion_status st = ORION_OK;
  uint32_t *sub = calloc(t->n, sizeof *sub), **h = calloc(t->n, sizeof *h);
  if (!sub || !h)
    st = ORION_ERR_NOMEM;
  memset(base, 0, t->n * sizeof *base);
  for (size_t i = t->n; st == ORION_OK && i-- > 0 && t->valid[l];) {
    uint32_t M = 0;
    for (uint32_t g = 0; g < t->nb; g++)
      M += (uint32_t)sassrw_bit(L[i].priv, g);
    if (M > MAX_CSTACK_SETS) {
      char why[160];
      snprintf(why, sizeof why, "%s has %u slots (more than %d for the matching)", L[i].fr->name, M,
               MAX_CSTACK_SETS);
      invalid(t, l, why);
    } else if (cstack_fn(t, L, i, l, sub, h, W, tmp)) {
      st = ORION_ERR_NOMEM;
    }
  }
  if (st == ORION_OK && t->valid[l])
    place_bases(t, L, l, base, h, sub, pin, pinpos, npin);
  for (size_t i = 0; h && i < t->n; i++)
    free(h[i]);
  free(h);
  free(sub);
  return st;
}

static void free_live(fn_live *L, size_t n) {
  for (size_t i = 0; L && i < n; i++) {
    free(L[i].in);
    free(L[i].use);
    free(L[i].def);
    free(L[i].wr);
    free(L[i].mdef);
    free(L[i].touched);
    free(L[i].priv);
    free(L[i].succ);
    free(L[i].call_at);
    free(L[i].call_to);
  }
  free(L);
}

orion_status sassrw_tree_build(const orion_cubin *c, const orion_sassrw *a, size_t kernel, uint32_t G,
                               uint32_t frame_bytes, int min_heights, int colour, sassrw_tree *t) {
  orion_status st = tree_init(t, a, kernel, G, frame_bytes, min_heights, colour);
  if (st != ORION_OK)
    return st;
  uint32_t nb = t->nb;
  size_t W = (nb + 63) / 64 ? (nb + 63) / 64 : 1;
  fn_live *L = calloc(t->n, sizeof *L);
  uint32_t *base = calloc(t->n, sizeof *base);
  uint64_t *tmp = calloc(W, 8);
  st = (L && base && tmp) ? ORION_OK : ORION_ERR_NOMEM;
  for (size_t i = 0; st == ORION_OK && i < t->n; i++) {
    L[i].func = t->funcs[i];
    L[i].fr = orion_sassrw_get(a, t->funcs[i]);
    if (decode_fn(c, &L[i], G, nb, W, t))
      st = ORION_ERR_INTERNAL;
  }
  uint64_t *pin = NULL;
  uint32_t *pinpos = NULL;
  if (st == ORION_OK) {
    pin = calloc(W, 8);
    pinpos = calloc(nb ? nb : 1, sizeof *pinpos);
    if (!pin || !pinpos)
      st = ORION_ERR_NOMEM;
  }
  if (st == ORION_OK) {
    uint32_t npin = find_pins(t, L, W, tmp, pin, pinpos);
    lay_flat(t, L, W, pin, pinpos, npin);
    for (int l = SASSRW_LAYOUT_CSTACK; st == ORION_OK && l <= SASSRW_LAYOUT_MOVES; l++)
      st = lay_stacked(t, L, l, base, W, tmp, pin, pinpos, npin);
  }
  free(pin);
  free(pinpos);
  free_live(L, t->n);
  free(base);
  free(tmp);
  if (st != ORION_OK)
    sassrw_tree_free(t);
  return st;
}

int sassrw_tree_pos(const sassrw_tree *t, int layout, size_t func, uint32_t granule, uint32_t *pos) {
  size_t i = sassrw_tree_index(t, func);
  if (i == (size_t)-1 || granule >= t->nb)
    return -1;
  uint32_t p = t->newpos[layout][i * t->nb + granule];
  if (p == UINT32_MAX)
    return -1;
  *pos = p;
  return 0;
}
