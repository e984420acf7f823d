/* orion/occupancy.h - the occupancy calculator (core/, pure C).
 *
 * Given a kernel's registers per thread, threads per block and shared memory
 * per block, compute how many blocks and warps fit on one SM of a given
 * architecture and which resource limits them, using NVIDIA's allocation
 * granularities (registers per warp in units of reg_alloc_unit, shared memory
 * in units of smem_alloc_unit plus smem_reserved_per_block per block, the
 * per-SM caps on blocks, warps and threads).  Inverse queries answer "the
 * largest register cap that still reaches W warps/SM" and "the dynamic shared
 * memory that lowers a launch to W warps/SM".  The shared memory an SM
 * offers is the carveout the driver configures (smem_carveouts); with no
 * carveout preference it may use the largest, smem_per_sm.
 *
 * Data model: an architecture is identified by its SM number (75, 80, 86, 89,
 * 90, 100, 120).  orion_arch_get() returns a pointer to a static, immutable
 * table row; nothing here allocates.  All functions are pure and thread-safe.
 * Checked against cuOccupancyMaxActiveBlocksPerMultiprocessor (what
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor calls) on an H200, with and
 * without carveout preferences: test/data/occupancy_h200.csv, produced by
 * benchmarks/occupancy/measure.sh.
 */
#ifndef ORION_OCCUPANCY_H
#define ORION_OCCUPANCY_H

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Capacity of orion_arch_limits.smem_carveouts. */
#define ORION_OCC_MAX_CARVEOUTS 12

/* Per-architecture limits.  Sizes in bytes, counts in units named. */
typedef struct orion_arch_limits {
  int sm;                     /* 90 for sm_90 */
  const char *name;           /* "sm_90" */
  int warp_size;              /* 32 */
  int max_threads_per_sm;     /* 2048 on sm_90 */
  int max_warps_per_sm;       /* 64 on sm_90 */
  int max_blocks_per_sm;      /* 32 on sm_90 */
  int max_threads_per_block;  /* 1024 */
  int regs_per_sm;            /* 65536 */
  int max_regs_per_block;     /* 65536 */
  int max_regs_per_thread;    /* 255 */
  int reg_alloc_unit;         /* registers per warp are allocated in these units (256) */
  unsigned smem_per_sm;               /* largest carveout, 233472 on sm_90 */
  unsigned max_smem_per_block_optin;  /* 232448 on sm_90 */
  unsigned smem_per_block_default;    /* 49152 without opt-in */
  unsigned smem_reserved_per_block;   /* 1024 on sm_80+ */
  unsigned smem_alloc_unit;           /* 128 (256 on sm_75) */
  /* Added fields (after the original ones, so existing initialisers and
   * readers are unaffected). */
  int reg_alloc_partitions;   /* 4: the register file is split evenly among
                                 the SM's sub-partitions; a warp's registers
                                 come from one of them */
  int n_smem_carveouts;       /* entries used in smem_carveouts */
  unsigned smem_carveouts[ORION_OCC_MAX_CARVEOUTS]; /* shared-memory sizes per
                                 SM (bytes, ascending) the driver can
                                 configure; the last is smem_per_sm */
} orion_arch_limits;

/* Parse "sm_90", "sm_90a", "compute_90", "90" -> 90 (also the "f" family
 * suffix: "sm_100f").  ORION_ERR_PARSE on malformed text,
 * ORION_ERR_UNSUPPORTED_ARCH for a well-formed but unknown architecture,
 * ORION_ERR_INVALID_ARG for NULL. */
orion_status orion_arch_from_name(const char *name, int *sm);

/* Static limits row for an SM number, or NULL if unknown. */
const orion_arch_limits *orion_arch_get(int sm);

/* Comma-separated list of supported architectures ("sm_75, sm_80, ..."),
 * static storage, for error messages. */
const char *orion_arch_supported_list(void);

typedef enum orion_occ_limiter {
  ORION_LIMIT_WARPS = 0,      /* max warps/threads per SM */
  ORION_LIMIT_BLOCKS,         /* max blocks per SM */
  ORION_LIMIT_REGISTERS,
  ORION_LIMIT_SHARED_MEMORY,
} orion_occ_limiter;

/* Static name ("warps", "blocks", "registers", "shared memory"). */
const char *orion_occ_limiter_name(orion_occ_limiter limiter);

/* Shared memory amounts in the input and in the inverse queries are what
 * the kernel uses (ptxas's "smem" figure, the launch's dynamic size); the
 * model adds smem_reserved_per_block itself.  The kernel is assumed to have
 * opted in (cudaFuncAttributeMaxDynamicSharedMemorySize) to what it uses, so
 * a block fits iff smem_static + smem_dynamic <= max_smem_per_block_optin. */
typedef struct orion_occ_input {
  int regs_per_thread;        /* as ptxas reports, 0 .. max_regs_per_thread;
                                 0 is treated as 1 */
  int threads_per_block;      /* 1 .. max_threads_per_block */
  unsigned smem_static;       /* bytes of static __shared__ per block */
  unsigned smem_dynamic;      /* bytes of dynamic shared memory per block */
} orion_occ_input;

