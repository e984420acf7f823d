/* advise/advice.c - which decisions are advised, and the attribute that
 * reproduces them (advise.h, step 3).
 *
 * judge() applies the evidence rule to one configuration; kernel_advice()
 * combines a kernel's configurations: one agreed choice and no confirmed
 * original, else no attribute (an attribute changes every configuration
 * of the kernel).  reg_attr() turns R registers at T threads into
 * __launch_bounds__(T, B), B = the blocks per SM R registers allow on the
 * architecture, and checks with the inverse occupancy query that the
 * largest register count giving B blocks is R itself (then ptxas, which
 * derives its limit from T and B the same way, caps at R); otherwise the
 * exact spelling is __maxnreg__(R).
 */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "orion/occupancy.h"
#include "orion/select.h"

static int is_source(const adv_config *c, const char *s) {
  return c->source && !strcmp(c->source, s);
}

static char *gain(const adv_config *c) {
  if (c->speedup <= 0)
    return drv_xstrdup("no measured speedup");
  if (c->pairs >= 2)
    return drv_xasprintf("%.3f \u00b1%.3f n=%d", c->speedup, c->ci95, c->pairs);
  if (c->pairs == 1)
    return drv_xasprintf("%.3f n=1", c->speedup);
  return drv_xasprintf("%.3f", c->speedup);
}

static int confirmed(const adv_config *c) {
  if (is_source(c, "cached"))
    return 1; /* the cache's decisions are confirmed choices */
  return c->confirmed >= 0 ? c->confirmed : c->rechecks >= ADV_CONFIRM_RECHECKS;
}

/* The evidence rule for one configuration. */
static adv_decision judge(const adv_config *c) {
  adv_decision d = {c, ADV_NONE, NULL};
  char *g = gain(c);
  int orig = !strcmp(c->chosen, c->original);
  if (orig && (is_source(c, "tuned") || is_source(c, "cached"))) {
    d.verdict = ADV_KEEP;
    d.why = drv_xasprintf("the original stays (%s)", c->source);
  } else if (orig)
    d.why = drv_xasprintf("the original (%s): nothing to change", c->source);
  else if (is_source(c, "reverted"))
    d.why = drv_xasprintf("%s was reverted by a re-check (%s)", c->chosen, g);
  else if (is_source(c, "tuning"))
    d.why = drv_xasprintf("%s: tuning had not settled at exit", c->chosen);
  else if (is_source(c, "exhaustive"))
    d.why = drv_xasprintf("%s is ORION_MODE=exhaustive's fastest median, not paired evidence",
                          c->chosen);
  else if (!is_source(c, "tuned") && !is_source(c, "cached") && !is_source(c, "tentative"))
    d.why = drv_xasprintf("%s is not a tuned decision (source %s)", c->chosen, c->source);
  else if (!confirmed(c))
    d.why = drv_xasprintf("%s (%s) is not confirmed: %d of %d re-check pairs", c->chosen, g,
                          c->rechecks, ADV_CONFIRM_RECHECKS);
  else if (c->speedup > 0 && (c->speedup <= 1.0 || (c->pairs >= 2 && c->speedup - c->ci95 <= 1.0)))
    d.why = drv_xasprintf("%s is noisy: %s does not exclude no gain", c->chosen, g);
  else {
    d.verdict = ADV_CHANGE;
    d.why = is_source(c, "cached")
                ? drv_xasprintf("%s, %s, confirmed by an earlier run (decision cache)", c->chosen, g)
                : drv_xasprintf("%s, %s, confirmed by %d re-checks", c->chosen, g, c->rechecks);
  }
  free(g);
  return d;
}

static unsigned threads(const adv_config *c) {
  return c->bx * c->by * c->bz;
}

/* The chosen version's registers: the run's, else ptxas's in the build
 * report, else the cap its tag names when no build report says more.
 * -2: the build report has no such version, or ptxas's build dropped it
 * (the decision belongs to another build). */
static int chosen_regs(const adv_config *c, const adv_build *b) {
  if (c->chosen_regs > 0)
    return c->chosen_regs;
  const adv_version *v = adv_build_version(b, c->chosen);
  if (v && v->status && !strcmp(v->status, "dropped"))
    return -2;
  if (v && v->registers > 0)
    return v->registers;
  if (b && b->nv)
    return -2;
  return c->chosen[0] == 'r' ? atoi(c->chosen + 1) : -1;
}

/* __launch_bounds__(T, B) for R registers, or NULL when the architecture
 * does not allow it; *exact: ptxas's limit for (T, B) is R. */
