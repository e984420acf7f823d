/* test_cubin.c - orion_cubin on a real cubin (kernels.cu, nvcc -cubin
 * -arch=sm_90, built by CMake) and on corrupted copies of it.
 *
 *   test_cubin <kernels.cubin> [cuobjdump] [nvdisasm]
 *
 * Checks: facts read by hand from the cubin and ptxas -v (sm_90; kernel
 * names; launch bounds 256x1x1; static shared memory = the 512 B ptxas
 * reports + sm_90's 1 KB reserve; __maxnreg__(32) gives MAXREG_COUNT 32,
 * REGCOUNT <= 32 and a frame; the callee's local symbol sits in its
 * kernel's text); identity write; every edit API (text growth, EIATTR
 * offsets, REGCOUNT, NOBITS size, symbol size, relocation offset, unknown
 * attribute) survives a write + re-parse, and the edited file still passes
 * cuobjdump -elf and nvdisasm (exit 0) and cuobjdump shows the new values;
 * every name of ORION_EIATTR_LIST is the one cuobjdump -elf prints for its
 * code (a probe cubin carrying one record per code);
 * malformed inputs (every truncation, bad offsets and sizes, bad records,
 * foreign machine, fatbinary magic, not ELF) fail with a message, no crash.
 * Exit 77 when the cubin could not be built (no nvcc).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "orion/cubin.h"

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(sz > 0 ? (size_t)sz : 1);
  *n = b ? fread(b, 1, (size_t)sz, f) : 0;
  fclose(f);
  return b;
}

static size_t func_by_name(const orion_cubin *c, const char *name, orion_cubin_func *f) {
  for (size_t i = 0; i < orion_cubin_func_count(c); i++)
    if (orion_cubin_get_func(c, i, f) == ORION_OK && strcmp(f->name, name) == 0)
      return i;
  memset(f, 0, sizeof *f);
  return (size_t)-1;
}

/* Run cmd; return its exit status and its stdout (malloc'd) in *out. */
static int run(const char *cmd, char **out) {
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  size_t n = 0, cap = 1 << 16;
  char *b = malloc(cap);
  size_t r;
  while (b && (r = fread(b + n, 1, cap - n - 1, p)) > 0) {
    n += r;
    if (n + 1 == cap) {
      char *nb = realloc(b, cap *= 2);
      if (!nb)
        break;
      b = nb;
    }
  }
  if (b)
    b[n] = 0;
  int st = pclose(p);
  if (out)
    *out = b;
  else
    free(b);
  return st;
}

