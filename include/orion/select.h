/* orion/select.h - compile-time version selection (paper section 3.3, Fig. 8).
 *
 * From a kernel's max-live (32-bit register units, callees included), its
 * block size (known from launch bounds, else assumed) and static shared
 * memory, pick the tuning direction and at most ORION_MAX_VERSIONS versions
 * drawn from the occupancy levels the model says are distinct on the target
 * architecture:
 *
 *   direction   increasing iff max_live >= threshold, where threshold is the
 *               largest register count that still allows the highest
 *               occupancy reachable at this block size (32 on sm_90 for 256
 *               threads);
 *   original    the kernel as is (no register cap);
 *   increasing: conservative = the highest occupancy level above the
 *               original's at which the values that no longer fit in
 *               registers fit in shared memory without lowering it; then
 *               steps from there up to the highest level; fail-safe = one
 *               level below the original, reached at run time by padding
 *               dynamic shared memory (no binary);
 *   decreasing: fail-safe = a clone capped at threshold (in case ptxas needs
 *               more registers than max-live predicts; only when max_live >=
 *               threshold / 2); steps down near 3/4,
 *               1/2 and 1/4 of the original's warps, all reached at run time
 *               by padding dynamic shared memory.
 *
 * Pure function of its input; no allocation; thread-safe.
 */
#ifndef ORION_SELECT_H
#define ORION_SELECT_H

#include <stddef.h>

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_MAX_VERSIONS 5
/* The unroll versions (OrionPass's unroll.c), tag and factor: clones with
 * their small innermost loops unrolled that many times, uncapped. */
#define ORION_UNROLL_LIST(X) X("u4", 4) X("u8", 8)
#define ORION_UNROLL_ONE(t, f) +1
#define ORION_UNROLL_VERSIONS (0 ORION_UNROLL_LIST(ORION_UNROLL_ONE)) /* 2 */
/* A record holds the selection's versions and the unroll versions. */
#define ORION_MAX_RECORD_VERSIONS (ORION_MAX_VERSIONS + ORION_UNROLL_VERSIONS)
#define ORION_DEFAULT_BLOCK 256 /* block size assumed when none is known */
#define ORION_MIN_REG_CAP 24    /* ptxas 13 raises smaller .maxnreg to 24 (sm_90, measured) */
#define ORION_TAG_MAX 16
#define ORION_CAP_FLOOR_PCT 40  /* default least cap, % of max-live (select.c, step 4) */

typedef enum orion_direction {
  ORION_DIR_INCREASING = 0,
  ORION_DIR_DECREASING,
} orion_direction;

#define ORION_ROLE_LIST(X)       \
  X(ORION_ROLE_ORIGINAL, "original") \
  X(ORION_ROLE_CONSERVATIVE, "conservative") \
  X(ORION_ROLE_STEP, "step")     \
  X(ORION_ROLE_FAILSAFE, "failsafe")  \
  X(ORION_ROLE_UNROLL, "unroll")

typedef enum orion_role {
#define ORION_X(n, s) n,
  ORION_ROLE_LIST(ORION_X)
#undef ORION_X
  ORION_ROLE_COUNT
} orion_role;

typedef struct orion_version {
  char tag[ORION_TAG_MAX]; /* "orig", "r64" (clone capped at 64), "p40" (pad to 40 warps) */
  orion_role role;
  int max_regs;            /* nvvm.maxnreg of the clone; 0 = no cap */
  int target_warps;        /* warps/SM the model predicts at the assumed block */
  int is_pad;              /* 1: no binary; the runtime pads dynamic smem */
  unsigned warp_smem;      /* bytes of dynamic shared memory per warp its frame takes
                              (orion-ptxas's dynamic placement), 0: none */
} orion_version;

typedef struct orion_select_input {
  int sm;                  /* e.g. 90 */
  int max_live;            /* >= 0 */
  int threads_per_block;   /* 0 = unknown: ORION_DEFAULT_BLOCK is assumed */
  unsigned smem_static;    /* bytes */
  int max_versions;        /* 1 .. ORION_MAX_VERSIONS; 0 = ORION_MAX_VERSIONS */
  int cap_floor_pct;       /* 0 .. 100: no clone capped below this % of max_live
                              (select.c, step 4); 0 = none, Fig. 8 as published;
                              callers pass ORION_CAP_FLOOR_PCT unless told otherwise */
} orion_select_input;

typedef struct orion_selection {
  orion_direction direction;
  int threshold;           /* registers allowing the top occupancy level */
  int block;               /* block size used */
  int block_known;         /* 1 if taken from launch bounds */
  int original_warps;      /* predicted warps/SM of the original */
  int max_warps;           /* top level reachable at this block size */
  int n_versions;          /* >= 1; versions[0] is always the original */
  orion_version versions[ORION_MAX_RECORD_VERSIONS]; /* the selection fills at most
                                                         ORION_MAX_VERSIONS */
} orion_selection;

orion_status orion_select_versions(const orion_select_input *in,
                                   orion_selection *out);

/* The user's register limits on one kernel, as written in its source or
 * PTX and on ptxas's command line (0: not given). */
typedef struct orion_reg_limits {
  int maxnreg;      /* __maxnreg__(N), PTX .maxnreg */
  int threads;      /* launch bounds: threads per block (.maxntid/.reqntid) */
  int min_blocks;   /* launch bounds: minimum blocks per SM (.minnctapersm) */
  int maxrregcount; /* ptxas --maxrregcount (-maxrregcount) */
} orion_reg_limits;

/* The register ceiling ptxas holds the original to on sm, 0 if none:
 * maxnreg; else maxrregcount, which ptxas applies only to kernels without
 * launch bounds; and, when threads is given, the largest register count at
 * which max(min_blocks, 1) blocks of threads fit on one SM (occupancy
 * model, shared memory left out as ptxas does), if below the
 * architecture's maximum and the ceiling so far.  why (capacity n) gets the
 * source, e.g. "__launch_bounds__(256, 4)" (sm_90: 64 registers).  Pure. */
int orion_reg_ceiling(int sm, const orion_reg_limits *lim, char *why, size_t n);

/* Remove sel's padding versions (for a kernel that reads its shared
 * memory size, which padding changes).  Returns the number removed. */
int orion_select_drop_pads(orion_selection *sel);

/* Apply ceiling (> 0, from the source named by why) to sel: every
 * register-capped version above it is removed.  note (capacity n) gets one
 * sentence saying so, e.g. "register limit 40 from -maxrregcount=40 holds
 * the original and every version; not emitted (above the limit): r128, r80;
 * max-live taken as the limit" (the last clause when max_live > ceiling).
 * Returns the number removed. */
int orion_select_apply_ceiling(orion_selection *sel, int ceiling, const char *why,
                               int max_live, char *note, size_t n);

const char *orion_direction_name(orion_direction dir); /* "increasing"... */
const char *orion_role_name(orion_role role);
/* The unroll factor an unroll version's tag names ("u4": 4), else 0.
 * requires tag != NULL. */
int orion_unroll_factor(const char *tag);

#ifdef __cplusplus
}
#endif
#endif /* ORION_SELECT_H */
