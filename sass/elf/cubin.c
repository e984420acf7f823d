/* sass/elf/cubin.c - cubin parse (through libelf); sections, symbols and
 * relocations (cubin_write.c writes).  See include/orion/cubin.h for the
 * contract.
 *
 * Parse: the input is copied; libelf (elf_memory on the copy) gives the ELF
 * header, section headers, names, raw section bytes and program headers.
 * Before anything is trusted it is checked: every header table and every
 * file-backed section lies inside the file, no two of them overlap, string
 * tables end in NUL, the symbol table's entries name valid strings and
 * sections, relocations name valid symbols and offsets inside their target
 * section, and .nv.info records tile their section exactly (nvinfo.c).
 * The record index and the function list are built here, so that this file
 * is the bottom layer: nvinfo.c and cubin_func.c build on it, never the
 * other way round.
 */
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cubin_internal.h"

#define EM_CUDA_ 190
#define FATBIN_MAGIC 0xBA55ED50u

orion_status cb_fail(orion_cubin_diag *diag, orion_status st, const char *fmt, ...) {
  if (diag) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
  }
  return st;
}

void orion_cubin_free(orion_cubin *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->nsec; i++) {
    free(c->sec[i].name);
    free(c->sec[i].data);
    free(c->sec[i].rec);
  }
  free(c->sec);
  free(c->ph);
  free(c->funcs);
  free(c->orig);
  free(c);
}

/* ---- parse ---- */

static int range_ok(uint64_t off, uint64_t size, uint64_t limit) {
  return off <= limit && size <= limit - off;
}

static const char *cstr_in(const cb_sec *s, uint64_t off) {
  if (s->sh.sh_type != SHT_STRTAB || off >= s->sh.sh_size)
    return NULL;
  return (const char *)s->data + off; /* the table ends in NUL (checked) */
}

typedef struct span {
  uint64_t off, size;
  size_t sec; /* section index, or (size_t)-1 / -2 for the header tables */
} span;

