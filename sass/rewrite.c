/* rewrite.c - move a kernel's stack frame from local to shared memory
 * (include/orion/sassrw.h has the layout and the contract).
 *
 * Algorithm for a kernel with a frame and no calls:
 *   1. check every refusal condition before touching the cubin;
 *   2. build the new code: the prologue (10 instructions, below), then the
 *      old code with LDL/STL [R1+off] -> LDS/STS [R1+off'], the entry's
 *      LDC R1 and R1 moves -> NOP (keeping stall, yield and wait mask; the
 *      scoreboards they set are dropped, and waiting on an idle scoreboard
 *      is a no-op);
 *   3. apply: replace the text, shift by the prologue size every absolute
 *      code offset (relocations, symbols, EXIT/S2RCTAID lists, annotations,
 *      the .debug_frame FDE range), grow .nv.shared.<k>, zero the frame and
 *      stack sizes.
 * Prologue (every register is dead at a kernel's entry; scoreboards 0-5
 * are set by the six variable-latency reads and the first IMAD waits on
 * all of them; stall 15 everywhere, as ORION_SASS_CTRL_SAFE):
 *   S2R R0, SR_TID.X ; S2R R2, SR_TID.Y ; S2R R3, SR_TID.Z
 *   S2R R4, SR_CgaCtaId ; LDC R5, c[0x0][0x0] ; LDC R6, c[0x0][0x4]
 *   IMAD R3, R3, R6, R2      (tid.z * ntid.y + tid.y)
 *   IMAD R3, R3, R5, R0      (linear thread index t)
 *   IMAD R3, R3, G, RZ
 *   IMAD R1, R4, 0x1000000, R3   (CTA rank << 24 | t * G)
 * The LDC template is the kernel's own LDC R1, c[0x0][X].
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/sass.h"
#include "orion/sassrw.h"

#define SR_CGACTAID 0x88
#define PROLOGUE 10
#define STATIC_SMEM_MAX 0xc000u /* 48 KB of static shared memory per block */
/* sm_90, ptxas 13: static shared data starts after a 1 KB reserved area
 * (.nv.shared.reserved.0; the code forms addresses from 0x400) and the
 * .nv.shared.<k> size counts that area (0x600 for 512 bytes of data). */
#define SM90_RESERVED_SMEM 0x400u
#define SHF_WAI 0x43u /* SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, as ptxas */

/* NOP as ptxas 13 emits it for sm_90. */
static const orion_sass_word W_NOP = {0x0000000000007918ull, 0x000fc00000000000ull};

/* .nv.info.<k> attributes that hold no code offsets (kept as they are),
 * and the ones the rewrite shifts. */
static int attr_without_offsets(unsigned a) {
  switch (a) {
  case ORION_EIATTR_CUDA_API_VERSION: case ORION_EIATTR_KPARAM_INFO: case ORION_EIATTR_KPARAM_INFO_V2:
  case ORION_EIATTR_PARAM_CBANK: case ORION_EIATTR_SW_WAR: case ORION_EIATTR_MAX_THREADS:
  case ORION_EIATTR_REQNTID: case ORION_EIATTR_CBANK_PARAM_SIZE: case ORION_EIATTR_MAXREG_COUNT:
  case ORION_EIATTR_SPARSE_MMA_MASK: case ORION_EIATTR_NUM_BARRIERS: case ORION_EIATTR_CRS_STACK_SIZE:
    return 1;
  default:
    return 0;
  }
}

/* Add .nv.shared.<k> for kernel f, size bytes. */
static orion_cubin_status add_shared(orion_cubin *c, const orion_cubin_func *f, uint64_t size,
                                     unsigned align) {
  char name[512];
  if ((size_t)snprintf(name, sizeof name, ".nv.shared.%s", f->name) >= sizeof name)
    return ORION_CUBIN_ERR_RANGE;
  size_t idx;
  return orion_cubin_add_nobits_section(c, name, SHF_WAI, (uint32_t)f->text, align < 4 ? 4 : align,
                                        size, &idx);
}

