/* driver/ptxas_spill.c - orion-ptxas's spill fallback: what happens to a
 * version that spills or keeps a stack frame in local memory.
 *
 * Algorithm, per entry that is realised and stays in the cubin:
 *   1. Policy off, no spill stores/loads and no stack frame, or an entry
 *      without a thread limit of its own that is not a register-capped
 *      clone (the original and K__orion_split: a .maxntid would limit the
 *      blocks the program launches them with) -> "kept".
 *   2. Every policy but off and pragma: the SASS rewriter (sass/: the
 *      frame of the kernel and its callees moves to a per-thread shared
 *      region) when sass_available() says so -> "sass": sm_90, not -rdc,
 *      no dynamic shared memory (but policy dynamic's clones, whose
 *      region goes above it), the rewrite succeeds on a copy of the
 *      first-run cubin and, except under sass, the occupancy model (core/)
 *      gives the rewritten version at least the warps/SM of the local build
 *      at its block size ("occupancy loss" otherwise: a capped clone exists
 *      for its occupancy).  Otherwise the refusal is recorded ("sass") and:
 *      Policy auto (the default) stops here: "kept" in local memory.  It
 *      costs no ptxas run beyond the first: the pragma path below costs one
 *      run of the candidates and one more of the whole module, 2-3x the
 *      ptxas time of a register-heavy program, for versions that rarely
 *      win (benchmarks/compile/results/spill-policy.md).
 *      Policy partial (never the default): as sass, and where the whole
 *      frame does not fit, the rewrite keeps on chip the slots with the
 *      most estimated accesses that fit below the static shared size the
 *      version's occupancy (warps/SM of the local build at its block size)
 *      leaves; the rest stay in local memory (include/orion/sassrw.h).
 *      Policy dynamic (never the default): register-capped clones as
 *      partial, with the region at the end of the launch's dynamic shared
 *      memory, sized per warp to keep their warps/SM at the record's block
 *      (the runtime brings it for each launch); the original and split
 *      entries, which the runtime does not launch so, as partial.
 *   3. The smem-pragma path where ptxas allows it (verified on ptxas 13.0):
 *      not with -c (ptxas: "not allowed for per-function compilation
 *      modes"), not on ptxas < 13, not when the entry reaches an
 *      .extern .shared variable ("not allowed for dynamic SMEM") or reads
 *      %total_smem_size or %dynamic_smem_size (the spill area would change
 *      the value), not when
 *      it reaches a call of a declared-only function or an indirect call
 *      (C7800, "functions use abi"); calls of .func defined in the module
 *      are fine.  Otherwise "kept" with that reason.
 *   4. Candidates are assembled once, together, with `.pragma
 *      "enable_smem_spilling";` as the first statement of their body and,
 *      when they have no .maxntid/.reqntid, `.maxntid B, 1, 1` (without it
 *      ptxas sizes the shared spill area for 1024 threads); B is the block
 *      size of the kernel's decision record (its line of the record table,
 *      blk=), else ORION_DEFAULT_BLOCK.  `ptxas -v --entry <candidates>` compiles only
 *      them.  If that fails and there is more than one candidate, each is
 *      tried alone so the refusal is charged to the right one ("ptxas
 *      refused: <its message>").
 *   5. Policy smem keeps a pragma build only if it lowers local-memory
 *      traffic (spill stores + loads, or the stack frame, one lower and
 *      neither higher) and the occupancy model (core/) gives it at least
 *      the warps/SM of the local build at B threads ("no gain", "occupancy
 *      loss"); policy pragma keeps every build ptxas accepts (the "ptxas
 *      enable_smem_spilling" baseline).
 * -v's "spill stores/loads" and "stack frame" count local memory only: the
 * part ptxas moves to shared memory shows as "bytes smem" (checked against
 * STL/LDL and STS/LDS counts in the SASS).
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orion/cubin.h"
#include "orion/occupancy.h"
#include "orion/sassrw.h"
#include "orion/rt.h"
#include "ptxas_spill.h"
#include "ptxas_versions.h"

/* sm_90: the 1 KB of reserved shared memory every block has, counted by
 * .nv.shared.<k> sizes but not by ptxas -v's "bytes smem". */
