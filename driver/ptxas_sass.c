/* driver/ptxas_sass.c - orion-ptxas's SASS placement of a spilling version
 * (step 2 of ptxas_spill.c's algorithm): under policies auto and smem the
 * placement model first (model_places: on chip only where local accesses
 * outnumber global loads 3 to 2), then the trial of the rewrite on a copy
 * of the first ptxas run's cubin, sized by the occupancy model so the
 * version keeps its warps/SM, and the rewrite of the final cubin in place.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/cubin.h"
#include "orion/occupancy.h"
#include "orion/rt.h"
#include "orion/sassrw.h"
#include "ptxas_sass.h"
#include "ptxas_spill.h"
#include "ptxas_versions.h"

/* sm_90: the 1 KB of reserved shared memory every block has, counted by
 * .nv.shared.<k> sizes but not by ptxas -v's "bytes smem". */
#define ORION_SM90_RESERVED_SMEM 0x400u

/* Whether entry e's region goes to dynamic shared memory: policy dynamic
 * and a register-capped clone, which only the runtime launches, with the
 * region's bytes (its record's dsm).  The original runs as the program
 * launches it and a split entry has no dsm of its own: under policy
 * dynamic they are placed as under partial. */
int optx_sass_dynamic_entry(const optx_cmd *c, const optx_entry *e) {
  return c->spill == OPTX_SPILL_DYNAMIC && e->is_clone && strcmp(e->tag, ORION_SPLIT_SUFFIX) != 0;
}


void optx_sass_trial_free(optx_sass_trial *t) {
  orion_sassrw_free(t->an);
  orion_cubin_free(t->cubin);
}

/* Rewrite entry `name` of cubin c (analysis a) with the driver's options
 * (limit: partial placement below that end of static shared memory, or
 * with dyn, in the launch's dynamic shared memory within that many bytes
 * per warp, 0: none; regs: the register count partial placement may raise
 * the entry to, its cap; colour: slot colouring); 1 rewritten (*r: the
 * figures), 0 refused (msg says why), -1 the cubin is now half-edited. */
static int sass_rewrite_one(orion_cubin *c, const orion_sassrw *a, const char *name, int block, int dyn,
                            unsigned limit, int regs, int colour, char *msg, size_t n, orion_sassrw_result *r) {
  size_t fi = orion_cubin_func_count(c);
  for (size_t k = 0; k < orion_cubin_func_count(c); k++) {
    orion_cubin_func f;
    if (!orion_cubin_get_func(c, k, &f) && f.is_kernel && !strcmp(f.name, name))
      fi = k;
  }
  if (fi == orion_cubin_func_count(c)) {
    snprintf(msg, n, "not in the cubin");
    return 0;
  }
  orion_sassrw_opts o = {.no_dynamic_smem = 1,
                         .block = block > 0 ? (unsigned)block : 0,
                         .smem_limit = dyn ? 0 : limit,
                         .partial = limit > 0,
                         .colour = colour,
                         .reg_limit = regs > 0 ? (unsigned)regs : 0,
                         .dynamic = dyn,
                         .warp_limit = dyn ? limit : 0};
  orion_status st = orion_sassrw_rewrite_kernel(c, a, fi, &o, r);
  snprintf(msg, n, "%s", r->msg);
  return st != ORION_OK ? -1 : r->rewritten;
}

/* The end of static shared memory (.nv.shared.<k> size, the reserved 1 KB
 * included) that keeps the build with figures f at its warps/SM at block
 * threads (the occupancy model, core/), at most 48 KB; 0 if unknown. */
static unsigned partial_limit(int sm, const ptxas_figures *f, int block) {
  int w0 = optx_warps_at(sm, f, block);
  if (w0 <= 0 || f->smem < 0)
    return 0;
  ptxas_figures g = *f;
  long lo = f->smem, hi = 0xc000 - ORION_SM90_RESERVED_SMEM; /* lo keeps w0 */
  while (lo < hi) {
    g.smem = lo + (hi - lo + 1) / 2;
    if (optx_warps_at(sm, &g, block) >= w0)
      lo = g.smem;
    else
      hi = g.smem - 1;
  }
  return (unsigned)lo + ORION_SM90_RESERVED_SMEM;
}

