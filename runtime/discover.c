/* discover.c - step 1 of a launch (rt.c): on the first launch of a host
 * stub on a device, find the kernel (cudaGetFuncBySymbol), its module
 * (cuFuncGetModule), its line of the compiler's record table that the
 * launch site names (modules.c: the table read once per module, on a
 * private non-blocking stream, then a binary search) and the clones its
 * record lists (orion_clone_name, looked up in the module's sorted
 * functions: O(log n) each, the functions listed once per module).
 * No record: the kernel was not built with Orion and launches unchanged.
 * Discovery waits for the copy, so it is deferred while the launch's
 * stream captures a graph. */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"

/* ---- devices ----------------------------------------------------------- */
rt_device *orion_rt_device(int dev) {
  if (dev < 0 || dev >= MAX_DEVICES)
    return NULL;
  rt_device *d = &orion_rt.dev[dev];
  if (!d->known) {
    int sms = 0, thr = 0;
    static const CUdevice_attribute lim[7] = {
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
        CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
        CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK};
    int v[7];
    for (int i = 0; i < 7; i++)
      if (orion_rt.api.cuDeviceGetAttribute(&v[i], lim[i], dev) || v[i] <= 0)
        return NULL;
    for (int i = 0; i < 3; i++)
      d->max_grid[i] = (unsigned)v[i], d->max_block[i] = (unsigned)v[3 + i];
    d->max_threads = (unsigned)v[6];
    if (orion_rt.api.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) ||
        orion_rt.api.cuDeviceGetAttribute(&thr, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                                          dev) ||
        orion_rt.api.cuDeviceGetName(d->name, (int)sizeof d->name, dev) ||
        orion_rt.api.cuStreamCreate(&d->copy_stream, CU_STREAM_NON_BLOCKING))
      return NULL;
    for (char *p = d->name; *p; p++)
      if (*p <= ' ' || *p > '~')
        *p = '_';
    d->sms = sms;
    d->max_warps = thr / 32;
    d->known = 1;
  }
  return d;
}

/* Does f take (at least) n parameters?  Only a query that succeeds: the
 * driver has no parameter count, and a deliberately failing query would
 * show up as an API error in compute-sanitizer and tools like it.  The
 * record and the clones come from one compilation, so this guards against
 * a record that is not f's (too many parameters), not a short count.
 * Without cuFuncGetParamInfo (driver < 12.4) the record is trusted. */
static int has_params(CUfunction f, int n) {
  size_t off, size;
  return !orion_rt.api.cuFuncGetParamInfo || n == 0 ||
         orion_rt.api.cuFuncGetParamInfo(f, (size_t)n - 1, &off, &size) == CUDA_SUCCESS;
}

/* Load f now (under lazy loading, CUDA's default, its first launch would),
 * so discovery pays every load; adds the host time to *load_us under
 * ORION_DEBUG.  Loading did not make the original's first timed launch
 * faster: that is the host's submission (see timed in rt.c). */
static void load(CUfunction f, double *load_us) {
  double t0 = orion_rt.debug ? orion_rt_now_us() : 0;
  if (orion_rt.api.cuFuncLoad)
    orion_rt.api.cuFuncLoad(f);
  if (orion_rt.debug)
    *load_us += orion_rt_now_us() - t0;
}

/* The original's name, module and decision record (its line of the table
 * site names, modules.c); ts[1..4] get the host times of the steps under
 * ORION_DEBUG.  0 when the kernel launches unchanged. */
static int read_record(rt_kernel *k, CUfunction orig, const orion_site *site, rt_module **mod,
                       double *ts) {
  const char *name = NULL;
  CUmodule cm;
  if (orion_rt.api.cuFuncGetName(&name, orig) || !name || strlen(name) >= sizeof k->name - 16 ||
      orion_rt.api.cuFuncGetModule(&cm, orig) || !(*mod = orion_rt_module(cm)))
    return 0;
  strcpy(k->name, name);
  if (orion_rt.debug)
    ts[1] = orion_rt_now_us();
  const char *line = NULL;
  size_t len = 0;
  int found = orion_rt_module_record(*mod, k->dev, site ? site->records : NULL, k->name, &line, &len);
  if (found == 0)
    return 0; /* not built with Orion */
  if (orion_rt.debug)
    ts[2] = ts[3] = orion_rt_now_us();
  char text[2048];
  if (found < 0 || len >= sizeof text) {
    orion_rt_warn(W_RECORD, "kernel %s: cannot read its decision record; launching it unchanged",
                  k->name);
    return 0;
  }
  memcpy(text, line, len);
  text[len] = '\0';
  if (orion_record_parse(text, &k->rec) != ORION_OK || strcmp(k->rec.kernel, k->name)) {
    orion_rt_warn(W_RECORD, "kernel %s: malformed decision record; launching it unchanged",
                  k->name);
    return 0;
  }
  int hp = k->rec.hidden_params, np = k->rec.n_params;
  if (np < 0 || !has_params(orig, np) || np + hp > MAX_ARGS || (hp && hp != ORION_SPLIT_PARAMS)) {
    orion_rt_warn(W_PARAMS, "kernel %s: parameters do not match its record; launching it unchanged",
                  k->name);
    return 0;
  }
  if (orion_rt.debug)
    ts[4] = orion_rt_now_us();
  return 1;
}

/* Clone f named <name>__orion_<tag>: the binary of the record's version
 * `tag`, or the split clone. */