static char *reg_attr(int sm, unsigned t, int regs, int *exact, int *blocks) {
  orion_occ_input in = {regs, (int)t, 0, 0};
  orion_occ_result o;
  *exact = 0;
  if (!sm || orion_occupancy(sm, &in, &o) != ORION_OK || o.blocks_per_sm < 1)
    return NULL;
  int b = o.blocks_by_regs;
  if (o.blocks_by_warps < b)
    b = o.blocks_by_warps;
  if (o.blocks_by_blocks < b)
    b = o.blocks_by_blocks;
  int rmax = 0, wpb = ((int)t + 31) / 32;
  if (orion_occ_max_regs_for_warps(sm, (int)t, 0, b * wpb, &rmax) == ORION_OK)
    *exact = rmax == regs;
  *blocks = b;
  return drv_xasprintf("__launch_bounds__(%u, %d)", t, b);
}

/* The attribute for a register choice shared by every advised config. */
static void reg_advice(adv_advice *a, const adv_kernel *k, const adv_decision *d, int sm,
                       unsigned t, const adv_options *o, const adv_reports *r) {
  const adv_config *c = d->c;
  int regs = chosen_regs(c, a->build), exact = 0, blocks = 0;
  int target = r->usage_path ? adv_target_registers(r, k, sm) : -1;
  if (regs == -2) {
    a->text = drv_xasprintf("nothing advised: %s, but the build report has no %s (not built, or "
                            "dropped by ptxas): the decision is of another build",
                            d->why, c->chosen);
    return;
  }
  if (regs <= 0) {
    a->text = drv_xasprintf("%s: the registers of %s are unknown (give the build report)",
                            d->why, c->chosen);
    return;
  }
  if (target > 0 && target <= regs) {
    a->text = drv_xasprintf("nothing advised: Orion chose %s; %d registers, and the target build "
                            "(%s) already uses %d: a cap of %d would only let it take more",
                            d->why, regs, r->usage_path, target, regs);
    return;
  }
  char *mx = drv_xasprintf("__maxnreg__(%d)", regs);
  char *lb = t ? reg_attr(sm, t, regs, &exact, &blocks) : NULL;
  orion_strbuf s;
  orion_sb_init(&s);
  orion_sb_addf(&s, "Orion chose %s; %d registers", d->why, regs);
  const adv_version *orig = adv_build_version(a->build, "orig");
  if (c->orig_regs > 0)
    orion_sb_addf(&s, " (original: %d registers, %d warps/SM)", c->orig_regs, c->orig_warps);
  else if (orig && orig->registers > 0)
    orion_sb_addf(&s, " (original: %d registers in the build report)", orig->registers);
  if (target > 0)
    orion_sb_addf(&s, " (the target build: %d registers)", target);
  int use_lb = lb && exact && !o->maxnreg;
  a->attr = use_lb ? lb : mx;
  a->alt = use_lb ? mx : lb;
  orion_sb_addf(&s, ": write %s", a->attr);
  if (!use_lb)
    orion_sb_adds(&s, " (nvcc 12.4 or later; clang ignores __maxnreg__)");
  if (lb)
    orion_sb_addf(&s, "%s%s (%d blocks/SM of %u threads, %s; launches over %u threads would fail)",
            use_lb ? "" : ", or ", use_lb ? "" : lb, blocks, t,
            exact ? "ptxas's limit is exactly these registers" : "ptxas's limit is higher", t);
  else
    orion_sb_adds(&s, t ? " (no __launch_bounds__: the architecture is unknown: give --sm or the build "
                    "report)"
                  : " (no __launch_bounds__: the configurations use several block sizes)");
  if (use_lb)
    orion_sb_addf(&s, ", or %s (nvcc 12.4 or later; clang ignores __maxnreg__)", mx);
  if (k->is_template)
    orion_sb_adds(&s, "; it applies to every instantiation");
  a->text = orion_sb_detach(&s);
  a->fixable = !k->has_limit && !k->loc.in_macro && k->loc.file;
}

/* The padding of choice c when the report does not give it (a decision
 * cache keeps only the tag): the least dynamic shared memory that leaves
 * the tag's warps per SM, by the occupancy calculator at the original's
 * registers and static shared memory in the build report.  0: unknown. */
static unsigned long long pad_from_model(const adv_config *c, const adv_build *b, int sm) {
  const adv_version *o = adv_build_version(b, "orig");
  int warps = atoi(c->chosen + 1);
  if (!o || o->registers <= 0 || !sm || warps <= 0)
    return 0;
  orion_occ_input in = {o->registers, (int)threads(c), o->smem > 0 ? (unsigned)o->smem : 0,
                        (unsigned)c->shmem};
  unsigned dyn = 0;
  if (orion_occ_dyn_smem_for_warps(sm, &in, warps, &dyn) != ORION_OK || dyn <= c->shmem)
    return 0;
  return dyn;
}

