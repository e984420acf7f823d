/* select.c - compile-time version selection (paper section 3.3, Fig. 8).
 *
 * Algorithm (see orion/select.h for the contract):
 *   1. B = launch-bound block size, else ORION_DEFAULT_BLOCK.
 *   2. The distinct occupancy levels reachable by register caps at B (from
 *      the occupancy model); threshold T = the cap of the top level.  On
 *      sm_90 with B = 256 that is 32, the paper's Kepler figure too.
 *   3. The original is predicted to use min(max_live, 255) registers; its
 *      level W0 follows from the model.
 *   4. max_live >= T: increasing.  Only levels whose cap is at least
 *      cap_floor_pct % of max_live count (the least is kept when none is;
 *      the default ORION_CAP_FLOOR_PCT is 40, 0 turns the floor off): a
 *      clone capped lower spills most of its live values; on the
 *      third-party corpus none of the 38 such clones timed alone was
 *      faster than its original (the win nearest the floor: 46 %), and
 *      each costs a ptxas compile of the kernel.  Conservative = the
 *      highest level above W0 whose spilled values (max_live - cap slots
 *      of 4 bytes per thread) fit in shared memory without lowering that
 *      level (the on-chip placement the SASS rewriter realises); if no
 *      level passes, the nearest level above W0.  Then up to
 *      (max_versions - 3) steps above the conservative level, always
 *      including the highest that counts (the top level without a floor)
 *      and spread evenly below it; budget still left goes to the levels
 *      between W0 and the conservative one.  Fail-safe = one block fewer
 *      than W0 by padding.
 *      Fig. 8 walks "from conservative to max"; with the paper's 5-version
 *      budget we keep its end points and sample between them.
 *   5. max_live < T: decreasing.  The original already reaches the top
 *      level at B, so lower levels come from padding dynamic shared memory
 *      at run time (paper: "we do not need to generate multiple versions of
 *      code to correspond to decreased occupancy levels").  Fail-safe = a
 *      clone capped at T, for when ptxas needs more registers than max-live
 *      (it then lands above T and the clone restores the top level).  Pads
 *      near 3/4, 1/2 and 1/4 of the original's blocks per SM.
 *
 * The user's register limits (orion_reg_ceiling, orion_select_apply_ceiling)
 * bound this choice from above: how ptxas combines __maxnreg__, launch
 * bounds and --maxrregcount is written here once, for OrionPass and for
 * orion-cc's PTX path.
 *
 * Requires: the occupancy model (occupancy.c).  Pure; no allocation.
 */
#include <stdio.h>
#include <string.h>

#include "orion/occupancy.h"
#include "orion/select.h"

#define MAX_LEVELS 256

const char *orion_direction_name(orion_direction dir) {
  return dir == ORION_DIR_INCREASING ? "increasing" : "decreasing";
}

const char *orion_role_name(orion_role role) {
  switch (role) {
#define ORION_X(n, s) \
  case n:             \
    return s;
    ORION_ROLE_LIST(ORION_X)
#undef ORION_X
  case ORION_ROLE_COUNT:
    break;
  }
  return "unknown";
}

int orion_unroll_factor(const char *tag) {
#define ORION_X(t, f) \
  if (!strcmp(tag, t)) \
    return f;
  ORION_UNROLL_LIST(ORION_X)
#undef ORION_X
  return 0;
}

/* Append a version unless one with the same tag exists or the budget is
 * spent.  Returns 1 if added. */
static int add_version(orion_selection *s, int budget, orion_role role,
                       int max_regs, int warps, int is_pad) {
  char tag[ORION_TAG_MAX];
  if (is_pad)
    snprintf(tag, sizeof tag, "p%d", warps);
  else if (max_regs > 0)
    snprintf(tag, sizeof tag, "r%d", max_regs);
  else
    snprintf(tag, sizeof tag, "orig");
  if (s->n_versions >= budget)
    return 0;
  for (int i = 0; i < s->n_versions; i++)
    if (strcmp(s->versions[i].tag, tag) == 0)
      return 0;
  orion_version *v = &s->versions[s->n_versions++];
  memset(v, 0, sizeof *v);
  memcpy(v->tag, tag, sizeof tag);
  v->role = role;
  v->max_regs = max_regs;
  v->target_warps = warps;
  v->is_pad = is_pad;
  return 1;
}

static int warps_at(int sm, int regs, int block, unsigned smem) {
  orion_occ_input q = {regs, block, smem, 0};
  orion_occ_result r;
  if (orion_occupancy(sm, &q, &r) != ORION_OK)
    return 0;
  return r.warps_per_sm;
}

