/* candidates.c - step 2 of a launch (rt.c): per (kernel, block shape,
 * dynamic shared memory, device) the candidates are the binaries at their
 * real occupancy (cuOccupancyMaxActiveBlocksPerMultiprocessor; equal
 * occupancy keeps one) plus padding versions below the original: the
 * original with its dynamic shared memory raised so only the target number
 * of blocks fits.  ORION_MODE picks how the choice is made: adaptive
 * (tune.c), exhaustive, static (the compiler's prediction), fixed:<tag>; a
 * cached decision wins, a cached tentative choice is re-checked at once,
 * and the budget earlier runs left carries over (cache.h).  Adaptive mode leaves out the clones another
 * candidate dominates in registers and warps (plan.h: Pareto pruning).
 * Also the decision cache's key: the module's hash, the GPU, the driver,
 * the kernel and the configuration. */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* ---- the cache key ------------------------------------------------------ */
/* FNV-1a 64 of the fatbinary a clang host module registers: the wrapper
 * {magic 0x466243b1, version, data, ...} points at a header {magic
 * 0xBA55ED50, u16 version, u16 header size, u64 payload size}. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

/* Called with orion_rt.mu held (it guards the memo). */
unsigned long long orion_rt_module_key(const orion_site *site, const rt_kernel *k) {
  unsigned long long h = 0xcbf29ce484222325ULL;
  const struct {
    int magic, version;
    const unsigned char *data;
    const void *unused;
  } *w = site ? site->fatbin_wrapper : NULL;
  if (w && w->magic == 0x466243b1 && w->data) {
    unsigned magic;
    unsigned short hsize;
    unsigned long long fsize;
    memcpy(&magic, w->data, 4);
    memcpy(&hsize, w->data + 6, 2);
    memcpy(&fsize, w->data + 8, 8);
    if (magic == 0xBA55ED50u && hsize >= 16 && fsize < (1ULL << 32)) {
      /* Every kernel of a TU shares its fatbinary: hash each one once. */
      static struct {
        const void *wrapper;
        unsigned long long hash;
      } seen[64];
      static int nseen;
      for (int i = 0; i < nseen; i++)
        if (seen[i].wrapper == w)
          return seen[i].hash;
      h = fnv(h, w->data, hsize + fsize);
      if (nseen < 64)
        seen[nseen].wrapper = w, seen[nseen++].hash = h;
      return h;
    }
  }
  /* No fatbinary: the record and the versions' registers stand for it. */
  char rec[1024];
  if (orion_record_format(&k->rec, rec, sizeof rec) == ORION_OK)
    h = fnv(h, rec, strlen(rec));
  for (int i = 0; i < k->nbin; i++)
    h = fnv(h, &k->bin[i].regs, sizeof k->bin[i].regs);
  return h;
}

/* Microseconds on the monotonic clock, for ORION_DEBUG's cost lines. */

/* ---- candidates --------------------------------------------------------- */
/* Blocks of `block` threads per SM for f with smem bytes of dynamic shared
 * memory; 0 when f cannot run such a block at all (its own thread limit
 * from launch bounds or a .maxntid the PTX fallback added, which the
 * occupancy calculator does not check). */
int orion_rt_occupancy(CUfunction f, int block, size_t smem) {
  int nb = 0, maxt = 0;
  if (orion_rt.api.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) !=
          CUDA_SUCCESS ||
      maxt < block)
    return 0;
  if (orion_rt.api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, block, smem) != CUDA_SUCCESS)
    return 0;
  return nb;
}

/* Raise f's dynamic shared memory limit to at least bytes. */
static int allow_smem(CUfunction f, size_t bytes) {
  int cur = 0;
  if (!f ||
      orion_rt.api.cuFuncGetAttribute(&cur, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f))
    return -1;
  if ((size_t)cur >= bytes)
    return 0;
  return orion_rt.api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         (int)bytes)
             ? -1
             : 0;
}

