/* orion/rt.h - liborionrt: the runtime that picks each kernel's version
 * while the program runs (paper section 3.4, Fig. 9).
 *
 * Code compiled with OrionPass calls __orion_launch_kernel where the CUDA
 * host stub called cudaLaunchKernel; nothing else in a program changes.
 * The runtime is configured by the environment:
 *
 *   ORION_MODE    off | static | adaptive (default) | exhaustive | fixed:<tag> |
 *                 fixed:<kernel>=<tag>,... (unlisted kernels: orig; <kernel>
 *                 is the symbol or the demangled name without parameters,
 *                 "ns::k<int>", or without template arguments, "ns::k")
 *   ORION_REPORT  1 (table on stderr at exit) | json (JSON on stderr) |
 *                 <path> (JSON to that file) | 0
 *   ORION_CACHE   path of the decision cache | off; default
 *                 $XDG_CACHE_HOME/orion/decisions (or ~/.cache/orion/...);
 *                 it keeps the original, and other choices once re-checks
 *                 confirmed them
 *   ORION_RECHECK launches between re-checks of a choice other than the
 *                 original (default 64; 0 = never): one launch runs the
 *                 original, paired with the choice's launches around it,
 *                 and the choice reverts to the original when it no
 *                 longer wins
 *   ORION_SPLIT   1: tune launches on chunks of their grid through the
 *                 split clones (single launches can then be tuned at all),
 *                 which a build has only with orion-cc --orion-split;
 *                 0 (default): every sample is a whole launch
 *   ORION_DEBUG   1: explain candidates and tuning on stderr
 *
 * In every mode a launch the plain build would reject is passed to
 * cudaLaunchKernel unchanged: the program sees the same error.
 *
 * Thread-safety: every entry point may be called from many host threads
 * on many streams at once.
 */
#ifndef ORION_RT_H
#define ORION_RT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the ABI between OrionPass's host side and the runtime ------------- */

#define ORION_SITE_ABI 2

/* orion_site.flags */
#define ORION_SITE_IN_LOOP 0x1u       /* the launch site sits in a host loop */
#define ORION_SITE_PER_THREAD 0x2u    /* the site called cudaLaunchKernel_ptsz */
#define ORION_SITE_LOOP_UNKNOWN 0x4u  /* loop facts unknown (treated as in a loop) */

/* One constant per launch site, emitted by OrionPass in the host module. */
typedef struct orion_site {
  unsigned abi;               /* ORION_SITE_ABI */
  unsigned flags;             /* ORION_SITE_* */
  const void *fatbin_wrapper; /* the TU's __cuda_fatbin_wrapper, or NULL */
  const char *where;          /* "file.cu:42" or the enclosing function; never NULL */
  const char *records;        /* the TU's record table (orion/record.h); never NULL */
} orion_site;

/* Hidden parameters appended to every clone when the record says hp=6, in
 * this order: the block offset added to %ctaid (x, y, z), then the grid the
 * kernel must see in %nctaid (x, y, z).  A launch that is not split passes
 * 0,0,0 and its own grid. */
#define ORION_SPLIT_PARAMS 6
#define ORION_SPLIT_SUFFIX "split" /* <kernel>__orion_split: uncapped, hidden params */

/* Layout-compatible with CUDA's dim3 (three unsigned ints). */
typedef struct orion_dim3 {
  unsigned x, y, z;
} orion_dim3;

/* Drop-in for cudaLaunchKernel (same first six arguments, same return
 * value, a cudaError_t), plus the site.  Launches func's best known version;
 * never loses, duplicates or reorders a launch. */
int __orion_launch_kernel(const void *func, orion_dim3 grid, orion_dim3 block, void **args,
                          size_t shmem, void *stream, const orion_site *site);

/* Print the report now (as at exit) to the configured destination. */
void orion_rt_report(void);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RT_H */