#define ORION_SM90_RESERVED_SMEM 0x400u

static const char *const policy_names[] = {"auto", "pragma", "off", "sass", "partial", "smem", "dynamic"};
#define N_POLICIES (sizeof policy_names / sizeof *policy_names)

int optx_spill_policy_parse(const char *s) {
  for (size_t i = 0; i < N_POLICIES; i++)
    if (strcmp(s, policy_names[i]) == 0)
      return (int)i;
  return -1;
}

const char *optx_spill_policy_name(optx_spill_policy p) {
  return (unsigned)p < N_POLICIES ? policy_names[p] : "?";
}

/* Does policy p try the SASS rewrite (every policy but off and pragma)? */
static int tries_sass(optx_spill_policy p) {
  return p != OPTX_SPILL_OFF && p != OPTX_SPILL_PRAGMA;
}

/* Whether entry e's region goes to dynamic shared memory: policy dynamic
 * and a register-capped clone, which only the runtime launches, with the
 * region's bytes (its record's dsm).  The original runs as the program
 * launches it and a split entry has no dsm of its own: under policy
 * dynamic they are placed as under partial. */
static int dynamic_entry(const optx_cmd *c, const optx_entry *e) {
  return c->spill == OPTX_SPILL_DYNAMIC && e->is_clone && strcmp(e->tag, ORION_SPLIT_SUFFIX) != 0;
}

/* The first-run cubin, read and analysed once for every entry. */
typedef struct sass_trial {
  const char *path;
  int tried;
  orion_cubin *cubin;
  orion_sassrw *an;
  char err[300];
} sass_trial;

static void trial_free(sass_trial *t) {
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
static char *occupancy_loss(int sm, const ptxas_figures *before, const ptxas_figures *after, int block,
                            const char *what) {
  int w0 = optx_warps_at(sm, before, block), w1 = optx_warps_at(sm, after, block);
  if (w0 > 0 && w1 >= 0 && w1 < w0)
    return drv_xasprintf("occupancy loss (%d -> %d warps/SM at %d threads; %s)", w0, w1, block, what);
  return NULL;
}

/* The single decision point for the SASS path: 1 when sass/ rewrites the
 * version (policy sass, sm_90, not -rdc, no dynamic shared memory unless
 * the region is dynamic, and the rewrite succeeds on a copy of the trial's
 * cubin); else 0 with *why, and
 * *need_reg 1 when partial placement was refused only for want of a base
 * register. */
static int sass_available(const optx_cmd *c, const ptx_module *m, const ptx_entry *pe,
                          optx_entry *e, int block, sass_trial *t, char **why, int *need_reg) {
  *need_reg = 0;
  int sm = 0;
  if (!tries_sass(c->spill)) {
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
  int dyn = dynamic_entry(c, e);
  int partial = c->spill == OPTX_SPILL_PARTIAL || (c->spill == OPTX_SPILL_DYNAMIC && !dyn);
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
    if ((*why = occupancy_loss(sm, &e->fig, &after, thr, msg)))
      return 0;
  }
  *why = drv_xstrdup(msg);
  return 1;
}

static void set_path(optx_entry *e, const char *path, char *reason) {
  e->spill_path = path;
  free(e->spill_reason);
  e->spill_reason = reason;
}

/* ptxas --version's "release X.Y"; 0 if unknown. */
static int ptxas_major(const optx_cmd *c, const char *real, int *minor) {
  strvec v;
  sv_init(&v);
  sv_push(&v, real);
  sv_push(&v, "--version");
  drv_proc_result r;
  int st = optx_run_ptxas(c, &v, &r);
  sv_free(&v);
  int major = 0;
  *minor = 0;
  if (st == 0 && r.out.p) {
    const char *s = strstr(r.out.p, "release ");
    if (s && sscanf(s + 8, "%d.%d", &major, minor) < 1)
      major = 0;
  }
  drv_proc_result_free(&r);
  return major;
}

/* First error line of ptxas's stderr, without its "ptxas fatal   : " tag. */
static char *first_error(const drv_proc_result *r) {
  const char *p = r->err.p ? r->err.p : "";
  const char *end = p + r->err.len;
  const char *pick = NULL, *pick_end = NULL;
  for (const char *line = p; line < end && !pick;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol)
      eol = end;
    if ((size_t)(eol - line) > 11 && (memcmp(line, "ptxas error", 11) == 0 ||
                                      memcmp(line, "ptxas fatal", 11) == 0))
      pick = line, pick_end = eol;
    line = eol < end ? eol + 1 : end;
  }
  if (!pick)
    return drv_xasprintf("exit status %d", r->status);
  const char *colon = memchr(pick, ':', (size_t)(pick_end - pick));
  if (colon) {
    pick = colon + 1;
    while (pick < pick_end && *pick == ' ')
      pick++;
  }
  return drv_xstrndup(pick, (size_t)(pick_end - pick));
}