static int span_cmp(const void *a, const void *b) {
  const span *x = a, *y = b;
  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

static const char *span_name(const orion_cubin *c, const span *s, char *buf, size_t n) {
  if (s->sec == (size_t)-1)
    return "the section header table";
  if (s->sec == (size_t)-2)
    return "the program header table";
  if (s->sec == (size_t)-3)
    return "the ELF header";
  snprintf(buf, n, "section %zu (%s)", s->sec, c->sec[s->sec].name);
  return buf;
}

static orion_status check_overlaps(const orion_cubin *c, orion_cubin_diag *diag) {
  span *v = malloc((c->nsec + 3) * sizeof *v);
  if (!v)
    return ORION_ERR_NOMEM;
  size_t n = 0;
  v[n++] = (span){0, sizeof(Elf64_Ehdr), (size_t)-3};
  if (c->nsec)
    v[n++] = (span){c->eh.e_shoff, (uint64_t)c->nsec * sizeof(Elf64_Shdr), (size_t)-1};
  if (c->nph)
    v[n++] = (span){c->eh.e_phoff, (uint64_t)c->nph * sizeof(Elf64_Phdr), (size_t)-2};
  for (size_t i = 1; i < c->nsec; i++)
    if (!cb_nobits(c->sec[i].sh.sh_type) && c->sec[i].sh.sh_size)
      v[n++] = (span){c->sec[i].sh.sh_offset, c->sec[i].sh.sh_size, i};
  qsort(v, n, sizeof *v, span_cmp);
  orion_status st = ORION_OK;
  for (size_t i = 1; i < n; i++)
    if (v[i].off < v[i - 1].off + v[i - 1].size) {
      char b1[96], b2[96];
      st = cb_fail(diag, ORION_ERR_BAD_SECTION, "%s overlaps %s",
                   span_name(c, &v[i], b1, sizeof b1), span_name(c, &v[i - 1], b2, sizeof b2));
      break;
    }
  free(v);
  return st;
}

static orion_status check_symtab(orion_cubin *c, orion_cubin_diag *diag) {
  for (size_t i = 1; i < c->nsec; i++) {
    if (c->sec[i].sh.sh_type != SHT_SYMTAB)
      continue;
    if (c->symtab)
      return cb_fail(diag, ORION_ERR_BAD_SYMBOL, "more than one symbol table (sections %zu and %zu)",
                     c->symtab, i);
    c->symtab = i;
  }
  if (!c->symtab)
    return ORION_OK;
  const cb_sec *s = &c->sec[c->symtab];
  if (s->sh.sh_entsize != sizeof(Elf64_Sym) || s->sh.sh_size % sizeof(Elf64_Sym))
    return cb_fail(diag, ORION_ERR_BAD_SYMBOL,
                   "symbol table (section %zu) has entry size %llu and size %llu", c->symtab,
                   (unsigned long long)s->sh.sh_entsize, (unsigned long long)s->sh.sh_size);
  if (s->sh.sh_link == 0 || s->sh.sh_link >= c->nsec || c->sec[s->sh.sh_link].sh.sh_type != SHT_STRTAB)
    return cb_fail(diag, ORION_ERR_BAD_SYMBOL,
                   "symbol table's string table link %u is not a string table", s->sh.sh_link);
  c->nsym = s->sh.sh_size / sizeof(Elf64_Sym);
  const cb_sec *str = &c->sec[s->sh.sh_link];
  for (size_t i = 0; i < c->nsym; i++) {
    Elf64_Sym sym;
    memcpy(&sym, s->data + i * sizeof sym, sizeof sym);
    if (sym.st_name && !cstr_in(str, sym.st_name))
      return cb_fail(diag, ORION_ERR_BAD_SYMBOL, "symbol %zu: name offset 0x%x outside the string table",
                     i, sym.st_name);
    if (sym.st_shndx >= c->nsec && sym.st_shndx < SHN_LORESERVE)
      return cb_fail(diag, ORION_ERR_BAD_SYMBOL, "symbol %zu: section index %u out of range", i,
                     sym.st_shndx);
    if (sym.st_shndx == SHN_XINDEX)
      return cb_fail(diag, ORION_ERR_BAD_SYMBOL, "symbol %zu: extended section index (unsupported)", i);
  }
  return ORION_OK;
}

static orion_status check_relocs(orion_cubin *c, size_t i, orion_cubin_diag *diag) {
  const cb_sec *s = &c->sec[i];
  uint64_t es = s->sh.sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
  if (s->sh.sh_entsize != es || s->sh.sh_size % es)
    return cb_fail(diag, ORION_ERR_BAD_RELOC, "section %zu (%s): entry size %llu, size %llu", i, s->name,
                   (unsigned long long)s->sh.sh_entsize, (unsigned long long)s->sh.sh_size);
  if (s->sh.sh_link != c->symtab || !c->symtab)
    return cb_fail(diag, ORION_ERR_BAD_RELOC, "section %zu (%s): link %u is not the symbol table", i,
                   s->name, s->sh.sh_link);
  if (s->sh.sh_info == 0 || s->sh.sh_info >= c->nsec)
    return cb_fail(diag, ORION_ERR_BAD_RELOC, "section %zu (%s): target section %u out of range", i,
                   s->name, s->sh.sh_info);
  uint64_t tsize = c->sec[s->sh.sh_info].sh.sh_size;
  for (size_t k = 0; k < s->sh.sh_size / es; k++) {
    orion_cubin_reloc r;
    orion_cubin_get_reloc(c, i, k, &r);
    if (r.sym >= c->nsym)
      return cb_fail(diag, ORION_ERR_BAD_RELOC, "section %zu (%s): relocation %zu names symbol %u of %zu",
                     i, s->name, k, r.sym, c->nsym);
    if (r.offset >= tsize)
      return cb_fail(diag, ORION_ERR_BAD_RELOC,
                     "section %zu (%s): relocation %zu at 0x%llx outside its target (size 0x%llx)", i,
                     s->name, k, (unsigned long long)r.offset, (unsigned long long)tsize);
  }
  return ORION_OK;
}

static orion_status check_ident(const unsigned char *b, size_t size, orion_cubin_diag *diag) {
  if (size >= 4 && cb_rd32(b) == FATBIN_MAGIC)
    return cb_fail(diag, ORION_ERR_FATBIN,
                   "a CUDA fatbinary, not a cubin (extract the cubins with 'cuobjdump -xelf all')");
  if (size < 4 || memcmp(b, ELFMAG, SELFMAG) != 0)
    return cb_fail(diag, ORION_ERR_NOT_ELF, "not an ELF file (no \\177ELF magic)");
  if (size < sizeof(Elf64_Ehdr))
    return cb_fail(diag, ORION_ERR_TRUNCATED, "truncated: %zu bytes, shorter than an ELF64 header", size);
  if (b[EI_CLASS] != ELFCLASS64 || b[EI_DATA] != ELFDATA2LSB)
    return cb_fail(diag, ORION_ERR_UNSUPPORTED, "ELF class %u, data encoding %u: cubins are ELF64 little-endian",
                   b[EI_CLASS], b[EI_DATA]);
  unsigned mach = (unsigned)b[18] | (unsigned)b[19] << 8;
  if (mach != EM_CUDA_)
    return cb_fail(diag, ORION_ERR_NOT_CUDA,
                   "ELF machine %u%s, not a cubin (EM_CUDA, 190)%s", mach, mach == 62 ? " (x86-64)" : "",
                   mach == 62 ? "; a host object or executable: extract its cubins with 'cuobjdump -xelf all'"
                              : "");
  return ORION_OK;
}

static orion_status load_sections(orion_cubin *c, Elf *elf, orion_cubin_diag *diag) {
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0)
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "bad section name table index (%s)", elf_errmsg(-1));
  if (c->nsec && (shstrndx == 0 || shstrndx >= c->nsec))
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "section name table index %zu out of range", shstrndx);
  for (size_t i = 0; i < c->nsec; i++) {
    cb_sec *s = &c->sec[i];
    Elf_Scn *scn = elf_getscn(elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
      return cb_fail(diag, ORION_ERR_BAD_SECTION, "section %zu: unreadable header (%s)", i, elf_errmsg(-1));
    s->sh = (Elf64_Shdr){sh.sh_name, sh.sh_type, sh.sh_flags, sh.sh_addr, sh.sh_offset,
                         sh.sh_size, sh.sh_link, sh.sh_info, sh.sh_addralign, sh.sh_entsize};
    s->orig_off = sh.sh_offset;
    s->orig_size = sh.sh_size;
    if ((sh.sh_addralign & (sh.sh_addralign - 1)) || sh.sh_addralign > 4096)
      return cb_fail(diag, ORION_ERR_BAD_SECTION,
                     "section %zu: alignment %llu is not a power of two up to 4096", i,
                     (unsigned long long)sh.sh_addralign);
    if (i && sh.sh_offset > c->orig_size) /* even for NOBITS and empty sections */
      return cb_fail(diag, ORION_ERR_TRUNCATED, "section %zu: offset 0x%llx past the end of the file (0x%zx bytes)",
                     i, (unsigned long long)sh.sh_offset, c->orig_size);
    if (i == 0 || cb_nobits(sh.sh_type) || sh.sh_size == 0)
      continue;
    if (!range_ok(sh.sh_offset, sh.sh_size, c->orig_size))
      return cb_fail(diag, ORION_ERR_TRUNCATED,
                     "section %zu: bytes 0x%llx..+0x%llx lie past the end of the file (0x%zx bytes)", i,
                     (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size, c->orig_size);
    Elf_Data *d = elf_rawdata(scn, NULL);
    if (!d || d->d_size != sh.sh_size || !d->d_buf)
      return cb_fail(diag, ORION_ERR_BAD_SECTION, "section %zu: unreadable data (%s)", i, elf_errmsg(-1));
    if (!(s->data = malloc(sh.sh_size)))
      return ORION_ERR_NOMEM;
    memcpy(s->data, d->d_buf, sh.sh_size);
    if (sh.sh_type == SHT_STRTAB && s->data[sh.sh_size - 1] != 0)
      return cb_fail(diag, ORION_ERR_BAD_SECTION, "section %zu: string table does not end in NUL", i);
  }
  if (!c->nsec)
    return ORION_OK;
  const cb_sec *names = &c->sec[shstrndx];
  if (names->sh.sh_type != SHT_STRTAB || !names->data)
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "section name table (section %zu) is not a string table",
                   shstrndx);
  for (size_t i = 0; i < c->nsec; i++) {
    const char *n = cstr_in(names, c->sec[i].sh.sh_name);
    if (!n)
      return cb_fail(diag, ORION_ERR_BAD_SECTION, "section %zu: name offset 0x%x outside the name table", i,
                     c->sec[i].sh.sh_name);
    if (!(c->sec[i].name = strdup(n)))
      return ORION_ERR_NOMEM;
  }
  return ORION_OK;
}