static void add_clone(rt_kernel *k, CUfunction f, const char *tag, double *load_us) {
  int hp = k->rec.hidden_params;
  if (hp && !strcmp(tag, ORION_SPLIT_SUFFIX)) {
    k->split_fn = f;
    atomic_init(&k->split_ran, 0);
    return;
  }
  for (int v = 0; v < k->rec.sel.n_versions && k->nbin < MAX_BIN; v++) {
    const orion_version *ver = &k->rec.sel.versions[v];
    if (ver->is_pad || ver->role == ORION_ROLE_ORIGINAL || strcmp(ver->tag, tag))
      continue;
    rt_bin *b = &k->bin[k->nbin];
    memset(b, 0, sizeof *b);
    atomic_init(&b->ran, 0);
    strcpy(b->tag, ver->tag);
    b->role = ver->role;
    b->fn = f;
    b->hidden = hp > 0;
    b->warp_smem = ver->warp_smem;
    load(f, load_us);
    if (orion_rt.api.cuFuncGetAttribute(&b->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) {
      orion_rt.api.cuFuncGetAttribute(&b->local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
      k->nbin++;
    }
  }
}

/* The clones the record lists (and the split clone) that the module has
 * with the record's parameters: orion-ptxas may have dropped some. */
static void find_clones(rt_kernel *k, rt_module *mod, double *load_us) {
  int np = k->rec.n_params + k->rec.hidden_params;
  char cname[ORION_RECORD_KERNEL_MAX + 32];
  for (int v = 0; v <= k->rec.sel.n_versions; v++) {
    const char *tag = v < k->rec.sel.n_versions ? k->rec.sel.versions[v].tag : ORION_SPLIT_SUFFIX;
    if (v < k->rec.sel.n_versions && (k->rec.sel.versions[v].is_pad ||
                                      k->rec.sel.versions[v].role == ORION_ROLE_ORIGINAL))
      continue;
    if (v == k->rec.sel.n_versions && !k->rec.hidden_params)
      break;
    CUfunction f = orion_clone_name(k->name, tag, cname, sizeof cname)
                       ? orion_rt_module_function(mod, cname)
                       : NULL;
    if (f && has_params(f, np))
      add_clone(k, f, tag, load_us);
  }
}

/* Step 1 of rt.c's file comment.  Called with orion_rt.mu held. */
static void discover(rt_kernel *k, const orion_site *site) {
  cudaFunction_t f;
  k->state = K_PLAIN;
  /* ORION_DEBUG: host time of each step (function, global, record copy,
   * parameters, enumeration) for the cost line. */
  double ts[6] = {0}, load_us = 0;
  if (orion_rt.debug)
    ts[0] = orion_rt_now_us();
  if (cudaGetFuncBySymbol(&f, k->stub) != cudaSuccess)
    return;
  CUfunction orig = (CUfunction)f;
  rt_module *mod;
  if (!read_record(k, orig, site, &mod, ts))
    return;
  k->bin[0].fn = orig;
  load(orig, &load_us);
  strcpy(k->bin[0].tag, "orig");
  k->bin[0].role = ORION_ROLE_ORIGINAL;
  orion_rt.api.cuFuncGetAttribute(&k->bin[0].regs, CU_FUNC_ATTRIBUTE_NUM_REGS, orig);
  orion_rt.api.cuFuncGetAttribute(&k->bin[0].local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, orig);
  k->nbin = 1;
  find_clones(k, mod, &load_us);
  if (orion_rt.debug)
    ts[5] = orion_rt_now_us();
  if (k->split_fn)
    load(k->split_fn, &load_us);
  else if (orion_rt.split && orion_rt.debug && k->rec.sel.n_versions > 1)
    fprintf(stderr, "orion: debug: %s: no split clone (not split-safe, or built without orion-cc "
                    "--orion-split): its launches are not split\n", k->name);
  if (orion_rt.debug)
    fprintf(stderr,
            "orion: debug: %s: function %.0f us, global %.0f us, record copy %.0f us, "
            "parameters %.0f us, clones %.0f us (loading the binaries %.0f us)\n",
            k->name, ts[1] - ts[0], ts[2] - ts[1], ts[3] - ts[2], ts[4] - ts[3], ts[5] - ts[4],
            load_us);
  k->module_key = orion_rt_module_key(site, k);
  k->state = K_READY;
}

rt_kernel *orion_rt_kernel(const void *stub, int dev, const orion_site *site, CUstream s) {
  size_t h = (((size_t)stub >> 4) ^ (size_t)dev * 31u) % KHASH;
  pthread_mutex_lock(&orion_rt.mu);
  rt_kernel *k = orion_rt.kernels[h];
  while (k && (k->stub != stub || k->dev != dev))
    k = k->next;
  if (!k) {
    k = calloc(1, sizeof *k);
    if (!k) {
      pthread_mutex_unlock(&orion_rt.mu);
      return NULL;
    }
    k->stub = stub;
    k->dev = dev;
    k->next = orion_rt.kernels[h];
    orion_rt.kernels[h] = k;
  }
  if (k->state == K_NEW || k->state == K_DEFERRED) {
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
    if (orion_rt.api.cuStreamIsCapturing(s, &cs) != CUDA_SUCCESS ||
        cs != CU_STREAM_CAPTURE_STATUS_NONE) {
      k->state = K_DEFERRED; /* discover after the capture */
    } else {
      CUstreamCaptureMode cm = orion_rt_relax_capture();
      double t0 = orion_rt.debug ? orion_rt_now_us() : 0;
      discover(k, site);
      if (orion_rt.debug)
        fprintf(stderr, "orion: debug: discovery of %s: %d binaries%s, %.0f us\n",
                k->name[0] ? k->name : "(unnamed)", k->nbin, k->split_fn ? " + split" : "",
                orion_rt_now_us() - t0);
      orion_rt_restore_capture(cm);
    }
  }
  pthread_mutex_unlock(&orion_rt.mu);
  return k->state == K_READY ? k : NULL;
}