static void pad_advice(adv_advice *a, const adv_kernel *k, const adv_decision *d, int sm) {
  const adv_config *c = d->c;
  unsigned long long pad = c->chosen_pad;
  int warps = c->chosen_warps > 0 ? c->chosen_warps : atoi(c->chosen + 1);
  const char *how = "";
  if (!pad) {
    pad = pad_from_model(c, a->build, sm);
    how = " (the occupancy calculator's, at the build report's registers)";
  }
  a->pad = 1;
  if (!pad) {
    a->text = drv_xasprintf("Orion chose %s: lower occupancy (%d warps/SM) through dynamic shared "
                            "memory; the bytes are unknown (give the build report, or a run "
                            "report that names them)",
                            d->why, warps);
    return;
  }
  a->text = drv_xasprintf(
      "Orion chose %s: lower occupancy (%d warps/SM) through %llu bytes of dynamic shared memory%s "
      "(the launch gives %llu): launch with %llu bytes (<<<grid, block, %llu>>>) after "
      "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %llu)",
      d->why, warps, pad, how, c->shmem, pad, pad, k->name, pad);
}

/* One kernel: combine its decisions into at most one change. */
static void kernel_advice(adv_advice *a, const adv_kernel *k, const adv_options *o,
                          const adv_reports *r) {
  const adv_decision *change = NULL, *keep = NULL;
  unsigned t = 0;
  int several = 0;
  for (size_t i = 0; i < a->nd; i++) {
    const adv_decision *d = &a->d[i];
    if (t && threads(d->c) != t)
      several = 1;
    t = threads(d->c);
    if (d->verdict == ADV_KEEP && !keep)
      keep = d;
    if (d->verdict != ADV_CHANGE)
      continue;
    if (change && strcmp(change->c->chosen, d->c->chosen)) {
      a->text = drv_xasprintf("no attribute: configurations disagree (%s at %u threads, %s at %u)",
                              change->c->chosen, threads(change->c), d->c->chosen, threads(d->c));
      return;
    }
    change = change ? change : d;
  }
  if (!change) {
    a->text = drv_xstrdup(a->nd ? "nothing advised: no confirmed choice other than the original"
                                : "nothing advised: no run report names this kernel (the build "
                                  "report is a prediction)");
    return;
  }
  if (keep) {
    a->text = drv_xasprintf("no attribute: the original stays best at %u threads, and an "
                            "attribute would change that configuration too",
                            threads(keep->c));
    return;
  }
  int sm = o->sm ? o->sm : a->build ? a->build->sm : 0;
  int factor = orion_unroll_factor(change->c->chosen);
  if (factor)
    a->text = drv_xasprintf("Orion chose %s: an unroll version, the kernel's small innermost "
                            "loops unrolled %dx, not a register cap: no attribute; "
                            "`#pragma unroll %d` before those loops gives its code",
                            change->why, factor, factor);
  else if (change->c->chosen[0] == 'p')
    pad_advice(a, k, change, sm);
  else
    reg_advice(a, k, change, sm, several ? 0 : t, o, r);
}

static adv_advice *advice_for(adv_advice **out, size_t *n, size_t kernel) {
  for (size_t i = 0; i < *n; i++)
    if ((*out)[i].kernel == kernel)
      return &(*out)[i];
  *out = drv_xrealloc(*out, (*n + 1) * sizeof **out);
  adv_advice *a = &(*out)[(*n)++];
  memset(a, 0, sizeof *a);
  a->kernel = kernel;
  return a;
}

static int by_kernel(const void *a, const void *b) {
  size_t x = ((const adv_advice *)a)->kernel, y = ((const adv_advice *)b)->kernel;
  return x < y ? -1 : x > y;
}

size_t adv_decide(const adv_program *p, const adv_reports *r, const adv_options *o,
                  adv_advice **out) {
  size_t n = 0;
  *out = NULL;
  for (size_t i = 0; i < r->nb; i++) {
    long k = adv_find_kernel(p, r->b[i].kernel);
    if (k < 0)
      continue;
    adv_advice *a = advice_for(out, &n, (size_t)k);
    if (!a->build || (o->sm && r->b[i].sm == o->sm))
      a->build = &r->b[i];
  }
  for (size_t i = 0; i < r->nc; i++) {
    long k = adv_find_kernel(p, r->c[i].kernel);
    if (k < 0)
      continue;
    adv_advice *a = advice_for(out, &n, (size_t)k);
    a->d = drv_xrealloc(a->d, (a->nd + 1) * sizeof *a->d);
    a->d[a->nd++] = judge(&r->c[i]);
  }
  for (size_t i = 0; i < n; i++)
    kernel_advice(&(*out)[i], &p->k[(*out)[i].kernel], o, r);
  qsort(*out, n, sizeof **out, by_kernel); /* source order */
  return n;
}

void adv_advice_free(adv_advice *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < a[i].nd; j++)
      free(a[i].d[j].why);
    free(a[i].d);
    if (a[i].alt != a[i].attr)
      free(a[i].alt);
    free(a[i].attr);
    free(a[i].text);
  }
  free(a);
}