/* ---- the parse's last steps: the .nv.info record index, the functions ---- */

/* Is section idx a .nv.info or .nv.info.<k> section? */
int orion_cubin_is_nvinfo(const orion_cubin *c, size_t idx) {
  if (!c || idx == 0 || idx >= c->nsec)
    return 0;
  const cb_sec *s = &c->sec[idx];
  return s->sh.sh_type == CB_SHT_NVINFO && strncmp(s->name, ".nv.info", 8) == 0 &&
         (s->name[8] == 0 || s->name[8] == '.');
}

/* The offsets of section idx's records (a record's layout: nvinfo.c). */
orion_status cb_nvinfo_index(orion_cubin *c, size_t idx, orion_cubin_diag *diag) {
  cb_sec *s = &c->sec[idx];
  free(s->rec);
  s->rec = NULL;
  s->nrec = 0;
  size_t size = s->sh.sh_size, n = 0;
  /* count, then fill */
  for (int pass = 0; pass < 2; pass++) {
    size_t off = 0;
    n = 0;
    while (off < size) {
      if (size - off < 4)
        return cb_fail(diag, ORION_ERR_BAD_NVINFO,
                       "section %zu (%s): %zu stray bytes at 0x%zx, shorter than a record header", idx, s->name,
                       size - off, off);
      unsigned fmt = s->data[off];
      size_t len = 4;
      if (fmt < ORION_EIFMT_NVAL || fmt > ORION_EIFMT_SVAL)
        return cb_fail(diag, ORION_ERR_BAD_NVINFO, "section %zu (%s): record at 0x%zx has unknown format %u",
                       idx, s->name, off, fmt);
      if (fmt == ORION_EIFMT_SVAL) {
        len += (size_t)s->data[off + 2] | (size_t)s->data[off + 3] << 8;
        if (len > size - off)
          return cb_fail(diag, ORION_ERR_BAD_NVINFO,
                         "section %zu (%s): record at 0x%zx (attribute 0x%02x) runs past the end", idx, s->name,
                         off, s->data[off + 1]);
      }
      if (pass)
        s->rec[n] = off;
      n++;
      off += len;
    }
    if (!pass && n && !(s->rec = malloc(n * sizeof *s->rec)))
      return ORION_ERR_NOMEM;
  }
  s->nrec = n;
  return ORION_OK;
}