static void check_facts(const orion_cubin *c) {
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  CHECK(h.sm == 90, "sm %u", h.sm);
  CHECK(h.abi_version == 8 && h.osabi == 0x41, "abi %u osabi 0x%x", h.abi_version, h.osabi);
  CHECK(h.type == 2, "ET_EXEC expected, type %u", h.type);
  CHECK(((h.flags >> 8) & 0xff) == 90, "e_flags 0x%x", h.flags);

  orion_cubin_func b, d, s, callee;
  size_t ib = func_by_name(c, "_Z8k_boundsPfi", &b);
  size_t id = func_by_name(c, "_Z5k_dynPf", &d);
  size_t is = func_by_name(c, "_Z7k_spillPd", &s);
  size_t icallee = func_by_name(c, "$_Z8k_boundsPfi$_Z10dot_prefixPKfi", &callee);
  CHECK(ib != (size_t)-1 && id != (size_t)-1 && is != (size_t)-1, "kernels missing");
  CHECK(icallee != (size_t)-1 && !callee.is_kernel, "callee missing or marked a kernel");
  CHECK(b.is_kernel && d.is_kernel && s.is_kernel, "kernel flags");
  CHECK(callee.text == b.text && callee.value > 0 && callee.value + callee.size <= b.size,
        "callee inside its kernel's text: text %zu/%zu value 0x%llx", callee.text, b.text,
        (unsigned long long)callee.value);
  CHECK(b.max_threads[0] == 256 && b.max_threads[1] == 1 && b.max_threads[2] == 1, "max threads %lld",
        (long long)b.max_threads[0]);
  CHECK(d.max_threads[0] == -1, "k_dyn has no launch bounds");
  CHECK(b.shared_size == 512 + 1024, "k_bounds smem %llu", (unsigned long long)b.shared_size);
  CHECK(d.shared_size == 1024, "k_dyn smem %llu", (unsigned long long)d.shared_size);
  CHECK(s.maxreg_count == 32 && s.regcount > 0 && s.regcount <= 32, "k_spill maxreg %lld regs %lld",
        (long long)s.maxreg_count, (long long)s.regcount);
  CHECK(s.frame_size > 0 && s.frame_size % 8 == 0 && s.min_stack_size >= s.frame_size, "k_spill frame %lld stack %lld",
        (long long)s.frame_size, (long long)s.min_stack_size);
  CHECK(b.frame_size == 0 && b.maxreg_count == 255, "k_bounds frame %lld maxreg %lld", (long long)b.frame_size,
        (long long)b.maxreg_count);
  CHECK(b.regcount > 10 && d.regcount > 0, "regcounts %lld %lld", (long long)b.regcount, (long long)d.regcount);
  CHECK(b.regs_shinfo == 0, "sm_90: no register count in sh_info (%u)", b.regs_shinfo);
  /* exit offsets: 16-byte aligned instructions inside the kernel */
  CHECK(b.n_exit == 2 && d.n_exit >= 1, "exits %zu %zu", b.n_exit, d.n_exit);
  uint32_t offs[8];
  size_t n = 0;
  CHECK(orion_cubin_kernel_offsets(c, ib, ORION_EIATTR_EXIT_INSTR_OFFSETS, offs, 8, &n) == ORION_OK && n == 2,
        "exit list");
  for (size_t k = 0; k < n && k < 8; k++)
    CHECK(offs[k] % 16 == 0 && offs[k] < b.size, "exit offset 0x%x", offs[k]);
  const unsigned char *text;
  size_t tsize;
  CHECK(orion_cubin_func_text(c, ib, &text, &tsize) == ORION_OK && tsize == b.size, "func text");
  CHECK(orion_eiattr_name(0x2f) && strcmp(orion_eiattr_name(0x2f), "EIATTR_REGCOUNT") == 0, "name table");
  CHECK(orion_eiattr_name(0x5f) == NULL, "0x5f is unknown to cuobjdump 13.0 too");
  CHECK(orion_cubin_find_section(c, ".nv.info") != 0, ".nv.info");
  CHECK(orion_strerror(ORION_ERR_TRUNCATED)[0] && orion_strerror((orion_status)999)[0],
        "strerror");
}

static void check_identity(const orion_cubin *c, const unsigned char *orig, size_t n) {
  unsigned char *out;
  size_t m;
  CHECK(orion_cubin_write(c, &out, &m) == ORION_OK, "write");
  CHECK(m == n && memcmp(out, orig, n) == 0, "identity write differs (%zu vs %zu bytes)", m, n);
  free(out);
}