static int shifted_list(unsigned a) {
  return a == ORION_EIATTR_EXIT_INSTR_OFFSETS || a == ORION_EIATTR_S2RCTAID_INSTR_OFFSETS;
}

#define REFUSE(...)                                          \
  do {                                                       \
    snprintf(res->msg, sizeof res->msg, __VA_ARGS__);        \
    goto done;                                               \
  } while (0)

static orion_status enc(const orion_sass_insn *x, unsigned char *dst) {
  orion_sass_word w;
  orion_status st = orion_sass_encode(x, &w);
  if (st == ORION_OK)
    orion_sass_word_store(w, dst);
  return st;
}

static orion_sass_insn nop_like(const orion_sass_insn *orig) {
  orion_sass_insn x;
  orion_sass_decode(W_NOP, &x);
  x.ctrl = orig->ctrl;
  x.ctrl.wbar = 7;
  x.ctrl.rbar = 7;
  x.ctrl.reuse = 0;
  return x;
}

/* Build the prologue into out (PROLOGUE * 16 bytes). */
static orion_status prologue(const orion_sass_insn *ldc_r1, unsigned gran, unsigned char *out) {
  orion_sass_insn p[PROLOGUE];
  orion_status st = ORION_OK;
  static const unsigned sr[4] = {ORION_SASS_SR_TID_X, ORION_SASS_SR_TID_Y, ORION_SASS_SR_TID_Z, SR_CGACTAID};
  static const unsigned rd[4] = {0, 2, 3, 4};
  for (unsigned k = 0; k < 4 && st == ORION_OK; k++)
    st = orion_sass_make_s2r(rd[k], sr[k], &p[k]);
  for (unsigned k = 0; k < 2; k++) { /* LDC R5, c[0x0][0x0] ; LDC R6, c[0x0][0x4] */
    p[4 + k] = *ldc_r1;
    for (unsigned i = 0; i < p[4 + k].nregs; i++)
      if (p[4 + k].regs[i].def && p[4 + k].regs[i].file == ORION_SASS_R)
        p[4 + k].regs[i].num = (uint8_t)(5 + k);
    p[4 + k].cbank_off = (int32_t)(4 * k);
    p[4 + k].ctrl = ORION_SASS_CTRL_SAFE;
  }
  for (unsigned k = 0; k < 6; k++) {
    p[k].ctrl.wbar = (uint8_t)k;
    p[k].ctrl.wait = 0;
  }
  if (st == ORION_OK)
    st = orion_sass_make_imad(3, 3, 6, 2, &p[6]);
  if (st == ORION_OK)
    st = orion_sass_make_imad(3, 3, 5, 0, &p[7]);
  if (st == ORION_OK)
    st = orion_sass_make_imad_imm(3, 3, gran, ORION_SASS_RZ, &p[8]);
  if (st == ORION_OK)
    st = orion_sass_make_imad_imm(ORION_SASS_SP, 4, 0x1000000u, 3, &p[9]);
  for (unsigned k = 0; st == ORION_OK && k < PROLOGUE; k++)
    st = enc(&p[k], out + 16 * k);
  return st;
}