/* The functions, as cubin_func.c defines them. */
orion_status cb_collect_funcs(orion_cubin *c) {
  free(c->funcs);
  c->funcs = NULL;
  c->nfunc = 0;
  if (!c->nsym)
    return ORION_OK;
  if (!(c->funcs = malloc(c->nsym * sizeof *c->funcs)))
    return ORION_ERR_NOMEM;
  for (size_t i = 1; i < c->nsym; i++) {
    orion_cubin_symbol s;
    orion_cubin_get_symbol(c, i, &s);
    if (s.type != STT_FUNC || !s.size || s.shndx == 0 || s.shndx >= c->nsec)
      continue;
    const cb_sec *t = &c->sec[s.shndx];
    if (!(t->sh.sh_flags & SHF_EXECINSTR) || t->sh.sh_type != SHT_PROGBITS || s.value > t->sh.sh_size ||
        s.size > t->sh.sh_size - s.value)
      continue;
    c->funcs[c->nfunc++] = i;
  }
  return ORION_OK;
}

static orion_status parse_elf(orion_cubin *c, Elf *elf, orion_cubin_diag *diag) {
  if (elf_kind(elf) != ELF_K_ELF)
    return cb_fail(diag, ORION_ERR_NOT_ELF, "libelf does not read it as an ELF file");
  GElf_Ehdr eh;
  if (!gelf_getehdr(elf, &eh))
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "unreadable ELF header (%s)", elf_errmsg(-1));
  memcpy(&c->eh, c->orig, sizeof c->eh); /* the raw header, identical on LE */
  if (eh.e_ehsize != sizeof(Elf64_Ehdr))
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "e_ehsize %u (64 expected)", eh.e_ehsize);
  size_t nsec = eh.e_shnum, nph = eh.e_phnum;
  if (nsec == 0)
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "no sections (or extended section numbering, unsupported)");
  if (eh.e_shentsize != sizeof(Elf64_Shdr))
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "e_shentsize %u (64 expected)", eh.e_shentsize);
  if (nph && eh.e_phentsize != sizeof(Elf64_Phdr))
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "e_phentsize %u (56 expected)", eh.e_phentsize);
  if (!range_ok(eh.e_shoff, (uint64_t)nsec * sizeof(Elf64_Shdr), c->orig_size))
    return cb_fail(diag, ORION_ERR_TRUNCATED,
                   "section header table (offset 0x%llx, %zu entries) lies past the end of the file (0x%zx bytes)",
                   (unsigned long long)eh.e_shoff, nsec, c->orig_size);
  if (nph && !range_ok(eh.e_phoff, (uint64_t)nph * sizeof(Elf64_Phdr), c->orig_size))
    return cb_fail(diag, ORION_ERR_TRUNCATED,
                   "program header table (offset 0x%llx, %zu entries) lies past the end of the file (0x%zx bytes)",
                   (unsigned long long)eh.e_phoff, nph, c->orig_size);
  size_t lnsec = 0, lnph = 0;
  if (elf_getshdrnum(elf, &lnsec) != 0 || elf_getphdrnum(elf, &lnph) != 0 || lnsec != nsec || lnph != nph)
    return cb_fail(diag, ORION_ERR_BAD_HEADER, "libelf disagrees on the header counts (%s)", elf_errmsg(-1));

  unsigned abi = c->orig[EI_ABIVERSION];
  c->sm = abi >= 8 ? (eh.e_flags >> 8) & 0xff : eh.e_flags & 0xff;
  if (c->sm < 30)
    return cb_fail(diag, ORION_ERR_UNSUPPORTED, "e_flags 0x%x (ABI version %u) give sm_%u, not a known GPU",
                   (unsigned)eh.e_flags, abi, c->sm);
  if (!(c->sec = calloc(nsec, sizeof *c->sec)) || (nph && !(c->ph = calloc(nph, sizeof *c->ph))))
    return ORION_ERR_NOMEM;
  c->nsec = c->orig_nsec = nsec;
  c->nph = nph;
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr p;
    if (!gelf_getphdr(elf, (int)i, &p))
      return cb_fail(diag, ORION_ERR_BAD_HEADER, "program header %zu unreadable (%s)", i, elf_errmsg(-1));
    if (!range_ok(p.p_offset, p.p_filesz, c->orig_size) || p.p_memsz < p.p_filesz)
      return cb_fail(diag, ORION_ERR_BAD_HEADER, "program header %zu: file range 0x%llx..+0x%llx (memsz 0x%llx) invalid",
                     i, (unsigned long long)p.p_offset, (unsigned long long)p.p_filesz, (unsigned long long)p.p_memsz);
    c->ph[i] = (Elf64_Phdr){p.p_type, p.p_flags, p.p_offset, p.p_vaddr, p.p_paddr, p.p_filesz, p.p_memsz, p.p_align};
  }
  orion_status st = load_sections(c, elf, diag);
  if (!st)
    st = check_overlaps(c, diag);
  if (!st)
    st = check_symtab(c, diag);
  for (size_t i = 1; !st && i < c->nsec; i++) {
    uint32_t t = c->sec[i].sh.sh_type;
    if (t == SHT_REL || t == SHT_RELA)
      st = check_relocs(c, i, diag);
    else if (orion_cubin_is_nvinfo(c, i))
      st = cb_nvinfo_index(c, i, diag);
    if (orion_cubin_is_nvinfo(c, i) && strcmp(c->sec[i].name, ".nv.info") == 0)
      c->nvinfo = i;
  }
  if (!st)
    st = cb_collect_funcs(c);
  return st;
}