/* Assemble the module with the edits of the entries in idx[0..n) and
 * `--entry` for each; figures into *info, and with keep != NULL the cubin's
 * path into *keep (the caller unlinks and frees it) when ptxas succeeded.
 * Returns ptxas's status (< 0: could not run); *msg: its first error when
 * it fails. */
static int probe(const optx_cmd *c, const char *real, const ptx_module *m, const ptx_edit *all,
                 const int *idx, size_t n, ptxas_info *info, char **msg, char **keep) {
  ptx_edit *ed = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *ed);
  memset(ed, 0, (m->n_entries ? m->n_entries : 1) * sizeof *ed);
  strvec extra;
  sv_init(&extra);
  for (size_t k = 0; k < n; k++) {
    ed[idx[k]] = all[idx[k]];
    ed[idx[k]].drop = 0;
    sv_push(&extra, "--entry");
    sv_push(&extra, m->entries[idx[k]].name);
  }
  orion_strbuf text;
  orion_sb_init(&text);
  ptx_emit_edited(m, ed, &text);
  free(ed);
  memset(info, 0, sizeof *info);
  *msg = NULL;
  char *ptx = optx_write_temp_ptx(&text);
  orion_sb_free(&text);
  if (!ptx) {
    sv_free(&extra);
    *msg = drv_xasprintf("cannot write a temporary file: %s", strerror(errno));
    return -1;
  }
  char *out = orion_temp_beside(c->output, ".cubin");
  if (!out) {
    sv_free(&extra);
    unlink(ptx);
    free(ptx);
    *msg = drv_xasprintf("cannot write a temporary file: %s", strerror(errno));
    return -1;
  }
  strvec argv;
  optx_build_argv(&argv, real, c, &extra, ptx, out, 1);
  drv_proc_result r;
  int st = optx_run_ptxas(c, &argv, &r);
  sv_free(&argv);
  sv_free(&extra);
  if (keep && st == 0) {
    *keep = out;
  } else {
    unlink(out);
    free(out);
  }
  unlink(ptx);
  free(ptx);
  if (st == 0)
    ptxas_info_parse(r.err.p, r.err.len, info);
  else if (st < 0)
    *msg = drv_xasprintf("cannot run ptxas: %s", strerror(r.spawn_errno));
  else
    *msg = first_error(&r);
  drv_proc_result_free(&r);
  return st;
}

/* Partial placement of entry i refused only for want of a base register
 * (ptxas named every register its cap leaves the program): the entry is
 * assembled alone once more one register lower (.maxnreg cap - 1; caps
 * are multiples of 8, registers are allocated 8 at a time, so the
 * occupancy is the same) and the rewrite tried on that build.  1 when it
 * applies: the edit stays (the module's final assembly takes it), fig
 * holds the lower build's figures, before the first run's; else 0, the
 * edit undone and *why extended. */
