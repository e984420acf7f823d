/* advise/usage.c - the registers of the build the fixes are for (advise.h,
 * step 3: --target-usage).
 *
 * Two spellings are read, both as the CUDA tools print them:
 *   ptxas -v (nvcc -Xptxas -v, nvcc --resource-usage):
 *     ptxas info    : Compiling entry function '_Z2k1Pf' for 'sm_90'
 *     ptxas info    : Used 8 registers, used 0 barriers
 *   cuobjdump --dump-resource-usage:
 *     Function _Z2k1Pf:
 *         REG:8 STACK:0 SHARED:0 LOCAL:0 ...
 * The registers line belongs to the last entry named before it; a
 * function's properties without an entry line (a device function) are not
 * kernels and are skipped.  Anything else in the file is ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

static void add(adv_reports *r, const char *name, size_t len, int sm, int regs) {
  r->u = drv_xrealloc(r->u, (r->nu + 1) * sizeof *r->u);
  adv_usage *u = &r->u[r->nu++];
  u->kernel = drv_xstrndup(name, len);
  u->sm = sm;
  u->registers = regs;
}

/* The name after key in line, up to the first character of stop; *len
 * its length.  NULL when key is absent or the name empty. */
static const char *name_after(const char *line, const char *key, const char *stop, size_t *len) {
  const char *s = strstr(line, key);
  if (!s)
    return NULL;
  s += strlen(key);
  *len = strcspn(s, stop);
  return *len ? s : NULL;
}

int adv_load_usage(adv_reports *r, const char *path, char **err) {
  orion_strbuf b;
  if (drv_read_file(path, &b) != 0) {
    *err = drv_xasprintf("%s: %s", path, strerror(errno));
    return -1;
  }
  size_t before = r->nu, len = 0, n_len = 0;
  const char *entry = NULL;
  int sm = 0;
  for (char *line = b.p, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    const char *n, *k;
    if ((n = name_after(line, "Compiling entry function '", "'", &n_len))) {
      entry = n, len = n_len;
      const char *a = strstr(n + len, "'sm_");
      sm = a ? atoi(a + 4) : 0;
    } else if (!strstr(line, "Function properties") &&
               (n = name_after(line, "Function ", ":", &n_len))) {
      entry = n, len = n_len, sm = 0;
    } else if (entry && (k = strstr(line, "Used ")) && strstr(k, " registers")) {
      add(r, entry, len, sm, atoi(k + 5));
      entry = NULL;
    } else if (entry && (k = strstr(line, "REG:"))) {
      add(r, entry, len, sm, atoi(k + 4));
      entry = NULL;
    }
  }
  orion_sb_free(&b);
  if (r->nu == before) {
    *err = drv_xasprintf("%s: no kernel's registers in it (want ptxas -v output or cuobjdump "
                         "--dump-resource-usage output)",
                         path);
    return -1;
  }
  return 0;
}

int adv_target_registers(const adv_reports *r, const adv_kernel *k, int sm) {
  int found = -1;
  for (size_t i = 0; i < r->nu; i++)
    for (size_t j = 0; j < k->names.n; j++)
      if (!strcmp(r->u[i].kernel, k->names.v[j]) && (!sm || !r->u[i].sm || r->u[i].sm == sm) &&
          r->u[i].registers > found)
        found = r->u[i].registers;
  return found;
}
