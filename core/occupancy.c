/* occupancy.c - the occupancy calculator of orion/occupancy.h.
 *
 * Model (one kernel on one SM; "/" is integer division, rup(x, g) rounds x
 * up to a multiple of g, L is the architecture's orion_arch_limits row):
 *
 *   W        = ceil(T / warp_size)                      warps per block
 *   by_warps = (max_threads_per_sm / warp_size) / W
 *   by_blocks= max_blocks_per_sm
 *   Rw       = rup(max(r, 1) * warp_size, reg_alloc_unit)  registers per warp
 *   P        = reg_alloc_partitions (4 sub-partitions, each with
 *              regs_per_sm / P registers; a warp lives in one of them)
 *   by_regs  = 0                                   if Rw * rup(W, P) > max_regs_per_block
 *            = ((regs_per_sm / P) / Rw) * P / W    otherwise
 *   A        = rup(smem_static + smem_dynamic + smem_reserved_per_block,
 *                  smem_alloc_unit)                 shared memory per block
 *   C        = the carveout: the preference (percent of smem_per_sm, or
 *              smem_per_sm when there is none) rounded up to the next entry
 *              of smem_carveouts; if A > that, the smallest entry >= A
 *   by_smem  = 0      if smem_static + smem_dynamic > max_smem_per_block_optin
 *            = C / A  otherwise (unbounded when A == 0, sm_75 only)
 *   blocks   = min(by_warps, by_blocks, by_regs, by_smem); warps = blocks * W
 *
 * The per-block register check rounds the block's warps up to a multiple of
 * P because the hardware checks a launch as if registers were taken from all
 * sub-partitions at once; it is also why by_regs counts warps per
 * sub-partition before multiplying by P (so 40 registers at 64 threads on
 * sm_90 give 24 blocks, not 65536 / (1280 * 2) = 25).
 *
 * Sources: CUDA C++ Programming Guide, "Compute Capabilities" (technical
 * specifications per compute capability: threads, warps, blocks, registers
 * and shared memory per SM, per-block opt-in maximum, the 1 KB the driver
 * reserves per block on 8.x and later); the Turing/Ampere/Ada/Hopper/
 * Blackwell tuning guides (supported shared-memory capacities per SM);
 * CUDA 13.0's cuda_occupancy.h, read for the facts it encodes (allocation
 * granularities 256 registers and 128 bytes (256 on 7.x), 4 register
 * sub-partitions, carveout sizes, how the carveout preference and reserved
 * memory enter, 24 blocks per SM on 12.x); and cuOccupancyMaxActiveBlocks-
 * PerMultiprocessor measured on an H200 (test/data/occupancy_h200.csv).
 *
 * Not modelled: block barriers (they never bind with the one barrier a
 * kernel has by default), Blackwell's virtual resources (used by kernels
 * that ask for them explicitly), clusters, partitioned global caching
 * (pre-Volta only).
 *
 * Contracts: every function is pure, allocation-free and thread-safe; on
 * error the out-parameters are left untouched.
 */
#include "orion/occupancy.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#define KB 1024u

/* Number of arguments, 1..12, for the carveout lists below. */
#define OCC_NARGS(...) \
  OCC_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define OCC_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define CARVEOUTS(...) \
  .n_smem_carveouts = OCC_NARGS(__VA_ARGS__), .smem_carveouts = {__VA_ARGS__}

/* Shared-memory capacities per SM the driver can configure (bytes). */
#define CARVE_TURING CARVEOUTS(32 * KB, 64 * KB)
#define CARVE_GA100 \
  CARVEOUTS(0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB)
#define CARVE_100K CARVEOUTS(0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB)
#define CARVE_228K                                                       \
  CARVEOUTS(0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, \
            164 * KB, 196 * KB, 228 * KB)

/* One row per architecture.  Common to all of them: warps of 32, 1024
 * threads per block, 64K registers per SM and per block, 255 registers per
 * thread, registers allocated per warp in units of 256 from 4
 * sub-partitions, 48 KB of shared memory per block without opt-in. */