static int lower_for_base(const optx_cmd *c, const char *real, const ptx_module *m, const ptx_entry *pe,
                          optx_entry *e, int block, ptx_edit *edits, int i, char **why) {
  if ((c->spill != OPTX_SPILL_PARTIAL && c->spill != OPTX_SPILL_DYNAMIC) || pe->maxnreg <= 8 || pe->maxnreg % 8)
    return 0;
  edits[i].maxnreg = pe->maxnreg - 1;
  ptxas_info info;
  char *msg = NULL, *cubin = NULL, *why2 = NULL;
  const ptxas_figures *f = NULL;
  int ok = 0, need = 0;
  if (probe(c, real, m, edits, &i, 1, &info, &msg, &cubin) == 0) {
    ptxas_figures at_cap = e->fig;
    if ((f = ptxas_info_find(&info, e->name)) != NULL && f->has_used) {
      e->fig = *f;
      e->fig.name = e->name;
      sass_trial t = {cubin, 0, NULL, NULL, ""};
      ok = sass_available(c, m, pe, e, block, &t, &why2, &need);
      trial_free(&t);
      if (ok) {
        e->before = at_cap;
        e->has_before = 1;
      } else {
        e->fig = at_cap;
      }
    }
    ptxas_info_free(&info);
    unlink(cubin);
    free(cubin);
  }
  char *w = ok ? drv_xasprintf("assembled at .maxnreg %d for the on-chip part's base register; %s",
                               pe->maxnreg - 1, why2)
               : drv_xasprintf("%s; at .maxnreg %d: %s", *why, pe->maxnreg - 1,
                               why2 ? why2 : msg ? msg : "ptxas reported no figures");
  free(*why);
  *why = w;
  free(why2);
  free(msg);
  if (!ok)
    edits[i].maxnreg = 0;
  return ok;
}

/* Step 5 for one candidate whose pragma build gave *after. */
static void judge(const optx_cmd *c, optx_entry *e, const ptxas_figures *after, int sm) {
  const ptxas_figures *b = &e->fig;
  long lb = b->spill_stores + b->spill_loads, la = after->spill_stores + after->spill_loads;
  char figs[256];
  snprintf(figs, sizeof figs,
           "spill st/ld %ld/%ld -> %ld/%ld B, stack frame %ld -> %ld B, smem %ld -> %ld B, "
           "%d -> %d registers",
           b->spill_stores, b->spill_loads, after->spill_stores, after->spill_loads,
           b->stack_frame, after->stack_frame, b->smem, after->smem, b->registers,
           after->registers);
  if (c->spill == OPTX_SPILL_SMEM) {
    int gain = (la < lb && after->stack_frame <= b->stack_frame) ||
               (la <= lb && after->stack_frame < b->stack_frame);
    if (!gain) {
      set_path(e, "kept", drv_xasprintf("no gain (%s)", figs));
      return;
    }
    char *loss = occupancy_loss(sm, b, after, e->spill_block, figs);
    if (loss) {
      set_path(e, "kept", loss);
      return;
    }
  }
  set_path(e, "smem-pragma",
           drv_xasprintf("%s%s", c->spill == OPTX_SPILL_PRAGMA ? "--orion-spill=pragma; " : "",
                         figs));
  e->before = *b;
  e->has_before = 1;
  e->fig = *after;
  e->fig.name = e->name;
}

/* Steps 1-4: decide each entry's path short of the pragma build (kept with
   a reason, or the SASS rewrite), and list in cand[] the entries the pragma
   build must judge (their edits set).  Returns how many were listed. */
