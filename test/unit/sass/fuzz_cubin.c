/* fuzz_cubin.c - libFuzzer target for the cubin reader and writer (what
 * `orion-sass info`, `dump` and `rewrite` run).  Built and run by fuzz.sh
 * with clang -fsanitize=fuzzer,address,undefined.
 *
 * Properties checked on every input:
 *  - parse fails with a message, or succeeds and then every accessor
 *    (sections, symbols, relocations, EIATTR records, functions, offset
 *    lists, function text) stays inside the cubin's memory (ASan);
 *  - an accepted input written back unchanged is byte-identical to it;
 *  - after edits (grow the first function's text by one instruction, grow
 *    a NOBITS section, rewrite an exit list) the written cubin parses
 *    again, and writing that is idempotent;
 *  - the frame-to-shared rewrite (`orion-sass rewrite --smem-frame
 *    --no-dynamic-smem --block 128`: sass/rewrite/frame.c, stack.c, rewrite.c) on
 *    every kernel of an sm_80, sm_86, sm_89 or sm_90 input refuses or succeeds without touching
 *    memory outside its buffers; after successful rewrites the cubin is
 *    written, parses again and can be analysed again; once more with
 *    partial placement and slot colouring (--partial --colour) below a
 *    shared-memory limit the input's size picks, and a register limit it
 *    picks too (none, or 255: the on-chip part's base register may then
 *    raise any kernel's count); and once more with the region in dynamic
 *    shared memory (--dynamic, partial, a per-warp limit the input picks).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/cubin.h"
#include "orion/sassrw.h"

static volatile unsigned sink;

static void walk(const orion_cubin *c) {
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  sink += h.sm;
  for (size_t i = 0; i < orion_cubin_section_count(c); i++) {
    orion_cubin_section s;
    orion_cubin_get_section(c, i, &s);
    sink += (unsigned)strlen(s.name);
    if (s.data && s.size)
      sink += s.data[0] + s.data[s.size - 1];
    for (size_t k = 0; k < orion_cubin_reloc_count(c, i); k++) {
      orion_cubin_reloc r;
      orion_cubin_get_reloc(c, i, k, &r);
      orion_cubin_symbol sym;
      if (orion_cubin_get_symbol(c, r.sym, &sym) == ORION_OK)
        sink += (unsigned)strlen(sym.name);
    }
    for (size_t k = 0; k < orion_cubin_nvinfo_count(c, i); k++) {
      orion_eiattr_rec r;
      orion_cubin_nvinfo_get(c, i, k, &r);
      if (r.payload && r.value)
        sink += r.payload[r.value - 1];
      const char *n = orion_eiattr_name(r.attr);
      sink += n ? (unsigned)strlen(n) : 0;
    }
  }
  for (size_t i = 0; i < orion_cubin_symbol_count(c); i++) {
    orion_cubin_symbol s;
    orion_cubin_get_symbol(c, i, &s);
    sink += (unsigned)strlen(s.name);
  }
  for (size_t i = 0; i < orion_cubin_func_count(c); i++) {
    orion_cubin_func f;
    orion_cubin_get_func(c, i, &f);
    const unsigned char *t;
    size_t n;
    if (orion_cubin_func_text(c, i, &t, &n) == ORION_OK && n)
      sink += t[0] + t[n - 1];
    uint32_t offs[4];
    size_t m;
    if (f.is_kernel)
      orion_cubin_kernel_offsets(c, i, ORION_EIATTR_EXIT_INSTR_OFFSETS, offs, 4, &m);
  }
}

static void edit(orion_cubin *c) {
  for (size_t i = 0; i < orion_cubin_func_count(c); i++) {
    orion_cubin_func f;
    orion_cubin_get_func(c, i, &f);
    orion_cubin_section t;
    orion_cubin_get_section(c, f.text, &t);
    unsigned char *b = malloc(t.size + 16);
    if (!b)
      return;
    memcpy(b, t.data, t.size);
    memset(b + t.size, 0, 16);
    orion_cubin_replace_func_text(c, i, b, t.size + 16);
    free(b);
    if (f.is_kernel) {
      uint32_t offs[2] = {0, 16};
      orion_cubin_set_kernel_offsets(c, i, ORION_EIATTR_EXIT_INSTR_OFFSETS, offs, 2);
      if (f.shared)
        orion_cubin_set_nobits_size(c, f.shared, f.shared_size + 256);
      orion_cubin_set_func_attr(c, i, ORION_EIATTR_REGCOUNT, 40);
    }
    return;
  }
}

#define FAIL(...)                 \
  do {                            \
    fprintf(stderr, __VA_ARGS__); \
    fputc('\n', stderr);          \
    abort();                      \
  } while (0)

/* What `orion-sass rewrite --smem-frame` does, on a fresh parse, with the
 * options o. */