/* The most dynamic shared memory per warp that keeps the build with
 * figures f at its warps/SM at block threads (the occupancy model: the
 * block's warps times that, over its static data), in 128-byte steps; 0
 * if unknown or none. */
static unsigned dynamic_limit(int sm, const ptxas_figures *f, int block) {
  int w0 = optx_warps_at(sm, f, block), wpb = (block + 31) / 32;
  const orion_arch_limits *al = orion_arch_get(sm);
  if (w0 <= 0 || f->smem < 0 || !al)
    return 0;
  ptxas_figures g = *f;
  long lo = 0, hi = ((long)al->max_smem_per_block_optin - f->smem) / wpb / 128; /* lo keeps w0 */
  while (lo < hi) {
    long mid = lo + (hi - lo + 1) / 2;
    g.smem = f->smem + mid * 128 * wpb;
    if (optx_warps_at(sm, &g, block) >= w0)
      lo = mid;
    else
      hi = mid - 1;
  }
  return (unsigned)(lo * 128);
}

/* ptxas -v's "bytes smem" of a version rewritten as r, for blocks of
 * `threads` (a dynamic region counts that block's warps): the end of its
 * shared memory less sm_90's 1 KB reserved area, which the section size
 * counts and -v does not. */
static long rewritten_smem(const orion_sassrw_result *r, int threads) {
  uint32_t end = r->region_off + (r->dynamic ? r->warp_bytes * (uint32_t)((threads + 31) / 32) : r->region_bytes);
  return end > ORION_SM90_RESERVED_SMEM ? (long)(end - ORION_SM90_RESERVED_SMEM) : 0;
}

/* The placement figures of a rewrite into e. */
static void note_placement(optx_entry *e, const orion_sassrw_result *r) {
  e->sass_partial = r->partial;
  e->sass_slots[0] = r->slots_on_chip;
  e->sass_slots[1] = r->slots_local;
  e->sass_bytes[0] = r->bytes_on_chip;
  e->sass_bytes[1] = r->bytes_local;
}

/* "occupancy loss (...; what)" when the model gives the build with figures
 * `after` fewer warps/SM than `before` at block threads, else NULL. */
char *optx_occupancy_loss(int sm, const ptxas_figures *before, const ptxas_figures *after, int block,
                            const char *what) {
  int w0 = optx_warps_at(sm, before, block), w1 = optx_warps_at(sm, after, block);
  if (w0 > 0 && w1 >= 0 && w1 < w0)
    return drv_xasprintf("occupancy loss (%d -> %d warps/SM at %d threads; %s)", w0, w1, block, what);
  return NULL;
}

/* The placement model of policies auto and smem: a version's frame goes
 * on chip only where its local-memory accesses (LDL/STL, counted in the
 * SASS of the kernel and of every function it calls) number at least
 * MODEL_NUM/MODEL_DEN times its loads from global or generic memory.  A
 * local access that hits L1 costs about what a shared one does: the region
 * pays by taking spill traffic that misses L1 off the memory system, and
 * it costs the L1 capacity it takes from the unified L1/shared memory,
 * which a kernel whose traffic is mostly global loads needs.  Fitted on the
 * spilling versions of five corpus programs timed alone under local spills
 * and the rewrite (82 on an H200, 72 twice on an H100; benchmarks/sass/
 * README.md, "The placement model").  counts[0..n): the two figures for
 * the report.  requires an analysis of the cubin that holds `kernel`. */