/* The most dynamic shared memory f can take: the device's opt-in limit per
 * block less f's static shared memory (asking for more is an API error). */
static size_t smem_room(CUfunction f, int optin) {
  int st = 0;
  if (optin <= 0 || orion_rt.api.cuFuncGetAttribute(&st, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) ||
      st >= optin)
    return 0;
  return (size_t)(optin - st);
}

/* A clone gets the limits the program set on the original, as far as its
 * own static shared memory leaves room (a frame moved to shared memory by
 * orion-ptxas's SASS rewrite makes it larger than the original's). */
static void inherit_limits(CUfunction f, int dyn_limit, int carveout, int optin) {
  size_t room = smem_room(f, optin);
  allow_smem(f, (size_t)dyn_limit < room ? (size_t)dyn_limit : room);
  if (carveout >= 0)
    orion_rt.api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                    carveout);
}

static void add_cand(rt_config *c, const char *tag, int bin, size_t pad, int warps) {
  if (c->n >= MAX_CANDS)
    return;
  rt_cand *x = &c->c[c->n++];
  snprintf(x->tag, sizeof x->tag, "%s", tag);
  x->bin = bin;
  x->pad = pad;
  x->warps = warps;
}

/* The original's dynamic shared memory limit as the program set it: the
 * attribute, unless it still holds the value the runtime raised it to for
 * padding versions.  Called with orion_rt.mu held. */
int orion_rt_user_smem_limit(rt_kernel *k) {
  int cur = 0;
  if (orion_rt.api.cuFuncGetAttribute(&cur, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      k->bin[0].fn))
    return k->our_smem_limit ? k->user_smem_limit : 0;
  if (k->our_smem_limit && cur == k->our_smem_limit)
    return k->user_smem_limit;
  k->our_smem_limit = 0; /* never raised, or the program set it since */
  k->user_smem_limit = cur;
  return cur;
}

/* Raise the original's dynamic shared memory limit to at least bytes for
 * the padding versions, remembering the program's.  0 on success. */
static int raise_orig(rt_kernel *k, size_t bytes) {
  int user = orion_rt_user_smem_limit(k);
  if ((size_t)user >= bytes)
    return 0;
  if (allow_smem(k->bin[0].fn, bytes))
    return -1;
  k->user_smem_limit = user;
  k->our_smem_limit = (int)bytes;
  return 0;
}

/* Whether launches of c's block shape and dynamic shared memory are
 * within every limit the plain launch of the original is held to: the
 * device's block dimensions and threads per block, the kernel's threads
 * per block (registers, launch bounds) and the program's limit on its
 * dynamic shared memory.  Only such configurations are ever tuned. */
static int config_valid(rt_config *c) {
  rt_kernel *k = c->k;
  const rt_device *d = &orion_rt.dev[k->dev];
  unsigned long long threads = (unsigned long long)c->bx * c->by * c->bz;
  int maxt = 0;
  if (!d->known || !threads || c->bx > d->max_block[0] || c->by > d->max_block[1] ||
      c->bz > d->max_block[2] || threads > d->max_threads)
    return 0;
  if (orion_rt.api.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                      k->bin[0].fn) ||
      threads > (unsigned long long)maxt)
    return 0;
  return c->shmem <= (size_t)orion_rt_user_smem_limit(k);
}

/* A binary, its warps per SM for the configuration and the dynamic
 * shared memory it launches with (0: the launch's own). */
typedef struct bin_warps {
  int bin, warps;
  size_t pad;
} bin_warps;

/* The dynamic shared memory clone b launches c's blocks with when its
 * frame is there (orion-ptxas's dynamic placement: b->warp_smem bytes per
 * warp at the end of the dynamic part, above the program's own bytes,
 * 16-aligned), its limit raised to it: 0 for other clones, (size_t)-1
 * when a block's frame does not fit. */