/* A pad step to `warps` is added only if padding can reach it. */
static void add_pad(orion_selection *s, int budget, orion_role role, int sm,
                    int regs, int block, unsigned smem, int warps) {
  orion_occ_input q = {regs, block, smem, 0};
  unsigned dyn;
  if (warps <= 0 || orion_occ_dyn_smem_for_warps(sm, &q, warps, &dyn) != ORION_OK)
    return;
  add_version(s, budget, role, 0, warps, 1);
}

/* The walk up from the original's warps (max_live at or above the
 * threshold): the conservative level, steps above it, then levels between
 * it and the original, and a fail-safe padding below the original. */
static void select_increasing(orion_selection *s,
                              const orion_select_input *in,
                              const orion_occ_level *levels, int n, int budget,
                              int r0, int B, unsigned smem, int wpb) {
  int w0 = s->original_warps;
  s->direction = ORION_DIR_INCREASING;
  /* Levels above W0, in ascending warps order: levels[] is descending,
   * so walk it backwards. */
  int above[MAX_LEVELS], na = 0, floor = (in->max_live * in->cap_floor_pct + 99) / 100;
  for (int i = n - 1; i >= 0; i--)
    if (levels[i].warps_per_sm > w0 && (levels[i].max_regs >= floor || na == 0))
      above[na++] = i;
  int cons = -1; /* index into above[] */
  for (int a = 0; a < na; a++) {
    const orion_occ_level *L = &levels[above[a]];
    int spill = in->max_live - L->max_regs;
    unsigned need = smem + (unsigned)(spill > 0 ? spill : 0) * 4u * (unsigned)B;
    if (warps_at(in->sm, L->max_regs, B, need) >= L->warps_per_sm)
      cons = a; /* keep the highest that passes */
  }
  if (na > 0 && cons < 0)
    cons = 0;
  int reserve_failsafe = w0 > wpb ? 1 : 0;
  if (cons >= 0) {
    const orion_occ_level *C = &levels[above[cons]];
    add_version(s, budget - reserve_failsafe, ORION_ROLE_CONSERVATIVE,
                C->max_regs, C->warps_per_sm, 0);
    int room = budget - reserve_failsafe - s->n_versions;
    int nsteps = na - 1 - cons; /* levels above the conservative one */
    if (room > 0 && nsteps > 0) {
      int take = nsteps < room ? nsteps : room;
      /* Sample `take` of above[cons+1 .. na-1], always the last. */
      for (int t = 1; t <= take; t++) {
        int a = cons + (int)((long)nsteps * t / take);
        const orion_occ_level *L = &levels[above[a]];
        add_version(s, budget - reserve_failsafe, ORION_ROLE_STEP,
                    L->max_regs, L->warps_per_sm, 0);
      }
    }
    /* Budget left: levels between the original and the conservative one,
     * evenly spaced starting next to the original. */
    room = budget - reserve_failsafe - s->n_versions;
    if (room > 0 && cons > 0) {
      int take = cons < room ? cons : room;
      for (int t = 0; t < take; t++) {
        const orion_occ_level *L = &levels[above[(long)t * cons / take]];
        add_version(s, budget - reserve_failsafe, ORION_ROLE_STEP,
                    L->max_regs, L->warps_per_sm, 0);
      }
    }
  } else {
    /* max_live == T exactly: the original already sits on the top level
     * by the estimate; a clone at T guards against ptxas overhead. */
    add_version(s, budget - reserve_failsafe, ORION_ROLE_CONSERVATIVE,
                s->threshold, s->max_warps, 0);
  }
  if (reserve_failsafe)
    add_pad(s, budget, ORION_ROLE_FAILSAFE, in->sm, r0, B, smem, w0 - wpb);
}

/* The walk down (max_live below the threshold): a fail-safe clone at the
 * threshold when max_live is at least half of it, then paddings to 3/4,
 * 1/2 and 1/4 of the original's blocks. */
static void select_decreasing(orion_selection *s,
                              const orion_select_input *in, int budget,
                              int r0, int B, unsigned smem, int wpb) {
  s->direction = ORION_DIR_DECREASING;
  if (2 * in->max_live >= s->threshold)
    add_version(s, budget, ORION_ROLE_FAILSAFE, s->threshold, s->max_warps, 0);
  int blocks0 = s->original_warps / wpb;
  static const int num[3] = {3, 1, 1}, den[3] = {4, 2, 4};
  for (int i = 0; i < 3; i++) {
    int b = (blocks0 * num[i] + den[i] / 2) / den[i];
    if (b >= 1 && b < blocks0)
      add_pad(s, budget, ORION_ROLE_STEP, in->sm, r0, B, smem, b * wpb);
  }
}

