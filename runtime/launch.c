/* launch.c - liborionrt's launch primitives: the program's own launch
 * (cudaLaunchKernel, unchanged), the same for a configuration the plain
 * build would reject (its error exactly), and a candidate's launch (a
 * clone through cuLaunchKernel, a chunk of the grid with the hidden split
 * parameters, the original in the place of a clone that fails).  rt.c
 * decides which to call; state.h declares them.
 */
#include <stdio.h>
#include <string.h>

#include "state.h"

/* ---- plain launches ----------------------------------------------------- */
CUstream orion_rt_cu_stream(void *stream, const orion_site *site) {
  if (!stream && site && (site->flags & ORION_SITE_PER_THREAD))
    return CU_STREAM_PER_THREAD;
  return (CUstream)stream;
}

int orion_rt_plain(const void *func, orion_dim3 grid, orion_dim3 block, void **args, size_t shmem,
                   void *stream, const orion_site *site) {
  dim3 gd = {grid.x, grid.y, grid.z}, bd = {block.x, block.y, block.z};
  cudaStream_t s = (cudaStream_t)stream;
  if (!s && site && site->abi == ORION_SITE_ABI && (site->flags & ORION_SITE_PER_THREAD))
    s = cudaStreamPerThread;
  return (int)cudaLaunchKernel(func, gd, bd, args, shmem, s);
}

/* ---- launches the plain build would reject ------------------------------
 * A launch outside the limits the plain cudaLaunchKernel of the original
 * is held to goes to exactly that call, unchanged, so the program gets the
 * same error code, string and cudaGetLastError state as its plain build:
 * never split, re-shaped or run on a clone.  The block shape and dynamic
 * shared memory are checked once per configuration (candidates.c:
 * config_valid); the grid on every launch. */
int orion_rt_grid_ok(const rt_device *d, orion_dim3 g) {
  return g.x && g.y && g.z && g.x <= d->max_grid[0] && g.y <= d->max_grid[1] &&
         g.z <= d->max_grid[2];
}

/* The plain launch of a configuration tuning never touches.  When the
 * runtime raised the original's dynamic shared memory limit for padding
 * versions and the launch asks for more than the program's own limit, the
 * program's limit is put back around the call (so the launch fails as it
 * would without Orion).  A padded launch another thread makes meanwhile
 * fails, and its version is dropped (the original runs in its place). */
int orion_rt_plain_exact(rt_config *c, const void *func, orion_dim3 grid, orion_dim3 block,
                         void **args, size_t shmem, void *stream, const orion_site *site) {
  rt_kernel *k = c->k;
  if (!k->our_smem_limit)
    return orion_rt_plain(func, grid, block, args, shmem, stream, site);
  pthread_mutex_lock(&orion_rt.mu);
  CUfunction f = k->bin[0].fn;
  int user = orion_rt_user_smem_limit(k), mine = k->our_smem_limit;
  int lowered = mine && shmem > (size_t)user &&
                orion_rt.api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                user) == CUDA_SUCCESS;
  int rc = orion_rt_plain(func, grid, block, args, shmem, stream, site);
  if (lowered)
    orion_rt.api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, mine);
  pthread_mutex_unlock(&orion_rt.mu);
  return rc;
}

/* ---- launching ---------------------------------------------------------- */

/* cuLaunchKernel of fn on stream s; ran: the flag of fn, a clone (NULL
 * for the original, which the plain build runs too).  A clone's first
 * launch may need more local memory per thread than any launch before it
 * (a spilling version), and the driver's resize of the context's local
 * memory is a "potentially unsafe" call: while another thread captures in
 * global mode it fails and invalidates that capture (measured: a program
 * capturing in one thread while another tuned failed 1 run in 20).  The
 * plain build never runs that binary, so its first launch outside a
 * capture runs with this thread's capture mode relaxed. */