static size_t frame_smem(const rt_config *c, const rt_bin *b, int wpb, int optin) {
  if (!b->warp_smem)
    return 0;
  size_t need = (c->shmem + 15) / 16 * 16 + (size_t)wpb * b->warp_smem;
  return need <= smem_room(b->fn, optin) && !allow_smem(b->fn, need) ? need : (size_t)-1;
}

/* The binaries that can run c's block, one per occupancy (equal warps
 * keep the original, else the clone with more registers; the unroll
 * versions that can run the block into sides, *nsides of them, outside
 * that order), the user's limits on the original carried over to the
 * clones.  Returns their number. */
static int binaries(rt_config *c, int dyn_limit, int carveout, int optin, bin_warps *bins,
                    bin_warps *sides, int *nsides) {
  rt_kernel *k = c->k;
  int block = (int)(c->bx * c->by * c->bz), wpb = (block + 31) / 32;
  int nbins = 0;
  for (int i = 0; i < k->nbin; i++) {
    size_t pad = 0;
    if (i > 0) {
      inherit_limits(k->bin[i].fn, dyn_limit, carveout, optin);
      if ((pad = frame_smem(c, &k->bin[i], wpb, optin)) == (size_t)-1)
        continue;
    }
    int nb = i == 0 ? c->blocks_per_sm0 : orion_rt_occupancy(k->bin[i].fn, block, pad ? pad : c->shmem);
    if (orion_rt.debug)
      fprintf(stderr, "orion: debug: %s block %d smem %zu: %s %d registers, %d blocks/SM\n",
              k->name, block, c->shmem, k->bin[i].tag, k->bin[i].regs, nb);
    if (nb <= 0 && i > 0)
      continue;
    int w = nb * wpb, dup = 0;
    if (k->bin[i].role == ORION_ROLE_UNROLL) { /* a side version, outside the order */
      if (*nsides < ORION_UNROLL_VERSIONS)
        sides[*nsides].bin = i, sides[*nsides].pad = pad, sides[(*nsides)++].warps = w;
      continue;
    }
    for (int j = 0; j < nbins; j++)
      if (bins[j].warps == w) {
        dup = 1; /* keep the original, else the clone with more registers */
        if (bins[j].bin != 0 && k->bin[i].regs > k->bin[bins[j].bin].regs)
          bins[j].bin = i, bins[j].pad = pad;
      }
    if (!dup)
      bins[nbins].bin = i, bins[nbins].pad = pad, bins[nbins++].warps = w;
  }
  if (k->split_fn)
    inherit_limits(k->split_fn, dyn_limit, carveout, optin);
  for (int a = 0; a < nbins; a++) /* sort bins ascending by warps */
    for (int b = a + 1; b < nbins; b++)
      if (bins[b].warps < bins[a].warps) {
        bin_warps t = bins[a];
        bins[a] = bins[b];
        bins[b] = t;
      }
  return nbins;
}

/* The padding versions' targets in blocks per SM, from the record's
 * fractions of the original's warps, distinct and ascending.  Returns
 * their number. */
static int pad_targets(const rt_config *c, int *pads) {
  int nb0 = c->blocks_per_sm0, npads = 0;
  const orion_selection *sel = &c->k->rec.sel;
  for (int v = 0; v < sel->n_versions && nb0 > 1 && sel->original_warps > 0; v++) {
    if (!sel->versions[v].is_pad)
      continue;
    int tb = (int)((long)nb0 * sel->versions[v].target_warps / sel->original_warps);
    if (tb >= nb0)
      tb = nb0 - 1;
    if (tb < 1)
      tb = 1;
    int dup = 0;
    for (int j = 0; j < npads; j++)
      dup |= pads[j] == tb;
    if (!dup && npads < MAX_CANDS)
      pads[npads++] = tb;
  }
  for (int a = 0; a < npads; a++) /* sort pads ascending */
    for (int b = a + 1; b < npads; b++)
      if (pads[b] < pads[a]) {
        int t = pads[a];
        pads[a] = pads[b];
        pads[b] = t;
      }
  return npads;
}