static void rewrite_all(const uint8_t *data, size_t size, const orion_sassrw_opts *o) {
  orion_cubin *c = NULL;
  orion_cubin_diag d;
  orion_sassrw *a = NULL;
  if (orion_cubin_parse(data, size, &c, &d) != ORION_OK)
    return;
  if (orion_sassrw_analyze(c, &a) != ORION_OK) {
    orion_cubin_free(c);
    return;
  }
  int ok = 1, any = 0;
  for (size_t i = 0; ok && i < orion_sassrw_count(a); i++) {
    const orion_sassrw_func *f = orion_sassrw_get(a, i);
    if (!f->is_kernel)
      continue;
    orion_sassrw_result r;
    if (orion_sassrw_rewrite_kernel(c, a, i, o, &r) != ORION_OK)
      ok = 0; /* half-edited: the CLI discards it, so do we */
    else if (!r.msg[0])
      FAIL("rewrite without a message");
    else
      any |= r.rewritten;
  }
  orion_sassrw_free(a);
  if (ok && any) {
    unsigned char *out;
    size_t n;
    if (orion_cubin_write(c, &out, &n) != ORION_OK)
      FAIL("writing a rewritten cubin failed");
    orion_cubin *e = NULL;
    if (orion_cubin_parse(out, n, &e, &d) != ORION_OK)
      FAIL("rewritten cubin does not parse again: %s", d.msg);
    if (orion_sassrw_analyze(e, &a) == ORION_OK)
      orion_sassrw_free(a);
    orion_cubin_free(e);
    free(out);
  }
  orion_cubin_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  orion_cubin *c = NULL;
  orion_cubin_diag d;
  if (orion_cubin_parse(data, size, &c, &d) != ORION_OK) {
    if (!d.msg[0])
      FAIL("a failure without a message"); /* every failure explains itself */
    return 0;
  }
  walk(c);
  unsigned char *out;
  size_t n;
  if (orion_cubin_write(c, &out, &n) != ORION_OK)
    FAIL("identity write failed");
  if (n != size || memcmp(out, data, size) != 0)
    FAIL("identity write differs (%zu -> %zu bytes)", size, n); /* must be byte-exact */
  free(out);
  edit(c);
  if (orion_cubin_write(c, &out, &n) != ORION_OK)
    FAIL("edited write failed");
  orion_cubin *e = NULL;
  if (orion_cubin_parse(out, n, &e, &d) != ORION_OK) {
    FILE *f = fopen("edited-last.cubin", "wb");
    if (f) {
      fwrite(out, 1, n, f);
      fclose(f);
    }
    FAIL("edited cubin does not parse again: %s", d.msg);
  }
  walk(e);
  unsigned char *out2;
  size_t n2;
  if (orion_cubin_write(e, &out2, &n2) != ORION_OK || n2 != n || memcmp(out, out2, n) != 0)
    FAIL("writing the re-parsed edited cubin is not idempotent");
  free(out2);
  free(out);
  orion_cubin_free(e);
  orion_cubin_free(c);
  orion_sassrw_opts o = {.layout = ORION_SASSRW_LAYOUT_AUTO, .no_dynamic_smem = 1, .block = 128};
  rewrite_all(data, size, &o);
  /* partial placement and slot colouring, below a limit the input picks */
  o.partial = o.colour = 1;
  o.smem_limit = 0x400u + (uint32_t)(size % 0x3000u);
  o.reg_limit = size % 2 ? 255u : 0u;
  rewrite_all(data, size, &o);
  /* the region in dynamic shared memory, warp by warp, within a per-warp
   * limit the input picks (odd sizes: none) */
  o.dynamic = 1;
  o.colour = size % 3 == 0;
  o.warp_limit = size % 2 ? 0u : 0x80u * (uint32_t)(1 + size % 64);
  rewrite_all(data, size, &o);
  return 0;
}