orion_status orion_cubin_parse(const void *bytes, size_t size, orion_cubin **out,
                                     orion_cubin_diag *diag) {
  if (diag)
    diag->msg[0] = 0;
  if ((!bytes && size) || !out)
    return cb_fail(diag, ORION_ERR_INVALID_ARG, "invalid argument");
  orion_status st = check_ident(bytes, size, diag);
  if (st)
    return st;
  orion_cubin *c = calloc(1, sizeof *c);
  if (!c || !(c->orig = malloc(size))) {
    free(c);
    return cb_fail(diag, ORION_ERR_NOMEM, "out of memory");
  }
  memcpy(c->orig, bytes, size);
  c->orig_size = size;
  /* libelf reads a private scratch copy: elf_memory may touch its image. */
  char *scratch = malloc(size);
  if (!scratch) {
    orion_cubin_free(c);
    return cb_fail(diag, ORION_ERR_NOMEM, "out of memory");
  }
  memcpy(scratch, bytes, size);
  elf_version(EV_CURRENT);
  Elf *elf = elf_memory(scratch, size);
  if (!elf)
    st = cb_fail(diag, ORION_ERR_BAD_HEADER, "libelf: %s", elf_errmsg(-1));
  else
    st = parse_elf(c, elf, diag);
  if (elf)
    elf_end(elf);
  free(scratch);
  if (st) {
    if (diag && !diag->msg[0])
      cb_fail(diag, st, "%s", orion_strerror(st));
    orion_cubin_free(c);
    return st;
  }
  *out = c;
  return ORION_OK;
}