orion_status orion_select_versions(const orion_select_input *in,
                                   orion_selection *out) {
  if (!in || !out)
    return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *lim = orion_arch_get(in->sm);
  if (!lim)
    return ORION_ERR_UNSUPPORTED_ARCH;
  if (in->max_live < 0 || in->threads_per_block < 0 ||
      in->threads_per_block > lim->max_threads_per_block ||
      in->max_versions < 0 || in->max_versions > ORION_MAX_VERSIONS ||
      in->cap_floor_pct < 0 || in->cap_floor_pct > 100)
    return ORION_ERR_INVALID_ARG;

  orion_selection s;
  memset(&s, 0, sizeof s);
  int budget = in->max_versions ? in->max_versions : ORION_MAX_VERSIONS;
  int B = in->threads_per_block ? in->threads_per_block : ORION_DEFAULT_BLOCK;
  unsigned smem = in->smem_static;
  s.block = B;
  s.block_known = in->threads_per_block != 0;

  orion_occ_level levels[MAX_LEVELS];
  int n = 0;
  orion_status st = orion_occ_reg_levels(in->sm, B, smem, ORION_MIN_REG_CAP,
                                         levels, MAX_LEVELS, &n);
  if (st != ORION_OK)
    return st;
  if (n == 0)
    return ORION_ERR_INFEASIBLE; /* the block does not fit on an SM */

  s.threshold = levels[0].max_regs;
  s.max_warps = levels[0].warps_per_sm;
  int r0 = in->max_live < 1 ? 1 : in->max_live;
  if (r0 > lim->max_regs_per_thread)
    r0 = lim->max_regs_per_thread;
  int w0 = warps_at(in->sm, r0, B, smem);
  s.original_warps = w0;
  int wpb = (B + lim->warp_size - 1) / lim->warp_size;

  add_version(&s, budget, ORION_ROLE_ORIGINAL, 0, w0, 0);
  if (in->max_live >= s.threshold)
    select_increasing(&s, in, levels, n, budget, r0, B, smem, wpb);
  else
    select_decreasing(&s, in, budget, r0, B, smem, wpb);
  *out = s;
  return ORION_OK;
}

/* ---- the user's register limits ---- */

int orion_reg_ceiling(int sm, const orion_reg_limits *lim, char *why, size_t n) {
  int ceiling = lim->maxnreg > 0 ? lim->maxnreg : 0;
  if (n)
    why[0] = '\0';
  if (ceiling)
    snprintf(why, n, "__maxnreg__(%d)", ceiling);
  else if (lim->maxrregcount > 0 && lim->threads <= 0 && lim->min_blocks <= 0)
    snprintf(why, n, "-maxrregcount=%d", ceiling = lim->maxrregcount);
  const orion_arch_limits *a = orion_arch_get(sm);
  if (lim->threads <= 0 || !a)
    return ceiling;
  int blocks = lim->min_blocks > 0 ? lim->min_blocks : 1;
  int warps = blocks * ((lim->threads + a->warp_size - 1) / a->warp_size);
  int regs = 0;
  if (orion_occ_max_regs_for_warps(sm, lim->threads, 0, warps, &regs) == ORION_OK &&
      regs < a->max_regs_per_thread && (!ceiling || regs < ceiling)) {
    ceiling = regs;
    if (lim->min_blocks > 0)
      snprintf(why, n, "__launch_bounds__(%d, %d)", lim->threads, lim->min_blocks);
    else
      snprintf(why, n, "__launch_bounds__(%d)", lim->threads);
  }
  return ceiling;
}

int orion_select_drop_pads(orion_selection *sel) {
  int kept = 0, gone = 0;
  for (int i = 0; i < sel->n_versions; i++) {
    if (sel->versions[i].is_pad)
      gone++;
    else
      sel->versions[kept++] = sel->versions[i];
  }
  sel->n_versions = kept;
  return gone;
}

int orion_select_apply_ceiling(orion_selection *sel, int ceiling, const char *why,
                               int max_live, char *note, size_t n) {
  char dropped[ORION_MAX_VERSIONS * (ORION_TAG_MAX + 2)] = "";
  size_t off = 0;
  int kept = 0, gone = 0;
  for (int i = 0; i < sel->n_versions; i++) {
    const orion_version *v = &sel->versions[i];
    if (ceiling > 0 && !v->is_pad && v->max_regs > ceiling) {
      if (off < sizeof dropped)
        off += (size_t)snprintf(dropped + off, sizeof dropped - off, "%s%s", gone ? ", " : "",
                                v->tag);
      gone++;
      continue;
    }
    sel->versions[kept++] = *v;
  }
  sel->n_versions = kept;
  snprintf(note, n, "register limit %d from %s holds the original and every version%s%s%s",
           ceiling, why, gone ? "; not emitted (above the limit): " : "", dropped,
           max_live > ceiling ? "; max-live taken as the limit" : "");
  return gone;
}