/* The least dynamic shared memory in [c->shmem, room] that leaves `target`
 * blocks per SM of the original: a binary search on the occupancy
 * calculator, which is monotone in it (cuOccupancyAvailableDynamicSMemPerBlock
 * answers under the function's current limit and a fixed carveout, and its
 * answer can leave one block fewer; measured on an H200).  0 when no
 * amount gives exactly target. */
static size_t pad_bytes(const rt_config *c, int target, size_t room) {
  CUfunction f = c->k->bin[0].fn;
  int block = (int)(c->bx * c->by * c->bz);
  size_t lo = c->shmem, hi = room; /* occupancy(lo) > target >= occupancy(hi)? */
  int got = -1;
  if (orion_rt_occupancy(f, block, hi) <= target && orion_rt_occupancy(f, block, lo) > target) {
    while (hi - lo > 128) {
      size_t mid = lo + (hi - lo) / 2 / 128 * 128;
      if (mid == lo)
        break;
      if (orion_rt_occupancy(f, block, mid) <= target)
        hi = mid;
      else
        lo = mid;
    }
    got = orion_rt_occupancy(f, block, hi);
  }
  if (orion_rt.debug)
    fprintf(stderr, "orion: debug: %s: padding to %d blocks/SM: %zu bytes -> %d blocks/SM\n",
            c->k->name, target, hi, got);
  return got == target ? hi : 0;
}

/* Step 2 of rt.c's file comment: candidates in increasing occupancy,
 * the padding versions (all below the original) first, then the
 * binaries; the unroll versions last. */
static void build_candidates(rt_config *c) {
  rt_kernel *k = c->k;
  int block = (int)(c->bx * c->by * c->bz), wpb = (block + 31) / 32;
  /* The user's own limits on the original carry over to the clones. */
  int dyn_limit = orion_rt_user_smem_limit(k), carveout = -1;
  orion_rt.api.cuFuncGetAttribute(&carveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                  k->bin[0].fn);
  int optin = 0;
  orion_rt.api.cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                    k->dev);
  c->blocks_per_sm0 = orion_rt_occupancy(k->bin[0].fn, block, c->shmem);
  bin_warps bins[MAX_BIN], sides[ORION_UNROLL_VERSIONS];
  int nsides = 0, nbins = binaries(c, dyn_limit, carveout, optin, bins, sides, &nsides);
  int pads[MAX_CANDS], npads = pad_targets(c, pads);
  size_t room = smem_room(k->bin[0].fn, optin);
  if (k->split_fn && smem_room(k->split_fn, optin) < room)
    room = smem_room(k->split_fn, optin);
  int raised = npads > 0 && room > c->shmem && !raise_orig(k, room) &&
               !(k->split_fn && allow_smem(k->split_fn, room));
  for (int a = 0; a < npads && raised; a++) {
    size_t avail = pad_bytes(c, pads[a], room);
    if (!avail)
      continue;
    char tag[ORION_TAG_MAX];
    snprintf(tag, sizeof tag, "p%d", pads[a] * wpb);
    add_cand(c, tag, 0, avail, pads[a] * wpb);
  }
  for (int a = 0; a < nbins; a++) {
    if (bins[a].bin == 0)
      c->orig = c->n;
    add_cand(c, k->bin[bins[a].bin].tag, bins[a].bin, bins[a].pad, bins[a].warps);
  }
  /* The unroll versions last, in the record's order: other code, not
   * another occupancy (tune.h's side candidates), so they neither replace
   * a binary of equal warps nor take a place in the walk's order. */
  for (int a = 0; a < nsides; a++)
    add_cand(c, k->bin[sides[a].bin].tag, sides[a].bin, sides[a].pad, sides[a].warps);
}

/* Candidate i is a side version (an unroll version). */
static int is_side(const rt_config *c, int i) {
  return c->k->bin[c->c[i].bin].role == ORION_ROLE_UNROLL;
}

