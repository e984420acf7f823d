/* driver/ptxas_figures.c - see ptxas_figures.h.
 *
 * ptxas -v's time grows faster than the number of entries (the 2,000-kernel
 * file's 4,000 entries: 45 s with -v, 16 s without, benchmarks/compile/
 * results/many_kernels.md), so orion-ptxas's first run goes without it and
 * takes each function's figures from the cubin instead:
 *   registers     EIATTR_REGCOUNT (.nv.info, per symbol)
 *   stack frame   EIATTR_FRAME_SIZE
 *   smem          the size of the kernel's .nv.shared.<k> section (0
 *                 without one): on sm_80/86/89 as it is, on sm_90 less
 *                 the 1 KiB of reserved shared memory ptxas 13 puts at its
 *                 start (a section smaller than that: unknown)
 *   barriers      EIATTR_NUM_BARRIERS of the kernel's .nv.info.<k>
 *   cmem          not given (has_cmem 0: the report's null, as ptxas 13
 *                 -v on sm_90; it prints the sum of the banks on sm_80)
 * Checked against -v on static, dynamic and no shared memory for each of
 * those architectures.  Spill stores and loads are not in the cubin.  A
 * function with no local memory at all (frame 0, stack size 0) cannot
 * spill, so both are 0.  The entries with local memory, or with a shared
 * section on another architecture, are compiled once more with -v, only
 * they (`--entry` each), and take all their figures from that output:
 * every figure is -v's own or one that -v gives for certain.
 */
#include "ptxas_figures.h"

#include <stdlib.h>
#include <string.h>

#include "orion/cubin.h"
#include "proc.h"

#define RESERVED_SMEM_SM90 1024u

/* The kernel's EIATTR_NUM_BARRIERS, 0 when absent. */
static long barriers(const orion_cubin *c, const orion_cubin_func *f) {
  if (!f->nvinfo)
    return 0;
  size_t n = orion_cubin_nvinfo_count(c, f->nvinfo);
  for (size_t i = 0; i < n; i++) {
    orion_eiattr_rec r;
    if (orion_cubin_nvinfo_get(c, f->nvinfo, i, &r) == ORION_OK &&
        r.attr == ORION_EIATTR_NUM_BARRIERS && !r.payload)
      return r.value;
  }
  return 0;
}

/* -v's smem of kernel f on sm from its shared section, -1 if unknown. */
static long smem_of(unsigned sm, const orion_cubin_func *f) {
  if (!f->shared)
    return 0;
  if (sm == 80 || sm == 86 || sm == 89)
    return (long)f->shared_size;
  if (sm == 90 && f->shared_size >= RESERVED_SMEM_SM90)
    return (long)(f->shared_size - RESERVED_SMEM_SM90);
  return -1;
}

static int local_memory(const orion_cubin_func *f) {
  return f->frame_size > 0 || f->max_stack_size > 0 || f->min_stack_size > 0;
}

int optx_figures_from_cubin(const char *cubin, ptxas_info *out, strvec *need) {
  memset(out, 0, sizeof *out);
  orion_cubin *c = NULL;
  if (orion_cubin_read_file(cubin, &c, NULL) != ORION_OK)
    return -1;
  size_t n = orion_cubin_func_count(c);
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  out->f = calloc(n ? n : 1, sizeof *out->f);
  if (!out->f) {
    orion_cubin_free(c);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    orion_cubin_func f;
    if (orion_cubin_get_func(c, i, &f) != ORION_OK || !f.name || f.regcount < 0)
      continue;
    ptxas_figures *g = &out->f[out->n++];
    g->name = drv_xstrdup(f.name);
    g->is_entry = f.is_kernel;
    g->has_used = f.is_kernel;
    g->has_props = 1;
    g->registers = (int)f.regcount;
    g->stack_frame = f.frame_size > 0 ? f.frame_size : 0;
    g->barriers = f.is_kernel ? barriers(c, &f) : 0;
    g->smem = f.is_kernel ? smem_of(h.sm, &f) : 0;
    if (f.is_kernel && (local_memory(&f) || g->smem < 0))
      sv_push(need, f.name);
  }
  orion_cubin_free(c);
  return 0;
}

void optx_figures_merge(ptxas_info *into, const ptxas_info *verbose, const strvec *names) {
  for (size_t i = 0; i < names->n; i++) {
    const ptxas_figures *v = ptxas_info_find(verbose, names->v[i]);
    for (size_t j = 0; v && j < into->n; j++) {
      ptxas_figures *g = &into->f[j];
      if (strcmp(g->name, names->v[i]) != 0)
        continue;
      char *name = g->name;
      *g = *v;
      g->name = name;
    }
  }
}

/* ptxas -v on input (only the entries names when names is non-NULL), its
 * figures parsed into *out.  0, or -1 when ptxas fails. */
static int run_verbose(const optx_cmd *c, const char *real, const char *input,
                       const strvec *names, ptxas_info *out) {
  strvec extra, argv;
  sv_init(&extra);
  for (size_t i = 0; names && i < names->n; i++) {
    sv_push(&extra, "--entry");
    sv_push(&extra, names->v[i]);
  }
  optx_build_argv(&argv, real, c, &extra, input, "/dev/null", 1);
  drv_proc_result r;
  int rc = optx_run_ptxas(c, &argv, &r);
  if (rc == 0)
    ptxas_info_parse(r.err.p, r.err.len, out);
  drv_proc_result_free(&r);
  sv_free(&argv);
  sv_free(&extra);
  return rc == 0 ? 0 : -1;
}

void optx_figures(const optx_cmd *c, const char *real, const char *input, const char *cubin,
                  ptxas_info *out) {
  strvec need;
  sv_init(&need);
  if (optx_figures_from_cubin(cubin, out, &need) != 0) {
    if (run_verbose(c, real, input, NULL, out) != 0)
      memset(out, 0, sizeof *out);
  } else if (need.n) {
    ptxas_info v;
    memset(&v, 0, sizeof v);
    if (run_verbose(c, real, input, &need, &v) == 0)
      optx_figures_merge(out, &v, &need);
    else /* spill bytes unknown: leave these versions out of the choice */
      for (size_t i = 0; i < out->n; i++)
        for (size_t j = 0; j < need.n; j++)
          if (!strcmp(out->f[i].name, need.v[j]))
            out->f[i].has_used = 0;
    ptxas_info_free(&v);
  }
  sv_free(&need);
}