#define ARCH(sm_, threads_sm, blocks_sm, smem_sm, reserved, unit, carve)    \
  {                                                                         \
    .sm = (sm_), .name = "sm_" #sm_, .warp_size = 32,                       \
    .max_threads_per_sm = (threads_sm),                                     \
    .max_warps_per_sm = (threads_sm) / 32, .max_blocks_per_sm = (blocks_sm), \
    .max_threads_per_block = 1024, .regs_per_sm = 65536,                    \
    .max_regs_per_block = 65536, .max_regs_per_thread = 255,                \
    .reg_alloc_unit = 256, .smem_per_sm = (smem_sm),                        \
    .max_smem_per_block_optin = (smem_sm) - (reserved),                     \
    .smem_per_block_default = 48 * KB,                                      \
    .smem_reserved_per_block = (reserved), .smem_alloc_unit = (unit),       \
    .reg_alloc_partitions = 4, carve                                        \
  }

static const orion_arch_limits arch_table[] = {
    /*   sm  thr/SM blk/SM  smem/SM   reserved unit  carveouts     */
    ARCH(75, 1024, 16, 64 * KB, 0, 256, CARVE_TURING),   /* Turing */
    ARCH(80, 2048, 32, 164 * KB, 1024, 128, CARVE_GA100), /* A100 */
    ARCH(86, 1536, 16, 100 * KB, 1024, 128, CARVE_100K),  /* GA10x */
    ARCH(89, 1536, 24, 100 * KB, 1024, 128, CARVE_100K),  /* Ada */
    ARCH(90, 2048, 32, 228 * KB, 1024, 128, CARVE_228K),  /* Hopper */
    ARCH(100, 2048, 32, 228 * KB, 1024, 128, CARVE_228K), /* B200 */
    ARCH(120, 1536, 24, 100 * KB, 1024, 128, CARVE_100K), /* RTX 50 */
};
#define N_ARCH (sizeof arch_table / sizeof arch_table[0])

/* Kept in step with arch_table (the unit test checks it). */
static const char supported_list[] =
    "sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120";

const orion_arch_limits *orion_arch_get(int sm) {
  for (size_t i = 0; i < N_ARCH; i++)
    if (arch_table[i].sm == sm) return &arch_table[i];
  return NULL;
}

const char *orion_arch_supported_list(void) { return supported_list; }

orion_status orion_arch_from_name(const char *name, int *sm) {
  if (!name || !sm) return ORION_ERR_INVALID_ARG;
  const char *p = name;
  if (strncmp(p, "sm_", 3) == 0)
    p += 3;
  else if (strncmp(p, "compute_", 8) == 0)
    p += 8;
  if (*p < '1' || *p > '9') return ORION_ERR_PARSE;
  int value = 0;
  while (*p >= '0' && *p <= '9') {
    if (value > 9999) return ORION_ERR_PARSE; /* absurdly long */
    value = value * 10 + (*p++ - '0');
  }
  if (*p == 'a' || *p == 'f') p++;
  if (*p != '\0') return ORION_ERR_PARSE;
  if (!orion_arch_get(value)) return ORION_ERR_UNSUPPORTED_ARCH;
  *sm = value;
  return ORION_OK;
}

const char *orion_occ_limiter_name(orion_occ_limiter limiter) {
  switch (limiter) {
  case ORION_LIMIT_WARPS:
    return "warps";
  case ORION_LIMIT_BLOCKS:
    return "blocks";
  case ORION_LIMIT_REGISTERS:
    return "registers";
  case ORION_LIMIT_SHARED_MEMORY:
    return "shared memory";
  }
  return "unknown";
}

static unsigned long long round_up(unsigned long long x, unsigned long long g) {
  return (x + g - 1) / g * g;
}

/* Carveout for blocks of block_smem bytes; block_smem <= smem_per_sm. */
static unsigned carveout_for(const orion_arch_limits *a,
                             unsigned long long block_smem, int percent) {
  unsigned long long want =
      percent == ORION_CARVEOUT_DEFAULT
          ? a->smem_per_sm
          : (unsigned long long)percent * a->smem_per_sm / 100;
  if (want < block_smem) want = block_smem; /* one block must fit */
  for (int i = 0; i < a->n_smem_carveouts; i++)
    if (a->smem_carveouts[i] >= want) return a->smem_carveouts[i];
  return a->smem_per_sm; /* unreachable: want <= smem_per_sm */
}

static int valid_percent(int percent) {
  return percent == ORION_CARVEOUT_DEFAULT || (percent >= 0 && percent <= 100);
}