static int find_tag(const rt_config *c, const char *tag) {
  for (int i = 0; i < c->n; i++)
    if (!strcmp(c->c[i].tag, tag))
      return i;
  return -1;
}

void orion_rt_cache_key(const rt_config *c, orion_cache_entry *e) {
  memset(e, 0, sizeof *e);
  e->module = c->k->module_key;
  rt_device *d = &orion_rt.dev[c->k->dev];
  snprintf(e->gpu, sizeof e->gpu, "%s", d->known ? d->name : "unknown");
  e->driver = orion_rt.driver_version;
  snprintf(e->kernel, sizeof e->kernel, "%s", c->k->name);
  e->bx = c->bx, e->by = c->by, e->bz = c->bz;
  e->shmem = c->shmem;
}

/* Called with orion_rt.mu held. */
static void cache_load(void) {
  if (orion_rt.cache_loaded || !orion_rt.cache_path[0])
    return;
  orion_rt.cache_loaded = 1;
  char err[512];
  int bad = 0, first = 0, werr;
  if (orion_cache_load(&orion_rt.cache, orion_rt.cache_path, &bad, &first, err, sizeof err) != 0) {
    orion_rt_warn(W_CACHE_READ, "cannot read the decision cache %s; tuning afresh, saving nothing",
                  err);
    orion_rt.cache_path[0] = 0; /* one message for one problem: no write at exit */
    return;
  }
  if (bad)
    orion_rt_warn(W_CACHE_BAD, "%s:%d: malformed decision cache line (%d in all); ignoring them",
                  orion_rt.cache_path, first, bad);
  if ((werr = orion_cache_writable(orion_rt.cache_path)) != 0) {
    /* Said now: a run that settles nothing would never try to write. */
    orion_rt_warn(W_CACHE_WRITE, "cannot write the decision cache %s: %s; saving nothing",
                  orion_rt.cache_path, strerror(werr));
    orion_rt.cache_path[0] = 0;
  }
}

/* Adaptive mode: drop the clones another candidate dominates (plan.h),
 * keeping the order; c->orig follows. */
static void prune_dominated(rt_config *c) {
  int regs[MAX_CANDS], warps[MAX_CANDS], clone[MAX_CANDS], keep[MAX_CANDS], m = 0, orig = 0;
  for (int i = 0; i < c->n; i++) {
    /* a side version neither prunes nor is pruned: other code */
    regs[i] = is_side(c, i) ? -1 : c->k->bin[c->c[i].bin].regs;
    warps[i] = is_side(c, i) ? -1 : c->c[i].warps;
    clone[i] = c->c[i].bin != 0 && !is_side(c, i); /* padding versions run the original */
  }
  orion_plan_pareto(c->n, regs, warps, clone, keep);
  for (int i = 0; i < c->n; i++) {
    if (!keep[i]) {
      if (orion_rt.debug)
        fprintf(stderr,
                "orion: debug: %s: %s (%d registers, %d warps/SM) left out: another "
                "version has as many registers and warps\n",
                c->k->name, c->c[i].tag, regs[i], warps[i]);
      continue;
    }
    if (i == c->orig)
      orig = m;
    c->c[m++] = c->c[i];
  }
  c->n = m;
  c->orig = orig;
}

/* ORION_MODE=fixed: the named version (a binary left out for an occupancy
 * equal to another's still runs), else the original with a warning. */
static int choose_fixed(rt_config *c) {
  rt_kernel *k = c->k;
  char tag[ORION_TAG_MAX];
  orion_rt_fixed_tag(k->name, tag, sizeof tag);
  int final = find_tag(c, tag);
  c->source = "fixed";
  for (int b = 1; final < 0 && b < k->nbin && c->n < MAX_CANDS; b++) {
    int block = (int)(c->bx * c->by * c->bz);
    int nb = strcmp(k->bin[b].tag, tag) ? 0 : orion_rt_occupancy(k->bin[b].fn, block, c->shmem);
    if (nb > 0) {
      add_cand(c, tag, b, 0, nb * ((block + 31) / 32));
      final = c->n - 1;
    }
  }
  if (final < 0) {
    if (!k->warned_fixed)
      orion_rt_warn(0, "ORION_MODE=fixed: kernel %s has no version %s here; using orig", k->name,
                    tag);
    k->warned_fixed = 1;
    final = c->orig;
  }
  return final;
}