/* Apply one edit of each kind, write, re-parse, check they stuck. */
static void check_edits(const unsigned char *orig, size_t n, const char *dir, const char *cuobjdump,
                        const char *nvdisasm) {
  orion_cubin *c;
  orion_cubin_diag dg;
  if (orion_cubin_parse(orig, n, &c, &dg) != ORION_OK)
    return;
  orion_cubin_func b, d;
  size_t ib = func_by_name(c, "_Z8k_boundsPfi", &b);
  size_t id = func_by_name(c, "_Z5k_dynPf", &d);
  /* grow k_dyn's code by 8 copies of its last instruction (the BRA-to-self
   * tail ptxas ends every function with) */
  const unsigned char *text;
  size_t tsize;
  orion_cubin_func_text(c, id, &text, &tsize);
  unsigned char *grown = malloc(tsize + 128);
  memcpy(grown, text, tsize);
  for (int k = 0; k < 8; k++)
    memcpy(grown + tsize + 16 * k, text + tsize - 16, 16);
  CHECK(orion_cubin_replace_func_text(c, id, grown, tsize + 128) == ORION_OK, "replace text");
  uint32_t exits[3] = {0, 0, 0};
  size_t nex = 0;
  orion_cubin_kernel_offsets(c, ib, ORION_EIATTR_EXIT_INSTR_OFFSETS, exits, 2, &nex);
  exits[2] = 0x10;
  CHECK(orion_cubin_set_kernel_offsets(c, ib, ORION_EIATTR_EXIT_INSTR_OFFSETS, exits, 3) == ORION_OK,
        "set exit offsets");
  CHECK(orion_cubin_set_func_attr(c, ib, ORION_EIATTR_REGCOUNT, 40) == ORION_OK, "set regcount");
  CHECK(orion_cubin_set_func_attr(c, ib, ORION_EIATTR_MAX_STACK_SIZE, 96) == ORION_OK, "append max stack");
  CHECK(orion_cubin_set_nobits_size(c, b.shared, b.shared_size + 4096) == ORION_OK, "smem");
  const unsigned char unknown[5] = {1, 2, 3, 4, 5};
  CHECK(orion_cubin_nvinfo_append(c, d.nvinfo, ORION_EIFMT_SVAL, 0xee, 0, unknown, 5) == ORION_OK,
        "append unknown");
  size_t rel = orion_cubin_find_section(c, ".rela.debug_frame");
  orion_cubin_reloc r0;
  CHECK(orion_cubin_get_reloc(c, rel, 0, &r0) == ORION_OK, "reloc 0");
  CHECK(orion_cubin_set_reloc_offset(c, rel, 0, r0.offset) == ORION_OK, "reloc offset");
  CHECK(orion_cubin_set_reloc_offset(c, rel, 0, 1u << 30) == ORION_ERR_RANGE, "reloc offset range");
  unsigned char *out;
  size_t m;
  CHECK(orion_cubin_write(c, &out, &m) == ORION_OK && m > n, "write edited (%zu -> %zu)", n, m);
  orion_cubin_free(c);

  orion_cubin *e;
  CHECK(orion_cubin_parse(out, m, &e, &dg) == ORION_OK, "re-parse edited: %s", dg.msg);
  orion_cubin_func b2, d2;
  func_by_name(e, "_Z8k_boundsPfi", &b2);
  func_by_name(e, "_Z5k_dynPf", &d2);
  CHECK(d2.size == d.size + 128, "k_dyn symbol size 0x%llx", (unsigned long long)d2.size);
  CHECK(b2.regcount == 40 && b2.max_stack_size == 96, "regcount %lld max stack %lld", (long long)b2.regcount,
        (long long)b2.max_stack_size);
  CHECK(b2.n_exit == 3 && b2.shared_size == b.shared_size + 4096, "exits %zu smem %llu", b2.n_exit,
        (unsigned long long)b2.shared_size);
  orion_eiattr_rec last;
  size_t nr = orion_cubin_nvinfo_count(e, d2.nvinfo);
  CHECK(orion_cubin_nvinfo_get(e, d2.nvinfo, nr - 1, &last) == ORION_OK && last.attr == 0xee &&
            last.value == 5 && memcmp(last.payload, unknown, 5) == 0,
        "unknown attribute kept");
  /* untouched sections keep their bytes */
  orion_cubin *o;
  orion_cubin_parse(orig, n, &o, &dg);
  size_t ck = orion_cubin_find_section(o, ".nv.constant0._Z8k_boundsPfi");
  orion_cubin_section s1, s2;
  orion_cubin_get_section(o, ck, &s1);
  orion_cubin_get_section(e, ck, &s2);
  CHECK(s1.size == s2.size && memcmp(s1.data, s2.data, s1.size) == 0 && s2.offset != s1.offset,
        "constant bank moved and kept (0x%llx -> 0x%llx)", (unsigned long long)s1.offset,
        (unsigned long long)s2.offset);
  orion_cubin_free(o);
  orion_cubin_free(e);

  if (cuobjdump && nvdisasm) {
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/test_cubin_edited.cubin", dir);
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(out, 1, m, f);
      fclose(f);
    }
    char *txt = NULL;
    snprintf(cmd, sizeof cmd, "'%s' -elf '%s' 2>&1", cuobjdump, path);
    int st = run(cmd, &txt);
    CHECK(st == 0, "cuobjdump -elf on the edited cubin: status %d", st);
    CHECK(txt && strstr(txt, "register count: 40"), "cuobjdump shows the new register count");
    CHECK(txt && strstr(txt, "EIATTR_MAX_STACK_SIZE"), "cuobjdump shows the appended record");
    free(txt);
    snprintf(cmd, sizeof cmd, "'%s' '%s' 2>&1", nvdisasm, path);
    st = run(cmd, &txt);
    CHECK(st == 0, "nvdisasm on the edited cubin: status %d: %.300s", st, txt ? txt : "");
    free(txt);
  }
  free(out);
  free(grown);
}