static CUresult first_launch(atomic_int *ran, CUfunction fn, const unsigned *g3, orion_dim3 blk,
                             unsigned smem, CUstream s, void **args) {
  CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
  int first = ran && !atomic_load_explicit(ran, memory_order_relaxed) &&
              orion_rt.api.cuStreamIsCapturing(s, &cs) == CUDA_SUCCESS &&
              cs == CU_STREAM_CAPTURE_STATUS_NONE;
  CUstreamCaptureMode cm = first ? orion_rt_relax_capture() : CU_STREAM_CAPTURE_MODE_GLOBAL;
  CUresult r = orion_rt.api.cuLaunchKernel(fn, g3[0], g3[1], g3[2], blk.x, blk.y, blk.z, smem, s,
                                           args, NULL);
  if (first) {
    orion_rt_restore_capture(cm);
    if (r == CUDA_SUCCESS)
      atomic_store_explicit(ran, 1, memory_order_relaxed);
  }
  return r;
}

/* Launch candidate i for blocks [off, off + count) of dimension dim (count
 * 0 = the whole grid, unsplit); `timing`: the launch is bracketed by
 * events.  On failure of a version other than the original, the original
 * runs the same blocks and the version is dropped (*failed = 1). */
int orion_rt_launch_cand(rt_config *c, int i, const launch *L, int dim, unsigned off,
                         unsigned count, int timing, int *failed) {
  rt_kernel *k = c->k;
  const rt_cand *x = &c->c[i];
  rt_bin *b = &k->bin[x->bin];
  if (failed)
    *failed = 0;
  /* The original untimed goes through cudaLaunchKernel itself; timed, it
   * takes cuLaunchKernel like every other version, so that the host's
   * submission, which the events bracket on an idle stream, costs every
   * candidate alike (through cudaLaunchKernel it made 4-17 us kernels'
   * originals look 4-10 % slower than padding versions that are slower).
   * Should that fail, the plain launch below gives the program its own
   * result. */
  if (!count && x->bin == 0 && !x->pad && !timing)
    return orion_rt_plain(L->func, L->grid, L->block, L->args, L->shmem, L->stream, L->site);
  CUfunction fn = count ? (x->bin == 0 ? k->split_fn : b->fn) : b->fn;
  int hidden = count ? 1 : b->hidden;
  unsigned g3[3] = {L->grid.x, L->grid.y, L->grid.z};
  unsigned hp[ORION_SPLIT_PARAMS] = {0, 0, 0, L->grid.x, L->grid.y, L->grid.z};
  if (count) {
    hp[dim] = off;
    g3[dim] = count;
  }
  void *a2[MAX_ARGS + ORION_SPLIT_PARAMS];
  void **args = L->args;
  if (hidden) {
    int np = k->rec.n_params;
    if (np)
      memcpy(a2, L->args, (size_t)np * sizeof *a2);
    for (int j = 0; j < ORION_SPLIT_PARAMS; j++)
      a2[np + j] = &hp[j];
    args = a2;
  }
  size_t smem = L->shmem > x->pad ? L->shmem : x->pad;
  /* the flag of the clone that runs: the split clone, or b unless it is the original */
  atomic_int *ran = count && x->bin == 0 ? &k->split_ran : x->bin ? &b->ran : NULL;
  CUresult r = first_launch(ran, fn, g3, L->block, (unsigned)smem,
                            orion_rt_cu_stream(L->stream, L->site), args);
  if (r == CUDA_SUCCESS)
    return 0;
  if (i == c->orig && !count && !timing)
    return (int)r;
  /* Fall back to the original for the same blocks (split: its split clone,
   * the arguments already carry the hidden parameters). */
  int rc = count
               ? (int)orion_rt.api.cuLaunchKernel(k->split_fn, g3[0], g3[1], g3[2], L->block.x,
                                                  L->block.y, L->block.z, (unsigned)L->shmem,
                                                  orion_rt_cu_stream(L->stream, L->site), a2, NULL)
               : orion_rt_plain(L->func, L->grid, L->block, L->args, L->shmem, L->stream, L->site);
  if (rc == 0 && i != c->orig) {
    if (failed)
      *failed = 1;
    atomic_fetch_add(&c->failed[i], 1);
    orion_rt_warn(W_LAUNCH,
                  "kernel %s: version %s failed to launch (CUDA error %d); using the "
                  "original instead",
                  k->name, x->tag, (int)r);
    if (orion_rt.debug)
      fprintf(stderr,
              "orion: debug: %s block %u smem %zu: version %s failed to launch (CUDA "
              "error %d); the original ran its blocks, %s dropped\n",
              k->name, c->bx * c->by * c->bz, c->shmem, x->tag, (int)r, x->tag);
  }
  return rc;
}
