/* modules.c - what discovery (discover.c) reads once per CUDA module
 * instead of once per kernel:
 *   - the module's functions sorted by name: on the module's first
 *     discovery, one cuModuleEnumerateFunctions and one cuFuncGetName per
 *     function (names copied), then qsort; a clone is then found by binary
 *     search, O(log n), with no failing driver call for a version
 *     orion-ptxas dropped;
 *   - the record tables (orion/record.h) read so far: a table is read when
 *     a launch site first names it (orion_site.records: the table of the
 *     launching file, which defines the kernel for a `<<<>>>` launch), with
 *     one cuModuleGetGlobal and one copy on the device's private stream;
 *     a name the module lacks is remembered too, so it is asked once.  A
 *     kernel's record is a binary search in the named table
 *     (orion_record_table_find), then in the module's other tables read so
 *     far (a kernel of another file of an -fgpu-rdc module launched with
 *     cudaLaunchKernel from this one).
 * Called with orion_rt.mu held; nothing is freed before exit (module handles
 * of the runtime API live as long as the program).
 */
#include "state.h"

#include <stdlib.h>
#include <string.h>

typedef struct rt_fn_name {
  const char *name;
  CUfunction fn;
} rt_fn_name;

static int cmp_fn(const void *a, const void *b) {
  return strcmp(((const rt_fn_name *)a)->name, ((const rt_fn_name *)b)->name);
}

/* requires m->mod set.  The sorted function index (empty when the driver
 * cannot list the module's functions). */
static void index_functions(rt_module *m) {
  unsigned nf = 0;
  m->indexed = 1;
  if (orion_rt.api.cuModuleGetFunctionCount(&nf, m->mod) || nf == 0 || nf > 1000000)
    return;
  CUfunction *fs = calloc(nf, sizeof *fs);
  rt_fn_name *ix = calloc(nf, sizeof *ix);
  if (!fs || !ix || orion_rt.api.cuModuleEnumerateFunctions(fs, nf, m->mod)) {
    free(fs);
    free(ix);
    return;
  }
  unsigned n = 0;
  for (unsigned i = 0; i < nf; i++) {
    const char *name = NULL;
    if (orion_rt.api.cuFuncGetName(&name, fs[i]) || !name || !(ix[n].name = strdup(name)))
      continue;
    ix[n++].fn = fs[i];
  }
  free(fs);
  qsort(ix, n, sizeof *ix, cmp_fn);
  m->fns = ix;
  m->nf = n;
}

rt_module *orion_rt_module(CUmodule mod) {
  rt_module *m = orion_rt.modules;
  while (m && m->mod != mod)
    m = m->next;
  if (m)
    return m;
  m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  m->mod = mod;
  m->next = orion_rt.modules;
  orion_rt.modules = m;
  return m;
}

CUfunction orion_rt_module_function(rt_module *m, const char *name) {
  if (!m->indexed)
    index_functions(m);
  rt_fn_name key = {name, NULL};
  const rt_fn_name *hit = m->nf ? bsearch(&key, m->fns, m->nf, sizeof key, cmp_fn) : NULL;
  return hit ? hit->fn : NULL;
}

/* requires name NUL-terminated.  The table called name, read now if it has
 * not been; NULL when the module has none (remembered) or it cannot be read
 * (*failed set). */
static rt_table *table(rt_module *m, int dev, const char *name, int *failed) {
  rt_table *t = m->tables;
  while (t && strcmp(t->name, name))
    t = t->next;
  if (t)
    return t->text ? t : NULL;
  if (strlen(name) >= sizeof t->name || !(t = calloc(1, sizeof *t)))
    return NULL;
  strcpy(t->name, name);
  t->next = m->tables;
  m->tables = t;
  CUdeviceptr dp;
  size_t size;
  if (orion_rt.api.cuModuleGetGlobal(&dp, &size, m->mod, name) != CUDA_SUCCESS)
    return NULL; /* no such table: the file was not built with Orion */
  rt_device *d = orion_rt_device(dev);
  char *text = size ? malloc(size + 1) : NULL;
  if (!d || !text || orion_rt.api.cuMemcpyDtoHAsync(text, dp, size, d->copy_stream) ||
      orion_rt.api.cuStreamSynchronize(d->copy_stream)) {
    free(text);
    *failed = 1;
    return NULL;
  }
  text[size] = '\0';
  t->text = text;
  t->size = size;
  return t;
}

int orion_rt_module_record(rt_module *m, int dev, const char *name, const char *kernel,
                           const char **line, size_t *len) {
  int failed = 0;
  rt_table *t = name ? table(m, dev, name, &failed) : NULL;
  if (t && (*line = orion_record_table_find(t->text, t->size, kernel, len)))
    return 1;
  for (t = m->tables; t; t = t->next)
    if (t->text && (*line = orion_record_table_find(t->text, t->size, kernel, len)))
      return 1;
  return failed ? -1 : 0;
}