#define MODEL_NUM 3
#define MODEL_DEN 2
static int model_places(const orion_sassrw *an, const char *kernel, char *counts, size_t cn) {
  size_t n = orion_sassrw_count(an), local = 0, loads = 0, top = 0;
  size_t *stack = drv_xmalloc((n ? n : 1) * sizeof *stack);
  unsigned char *seen = drv_xmalloc(n ? n : 1);
  memset(seen, 0, n ? n : 1);
  for (size_t i = 0; i < n; i++) {
    const orion_sassrw_func *f = orion_sassrw_get(an, i);
    if (f->is_kernel && !strcmp(f->name, kernel))
      stack[top++] = i, seen[i] = 1;
  }
  while (top) { /* the kernel and its callees, each once */
    const orion_sassrw_func *f = orion_sassrw_get(an, stack[--top]);
    local += f->n_local;
    loads += f->n_global_loads;
    for (size_t k = 0; k < f->n_callees; k++)
      if (f->callees[k] < n && !seen[f->callees[k]])
        stack[top++] = f->callees[k], seen[f->callees[k]] = 1;
  }
  free(stack);
  free(seen);
  int on_chip = local * MODEL_DEN >= loads * MODEL_NUM && local > 0;
  snprintf(counts, cn, "model: %zu local accesses, %zu global loads (on chip from %d/%d)", local, loads,
           MODEL_NUM, MODEL_DEN);
  return on_chip;
}

/* The single decision point for the SASS path: 1 when sass/ rewrites the
 * version (policy sass, sm_90, not -rdc, no dynamic shared memory unless
 * the region is dynamic, under auto and smem the placement model, and the
 * rewrite succeeds on a copy of the trial's cubin); -1 when the model keeps
 * the frame in local memory (*why says why); else 0 with *why, and
 * *need_reg 1 when partial placement was refused only for want of a base
 * register. */
int optx_sass_available(const optx_cmd *c, const ptx_module *m, const ptx_entry *pe,
                          optx_entry *e, int block, optx_sass_trial *t, char **why, int *need_reg) {
  *need_reg = 0;
  int sm = 0;
  if (!optx_tries_sass(c->spill)) {
    *why = drv_xasprintf("--orion-spill=%s", optx_spill_policy_name(c->spill));
    return 0;
  }
  if (!c->gpu || orion_arch_from_name(c->gpu, &sm) != ORION_OK || sm != 90) {
    *why = drv_xasprintf("architecture %s not supported (sm_90 only)", c->gpu ? c->gpu : "(default)");
    return 0;
  }
  if (c->rdc) {
    *why = drv_xstrdup("-rdc (relocatable code)");
    return 0;
  }
  ptx_reach r;
  ptx_entry_reach(m, pe, &r);
  int dyn = optx_sass_dynamic_entry(c, e);
  int modelled = c->spill == OPTX_SPILL_AUTO || c->spill == OPTX_SPILL_SMEM;
  int partial = modelled || c->spill == OPTX_SPILL_PARTIAL || (c->spill == OPTX_SPILL_DYNAMIC && !dyn);
  if (r.dyn_smem && !dyn) { /* a dynamic region goes above it; a static one would overlap it */
    *why = drv_xasprintf("dynamic shared memory (%s)", r.dyn_what);
    return 0;
  }
  if (!t->tried) {
    t->tried = 1;
    orion_cubin_diag d = {{0}};
    orion_status cs = orion_cubin_read_file(t->path, &t->cubin, &d);
    if (cs != ORION_OK)
      snprintf(t->err, sizeof t->err, "cannot read the cubin: %s", d.msg[0] ? d.msg : orion_strerror(cs));
    else if (orion_sassrw_analyze(t->cubin, &t->an) != ORION_OK)
      snprintf(t->err, sizeof t->err, "cannot analyse the cubin");
  }
  if (!t->an) {
    *why = drv_xstrdup(t->err);
    return 0;
  }
  char counts[160] = "";
  if (modelled && !model_places(t->an, e->name, counts, sizeof counts)) {
    *why = drv_xasprintf("%s: local memory", counts);
    return -1;
  }
  /* a trial on a copy: the real rewrite is done on the final cubin */
  unsigned char *bytes = NULL;
  size_t size = 0;
  orion_cubin *copy = NULL;
  char msg[400];
  int ok = -1;
  int thr = block > 0 ? block : ptx_entry_threads(pe);
  orion_sassrw_result res;
  memset(&res, 0, sizeof res);
  e->sass_limit = partial ? partial_limit(sm, &e->fig, thr) : dyn ? dynamic_limit(sm, &e->fig, thr) : 0;
  if ((partial || dyn) && !e->sass_limit) {
    *why = drv_xasprintf("no occupancy figures for %d threads to size the on-chip part", thr);
    return 0;
  }
  if (orion_cubin_write(t->cubin, &bytes, &size) == ORION_OK &&
      orion_cubin_parse(bytes, size, &copy, NULL) == ORION_OK)
    ok = sass_rewrite_one(copy, t->an, e->name, block, dyn, e->sass_limit, e->maxnreg, c->colour, msg,
                          sizeof msg, &res);
  else
    snprintf(msg, sizeof msg, "cannot copy the cubin");
  free(bytes);
  orion_cubin_free(copy);
  if (ok != 1) {
    *why = drv_xstrdup(msg);
    *need_reg = res.need_reg;
    return 0;
  }
  if (c->spill != OPTX_SPILL_SASS) {
    ptxas_figures after = e->fig;
    after.smem = rewritten_smem(&res, thr);
    if ((*why = optx_occupancy_loss(sm, &e->fig, &after, thr, msg)))
      return 0;
  }
  *why = counts[0] ? drv_xasprintf("%s; %s", counts, msg) : drv_xstrdup(msg);
  return 1;
}

