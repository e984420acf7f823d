/* driver/ptxas_hide.c - versions left out without assembling again.
 *
 * A merged version (a duplicate, or a clone that gains nothing: see
 * ptxas_versions.h) used to cost one more ptxas run over the whole module
 * to take it out.  The runtime finds a kernel's clones by name
 * (<kernel>__orion_<tag>), so renaming a clone in the first run's cubin to
 * a name no record lists hides it as surely as deleting it:
 *   - the hidden name spells the clone's "__orion_" as "__unused"
 *     (k__orion_r80 -> k__unusedr80): the same length, so the cubin is
 *     renamed in place (orion_cubin_rename_function), a mangled name keeps
 *     its length prefix and still demangles, and cuobjdump or a profiler
 *     shows what it is;
 *   - every rename is done on one parsed copy, written over the cubin
 *     (atomically) only when all succeeded, so on failure the caller still
 *     has the first run's cubin and assembles again;
 *   - the PTX that reproduces the cubin (--orion-keep-ptx) is the first
 *     run's text with the same entries renamed at their .entry name.
 * Not under -c: nvlink links every global of a relocatable cubin, so
 * versions left out there are deleted (the caller assembles again).
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/cubin.h"
#include "orion/demangle.h"
#include "ptxas_hide.h"

/* The hidden name of clone e into buf: its clone name with "__orion_"
 * spelled "__unused" (r80's "k__orion_r80" -> "k__unusedr80"); 0 if it has
 * none. */
static int hidden_name(const optx_entry *e, char *buf, size_t n) {
  static const char mark[] = "__orion_", hide[] = "__unused";
  _Static_assert(sizeof mark == sizeof hide, "a rename in place keeps the length");
  if (!e->is_clone || !e->tag || !orion_clone_name(e->kernel, e->tag, buf, n) ||
      strcmp(buf, e->name) != 0)
    return 0;
  char *at = NULL;
  for (char *p = strstr(buf, mark); p; p = strstr(p + 1, mark))
    if (!strncmp(p + sizeof mark - 1, e->tag, strlen(e->tag)))
      at = p; /* the last "__orion_<tag>" */
  if (!at)
    return 0;
  memcpy(at, hide, sizeof hide - 1);
  return 1;
}

int optx_hide_left_out(const optx_cmd *c, const ptx_module *m, const ptx_edit *ed,
                       const char *cubin, optx_result *res, orion_strbuf *ptx) {
  if (c->rdc)
    return 0;
  orion_cubin *cb = NULL;
  if (orion_cubin_read_file(cubin, &cb, NULL) != ORION_OK)
    return 0;
  size_t ne = m->n_entries ? m->n_entries : 1;
  char **hidden = calloc(ne, sizeof *hidden);
  int ok = hidden != NULL;
  for (size_t i = 0; ok && i < m->n_entries && i < res->n; i++) {
    char name[1024];
    if (!ed[i].drop)
      continue;
    ok = hidden_name(&res->e[i], name, sizeof name) &&
         orion_cubin_rename_function(cb, res->e[i].name, name) == ORION_OK &&
         (hidden[i] = strdup(name)) != NULL;
  }
  ok = ok && orion_cubin_write_file(cb, cubin, NULL) == ORION_OK; /* atomic */
  orion_cubin_free(cb);
  if (ok) { /* the text: each hidden entry's name replaced where it is declared */
    size_t at = 0;
    orion_sb_init(ptx);
    for (size_t i = 0; i < m->n_entries; i++) {
      if (!hidden[i])
        continue;
      const ptx_entry *pe = &m->entries[i];
      orion_sb_add(ptx, m->text + at, pe->name_pos - at);
      orion_sb_adds(ptx, hidden[i]);
      at = pe->name_end;
      res->e[i].merged = !res->e[i].limit_dropped;
    }
    orion_sb_add(ptx, m->text + at, m->len - at);
  }
  for (size_t i = 0; hidden && i < ne; i++)
    free(hidden[i]);
  free(hidden);
  return ok;
}
