/* sass/elf/cubin_func.c - per-function facts of a cubin and the edits a
 * rewriter makes to them.
 *
 * A function is an STT_FUNC symbol with a non-zero size whose section is
 * executable (SHF_EXECINSTR) and holds [value, value + size).  In a
 * whole-program cubin a kernel's non-inlined callees share its .text.<k>
 * section as local symbols; with -rdc each function has its own section.
 * Per-symbol facts are .nv.info SVAL records {u32 symbol index, u32 value}
 * (REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, MAX_STACK_SIZE); per-kernel facts
 * come from the .nv.info.<k> and .nv.shared.<k> sections whose sh_info is
 * the kernel's text section.
 */
#include <stdlib.h>
#include <string.h>

#include "cubin_internal.h"

size_t orion_cubin_func_count(const orion_cubin *c) { return c->nfunc; }

/* The index of the .nv.info record {attr, sym} (SVAL, 8 bytes), or -1. */
static long sym_attr_rec(const orion_cubin *c, unsigned attr, size_t sym) {
  size_t sec = c->nvinfo;
  for (size_t i = 0; sec && i < c->sec[sec].nrec; i++) {
    orion_eiattr_rec r;
    orion_cubin_nvinfo_get(c, sec, i, &r);
    if (r.attr == attr && r.fmt == ORION_EIFMT_SVAL && r.value == 8 && cb_rd32(r.payload) == sym)
      return (long)i;
  }
  return -1;
}

static int64_t sym_attr(const orion_cubin *c, unsigned attr, size_t sym) {
  long i = sym_attr_rec(c, attr, sym);
  orion_eiattr_rec r;
  if (i < 0 || orion_cubin_nvinfo_get(c, c->nvinfo, (size_t)i, &r))
    return -1;
  return cb_rd32(r.payload + 4);
}

/* The section of kind prefix (".nv.info." / ".nv.shared.") for text section t. */
static size_t kernel_section(const orion_cubin *c, size_t t, const char *prefix, int nobits) {
  size_t n = strlen(prefix);
  for (size_t i = 1; i < c->nsec; i++)
    if ((nobits ? cb_nobits(c->sec[i].sh.sh_type) : c->sec[i].sh.sh_type == CB_SHT_NVINFO) && c->sec[i].sh.sh_info == t && strncmp(c->sec[i].name, prefix, n) == 0)
      return i;
  return 0;
}

/* Record index of attr in section sec, or -1. */
static long find_rec(const orion_cubin *c, size_t sec, unsigned attr) {
  for (size_t i = 0; sec && i < c->sec[sec].nrec; i++) {
    orion_eiattr_rec r;
    orion_cubin_nvinfo_get(c, sec, i, &r);
    if (r.attr == attr)
      return (long)i;
  }
  return -1;
}

static void u32_triple(const orion_cubin *c, size_t sec, unsigned attr, int64_t out[3]) {
  out[0] = out[1] = out[2] = -1;
  long i = find_rec(c, sec, attr);
  orion_eiattr_rec r;
  if (i < 0 || orion_cubin_nvinfo_get(c, sec, (size_t)i, &r) || r.fmt != ORION_EIFMT_SVAL)
    return;
  for (size_t k = 0; k < 3 && 4 * (k + 1) <= r.value; k++)
    out[k] = cb_rd32(r.payload + 4 * k);
}