int optx_spill_apply_sass(const optx_cmd *c, const ptx_module *m, const char *cubin,
                          optx_result *res) {
  (void)m;
  size_t n = 0;
  for (size_t i = 0; i < res->n; i++)
    n += res->e[i].spill_path && !strcmp(res->e[i].spill_path, "sass");
  if (!n || !optx_tries_sass(c->spill))
    return 0;
  orion_cubin *cb = NULL;
  orion_sassrw *an = NULL;
  orion_cubin_diag d = {{0}};
  orion_status cs = orion_cubin_read_file(cubin, &cb, &d);
  if (cs != ORION_OK || orion_sassrw_analyze(cb, &an) != ORION_OK) {
    drv_error("%s: cannot read the assembled cubin for the SASS rewrite: %s", c->input,
              cs ? (d.msg[0] ? d.msg : orion_strerror(cs)) : "analysis failed");
    orion_cubin_free(cb);
    return -1;
  }
  int bad = 0;
  for (size_t i = 0; i < res->n && !bad; i++) {
    optx_entry *e = &res->e[i];
    if (!e->spill_path || strcmp(e->spill_path, "sass") != 0)
      continue;
    char msg[400];
    orion_sassrw_result r;
    memset(&r, 0, sizeof r);
    int ok = sass_rewrite_one(cb, an, e->name, e->sass_block, optx_sass_dynamic_entry(c, e), e->sass_limit, e->maxnreg,
                              c->colour, msg, sizeof msg, &r);
    if (ok < 0) {
      drv_error("%s: SASS rewrite of %s failed midway: %s", c->input, e->name, msg);
      bad = 1;
    } else if (!ok) { /* differs from the trial: the final cubin keeps it */
      optx_spill_set_path(e, "kept", drv_xasprintf("sass: %s (on the final cubin)", msg));
    } else {
      note_placement(e, &r);
      e->sass_warp_bytes = r.dynamic ? r.warp_bytes : 0;
      if (e->sass_warp_bytes && !optx_record_set_dsm(cb, e->kernel, e->tag, e->sass_warp_bytes)) {
        drv_error("%s: %s: no record of the kernel in the cubin's record table to give the runtime its "
                  "dynamic shared memory",
                  c->input, e->name);
        bad = 1;
      }
      if (!r.partial) { /* partial: the local frame stays, and its traffic in part */
        e->fig.stack_frame = 0;
        e->fig.spill_stores = e->fig.spill_loads = 0;
      } else if (r.regcount > 0) { /* and the count may rise for the base register */
        e->fig.registers = (int)r.regcount;
      }
      e->fig.smem = rewritten_smem(&r, e->block); /* the occupancy figures' block */
    }
  }
  if (!bad && (cs = orion_cubin_write_file(cb, cubin, &d)) != ORION_OK) {
    drv_error("%s: cannot write the rewritten cubin: %s", cubin, d.msg[0] ? d.msg : orion_strerror(cs));
    bad = 1;
  }
  orion_sassrw_free(an);
  orion_cubin_free(cb);
  return bad ? -1 : 0;
}