typedef struct orion_occ_result {
  int blocks_per_sm;          /* 0 when the block cannot run at all */
  int warps_per_sm;           /* blocks_per_sm * warps per block */
  double occupancy;           /* warps_per_sm / max_warps_per_sm */
  orion_occ_limiter limiter;  /* the binding limit (ties: first in enum order) */
  int blocks_by_warps;        /* per-resource block limits */
  int blocks_by_blocks;
  int blocks_by_regs;         /* 0 if one block exceeds max_regs_per_block */
  int blocks_by_smem;         /* 0 if one block exceeds the opt-in maximum;
                                 INT_MAX if a block holds no shared memory */
  /* Added fields. */
  int regs_per_warp;          /* registers allocated per warp: regs x 32
                                 rounded up to reg_alloc_unit */
  unsigned smem_per_block;    /* shared memory allocated per block: static +
                                 dynamic + reserved, rounded up to
                                 smem_alloc_unit */
  unsigned smem_carveout;     /* shared memory per SM the launch runs with
                                 (one of smem_carveouts) */
} orion_occ_result;

/* Forward query, as cudaOccupancyMaxActiveBlocksPerMultiprocessor answers
 * it for a kernel with no shared-memory carveout preference (the default):
 * the driver may then configure the largest carveout, smem_per_sm.
 * ORION_ERR_INVALID_ARG for a NULL pointer or a threads_per_block / regs out
 * of range; ORION_ERR_UNSUPPORTED_ARCH for an unknown sm.  A block that does
 * not fit (too much smem, or too many registers for one block) is not an
 * error: blocks_per_sm is 0. */
orion_status orion_occupancy(int sm, const orion_occ_input *in,
                             orion_occ_result *out);

/* No carveout preference (cudaSharedmemCarveoutDefault). */
#define ORION_CARVEOUT_DEFAULT (-1)

/* Shared memory per SM (bytes) the driver configures for blocks that each
 * hold block_smem bytes (static + dynamic + reserved, rounded: see
 * orion_occ_result.smem_per_block) when the kernel's carveout preference is
 * carveout_percent (cudaFuncAttributePreferredSharedMemoryCarveout: 0..100
 * percent of smem_per_sm, or ORION_CARVEOUT_DEFAULT).  The preference is
 * rounded up to the next supported carveout; if one block would not fit in
 * it, the smallest carveout that holds one block is used instead.
 * ORION_ERR_INVALID_ARG for a percentage out of range or NULL out;
 * ORION_ERR_INFEASIBLE if block_smem exceeds smem_per_sm. */
orion_status orion_occ_smem_carveout(int sm, unsigned block_smem,
                                     int carveout_percent, unsigned *bytes);

/* Forward query under a carveout preference (see orion_occ_smem_carveout);
 * orion_occupancy() is this with ORION_CARVEOUT_DEFAULT. */
orion_status orion_occupancy_carveout(int sm, const orion_occ_input *in,
                                      int carveout_percent,
                                      orion_occ_result *out);

/* Largest register count r (<= max_regs_per_thread) such that a block of
 * threads_per_block threads with smem_per_block bytes (static + dynamic)
 * reaches at least target_warps warps per SM.  ORION_ERR_INFEASIBLE if no
 * r >= 1 does; ORION_ERR_INVALID_ARG if target_warps < 1.  Default carveout.
 * Example: sm_90, 256 threads, no smem, 64 warps -> 32. */
orion_status orion_occ_max_regs_for_warps(int sm, int threads_per_block,
                                          unsigned smem_per_block,
                                          int target_warps, int *regs);

/* Smallest dynamic shared memory (bytes, >= in->smem_dynamic) such that the
 * launch described by *in runs at most target_warps warps per SM (and still
 * runs: at least one block).  Returns in->smem_dynamic itself when the launch
 * is already there.  The answer is exact to the byte, not rounded to
 * smem_alloc_unit.  ORION_ERR_INFEASIBLE if even the opt-in maximum leaves
 * more warps, if target_warps is below one block's warps, or if the launch
 * cannot run at all as given; ORION_ERR_INVALID_ARG if target_warps < 0.
 * Default carveout (the driver may pick the largest). */
orion_status orion_occ_dyn_smem_for_warps(int sm, const orion_occ_input *in,
                                          int target_warps,
                                          unsigned *smem_dynamic);

/* A distinct occupancy level reachable by capping registers. */
typedef struct orion_occ_level {
  int warps_per_sm;
  int max_regs;               /* the largest register count giving this level */
} orion_occ_level;

/* Enough room for every level orion_occ_reg_levels() can report. */
#define ORION_OCC_MAX_LEVELS 64

/* All distinct occupancy levels reachable by register caps from min_regs to
 * max_regs_per_thread for this block size and shared memory (static +
 * dynamic), sorted by warps_per_sm descending (highest occupancy first).
 * Levels where the block cannot run (0 warps) are left out.  Writes at most
 * capacity entries (the highest ones); *count is the number written.
 * min_regs 0 is treated as 1; ORION_ERR_INVALID_ARG if min_regs is outside
 * 0 .. max_regs_per_thread, capacity < 0, or levels is NULL while
 * capacity > 0.  Default carveout. */
orion_status orion_occ_reg_levels(int sm, int threads_per_block,
                                  unsigned smem_per_block, int min_regs,
                                  orion_occ_level *levels, int capacity,
                                  int *count);

#ifdef __cplusplus
}
#endif
#endif /* ORION_OCCUPANCY_H */