/* The EIATTR name table against cuobjdump: k_dyn's .nv.info.<k> is
 * replaced by one HVAL record per known code, and cuobjdump -elf must name
 * each the way orion_eiattr_name() does. */
static void check_names_with_cuobjdump(const unsigned char *orig, size_t n, const char *dir, const char *cuobjdump) {
  static const unsigned codes[] = {
#define CODE(name, code) code,
      ORION_EIATTR_LIST(CODE)
#undef CODE
  };
  size_t ncodes = sizeof codes / sizeof codes[0];
  orion_cubin *c;
  if (orion_cubin_parse(orig, n, &c, NULL) != ORION_OK)
    return;
  orion_cubin_func d;
  func_by_name(c, "_Z5k_dynPf", &d);
  while (orion_cubin_nvinfo_count(c, d.nvinfo))
    orion_cubin_nvinfo_remove(c, d.nvinfo, 0);
  for (size_t k = 0; k < ncodes; k++)
    orion_cubin_nvinfo_append(c, d.nvinfo, ORION_EIFMT_HVAL, codes[k], 0x1234, NULL, 0);
  unsigned char *out;
  size_t m;
  CHECK(orion_cubin_write(c, &out, &m) == ORION_OK, "write probe");
  orion_cubin_free(c);
  char path[4096], cmd[8192];
  snprintf(path, sizeof path, "%s/test_cubin_names.cubin", dir);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(out, 1, m, f);
    fclose(f);
  }
  free(out);
  snprintf(cmd, sizeof cmd, "'%s' -elf '%s' 2>&1", cuobjdump, path);
  char *txt = NULL;
  CHECK(run(cmd, &txt) == 0 && txt, "cuobjdump -elf on the name probe");
  const char *p = txt ? strstr(txt, "\n.nv.info._Z5k_dynPf\n") : NULL;
  CHECK(p != NULL, "probe section in cuobjdump's output");
  size_t k = 0, same = 0;
  while (p && k < ncodes && (p = strstr(p, "Attribute:\t"))) {
    p += strlen("Attribute:\t");
    size_t len = strcspn(p, "\n");
    const char *mine = orion_eiattr_name(codes[k]);
    if (mine && strlen(mine) == len && strncmp(p, mine, len) == 0)
      same++;
    else
      fprintf(stderr, "code 0x%02x: cuobjdump says %.*s, table says %s\n", codes[k], (int)len, p, mine);
    k++;
  }
  CHECK(k == ncodes && same == ncodes, "%zu of %zu EIATTR names agree with cuobjdump", same, ncodes);
  printf("EIATTR names: %zu of %zu agree with cuobjdump\n", same, ncodes);
  free(txt);
}

/* orion_cubin_rename_function: the symbol and its sections follow, in
 * place; the same bytes otherwise; refusals leave the cubin unchanged. */
