/* orion/occupancy.h - the occupancy calculator (orion-ra, pure C).
 *
 * Given a kernel's registers per thread, threads per block and shared memory
 * per block, compute how many blocks and warps fit on one SM of a given
 * architecture and which resource limits them, using NVIDIA's allocation
 * granularities (registers per warp in units of reg_alloc_unit, shared memory
 * in units of smem_alloc_unit plus smem_reserved_per_block per block, the
 * per-SM caps on blocks, warps and threads).  Inverse queries answer "the
 * largest register cap that still reaches W warps/SM" and "the dynamic shared
 * memory that lowers a launch to W warps/SM".
 *
 * Data model: an architecture is identified by its SM number (75, 80, 86, 89,
 * 90, 100, 120).  orion_arch_get() returns a pointer to a static, immutable
 * table row; nothing here allocates.  All functions are pure and thread-safe.
 * Checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor measured on an
 * H200 (test/data/occupancy_h200.csv, benchmarks/occupancy/).
 */
#ifndef ORION_OCCUPANCY_H
#define ORION_OCCUPANCY_H

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
  unsigned smem_alloc_unit;           /* 128 */
} orion_arch_limits;

/* Parse "sm_90", "sm_90a", "compute_90", "90" -> 90.  ORION_ERR_PARSE on
 * malformed text, ORION_ERR_UNSUPPORTED_ARCH for a well-formed but unknown
 * architecture. */
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

typedef struct orion_occ_input {
  int regs_per_thread;        /* as ptxas reports; 0 is treated as 1 */
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
  int blocks_by_regs;
  int blocks_by_smem;
} orion_occ_result;

/* Forward query.  ORION_ERR_INVALID_ARG for a NULL pointer or a
 * threads_per_block / regs out of range; ORION_ERR_UNSUPPORTED_ARCH for an
 * unknown sm.  A block that does not fit (too much smem) is not an error:
 * blocks_per_sm is 0. */
orion_status orion_occupancy(int sm, const orion_occ_input *in,
                             orion_occ_result *out);

/* Largest register count r (<= max_regs_per_thread) such that a block of
 * threads_per_block threads with smem_per_block bytes reaches at least
 * target_warps warps per SM.  ORION_ERR_INFEASIBLE if no r >= 1 does. */
orion_status orion_occ_max_regs_for_warps(int sm, int threads_per_block,
                                          unsigned smem_per_block,
                                          int target_warps, int *regs);

/* Smallest dynamic shared memory (bytes, >= in->smem_dynamic) such that the
 * launch described by *in runs at most target_warps warps per SM.
 * ORION_ERR_INFEASIBLE if even the opt-in maximum leaves more warps, or if
 * target_warps is below one block's warps. */
orion_status orion_occ_dyn_smem_for_warps(int sm, const orion_occ_input *in,
                                          int target_warps,
                                          unsigned *smem_dynamic);

/* A distinct occupancy level reachable by capping registers. */
typedef struct orion_occ_level {
  int warps_per_sm;
  int max_regs;               /* the largest register count giving this level */
} orion_occ_level;

/* All distinct occupancy levels reachable by register caps from min_regs to
 * max_regs_per_thread for this block size and shared memory, sorted by
 * warps_per_sm descending (highest occupancy first).  Writes at most
 * capacity entries; *count is the number written. */
orion_status orion_occ_reg_levels(int sm, int threads_per_block,
                                  unsigned smem_per_block, int min_regs,
                                  orion_occ_level *levels, int capacity,
                                  int *count);

#ifdef __cplusplus
}
#endif
#endif /* ORION_OCCUPANCY_H */
