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
 *      for its occupancy).  Policies auto (the default) and smem first ask
 *      the placement model (ptxas_sass.c): the frame goes on chip only
 *      where the version's local accesses are at least 1.5x its global
 *      loads; otherwise "kept" in local memory, with the model's counts.
 *      Otherwise the refusal is recorded ("sass") and:
 *      Policy auto stops here: "kept" in local memory.  The pragma path
 *      below costs one run of the candidates and one more of the whole
 *      module, 2-3x the ptxas time of a register-heavy program, for
 *      versions that rarely win (benchmarks/compile/results/spill-policy.md).
 *      Policies auto, smem and partial: where the whole frame does not fit,
 *      the rewrite keeps on chip the slots with the most estimated accesses
 *      that fit below the static shared size the version's occupancy
 *      (warps/SM of the local build at its block size) leaves; the rest
 *      stay in local memory (include/orion/sassrw.h).  Where ptxas named
 *      every register of the cap, policies partial and dynamic assemble the
 *      version alone once more one register lower for the on-chip part's
 *      base (lower_for_base), and the module's final assembly takes that
 *      cap; auto and smem keep such a version in local memory.
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

#include "orion/occupancy.h"
#include "orion/rt.h"
#include "ptxas_spill.h"
#include "ptxas_sass.h"
#include "ptxas_versions.h"

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

void optx_spill_set_path(optx_entry *e, const char *path, char *reason) {
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
  /* auto and smem: no second assembly of the module (its ptxas time again;
   * segsort's build 1.68x -> 2.33x clang's, benchmarks/sass/results/model-h200/) */
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
      optx_sass_trial t = {cubin, 0, NULL, NULL, ""};
      ok = optx_sass_available(c, m, pe, e, block, &t, &why2, &need) > 0;
      optx_sass_trial_free(&t);
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
      optx_spill_set_path(e, "kept", drv_xasprintf("no gain (%s)", figs));
      return;
    }
    char *loss = optx_occupancy_loss(sm, b, after, e->spill_block, figs);
    if (loss) {
      optx_spill_set_path(e, "kept", loss);
      return;
    }
  }
  optx_spill_set_path(e, "smem-pragma",
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
                               optx_sass_trial *trial, optx_result *res, ptx_edit *edits, int *cand) {
  size_t nc = 0;
  int major = -1, minor = 0;
  for (size_t i = 0; i < res->n && i < m->n_entries; i++) {
    optx_entry *e = &res->e[i];
    const ptx_entry *pe = &m->entries[i];
    if (!e->realised || edits[i].drop)
      continue;
    if (c->spill == OPTX_SPILL_OFF) {
      optx_spill_set_path(e, "kept", drv_xstrdup("--orion-spill=off"));
      continue;
    }
    if (!e->fig.spill_stores && !e->fig.spill_loads && !e->fig.stack_frame) {
      optx_spill_set_path(e, "kept", drv_xstrdup("no spills"));
      continue;
    }
    int own_bounds = ptx_entry_threads(pe) > 0;
    int capped_clone = e->is_clone && strcmp(e->tag, ORION_SPLIT_SUFFIX) != 0;
    if (!own_bounds && !capped_clone) {
      optx_spill_set_path(e, "kept",
               drv_xstrdup(e->is_clone ? "split entry without launch bounds"
                                       : "original without launch bounds"));
      continue;
    }
    if (optx_tries_sass(c->spill)) {
      char *why = NULL;
      int block = own_bounds ? 0 : optx_record_block(m, e->kernel), need_reg = 0;
      int av = optx_sass_available(c, m, pe, e, block, trial, &why, &need_reg);
      if (av < 0) { /* the placement model: local memory, under smem too */
        optx_spill_set_path(e, "kept", why);
        continue;
      }
      if (av > 0 || (need_reg && lower_for_base(c, real, m, pe, e, block, edits, (int)i, &why))) {
        optx_spill_set_path(e, "sass", drv_xasprintf("%s%s", c->spill == OPTX_SPILL_SASS      ? "--orion-spill=sass; "
                                                  : c->spill == OPTX_SPILL_PARTIAL ? "--orion-spill=partial; "
                                                  : c->spill == OPTX_SPILL_DYNAMIC ? "--orion-spill=dynamic; "
                                                                                   : "",
                                          why));
        free(why);
        e->sass_block = block;
        e->spill_block = own_bounds ? ptx_entry_threads(pe) : block;
        e->spill_maxntid = !own_bounds && !optx_sass_dynamic_entry(c, e); /* dynamic: no block limit */
        continue;
      }
      free(e->sass_note);
      e->sass_note = why;
    }
    if (c->spill == OPTX_SPILL_AUTO) {
      optx_spill_set_path(e, "kept",
               drv_xstrdup("local memory (--orion-spill=smem tries ptxas's shared-memory spilling: "
                           "one more ptxas run of the spilling versions and one of the module)"));
      continue;
    }
    if (c->rdc) {
      optx_spill_set_path(e, "kept", drv_xstrdup("-rdc (relocatable code: ptxas refuses the pragma)"));
      continue;
    }
    if (major < 0)
      major = ptxas_major(c, real, &minor);
    if (major > 0 && major < 13) {
      optx_spill_set_path(e, "kept", drv_xasprintf("ptxas < 13 (release %d.%d)", major, minor));
      continue;
    }
    ptx_reach r;
    ptx_entry_reach(m, pe, &r);
    if (r.dyn_smem) {
      optx_spill_set_path(e, "kept", drv_xasprintf("dynamic shared memory (%s)", r.dyn_what));
      continue;
    }
    if (r.abi_call) {
      optx_spill_set_path(e, "kept", drv_xasprintf("ABI call (%s)", r.abi_what));
      continue;
    }
    if (r.smem_size) { /* the pragma's shared spill area would change what it reads */
      optx_spill_set_path(e, "kept", drv_xasprintf("reads %s", r.size_what));
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
      optx_spill_set_path(e, "kept",
               drv_xasprintf("ptxas refused: %s", one_msg ? one_msg : msg ? msg : "?"));
    else if (!f || !f->has_used)
      optx_spill_set_path(e, "kept", drv_xstrdup("ptxas reported no figures for the pragma build"));
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
      optx_spill_set_path(&res->e[cand[k]], "kept", drv_xstrdup("interrupted"));
    }
  if (nc && st == 0)
    ptxas_info_free(&info);
  free(msg);
  return taken;
}

int optx_spill_fallback(const optx_cmd *c, const char *real, const ptx_module *m,
                        const char *cubin, optx_result *res, ptx_edit *edits) {
  optx_sass_trial trial = {cubin, 0, NULL, NULL, ""};
  int *cand = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *cand);
  size_t nc = spill_candidates(c, real, m, &trial, res, edits, cand);
  int taken = spill_judge(c, real, m, res, edits, cand, nc);
  for (size_t i = 0; i < m->n_entries; i++) /* lower_for_base's edits need the final assembly too */
    taken += edits[i].maxnreg > 0;
  free(cand);
  optx_sass_trial_free(&trial);
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

void optx_spill_revert(optx_result *res, const char *why) {
  for (size_t i = 0; i < res->n; i++) {
    optx_entry *e = &res->e[i];
    if (!e->has_before)
      continue;
    e->fig = e->before;
    e->fig.name = e->name;
    e->has_before = 0;
    optx_spill_set_path(e, "kept", drv_xstrdup(why));
  }
}