orion_status orion_cubin_read_file(const char *path, orion_cubin **out, orion_cubin_diag *diag) {
  if (diag)
    diag->msg[0] = 0;
  if (!path || !out)
    return cb_fail(diag, ORION_ERR_INVALID_ARG, "invalid argument");
  FILE *f = fopen(path, "rb");
  if (!f)
    return cb_fail(diag, ORION_ERR_IO, "cannot open: %s", strerror(errno));
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      unsigned char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return cb_fail(diag, ORION_ERR_NOMEM, "out of memory");
      }
      buf = nb;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0)
      break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return cb_fail(diag, ORION_ERR_IO, "read error");
  }
  orion_status st = orion_cubin_parse(buf, n, out, diag);
  free(buf);
  return st;
}

/* ---- header, sections ---- */

void orion_cubin_get_header(const orion_cubin *c, orion_cubin_header *out) {
  out->sm = c->sm;
  out->abi_version = c->eh.e_ident[EI_ABIVERSION];
  out->osabi = c->eh.e_ident[EI_OSABI];
  out->type = c->eh.e_type;
  out->flags = c->eh.e_flags;
}

size_t orion_cubin_section_count(const orion_cubin *c) { return c->nsec; }

orion_status orion_cubin_get_section(const orion_cubin *c, size_t idx, orion_cubin_section *out) {
  if (!c || idx >= c->nsec || !out)
    return ORION_ERR_NOT_FOUND;
  const cb_sec *s = &c->sec[idx];
  *out = (orion_cubin_section){s->name,          s->sh.sh_type,      s->sh.sh_link,
                               s->sh.sh_info,    s->sh.sh_flags,     s->sh.sh_addr,
                               s->sh.sh_offset,  s->sh.sh_size,      s->sh.sh_addralign,
                               s->sh.sh_entsize, s->data};
  return ORION_OK;
}

size_t orion_cubin_find_section(const orion_cubin *c, const char *name) {
  for (size_t i = 1; i < c->nsec; i++)
    if (strcmp(c->sec[i].name, name) == 0)
      return i;
  return 0;
}

orion_status cb_set_data(orion_cubin *c, size_t idx, const void *data, size_t size) {
  unsigned char *p = NULL;
  if (size) {
    if (!(p = malloc(size)))
      return ORION_ERR_NOMEM;
    memcpy(p, data, size);
  }
  cb_sec *s = &c->sec[idx];
  unsigned char *old = s->data;
  uint64_t old_size = s->sh.sh_size;
  s->data = p;
  s->sh.sh_size = size;
  if (orion_cubin_is_nvinfo(c, idx)) {
    orion_status st = cb_nvinfo_index(c, idx, NULL);
    if (st) { /* keep the old bytes */
      free(p);
      s->data = old;
      s->sh.sh_size = old_size;
      cb_nvinfo_index(c, idx, NULL);
      return st;
    }
  }
  free(old);
  return ORION_OK;
}

orion_status orion_cubin_replace_section_data(orion_cubin *c, size_t idx, const void *data, size_t size) {
  if (!c || idx == 0 || idx >= c->nsec)
    return ORION_ERR_NOT_FOUND;
  uint32_t t = c->sec[idx].sh.sh_type;
  if (cb_nobits(t) || t == SHT_NULL || (size && !data))
    return ORION_ERR_INVALID_ARG;
  /* tables others point into are edited entry by entry */
  if (t == SHT_SYMTAB || t == SHT_STRTAB || t == SHT_REL || t == SHT_RELA)
    return ORION_ERR_INVALID_ARG;
  return cb_set_data(c, idx, data, size);
}