static size_t spill_candidates(const optx_cmd *c, const char *real, const ptx_module *m,
                               sass_trial *trial, optx_result *res, ptx_edit *edits, int *cand) {
  size_t nc = 0;
  int major = -1, minor = 0;
  for (size_t i = 0; i < res->n && i < m->n_entries; i++) {
    optx_entry *e = &res->e[i];
    const ptx_entry *pe = &m->entries[i];
    if (!e->realised || edits[i].drop)
      continue;
    if (c->spill == OPTX_SPILL_OFF) {
      set_path(e, "kept", drv_xstrdup("--orion-spill=off"));
      continue;
    }
    if (!e->fig.spill_stores && !e->fig.spill_loads && !e->fig.stack_frame) {
      set_path(e, "kept", drv_xstrdup("no spills"));
      continue;
    }
    int own_bounds = ptx_entry_threads(pe) > 0;
    int capped_clone = e->is_clone && strcmp(e->tag, ORION_SPLIT_SUFFIX) != 0;
    if (!own_bounds && !capped_clone) {
      set_path(e, "kept",
               drv_xstrdup(e->is_clone ? "split entry without launch bounds"
                                       : "original without launch bounds"));
      continue;
    }
    if (tries_sass(c->spill)) {
      char *why = NULL;
      int block = own_bounds ? 0 : optx_record_block(m, e->kernel), need_reg = 0;
      if (sass_available(c, m, pe, e, block, trial, &why, &need_reg) ||
          (need_reg && lower_for_base(c, real, m, pe, e, block, edits, (int)i, &why))) {
        set_path(e, "sass", drv_xasprintf("%s%s", c->spill == OPTX_SPILL_SASS      ? "--orion-spill=sass; "
                                                  : c->spill == OPTX_SPILL_PARTIAL ? "--orion-spill=partial; "
                                                  : c->spill == OPTX_SPILL_DYNAMIC ? "--orion-spill=dynamic; "
                                                                                   : "",
                                          why));
        free(why);
        e->sass_block = block;
        e->spill_block = own_bounds ? ptx_entry_threads(pe) : block;
        e->spill_maxntid = !own_bounds && !dynamic_entry(c, e); /* dynamic: no block limit */
        continue;
      }
      free(e->sass_note);
      e->sass_note = why;
    }
    if (c->spill == OPTX_SPILL_AUTO) {
      set_path(e, "kept",
               drv_xstrdup("local memory (--orion-spill=smem tries ptxas's shared-memory spilling: "
                           "one more ptxas run of the spilling versions and one of the module)"));
      continue;
    }
    if (c->rdc) {
      set_path(e, "kept", drv_xstrdup("-rdc (relocatable code: ptxas refuses the pragma)"));
      continue;
    }
    if (major < 0)
      major = ptxas_major(c, real, &minor);
    if (major > 0 && major < 13) {
      set_path(e, "kept", drv_xasprintf("ptxas < 13 (release %d.%d)", major, minor));
      continue;
    }
    ptx_reach r;
    ptx_entry_reach(m, pe, &r);
    if (r.dyn_smem) {
      set_path(e, "kept", drv_xasprintf("dynamic shared memory (%s)", r.dyn_what));
      continue;
    }
    if (r.abi_call) {
      set_path(e, "kept", drv_xasprintf("ABI call (%s)", r.abi_what));
      continue;
    }
    if (r.smem_size) { /* the pragma's shared spill area would change what it reads */
      set_path(e, "kept", drv_xasprintf("reads %s", r.size_what));
      continue;
    }
    e->spill_block = own_bounds ? ptx_entry_threads(pe) : optx_record_block(m, e->kernel);
    e->spill_maxntid = !own_bounds;
    edits[i].smem_pragma = 1;
    edits[i].maxntid = own_bounds ? 0 : e->spill_block;
    cand[nc++] = (int)i;
  }
  return nc;
}

/* Step 5: one pragma build of every candidate (one per candidate where the
   joint build is refused, so each refusal is charged to its version), each
   judged; the edits of the candidates not taken are undone.  Returns how
   many were taken. */
