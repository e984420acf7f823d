/* cubin_add.c - add a NOBITS section (a kernel's .nv.shared.<k>) to a cubin.
 *
 * What ptxas 13.0 writes for a kernel with static shared memory (sm_90,
 * checked with readelf and cuobjdump -elf against a kernel without):
 *   - a section header: SHT_NOBITS, flags SHF_WRITE|SHF_ALLOC|SHF_INFO_LINK,
 *     sh_info = the kernel's text section, sh_link 0, file offset that of
 *     .nv.shared.reserved.0 (no file bytes);
 *   - its name in .shstrtab;
 *   - a local STT_SECTION symbol named like the section (ptxas appends
 *     section symbols after the globals too, .nv.constant0.<k>, and sets the
 *     symbol table's sh_info to the symbol count);
 *   - the writable LOAD segment (memsz 0 while every shared section is
 *     empty) grows by the section's size: cubin.c's writer does that for
 *     every allocated NOBITS section at the segment's offset;
 *   - nothing in .nv.info.<k>: no EIATTR names the shared size.
 * Algorithm: append the section (new index = old count, no renumbering),
 * its name to .shstrtab, its symbol to the end of .symtab (name in the
 * symbol string table); e_shnum follows.  All allocations happen before the
 * cubin changes, so a failure leaves it as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "cubin_internal.h"

/* The bytes of section sec followed by extra (n bytes); NULL on NOMEM. */
static unsigned char *appended(const cb_sec *sec, const void *extra, size_t n) {
  size_t old = (size_t)sec->sh.sh_size;
  unsigned char *p = malloc(old + n);
  if (!p)
    return NULL;
  if (old)
    memcpy(p, sec->data, old);
  memcpy(p + old, extra, n);
  return p;
}

size_t orion_cubin_nobits_home(const orion_cubin *c) {
  for (size_t i = 1; c && i < c->orig_nsec; i++)
    if (cb_nobits(c->sec[i].sh.sh_type) && (c->sec[i].sh.sh_flags & SHF_ALLOC))
      return i;
  return 0;
}

orion_status orion_cubin_add_nobits_section(orion_cubin *c, const char *name, uint64_t flags,
                                                  uint32_t info, uint64_t align, uint64_t size,
                                                  size_t *idx) {
  if (!c || !name || !*name || !idx || (align & (align - 1)))
    return ORION_ERR_INVALID_ARG;
  if (orion_cubin_find_section(c, name))
    return ORION_ERR_INVALID_ARG; /* already there */
  if (info >= c->nsec || !c->symtab || c->eh.e_shstrndx >= c->nsec || c->nsec >= SHN_LORESERVE - 1)
    return ORION_ERR_RANGE;
  /* place it with the other allocated NOBITS sections (the shared segment) */
  size_t at = orion_cubin_nobits_home(c);
  if (!at)
    return ORION_ERR_NOT_FOUND;
  cb_sec *shs = &c->sec[c->eh.e_shstrndx], *sym = &c->sec[c->symtab];
  cb_sec *str = &c->sec[sym->sh.sh_link];
  size_t nl = strlen(name) + 1;
  if (shs->sh.sh_size + nl > UINT32_MAX || str->sh.sh_size + nl > UINT32_MAX)
    return ORION_ERR_RANGE;
  Elf64_Sym s = {(uint32_t)str->sh.sh_size, ELF64_ST_INFO(STB_LOCAL, STT_SECTION), 0,
                 (uint16_t)c->nsec, 0, 0};
  uint32_t sh_name = (uint32_t)shs->sh.sh_size;
  unsigned char *nshs = appended(shs, name, nl);
  unsigned char *nstr = shs == str ? NULL : appended(str, name, nl);
  unsigned char *nsym = appended(sym, &s, sizeof s);
  char *dup = strdup(name);
  cb_sec *grown = realloc(c->sec, (c->nsec + 1) * sizeof *c->sec);
  if (grown)
    c->sec = grown; /* same contents: nothing else changed yet */
  if (!nshs || (shs != str && !nstr) || !nsym || !dup || !grown) {
    free(nshs);
    free(nstr);
    free(nsym);
    free(dup);
    return ORION_ERR_NOMEM;
  }
  shs = &c->sec[c->eh.e_shstrndx];
  sym = &c->sec[c->symtab];
  str = &c->sec[sym->sh.sh_link];
  free(shs->data);
  shs->data = nshs;
  shs->sh.sh_size += nl;
  if (shs != str) {
    free(str->data);
    str->data = nstr;
    str->sh.sh_size += nl;
  }
  int bump = sym->sh.sh_info == c->nsym;
  free(sym->data);
  sym->data = nsym;
  sym->sh.sh_size += sizeof s;
  c->nsym++;
  if (bump)
    sym->sh.sh_info = (uint32_t)c->nsym;
  cb_sec *n = &c->sec[c->nsec];
  memset(n, 0, sizeof *n);
  n->sh.sh_name = sh_name;
  n->sh.sh_type = SHT_NOBITS;
  n->sh.sh_flags = flags;
  n->sh.sh_info = info;
  n->sh.sh_addralign = align;
  n->sh.sh_size = size;
  n->name = dup;
  n->orig_off = c->sec[at].orig_off;
  n->orig_size = 0;
  n->sh.sh_offset = n->orig_off;
  *idx = c->nsec++;
  c->eh.e_shnum = (Elf64_Half)c->nsec;
  return ORION_OK;
}