orion_status orion_cubin_set_nobits_size(orion_cubin *c, size_t idx, uint64_t size) {
  if (!c || idx == 0 || idx >= c->nsec)
    return ORION_ERR_NOT_FOUND;
  if (!cb_nobits(c->sec[idx].sh.sh_type))
    return ORION_ERR_INVALID_ARG;
  c->sec[idx].sh.sh_size = size;
  return ORION_OK;
}

orion_status orion_cubin_set_section_info(orion_cubin *c, size_t idx, uint32_t info) {
  if (!c || idx == 0 || idx >= c->nsec)
    return ORION_ERR_NOT_FOUND;
  c->sec[idx].sh.sh_info = info;
  return ORION_OK;
}

/* ---- symbols ---- */

size_t orion_cubin_symbol_count(const orion_cubin *c) { return c->nsym; }

orion_status orion_cubin_get_symbol(const orion_cubin *c, size_t idx, orion_cubin_symbol *out) {
  if (!c || idx >= c->nsym || !out)
    return ORION_ERR_NOT_FOUND;
  const cb_sec *s = &c->sec[c->symtab];
  Elf64_Sym sym;
  memcpy(&sym, s->data + idx * sizeof sym, sizeof sym);
  const char *name = cstr_in(&c->sec[s->sh.sh_link], sym.st_name);
  *out = (orion_cubin_symbol){name ? name : "",        sym.st_value, sym.st_size,
                              ELF64_ST_TYPE(sym.st_info), ELF64_ST_BIND(sym.st_info),
                              sym.st_other,            sym.st_shndx};
  return ORION_OK;
}

size_t orion_cubin_find_symbol(const orion_cubin *c, const char *name) {
  orion_cubin_symbol s;
  for (size_t i = 1; i < c->nsym; i++)
    if (orion_cubin_get_symbol(c, i, &s) == ORION_OK && strcmp(s.name, name) == 0)
      return i;
  return 0;
}

static orion_status set_sym_field(orion_cubin *c, size_t idx, size_t field, uint64_t v) {
  if (!c || idx == 0 || idx >= c->nsym)
    return ORION_ERR_NOT_FOUND;
  memcpy(c->sec[c->symtab].data + idx * sizeof(Elf64_Sym) + field, &v, sizeof v);
  return ORION_OK;
}

orion_status orion_cubin_set_symbol_value(orion_cubin *c, size_t idx, uint64_t value) {
  return set_sym_field(c, idx, offsetof(Elf64_Sym, st_value), value);
}

orion_status orion_cubin_set_symbol_size(orion_cubin *c, size_t idx, uint64_t size) {
  return set_sym_field(c, idx, offsetof(Elf64_Sym, st_size), size);
}

/* ---- relocations ---- */

static size_t reloc_entsize(const orion_cubin *c, size_t sec) {
  if (!c || sec == 0 || sec >= c->nsec)
    return 0;
  uint32_t t = c->sec[sec].sh.sh_type;
  return t == SHT_RELA ? sizeof(Elf64_Rela) : t == SHT_REL ? sizeof(Elf64_Rel) : 0;
}

size_t orion_cubin_reloc_count(const orion_cubin *c, size_t sec) {
  size_t es = reloc_entsize(c, sec);
  return es ? c->sec[sec].sh.sh_size / es : 0;
}

orion_status orion_cubin_get_reloc(const orion_cubin *c, size_t sec, size_t i, orion_cubin_reloc *out) {
  size_t es = reloc_entsize(c, sec);
  if (!es || i >= c->sec[sec].sh.sh_size / es || !out)
    return ORION_ERR_NOT_FOUND;
  Elf64_Rela r = {0, 0, 0};
  memcpy(&r, c->sec[sec].data + i * es, es);
  *out = (orion_cubin_reloc){r.r_offset, (uint32_t)ELF64_R_SYM(r.r_info), (uint32_t)ELF64_R_TYPE(r.r_info),
                             es == sizeof(Elf64_Rela) ? r.r_addend : 0};
  return ORION_OK;
}

orion_status orion_cubin_set_reloc_offset(orion_cubin *c, size_t sec, size_t i, uint64_t offset) {
  size_t es = reloc_entsize(c, sec);
  if (!es || i >= c->sec[sec].sh.sh_size / es)
    return ORION_ERR_NOT_FOUND;
  if (offset >= c->sec[c->sec[sec].sh.sh_info].sh.sh_size)
    return ORION_ERR_RANGE;
  memcpy(c->sec[sec].data + i * es, &offset, sizeof offset);
  return ORION_OK;
}