static int spill_judge(const optx_cmd *c, const char *real, const ptx_module *m,
                       optx_result *res, ptx_edit *edits, const int *cand, size_t nc) {
  int sm = 0;
  if (c->gpu)
    orion_arch_from_name(c->gpu, &sm);
  int taken = 0;
  ptxas_info info;
  char *msg = NULL;
  int st = nc ? probe(c, real, m, edits, cand, nc, &info, &msg, NULL) : 0;
  for (size_t k = 0; k < nc && !drv_pending_signal(); k++) {
    optx_entry *e = &res->e[cand[k]];
    char *one_msg = NULL;
    ptxas_info one;
    const ptxas_info *src = &info;
    int ok = st == 0;
    if (st != 0 && nc > 1) { /* charge the refusal to the right version */
      ok = probe(c, real, m, edits, &cand[k], 1, &one, &one_msg, NULL) == 0;
      src = &one;
    }
    const ptxas_figures *f = ok ? ptxas_info_find(src, e->name) : NULL;
    if (!ok)
      set_path(e, "kept",
               drv_xasprintf("ptxas refused: %s", one_msg ? one_msg : msg ? msg : "?"));
    else if (!f || !f->has_used)
      set_path(e, "kept", drv_xstrdup("ptxas reported no figures for the pragma build"));
    else
      judge(c, e, f, sm);
    if (src == &one && ok)
      ptxas_info_free(&one);
    free(one_msg);
    if (e->has_before) {
      taken++;
    } else {
      edits[cand[k]].smem_pragma = 0;
      edits[cand[k]].maxntid = 0;
    }
  }
  for (size_t k = 0; k < nc; k++) /* interrupted: nothing half-decided */
    if (!res->e[cand[k]].spill_path) {
      edits[cand[k]].smem_pragma = edits[cand[k]].maxntid = 0;
      set_path(&res->e[cand[k]], "kept", drv_xstrdup("interrupted"));
    }
  if (nc && st == 0)
    ptxas_info_free(&info);
  free(msg);
  return taken;
}

int optx_spill_fallback(const optx_cmd *c, const char *real, const ptx_module *m,
                        const char *cubin, optx_result *res, ptx_edit *edits) {
  sass_trial trial = {cubin, 0, NULL, NULL, ""};
  int *cand = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *cand);
  size_t nc = spill_candidates(c, real, m, &trial, res, edits, cand);
  int taken = spill_judge(c, real, m, res, edits, cand, nc);
  for (size_t i = 0; i < m->n_entries; i++) /* lower_for_base's edits need the final assembly too */
    taken += edits[i].maxnreg > 0;
  free(cand);
  trial_free(&trial);
  /* the recorded refusal: "sass: <reason>; pragma: ..." */
  for (size_t i = 0;
       (c->spill == OPTX_SPILL_SASS || c->spill == OPTX_SPILL_PARTIAL || c->spill == OPTX_SPILL_DYNAMIC) && i < res->n;
       i++) {
    optx_entry *e = &res->e[i];
    if (e->sass_note && e->spill_path && strcmp(e->spill_path, "sass") != 0) {
      char *r = drv_xasprintf("sass: %s; pragma: %s", e->sass_note, e->spill_reason ? e->spill_reason : "");
      free(e->spill_reason);
      e->spill_reason = r;
    }
  }
  return taken;
}

int optx_spill_apply_sass(const optx_cmd *c, const ptx_module *m, const char *cubin,
                          optx_result *res) {
  (void)m;
  size_t n = 0;
  for (size_t i = 0; i < res->n; i++)
    n += res->e[i].spill_path && !strcmp(res->e[i].spill_path, "sass");
  if (!n || !tries_sass(c->spill))
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
    int ok = sass_rewrite_one(cb, an, e->name, e->sass_block, dynamic_entry(c, e), e->sass_limit, e->maxnreg,
                              c->colour, msg, sizeof msg, &r);
    if (ok < 0) {
      drv_error("%s: SASS rewrite of %s failed midway: %s", c->input, e->name, msg);
      bad = 1;
    } else if (!ok) { /* differs from the trial: the final cubin keeps it */
      set_path(e, "kept", drv_xasprintf("sass: %s (on the final cubin)", msg));
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

void optx_spill_revert(optx_result *res, const char *why) {
  for (size_t i = 0; i < res->n; i++) {
    optx_entry *e = &res->e[i];
    if (!e->has_before)
      continue;
    e->fig = e->before;
    e->fig.name = e->name;
    e->has_before = 0;
    set_path(e, "kept", drv_xstrdup(why));
  }
}