orion_status orion_occ_smem_carveout(int sm, unsigned block_smem,
                                     int carveout_percent, unsigned *bytes) {
  if (!bytes || !valid_percent(carveout_percent)) return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *a = orion_arch_get(sm);
  if (!a) return ORION_ERR_UNSUPPORTED_ARCH;
  if (block_smem > a->smem_per_sm) return ORION_ERR_INFEASIBLE;
  *bytes = carveout_for(a, block_smem, carveout_percent);
  return ORION_OK;
}

/* The forward model on validated input. */
static void compute(const orion_arch_limits *a, int regs, int threads,
                    unsigned long long smem_user, int percent,
                    orion_occ_result *r) {
  int warps_per_block = (threads + a->warp_size - 1) / a->warp_size;
  int p = a->reg_alloc_partitions;

  r->blocks_by_warps = (a->max_threads_per_sm / a->warp_size) / warps_per_block;
  r->blocks_by_blocks = a->max_blocks_per_sm;

  int rw = (int)round_up((unsigned long long)(regs < 1 ? 1 : regs) *
                             (unsigned)a->warp_size,
                         (unsigned)a->reg_alloc_unit);
  r->regs_per_warp = rw;
  if ((long long)rw * (long long)round_up((unsigned)warps_per_block,
                                          (unsigned)p) >
      a->max_regs_per_block)
    r->blocks_by_regs = 0;
  else
    r->blocks_by_regs = (a->regs_per_sm / p / rw) * p / warps_per_block;

  unsigned long long block_smem =
      round_up(smem_user + a->smem_reserved_per_block, a->smem_alloc_unit);
  if (smem_user > a->max_smem_per_block_optin) {
    r->blocks_by_smem = 0;
    r->smem_carveout = a->smem_per_sm;
    r->smem_per_block = block_smem > UINT_MAX ? UINT_MAX : (unsigned)block_smem;
  } else {
    unsigned c = carveout_for(a, block_smem, percent);
    r->smem_carveout = c;
    r->smem_per_block = (unsigned)block_smem;
    r->blocks_by_smem = block_smem ? (int)(c / block_smem) : INT_MAX;
  }

  /* Minimum; ties go to the first limiter in enum order. */
  int limits[4];
  limits[ORION_LIMIT_WARPS] = r->blocks_by_warps;
  limits[ORION_LIMIT_BLOCKS] = r->blocks_by_blocks;
  limits[ORION_LIMIT_REGISTERS] = r->blocks_by_regs;
  limits[ORION_LIMIT_SHARED_MEMORY] = r->blocks_by_smem;
  orion_occ_limiter lim = ORION_LIMIT_WARPS;
  for (int i = 1; i < 4; i++)
    if (limits[i] < limits[lim]) lim = (orion_occ_limiter)i;
  r->limiter = lim;
  r->blocks_per_sm = limits[lim];
  r->warps_per_sm = r->blocks_per_sm * warps_per_block;
  r->occupancy = (double)r->warps_per_sm / a->max_warps_per_sm;
}

static orion_status check_shape(const orion_arch_limits *a, int regs,
                                int threads) {
  if (regs < 0 || regs > a->max_regs_per_thread) return ORION_ERR_INVALID_ARG;
  if (threads < 1 || threads > a->max_threads_per_block)
    return ORION_ERR_INVALID_ARG;
  return ORION_OK;
}

orion_status orion_occupancy_carveout(int sm, const orion_occ_input *in,
                                      int carveout_percent,
                                      orion_occ_result *out) {
  if (!in || !out || !valid_percent(carveout_percent))
    return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *a = orion_arch_get(sm);
  if (!a) return ORION_ERR_UNSUPPORTED_ARCH;
  orion_status st = check_shape(a, in->regs_per_thread, in->threads_per_block);
  if (st != ORION_OK) return st;
  orion_occ_result r;
  memset(&r, 0, sizeof r);
  compute(a, in->regs_per_thread, in->threads_per_block,
          (unsigned long long)in->smem_static + in->smem_dynamic,
          carveout_percent, &r);
  *out = r;
  return ORION_OK;
}

orion_status orion_occupancy(int sm, const orion_occ_input *in,
                             orion_occ_result *out) {
  return orion_occupancy_carveout(sm, in, ORION_CARVEOUT_DEFAULT, out);
}

static int warps_at(const orion_arch_limits *a, int regs, int threads,
                    unsigned long long smem_user) {
  orion_occ_result r;
  compute(a, regs, threads, smem_user, ORION_CARVEOUT_DEFAULT, &r);
  return r.warps_per_sm;
}