/* ORION_MODE=static, where nothing is measured: a version other than the
 * original only where the model shows a certain win, and it never does.
 * Its prediction is a direction and an occupancy, not a time: on 24
 * third-party programs (H200) the best fixed version beat the plain build
 * by more than 1 % on 2, while wrong versions cost up to 26 %.  So static
 * mode runs the original. */
static int choose_static(rt_config *c) {
  c->source = "static";
  return c->orig;
}

/* The cache's entry for c (adaptive mode), or NULL; it also gives c the
 * budget earlier runs carried (cache.h). */
static const orion_cache_entry *cached(rt_config *c) {
  if (orion_rt.mode != MODE_ADAPTIVE)
    return NULL;
  cache_load();
  orion_cache_entry key;
  orion_rt_cache_key(c, &key);
  const orion_cache_entry *e = orion_cache_find(&orion_rt.cache, &key);
  if (e) {
    c->prev_credit_ms = e->credit_ms;
    c->prev_loss_ms = e->loss_ms;
    c->prev_open_runs = e->state == ORION_CACHE_OPEN ? e->checks : 0;
  }
  return e;
}

/* Adaptive and exhaustive modes: the tuner started toward the
 * conservative version or the compiler's direction (plan.h), or settled on
 * a cached decision (adaptive), which is re-checked as a tuned one.
 * Returns the choice, or -1 while tuning. */
static int start_tuning(rt_config *c) {
  rt_kernel *k = c->k;
  int shares[MAX_CANDS], cons = -1;
  for (int i = 0; i < c->n; i++) {
    shares[i] = c->c[i].bin == 0;
    if (c->c[i].bin != 0 && k->bin[c->c[i].bin].role == ORION_ROLE_CONSERVATIVE)
      cons = i;
  }
  int predicted = k->rec.sel.direction == ORION_DIR_INCREASING ? 1 : -1;
  int dir = orion_plan_direction(c->orig, cons, predicted);
  /* A launch outside any loop that ORION_SPLIT=1 may tune on chunks: the
   * occupancy walk before the side candidates (tune.h, step 4). */
  orion_tune_cfg cfg;
  orion_tune_cfg_default(&cfg);
  cfg.side_last = orion_rt.split && k->split_fn && c->once;
  orion_tuner_init(&c->tuner,
                   orion_rt.mode == MODE_EXHAUSTIVE ? ORION_TUNE_EXHAUSTIVE : ORION_TUNE_ADAPTIVE,
                   c->n, c->orig, dir, shares, &cfg);
  for (int i = 0; i < c->n; i++)
    if (is_side(c, i))
      orion_tuner_side(&c->tuner, i);
  for (int j = 0; j < 2 * RT_PENDING; j++)
    if (orion_rt.api.cuEventCreate(&c->pend[j / 2].ev[j % 2], CU_EVENT_DEFAULT)) {
      c->source = "untimed";
      return c->orig; /* cannot time: stay on the original */
    }
  c->checked = orion_rt.mode == MODE_ADAPTIVE && orion_rt.recheck > 0;
  const rt_cand *o = &c->c[c->orig];
  for (int i = 0; i < c->n; i++) /* the stakes of tune.h, step 5 */
    orion_tuner_set_risk(&c->tuner, i,
                         orion_plan_risk(c->c[i].bin == 0, o->warps, c->c[i].warps,
                                         k->bin[o->bin].local, k->bin[c->c[i].bin].local));
  const orion_cache_entry *e = cached(c);
  int hit = e && e->state != ORION_CACHE_OPEN ? find_tag(c, e->tag) : -1;
  if (hit >= 0) {
    /* a decision: re-checked after plan.h's first gap (32 launches); a
     * tentative choice: at once, after one launch that warms its binary */
    int tentative = e->state == ORION_CACHE_TENTATIVE && hit != c->orig;
    c->source = tentative ? "tentative" : "cached";
    c->cached_speedup = e->speedup;
    orion_tuner_settle_checked(&c->tuner, hit, e->checks, e->rc_sum, e->rc_sumsq, e->win,
                               e->nwin);
    atomic_store(&c->next_check, tentative ? 2 : orion_plan_recheck_gap(0, orion_rt.recheck));
    return hit;
  }
  if (e && e->state == ORION_CACHE_OPEN && strcmp(e->walk, "-") &&
      orion_tuner_resume(&c->tuner, e->walk) != 0 && orion_rt.debug)
    fprintf(stderr, "orion: debug: %s: the cached walk does not fit; tuning afresh\n", k->name);
  if (orion_rt.debug && dir != predicted)
    fprintf(stderr,
            "orion: debug: %s: the walk starts toward %s, the conservative version "
            "(%d warps/SM; the original %d)\n",
            k->name, c->c[cons].tag, c->c[cons].warps, c->c[c->orig].warps);
  return -1;
}