orion_status orion_cubin_get_func(const orion_cubin *c, size_t i, orion_cubin_func *out) {
  if (!c || i >= c->nfunc || !out)
    return ORION_ERR_NOT_FOUND;
  orion_cubin_symbol s;
  size_t sym = c->funcs[i];
  orion_cubin_get_symbol(c, sym, &s);
  orion_cubin_func f;
  memset(&f, 0, sizeof f);
  f.sym = sym;
  f.name = s.name;
  f.is_kernel = (s.other & ORION_CUBIN_STO_ENTRY) != 0;
  f.text = s.shndx;
  f.value = s.value;
  f.size = s.size;
  f.regcount = sym_attr(c, ORION_EIATTR_REGCOUNT, sym);
  f.frame_size = sym_attr(c, ORION_EIATTR_FRAME_SIZE, sym);
  f.min_stack_size = sym_attr(c, ORION_EIATTR_MIN_STACK_SIZE, sym);
  f.max_stack_size = sym_attr(c, ORION_EIATTR_MAX_STACK_SIZE, sym);
  f.regs_shinfo = c->sec[f.text].sh.sh_info >> 24;
  f.maxreg_count = f.crs_stack_size = -1;
  for (int k = 0; k < 3; k++)
    f.max_threads[k] = f.reqntid[k] = -1;
  if (f.is_kernel) {
    f.nvinfo = kernel_section(c, f.text, ".nv.info.", 0);
    f.shared = kernel_section(c, f.text, ".nv.shared.", 1);
    f.shared_size = f.shared ? c->sec[f.shared].sh.sh_size : 0;
    long r = find_rec(c, f.nvinfo, ORION_EIATTR_MAXREG_COUNT);
    orion_eiattr_rec rec;
    if (r >= 0 && !orion_cubin_nvinfo_get(c, f.nvinfo, (size_t)r, &rec) && rec.fmt != ORION_EIFMT_SVAL)
      f.maxreg_count = rec.value;
    int64_t crs[3];
    u32_triple(c, f.nvinfo, ORION_EIATTR_CRS_STACK_SIZE, crs);
    f.crs_stack_size = crs[0];
    u32_triple(c, f.nvinfo, ORION_EIATTR_MAX_THREADS, f.max_threads);
    u32_triple(c, f.nvinfo, ORION_EIATTR_REQNTID, f.reqntid);
    orion_cubin_kernel_offsets(c, i, ORION_EIATTR_EXIT_INSTR_OFFSETS, NULL, 0, &f.n_exit);
    orion_cubin_kernel_offsets(c, i, ORION_EIATTR_S2RCTAID_INSTR_OFFSETS, NULL, 0, &f.n_s2rctaid);
  }
  *out = f;
  return ORION_OK;
}

static orion_status kernel_nvinfo(const orion_cubin *c, size_t func, size_t *sec) {
  if (!c || func >= c->nfunc)
    return ORION_ERR_NOT_FOUND;
  orion_cubin_symbol s;
  orion_cubin_get_symbol(c, c->funcs[func], &s);
  if (!(s.other & ORION_CUBIN_STO_ENTRY))
    return ORION_ERR_INVALID_ARG;
  *sec = kernel_section(c, s.shndx, ".nv.info.", 0);
  return ORION_OK;
}

orion_status orion_cubin_kernel_offsets(const orion_cubin *c, size_t func, unsigned attr, uint32_t *offs,
                                              size_t cap, size_t *n) {
  size_t sec = 0;
  orion_status st = kernel_nvinfo(c, func, &sec);
  if (st)
    return st;
  size_t count = 0;
  long i = find_rec(c, sec, attr);
  orion_eiattr_rec r;
  if (i >= 0 && !orion_cubin_nvinfo_get(c, sec, (size_t)i, &r) && r.fmt == ORION_EIFMT_SVAL) {
    count = r.value / 4;
    for (size_t k = 0; k < count && k < cap; k++)
      offs[k] = cb_rd32(r.payload + 4 * k);
  }
  if (n)
    *n = count;
  return ORION_OK;
}

orion_status orion_cubin_set_kernel_offsets(orion_cubin *c, size_t func, unsigned attr, const uint32_t *offs,
                                                  size_t n) {
  size_t sec = 0;
  orion_status st = kernel_nvinfo(c, func, &sec);
  if (st)
    return st;
  if (!sec)
    return ORION_ERR_NOT_FOUND;
  if (n > 0xffff / 4)
    return ORION_ERR_RANGE;
  unsigned char *b = malloc(n ? 4 * n : 1);
  if (!b)
    return ORION_ERR_NOMEM;
  for (size_t k = 0; k < n; k++)
    cb_wr32(b + 4 * k, offs[k]);
  long i = find_rec(c, sec, attr);
  if (i >= 0)
    st = orion_cubin_nvinfo_set_payload(c, sec, (size_t)i, b, 4 * n);
  else
    st = orion_cubin_nvinfo_append(c, sec, ORION_EIFMT_SVAL, attr, 0, b, 4 * n);
  free(b);
  return st;
}

