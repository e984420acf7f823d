/* sass/elf/cubin_internal.h - the in-memory cubin shared by cubin.c (parse,
 * sections, symbols, relocations, the record index and the function list),
 * cubin_write.c (layout, write), nvinfo.c (EIATTR
 * records) and cubin_func.c (per-function facts and edits).
 *
 * Every section owns a copy of its bytes (data, sh.sh_size of them, NULL
 * for NOBITS or empty).  orig_off/orig_size are the section's place in the
 * input file and never change; the writer uses them to keep the input
 * layout and to move what follows a resized section.  For .nv.info
 * sections rec[] holds the offset of each EIATTR record (rebuilt by
 * cb_nvinfo_index() whenever the bytes change).
 */
#ifndef ORION_SASS_CUBIN_INTERNAL_H
#define ORION_SASS_CUBIN_INTERNAL_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "orion/cubin.h"

#define CB_SHT_NVINFO 0x70000000u      /* SHT_LOPROC: .nv.info, .nv.info.<k> */
#define CB_SHT_CUDA_SHARED 0x7000000au /* .nv.shared.<k> in -rdc (ET_REL) cubins */

/* Sections without file bytes: SHT_NOBITS, and CUDA_SHARED (seen in ptxas
 * 13.0 -rdc cubins: .nv.shared.<k> shares its offset with the section
 * after it, as cuobjdump's layout shows). */
static inline int cb_nobits(uint32_t type) { return type == SHT_NOBITS || type == CB_SHT_CUDA_SHARED; }

typedef struct cb_sec {
  Elf64_Shdr sh;
  char *name;
  unsigned char *data;
  uint64_t orig_off, orig_size;
  size_t *rec, nrec; /* .nv.info record offsets */
} cb_sec;

struct orion_cubin {
  unsigned char *orig; /* the input file, kept for the gaps between sections */
  size_t orig_size;
  Elf64_Ehdr eh;
  Elf64_Phdr *ph;
  size_t nph;
  cb_sec *sec;
  size_t nsec;
  size_t orig_nsec; /* sections in the input (later ones were added) */
  size_t symtab, nsym; /* the SHT_SYMTAB section (0: none) and its entries */
  size_t nvinfo;       /* the global .nv.info section (0: none) */
  size_t *funcs, nfunc; /* symbol index of each function */
  unsigned sm;
};

/* Format a one-line message into diag (which may be NULL); returns st. */
orion_status cb_fail(orion_cubin_diag *diag, orion_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Replace section idx's bytes with a copy of size bytes (data may be NULL
 * when size is 0) and re-index its records if it is a .nv.info section. */
orion_status cb_set_data(orion_cubin *c, size_t idx, const void *data, size_t size);

/* (Re)build sec->rec from sec->data; ORION_ERR_BAD_NVINFO with a
 * message in diag when a record is malformed. */
orion_status cb_nvinfo_index(orion_cubin *c, size_t idx, orion_cubin_diag *diag);

/* Collect the functions (STT_FUNC symbols with a size, in an executable
 * section) into c->funcs. */
orion_status cb_collect_funcs(orion_cubin *c);

static inline uint32_t cb_rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void cb_wr32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

#endif /* ORION_SASS_CUBIN_INTERNAL_H */