static void config_init(rt_config *c) {
  pthread_mutex_init(&c->mu, NULL);
  atomic_init(&c->final, -1);
  atomic_init(&c->launches, 0);
  atomic_init(&c->timed_ns, 0);
  atomic_init(&c->loss_ns, 0);
  atomic_init(&c->wait_ns, 0);
  atomic_init(&c->timed_n, 0);
  atomic_init(&c->next_check, 0);
  for (int i = 0; i < MAX_CANDS; i++)
    atomic_init(&c->failed[i], 0);
  c->valid = config_valid(c);
  if (!c->valid) { /* every launch goes to cudaLaunchKernel as it came */
    add_cand(c, "orig", 0, 0, 0);
    c->orig = 0;
    c->source = "invalid";
    atomic_store(&c->final, 0);
    return;
  }
  build_candidates(c);
  if (c->n == 0) { /* the original cannot launch with this configuration */
    add_cand(c, "orig", 0, 0, 0);
    c->orig = 0;
  }
  if (orion_rt.mode == MODE_ADAPTIVE)
    prune_dominated(c);
  int final;
  c->source = "tuning";
  if (c->n == 1) {
    final = c->orig;
    c->source = "single";
  } else if (orion_rt.mode == MODE_FIXED) {
    final = choose_fixed(c);
  } else if (orion_rt.mode == MODE_STATIC) {
    final = choose_static(c);
  } else {
    final = start_tuning(c);
  }
  if (final >= 0)
    atomic_store(&c->final, final);
}

rt_config *orion_rt_config(rt_kernel *k, orion_dim3 b, size_t shmem, int once) {
  pthread_mutex_lock(&orion_rt.mu);
  rt_config *c;
  for (c = orion_rt.configs; c; c = c->list_next)
    if (c->k == k && c->bx == b.x && c->by == b.y && c->bz == b.z && c->shmem == shmem)
      break;
  if (!c && (c = calloc(1, sizeof *c))) {
    c->k = k;
    c->bx = b.x, c->by = b.y, c->bz = b.z;
    c->shmem = shmem;
    c->once = once;
    double t0 = orion_rt.debug ? orion_rt_now_us() : 0;
    config_init(c);
    if (orion_rt.debug)
      fprintf(stderr, "orion: debug: configuration of %s: %d candidates, %.0f us\n", k->name, c->n,
              orion_rt_now_us() - t0);
    if (orion_rt.configs_tail)
      orion_rt.configs_tail->list_next = c;
    else
      orion_rt.configs = c;
    orion_rt.configs_tail = c;
  }
  pthread_mutex_unlock(&orion_rt.mu);
  return c;
}