orion_status orion_sassrw_rewrite_kernel(orion_cubin *c, const orion_sassrw *a, size_t func,
                                         const orion_sassrw_opts *opts, orion_sassrw_result *res) {
  if (!c || !a || !res)
    return ORION_ERR_INVALID_ARG;
  memset(res, 0, sizeof *res);
  const orion_sassrw_func *fr = orion_sassrw_get(a, func);
  orion_cubin_func f;
  if (!fr || orion_cubin_get_func(c, func, &f))
    return ORION_ERR_INVALID_ARG;
  unsigned char *code = NULL;
  orion_status st = ORION_OK;
  const unsigned char *text;
  size_t size;
  orion_cubin_section ts;

  /* ---- 1. refusals ---- */
  if (!f.is_kernel)
    REFUSE("not a kernel");
  if (!fr->n_local)
    REFUSE("no local-memory accesses: nothing to move");
  if (!fr->safe)
    REFUSE("unsafe: %s", fr->reason);
  if (fr->n_calls)
    REFUSE("has calls (the compressible stack is not implemented yet)");
  if (fr->r1_init_at < 0 || fr->r1_moves_outside_entry)
    REFUSE("R1 is not set up by one LDC and entry moves only");
  if (fr->subword || fr->misaligned)
    REFUSE("%s frame access", fr->subword ? "sub-word" : "misaligned");
  if (fr->r1_entry_delta > 0 || (uint64_t)(-fr->r1_entry_delta) < fr->frame_bytes || fr->slots[0].off < 0)
    REFUSE("frame access outside [R1, R1 + %" PRId64 ")", -fr->r1_entry_delta);
  if (!opts || !opts->no_dynamic_smem)
    REFUSE("may use dynamic shared memory (pass --no-dynamic-smem when it does not)");
  if (f.regcount < 7)
    REFUSE("fewer than 7 registers for the prologue");
  if (orion_cubin_get_section(c, f.text, &ts))
    return ORION_ERR_INTERNAL;
  if (f.value != 0 || f.size != ts.size)
    REFUSE("its text section holds other code");
  for (size_t k = 0; k < orion_cubin_func_count(c); k++) {
    orion_cubin_func g;
    if (k != func && !orion_cubin_get_func(c, k, &g) && g.text == f.text)
      REFUSE("its text section holds other functions");
  }
  int64_t thr = f.max_threads[0] >= 0 ? f.max_threads[0] * f.max_threads[1] * f.max_threads[2]
                : f.reqntid[0] >= 0    ? f.reqntid[0] * f.reqntid[1] * f.reqntid[2]
                                       : -1;
  int add_bound = 0;
  if (thr <= 0 && opts->block > 0 && opts->block <= 1024 && f.nvinfo) {
    thr = opts->block;
    add_bound = 1;
  }
  if (thr <= 0)
    REFUSE("no maximum block size (launch bounds / .maxntid)");
  for (size_t s = 1; s < orion_cubin_section_count(c); s++) {
    orion_cubin_section x;
    orion_cubin_get_section(c, s, &x);
    if ((!strncmp(x.name, ".debug_", 7) && strcmp(x.name, ".debug_frame")) || !strncmp(x.name, ".nv_debug", 9))
      REFUSE("debug section %s would go stale", x.name);
  }
  for (size_t k = 0; f.nvinfo && k < orion_cubin_nvinfo_count(c, f.nvinfo); k++) {
    orion_eiattr_rec r;
    orion_cubin_nvinfo_get(c, f.nvinfo, k, &r);
    if (r.fmt != ORION_EIFMT_SVAL || attr_without_offsets(r.attr) || shifted_list(r.attr))
      continue;
    if (r.attr == ORION_EIATTR_ANNOTATIONS && r.value % 8 == 0)
      continue;
    const char *nm = orion_eiattr_name(r.attr);
    REFUSE("EIATTR %s (0x%02x) may hold code offsets", nm ? nm : "?", r.attr);
  }
  unsigned gran = fr->max_access;
  if (!f.shared && !orion_cubin_find_section(c, ".nv.shared.reserved.0"))
    REFUSE("no .nv.shared section and no .nv.shared.reserved.0 to place one with");
  uint32_t region = f.shared ? (uint32_t)((f.shared_size + 15) & ~(uint64_t)15) : SM90_RESERVED_SMEM;
  uint64_t chunks = (fr->frame_bytes + gran - 1) / gran;
  uint64_t bytes = chunks * (uint64_t)thr * gran;
  if (region + bytes > STATIC_SMEM_MAX)
    REFUSE("needs %" PRIu64 " bytes of shared memory (%" PRIu64 " slots of %u bytes x %" PRId64
           " threads + %u), above the 48 KB static limit",
           region + bytes, chunks, gran, thr, region);

  /* ---- 2. new code ---- */
  if (orion_cubin_func_text(c, func, &text, &size))
    return ORION_ERR_INTERNAL;
  size_t P = PROLOGUE * 16, nsz = size + P;
  if (!(code = malloc(nsz)))
    return ORION_ERR_NOMEM;
  orion_sass_insn ldc;
  if (orion_sass_decode(orion_sass_word_load(text + fr->r1_init_at), &ldc) != ORION_OK)
    return free(code), ORION_ERR_INTERNAL;
  if ((st = prologue(&ldc, gran, code)) != ORION_OK) {
    orion_status e = st;
    st = ORION_OK; /* nothing changed yet: a refusal */
    REFUSE("prologue does not encode: %s", orion_strerror(e));
  }
  size_t moved = 0;
  for (size_t at = 0; at < size; at += 16) {
    unsigned char *dst = code + P + at;
    memcpy(dst, text + at, 16);
    orion_sass_insn x, y;
    if (orion_sass_decode(orion_sass_word_load(text + at), &x) != ORION_OK)
      continue; /* the analysis found none in a safe kernel */
    int is_init = (int64_t)at == fr->r1_init_at;
    int is_move = 0;
    if (x.op == ORION_SASS_OP_IADD3 || x.op == ORION_SASS_OP_VIADD)
      for (unsigned k = 0; k < x.nregs; k++)
        if (x.regs[k].def && x.regs[k].file == ORION_SASS_R && x.regs[k].num == ORION_SASS_SP)
          is_move = 1; /* the analysis allows no other writer of R1 */
    if (is_init || is_move) {
      y = nop_like(&x);
      st = enc(&y, dst);
    } else if (x.op == ORION_SASS_OP_LDL || x.op == ORION_SASS_OP_STL) {
      int64_t off = x.mem_off;
      int64_t noff = (int64_t)region + (off / gran) * thr * gran + off % gran;
      st = orion_sass_local_to_shared(&x, ORION_SASS_SP, (int32_t)noff, &y);
      if (st == ORION_OK)
        st = enc(&y, dst);
      moved++;
    }
    if (st != ORION_OK) {
      orion_status e = st;
      st = ORION_OK;
      REFUSE("instruction at +0x%zx does not encode: %s", at, orion_strerror(e));
    }
  }

  /* ---- 3. apply (errors from here on leave a half-edited cubin) ---- */
  res->region_off = region;
  res->region_bytes = (uint32_t)bytes;
  res->granule = gran;
  res->threads = (uint32_t)thr;
  res->prologue_insns = PROLOGUE;
  res->moved_accesses = moved;
  uint64_t old_size = size;
  /* offset lists and annotations, read before the text changes */
  size_t nk = f.nvinfo ? orion_cubin_nvinfo_count(c, f.nvinfo) : 0;
  for (size_t k = 0; k < nk; k++) {
    orion_eiattr_rec r;
    orion_cubin_nvinfo_get(c, f.nvinfo, k, &r);
    if (r.fmt != ORION_EIFMT_SVAL || !(shifted_list(r.attr) || r.attr == ORION_EIATTR_ANNOTATIONS))
      continue;
    unsigned char *buf = malloc(r.value ? r.value : 1);
    if (!buf) {
      st = ORION_ERR_NOMEM;
      REFUSE("out of memory");
    }
    memcpy(buf, r.payload, r.value);
    size_t step = r.attr == ORION_EIATTR_ANNOTATIONS ? 8 : 4, pos = step - 4;
    for (size_t o = pos; o + 4 <= r.value; o += step) {
      uint32_t v = (uint32_t)buf[o] | (uint32_t)buf[o + 1] << 8 | (uint32_t)buf[o + 2] << 16 |
                   (uint32_t)buf[o + 3] << 24;
      v += (uint32_t)P;
      for (int b = 0; b < 4; b++)
        buf[o + b] = (unsigned char)(v >> (8 * b));
    }
    orion_cubin_status cs = orion_cubin_nvinfo_set_payload(c, f.nvinfo, k, buf, r.value);
    free(buf);
    if (cs) {
      st = ORION_ERR_INTERNAL;
      REFUSE("cannot update %s", orion_eiattr_name(r.attr));
    }
  }
  if (orion_cubin_replace_func_text(c, func, code, nsz)) {
    st = ORION_ERR_INTERNAL;
    REFUSE("cannot replace the code");
  }
  for (size_t s = 1; s < orion_cubin_section_count(c); s++) {
    orion_cubin_section rs;
    orion_cubin_get_section(c, s, &rs);
    size_t nr = orion_cubin_reloc_count(c, s);
    for (size_t k = 0; k < nr; k++) {
      orion_cubin_reloc rel;
      orion_cubin_get_reloc(c, s, k, &rel);
      if (rs.info == f.text) {
        if (orion_cubin_set_reloc_offset(c, s, k, rel.offset + P)) {
          st = ORION_ERR_INTERNAL;
          REFUSE("cannot move a relocation");
        }
      } else if (rel.sym == f.sym && !strcmp(rs.name, ".rela.debug_frame") && rel.addend == 0) {
        /* FDE: initial location (relocated) then the 8-byte address range */
        size_t ds = orion_cubin_find_section(c, ".debug_frame");
        orion_cubin_section d;
        if (ds && !orion_cubin_get_section(c, ds, &d) && rel.offset + 16 <= d.size) {
          uint64_t range = 0;
          for (int b = 0; b < 8; b++)
            range |= (uint64_t)d.data[rel.offset + 8 + b] << (8 * b);
          if (range == old_size) {
            unsigned char *nd = malloc(d.size);
            if (!nd) {
              st = ORION_ERR_NOMEM;
              REFUSE("out of memory");
            }
            memcpy(nd, d.data, d.size);
            for (int b = 0; b < 8; b++)
              nd[rel.offset + 8 + b] = (unsigned char)((uint64_t)nsz >> (8 * b));
            orion_cubin_status cs = orion_cubin_replace_section_data(c, ds, nd, d.size);
            free(nd);
            if (cs) {
              st = ORION_ERR_INTERNAL;
              REFUSE("cannot update .debug_frame");
            }
          }
        }
      }
    }
  }
  for (size_t s = 1; s < orion_cubin_symbol_count(c); s++) {
    orion_cubin_symbol y;
    orion_cubin_get_symbol(c, s, &y);
    if (y.shndx == f.text && y.value > 0 && orion_cubin_set_symbol_value(c, s, y.value + P)) {
      st = ORION_ERR_INTERNAL;
      REFUSE("cannot move a symbol");
    }
  }
  if (f.shared ? orion_cubin_set_nobits_size(c, f.shared, region + bytes) != ORION_CUBIN_OK
               : add_shared(c, &f, region + bytes, gran) != ORION_CUBIN_OK) {
    st = ORION_ERR_INTERNAL;
    REFUSE("cannot %s the shared-memory section", f.shared ? "grow" : "add");
  }
  if (add_bound) {
    unsigned char mt[12] = {0};
    for (int b = 0; b < 4; b++)
      mt[b] = (unsigned char)((uint32_t)thr >> (8 * b));
    mt[4] = mt[8] = 1;
    if (orion_cubin_nvinfo_append(c, f.nvinfo, ORION_EIFMT_SVAL, ORION_EIATTR_MAX_THREADS, 12, mt, 12)) {
      st = ORION_ERR_INTERNAL;
      REFUSE("cannot add EIATTR_MAX_THREADS");
    }
  }
  static const unsigned zero_attrs[3] = {ORION_EIATTR_FRAME_SIZE, ORION_EIATTR_MIN_STACK_SIZE,
                                         ORION_EIATTR_MAX_STACK_SIZE};
  int64_t have[3] = {f.frame_size, f.min_stack_size, f.max_stack_size};
  for (int k = 0; k < 3; k++)
    if (have[k] > 0 && orion_cubin_set_func_attr(c, func, zero_attrs[k], 0)) {
      st = ORION_ERR_INTERNAL;
      REFUSE("cannot update %s", orion_eiattr_name(zero_attrs[k]));
    }
  res->rewritten = 1;
  snprintf(res->msg, sizeof res->msg,
           "rewritten: %zu local accesses -> shared [0x%x, 0x%x) (%u-byte slots x %u threads), "
           "%d-instruction prologue",
           moved, region, region + (uint32_t)bytes, gran, (unsigned)thr, PROLOGUE);
done:
  free(code);
  return st;
}