static void check_rename(const unsigned char *orig, size_t n) {
  orion_cubin *c;
  if (orion_cubin_parse(orig, n, &c, NULL) != ORION_OK)
    return;
  CHECK(orion_cubin_rename_function(c, "_Z5k_dynPf", "_Z5k_dynPfX") == ORION_ERR_INVALID_ARG,
        "rename to another length refused");
  CHECK(orion_cubin_rename_function(c, "_Z5k_dynPf", "_Z5k_dynPf") == ORION_ERR_INVALID_ARG,
        "rename to itself refused");
  CHECK(orion_cubin_rename_function(c, "_Z5k_nonePf", "_Z5k_nonXPf") == ORION_ERR_NOT_FOUND,
        "rename of a missing function refused");
  size_t before = orion_cubin_section_count(c);
  CHECK(orion_cubin_rename_function(c, "_Z5k_dynPf", "_Z5k_dyxPf") == ORION_OK, "rename k_dyn");
  CHECK(orion_cubin_find_symbol(c, "_Z5k_dynPf") == 0 && orion_cubin_find_symbol(c, "_Z5k_dyxPf"),
        "the symbol has the new name");
  CHECK(orion_cubin_find_section(c, ".text._Z5k_dyxPf") && orion_cubin_find_section(c, ".nv.info._Z5k_dyxPf") &&
            !orion_cubin_find_section(c, ".text._Z5k_dynPf"),
        "its sections have the new name");
  unsigned char *out;
  size_t m;
  CHECK(orion_cubin_write(c, &out, &m) == ORION_OK && m == n, "renamed cubin written, same size");
  orion_cubin *back = NULL;
  CHECK(orion_cubin_parse(out, m, &back, NULL) == ORION_OK && orion_cubin_find_symbol(back, "_Z5k_dyxPf") &&
            orion_cubin_section_count(back) == before,
        "renamed cubin parses back");
  size_t diff = 0;
  for (size_t i = 0; i < n && i < m; i++)
    diff += orig[i] != out[i];
  CHECK(diff >= 2, "one byte per occurrence (symbol, sections): %zu", diff);
  CHECK(orion_cubin_rename_function(back, "_Z8k_boundsPfi", "_Z5k_dyxPf") == ORION_ERR_INVALID_ARG,
        "rename to a taken name refused");
  orion_cubin_free(back);
  free(out);
  orion_cubin_free(c);
}

static void expect_fail(const unsigned char *b, size_t n, orion_status want, const char *what) {
  orion_cubin *c = NULL;
  orion_cubin_diag dg;
  orion_status st = orion_cubin_parse(b, n, &c, &dg);
  CHECK(st != ORION_OK && (want == ORION_OK || st == want) && dg.msg[0] && !c,
        "%s: status %d (%s), want %d", what, st, dg.msg, want);
  orion_cubin_free(c);
}

static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static void put16(unsigned char *p, uint16_t v) { memcpy(p, &v, 2); }

