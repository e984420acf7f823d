/* cubin_rename.c - rename a function of a cubin in place.
 *
 * A function's name is held by the string tables only: its symbol's entry
 * in the symbol string table and the names of its sections
 * (.text.<f>, .nv.info.<f>, .nv.constant0.<f>, .rel.text.<f>,
 * .nv.shared.<f>, ...) in the section name table; every other reference
 * (.nv.info records, relocations, the call graph) is by index.  A new name
 * of the same length therefore renames the function without moving a byte:
 * every occurrence of the old name that is a whole name or the tail of a
 * section name (preceded by the table's start, a NUL or a '.', followed by
 * a NUL) is overwritten in every SHT_STRTAB section.  Names elsewhere (the
 * DWARF strings of -G/-lineinfo) are left as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "cubin_internal.h"

/* Overwrite the bounded occurrences of old in s's bytes; their number. */
static size_t rename_in(cb_sec *s, const char *old, const char *new_name, size_t n) {
  size_t hits = 0, size = (size_t)s->sh.sh_size;
  unsigned char *d = s->data;
  for (size_t p = 0; d && p + n < size; p++) {
    if (memcmp(d + p, old, n) != 0 || d[p + n] != 0)
      continue;
    if (p > 0 && d[p - 1] != 0 && d[p - 1] != '.')
      continue;
    memcpy(d + p, new_name, n);
    hits++;
    p += n;
  }
  return hits;
}

orion_status orion_cubin_rename_function(orion_cubin *c, const char *old, const char *new_name) {
  size_t n = old ? strlen(old) : 0;
  if (!c || !n || !new_name || strlen(new_name) != n || !strcmp(old, new_name))
    return ORION_ERR_INVALID_ARG;
  size_t sym = orion_cubin_find_symbol(c, old);
  orion_cubin_symbol s;
  if (!sym || orion_cubin_get_symbol(c, sym, &s) != ORION_OK || s.type != STT_FUNC)
    return ORION_ERR_NOT_FOUND;
  if (orion_cubin_find_symbol(c, new_name))
    return ORION_ERR_INVALID_ARG;
  for (size_t i = 0; i < c->nsec; i++) /* the new name must not exist in any form */
    if (c->sec[i].name && strlen(c->sec[i].name) >= n &&
        !strcmp(c->sec[i].name + strlen(c->sec[i].name) - n, new_name))
      return ORION_ERR_INVALID_ARG;
  /* ELF: an index past SHN_LORESERVE lives in section 0's sh_link */
  size_t shstrndx = c->eh.e_shstrndx < 0xff00 ? c->eh.e_shstrndx : c->sec[0].sh.sh_link;
  for (size_t i = 1; i < c->nsec; i++)
    if (c->sec[i].sh.sh_type == SHT_STRTAB)
      rename_in(&c->sec[i], old, new_name, n);
  /* the parse's copies of the section names follow the table */
  for (size_t i = 0; i < c->nsec && shstrndx < c->nsec; i++) {
    const cb_sec *names = &c->sec[shstrndx];
    if (c->sec[i].sh.sh_name >= names->sh.sh_size)
      continue;
    char *copy = strdup((const char *)names->data + c->sec[i].sh.sh_name);
    if (!copy)
      return ORION_ERR_NOMEM;
    free(c->sec[i].name);
    c->sec[i].name = copy;
  }
  return ORION_OK;
}