/* Warps/SM never grow with the register count, so scanning down from the
 * maximum finds the largest count that reaches the target. */
orion_status orion_occ_max_regs_for_warps(int sm, int threads_per_block,
                                          unsigned smem_per_block,
                                          int target_warps, int *regs) {
  if (!regs || target_warps < 1) return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *a = orion_arch_get(sm);
  if (!a) return ORION_ERR_UNSUPPORTED_ARCH;
  orion_status st = check_shape(a, 1, threads_per_block);
  if (st != ORION_OK) return st;
  for (int r = a->max_regs_per_thread; r >= 1; r--) {
    if (warps_at(a, r, threads_per_block, smem_per_block) >= target_warps) {
      *regs = r;
      return ORION_OK;
    }
  }
  return ORION_ERR_INFEASIBLE;
}

/* Within [in->smem_dynamic, opt-in maximum] a block always fits and the
 * carveout is fixed, so warps/SM never grow with dynamic shared memory:
 * binary search for the first size at or below the target. */
orion_status orion_occ_dyn_smem_for_warps(int sm, const orion_occ_input *in,
                                          int target_warps,
                                          unsigned *smem_dynamic) {
  if (!in || !smem_dynamic || target_warps < 0) return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *a = orion_arch_get(sm);
  if (!a) return ORION_ERR_UNSUPPORTED_ARCH;
  orion_status st = check_shape(a, in->regs_per_thread, in->threads_per_block);
  if (st != ORION_OK) return st;

  int warps_per_block =
      (in->threads_per_block + a->warp_size - 1) / a->warp_size;
  if (target_warps < warps_per_block) return ORION_ERR_INFEASIBLE;

  int regs = in->regs_per_thread, threads = in->threads_per_block;
  unsigned long long st_smem = in->smem_static;
  int now = warps_at(a, regs, threads, st_smem + in->smem_dynamic);
  if (now == 0) return ORION_ERR_INFEASIBLE; /* cannot run as given */
  if (now <= target_warps) {
    *smem_dynamic = in->smem_dynamic;
    return ORION_OK;
  }
  /* now > 0 implies static + dynamic <= opt-in maximum. */
  unsigned long long lo = in->smem_dynamic; /* fails the target */
  unsigned long long hi = a->max_smem_per_block_optin - st_smem;
  if (warps_at(a, regs, threads, st_smem + hi) > target_warps)
    return ORION_ERR_INFEASIBLE;
  while (hi - lo > 1) { /* invariant: lo fails, hi meets the target */
    unsigned long long mid = lo + (hi - lo) / 2;
    if (warps_at(a, regs, threads, st_smem + mid) <= target_warps)
      hi = mid;
    else
      lo = mid;
  }
  *smem_dynamic = (unsigned)hi;
  return ORION_OK;
}

orion_status orion_occ_reg_levels(int sm, int threads_per_block,
                                  unsigned smem_per_block, int min_regs,
                                  orion_occ_level *levels, int capacity,
                                  int *count) {
  if (!count || capacity < 0 || (capacity > 0 && !levels))
    return ORION_ERR_INVALID_ARG;
  const orion_arch_limits *a = orion_arch_get(sm);
  if (!a) return ORION_ERR_UNSUPPORTED_ARCH;
  orion_status st = check_shape(a, min_regs, threads_per_block);
  if (st != ORION_OK) return st;
  if (min_regs < 1) min_regs = 1;

  /* Scanning down from the maximum, warps only grow; the first count seen
   * for each level is the largest one giving it. */
  orion_occ_level found[ORION_OCC_MAX_LEVELS];
  int n = 0;
  for (int r = a->max_regs_per_thread; r >= min_regs; r--) {
    int w = warps_at(a, r, threads_per_block, smem_per_block);
    if (w == 0 || (n > 0 && found[n - 1].warps_per_sm == w)) continue;
    if (n == ORION_OCC_MAX_LEVELS) return ORION_ERR_INTERNAL;
    found[n].warps_per_sm = w;
    found[n].max_regs = r;
    n++;
  }
  int written = n < capacity ? n : capacity;
  for (int i = 0; i < written; i++) levels[i] = found[n - 1 - i];
  *count = written;
  return ORION_OK;
}