static void check_malformed(const unsigned char *orig, size_t n) {
  unsigned char *b = malloc(n);
  /* every truncation fails */
  int all = 1;
  for (size_t k = 0; k < n; k++) {
    orion_cubin *c = NULL;
    orion_cubin_diag dg;
    if (orion_cubin_parse(orig, k, &c, &dg) == ORION_OK || !dg.msg[0]) {
      all = 0;
      fprintf(stderr, "truncated to %zu bytes: accepted or no message\n", k);
      orion_cubin_free(c);
      break;
    }
  }
  CHECK(all, "every truncation rejected");
  expect_fail((const unsigned char *)"hello", 5, ORION_ERR_NOT_ELF, "not ELF");
  const unsigned char fat[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 0x10, 0};
  expect_fail(fat, sizeof fat, ORION_ERR_FATBIN, "fatbinary");
#define MUT(what, want, stmt)     \
  do {                            \
    memcpy(b, orig, n);           \
    stmt;                         \
    expect_fail(b, n, want, what); \
  } while (0)
  MUT("x86-64", ORION_ERR_NOT_CUDA, put16(b + 18, 62));
  MUT("ELF32", ORION_ERR_UNSUPPORTED, b[4] = 1);
  MUT("big endian", ORION_ERR_UNSUPPORTED, b[5] = 2);
  MUT("sm_0", ORION_ERR_UNSUPPORTED, b[49] = 0);
  MUT("e_shoff past end", ORION_OK, put64(b + 40, n));
  MUT("e_phoff past end", ORION_OK, put64(b + 32, (uint64_t)-8));
  MUT("e_shentsize", ORION_OK, put16(b + 58, 40));
  MUT("e_shstrndx", ORION_OK, put16(b + 62, 200));
  uint64_t shoff;
  memcpy(&shoff, orig + 40, 8);
  orion_cubin *c;
  orion_cubin_parse(orig, n, &c, NULL);
  size_t info = orion_cubin_find_section(c, ".nv.info._Z8k_boundsPfi");
  size_t symtab = orion_cubin_find_section(c, ".symtab");
  orion_cubin_section si;
  orion_cubin_get_section(c, info, &si);
  orion_cubin_free(c);
  unsigned char *sh = b + shoff + info * 64;
  MUT("section offset past end", ORION_OK, put64(b + shoff + info * 64 + 24, n - 4));
  MUT("section size past end", ORION_OK, put64(b + shoff + info * 64 + 32, n));
  MUT("overlapping sections", ORION_ERR_BAD_SECTION,
      put64(b + shoff + info * 64 + 24, si.offset - 8));
  MUT("symtab entsize", ORION_ERR_BAD_SYMBOL, put64(b + shoff + symtab * 64 + 56, 16));
  MUT("nv.info bad format", ORION_ERR_BAD_NVINFO, b[si.offset] = 9);
  MUT("nv.info SVAL too long", ORION_ERR_BAD_NVINFO, put16(b + si.offset + 2, 0x7fff));
  MUT("nv.info size not a record multiple", ORION_ERR_BAD_NVINFO,
      put64(b + shoff + info * 64 + 32, si.size - 2));
  (void)sh;
  /* unknown attributes are fine */
  memcpy(b, orig, n);
  b[si.offset + 1] = 0xfe;
  orion_cubin *u = NULL;
  CHECK(orion_cubin_parse(b, n, &u, NULL) == ORION_OK, "unknown attribute accepted");
  unsigned char *out;
  size_t m;
  CHECK(u && orion_cubin_write(u, &out, &m) == ORION_OK && m == n && memcmp(out, b, n) == 0,
        "unknown attribute round-trips");
  if (u)
    free(out);
  orion_cubin_free(u);
  free(b);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_cubin <cubin> [cuobjdump nvdisasm]\n");
    return 2;
  }
  size_t n = 0;
  unsigned char *orig = slurp(argv[1], &n);
  if (!orig || n == 0) {
    printf("skipped: %s not built (no nvcc?)\n", argv[1]);
    free(orig);
    return 77;
  }
  orion_cubin *c = NULL;
  orion_cubin_diag dg;
  orion_status st = orion_cubin_parse(orig, n, &c, &dg);
  CHECK(st == ORION_OK, "parse %s: %s", argv[1], dg.msg);
  if (st == ORION_OK) {
    check_facts(c);
    check_identity(c, orig, n);
    orion_cubin_free(c);
    const char *cuobjdump = argc > 3 && argv[2][0] ? argv[2] : NULL;
    const char *nvdisasm = argc > 3 && argv[3][0] ? argv[3] : NULL;
    if (!cuobjdump || !nvdisasm)
      printf("note: cuobjdump/nvdisasm not given: the edited cubin is not checked with them\n");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", argv[1]);
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = 0;
    else
      strcpy(dir, ".");
    check_edits(orig, n, dir, cuobjdump, nvdisasm);
    if (cuobjdump)
      check_names_with_cuobjdump(orig, n, dir, cuobjdump);
    check_rename(orig, n);
    check_malformed(orig, n);
  }
  free(orig);
  return CHECK_DONE();
}