orion_status orion_cubin_func_text(const orion_cubin *c, size_t func, const unsigned char **bytes,
                                         size_t *size) {
  if (!c || func >= c->nfunc || !bytes || !size)
    return ORION_ERR_NOT_FOUND;
  orion_cubin_symbol s;
  orion_cubin_get_symbol(c, c->funcs[func], &s);
  const cb_sec *t = &c->sec[s.shndx];
  if (s.value > t->sh.sh_size || s.size > t->sh.sh_size - s.value) /* after edits */
    return ORION_ERR_RANGE;
  *bytes = t->data + s.value;
  *size = s.size;
  return ORION_OK;
}

orion_status orion_cubin_func_own_text(const orion_cubin *c, size_t func, const unsigned char **bytes,
                                       size_t *size) {
  orion_cubin_func f, g;
  orion_status st = orion_cubin_func_text(c, func, bytes, size);
  if (st != ORION_OK || (st = orion_cubin_get_func(c, func, &f)) != ORION_OK)
    return st;
  for (size_t j = 0; j < c->nfunc; j++)
    if (j != func && !orion_cubin_get_func(c, j, &g) && g.text == f.text && g.value > f.value &&
        g.value < f.value + *size)
      *size = g.value - f.value;
  return ORION_OK;
}

orion_status orion_cubin_replace_func_text(orion_cubin *c, size_t func, const void *bytes, size_t size) {
  if (!c || func >= c->nfunc)
    return ORION_ERR_NOT_FOUND;
  if (!size || !bytes)
    return ORION_ERR_INVALID_ARG;
  orion_cubin_symbol s;
  orion_cubin_get_symbol(c, c->funcs[func], &s);
  size_t t = s.shndx;
  uint64_t old = c->sec[t].sh.sh_size;
  /* relocations must still fall inside the section */
  for (size_t r = 1; r < c->nsec; r++) {
    if (orion_cubin_reloc_count(c, r) == 0 || c->sec[r].sh.sh_info != t)
      continue;
    for (size_t k = 0; k < orion_cubin_reloc_count(c, r); k++) {
      orion_cubin_reloc rel;
      orion_cubin_get_reloc(c, r, k, &rel);
      if (rel.offset >= size)
        return ORION_ERR_RANGE;
    }
  }
  orion_status st = cb_set_data(c, t, bytes, size);
  if (st)
    return st;
  for (size_t k = 0; k < c->nfunc; k++) {
    orion_cubin_symbol o;
    orion_cubin_get_symbol(c, c->funcs[k], &o);
    if (o.shndx == t && o.value == 0 && o.size == old)
      orion_cubin_set_symbol_size(c, c->funcs[k], size);
  }
  return ORION_OK;
}

orion_status orion_cubin_set_func_attr(orion_cubin *c, size_t func, unsigned attr, uint32_t value) {
  if (!c || func >= c->nfunc)
    return ORION_ERR_NOT_FOUND;
  if (attr != ORION_EIATTR_REGCOUNT && attr != ORION_EIATTR_FRAME_SIZE && attr != ORION_EIATTR_MIN_STACK_SIZE &&
      attr != ORION_EIATTR_MAX_STACK_SIZE)
    return ORION_ERR_INVALID_ARG;
  if (!c->nvinfo)
    return ORION_ERR_NOT_FOUND;
  size_t sym = c->funcs[func];
  if (attr == ORION_EIATTR_REGCOUNT && value > 0xff)
    return ORION_ERR_RANGE;
  unsigned char pl[8];
  cb_wr32(pl, (uint32_t)sym);
  cb_wr32(pl + 4, value);
  long i = sym_attr_rec(c, attr, sym);
  orion_status st;
  if (i >= 0) {
    memcpy(c->sec[c->nvinfo].data + c->sec[c->nvinfo].rec[i] + 4, pl, 8); /* same size: in place */
    st = ORION_OK;
  } else {
    st = orion_cubin_nvinfo_append(c, c->nvinfo, ORION_EIFMT_SVAL, attr, 0, pl, sizeof pl);
  }
  if (st == ORION_OK && attr == ORION_EIATTR_REGCOUNT) {
    orion_cubin_symbol s;
    orion_cubin_get_symbol(c, sym, &s);
    Elf64_Shdr *sh = &c->sec[s.shndx].sh;
    if (sh->sh_info >> 24)
      sh->sh_info = (sh->sh_info & 0xffffffu) | value << 24;
  }
  return st;
}
