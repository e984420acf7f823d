/* encode.c - SASS encoder (sm_90, sm_80, sm_86, sm_89): orion_sass_insn ->
 * 128 bits, and builders for the sm_90 instructions the cubin rewriter
 * inserts or edits.
 *
 * Encoding is the inverse of decode.c: start from insn->rest (the bits no
 * decoded field owns) and write every field back into its bits, checking
 * that each value fits.  The opcode number and the target layout (split Tj
 * or whole Tb) come from the row of ops.def (ORION_SASS_OP or ORION_SASS_ALT)
 * that has the opcode with insn->form on insn->sm.
 *
 * Builders decode a template word - an instruction as ptxas 13.0 emitted it
 * for sm_90, with every modifier at its plain default - and then set the
 * operands, so that the only bits a builder invents are the fields the
 * decoder knows.  test/lit/sass/encode-edits.test disassembles what every
 * builder produces with nvdisasm, for sm_90 and, moved there by
 * orion_sass_set_arch, for sm_80: the templates' opcodes, forms and
 * modifier bits are those ptxas 13.0 writes for sm_80, 86 and 89 too.
 */
#include <string.h>

#include "decode_internal.h"
#include "orion/sass.h"

const orion_sass_ctrl ORION_SASS_CTRL_SAFE = {15, 0, 7, 7, 0x3f, 0};

static int fits_signed(int64_t v, unsigned n) {
  int64_t lim = (int64_t)1 << (n - 1);
  return v >= -lim && v < lim;
}

orion_status orion_sass_encode(const orion_sass_insn *in, orion_sass_word *out) {
  if (!in || !out || (unsigned)in->op >= ORION_SASS_OP_COUNT)
    return ORION_ERR_INVALID_ARG;
  int arch = sass_arch_index(in->sm);
  if (arch < 0)
    return ORION_ERR_UNSUPPORTED_ARCH;
  const sass_enc *e = sass_find_enc(in->op, in->form, arch);
  if (!e || in->guard > 7 || in->guard_neg > 1)
    return ORION_ERR_RANGE;
  orion_sass_word w = in->rest;
  sass_put(&w, 0, 12, (uint64_t)e->base | ((uint64_t)in->form << 9));
  sass_put(&w, 12, 3, in->guard);
  sass_put(&w, 15, 1, in->guard_neg);
  if (in->nregs > ORION_SASS_MAX_REGS)
    return ORION_ERR_RANGE;
  for (unsigned i = 0; i < in->nregs; i++) {
    const orion_sass_reg *g = &in->regs[i];
    if (g->field == 0xff)
      continue; /* PR: implied by the opcode */
    unsigned nb = sass_file_bits(g->file);
    if (g->num >> nb || g->field + nb > 128 || g->neg > 1)
      return ORION_ERR_RANGE;
    sass_put(&w, g->field, nb, g->num);
    if ((g->file == ORION_SASS_P || g->file == ORION_SASS_UP) && !g->def)
      sass_put(&w, g->field + 3u, 1, g->neg);
  }
  if (in->has_mem) {
    if (!fits_signed(in->mem_off, 24))
      return ORION_ERR_RANGE;
    sass_put(&w, 40, 24, (uint32_t)in->mem_off & 0xffffffu);
  }
  if (in->has_cbank) {
    if (in->cbank > 31 || in->cbank_off < 0 || in->cbank_off > 0xffff)
      return ORION_ERR_RANGE;
    sass_put(&w, 38, 16, (uint64_t)in->cbank_off);
    sass_put(&w, 54, 5, in->cbank);
  }
  if (in->has_imm) {
    unsigned at = in->imm_bits ? in->imm_at : 32, nb = in->imm_bits ? in->imm_bits : 32;
    if (at + nb > 128 || (nb < 32 && in->imm >> nb))
      return ORION_ERR_RANGE;
    sass_put(&w, at, nb, in->imm);
  }
  if (in->has_target) {
    if (in->target % 4)
      return ORION_ERR_RANGE;
    int64_t units = in->target / 4;
    if (strstr(e->layout, "Tj")) {
      if (!fits_signed(units, 56))
        return ORION_ERR_RANGE;
      sass_put(&w, 16, 8, (uint64_t)units & 0xff);
      sass_put(&w, 34, 48, (uint64_t)(units >> 8));
    } else {
      if (!fits_signed(units, 48))
        return ORION_ERR_RANGE;
      sass_put(&w, 34, 48, (uint64_t)units);
    }
  }
  const orion_sass_ctrl *c = &in->ctrl;
  if (c->stall > 15 || c->yield > 1 || c->wbar > 7 || c->rbar > 7 ||
      c->wait > 0x3f || c->reuse > 15)
    return ORION_ERR_RANGE;
  sass_put(&w, 105, 4, c->stall);
  sass_put(&w, 109, 1, c->yield);
  sass_put(&w, 110, 3, c->wbar);
  sass_put(&w, 113, 3, c->rbar);
  sass_put(&w, 116, 6, c->wait);
  sass_put(&w, 122, 4, c->reuse);
  *out = w;
  return ORION_OK;
}

orion_status orion_sass_set_arch(orion_sass_insn *insn, unsigned sm) {
  if (!insn || (unsigned)insn->op >= ORION_SASS_OP_COUNT)
    return ORION_ERR_INVALID_ARG;
  int to = sass_arch_index(sm), from = sass_arch_index(insn->sm);
  if (to < 0 || from < 0)
    return ORION_ERR_UNSUPPORTED_ARCH;
  const sass_enc *a = sass_find_enc(insn->op, insn->form, from), *b = sass_find_enc(insn->op, insn->form, to);
  if (!a || !b || strcmp(a->layout, b->layout))
    return ORION_ERR_RANGE;
  insn->sm = (uint8_t)sm;
  return ORION_OK;
}

orion_status orion_sass_set_target(orion_sass_insn *insn, int64_t target) {
  if (!insn || !insn->has_target)
    return ORION_ERR_INVALID_ARG;
  orion_sass_insn t = *insn;
  orion_sass_word w;
  t.target = target;
  orion_status st = orion_sass_encode(&t, &w);
  if (st != ORION_OK)
    return st;
  insn->target = target;
  return ORION_OK;
}

/* ---- builders ---------------------------------------------------------- */

/* Templates: ptxas 13.0 output for sm_90 (lo, hi), plain modifiers. */
static const orion_sass_word T_IADD3 = {0x0000000302107210ull, 0x000fc40007ffe000ull}; /* IADD3 R16, R2, R3, R0 */
static const orion_sass_word T_IADD3_I = {0x000000400d0d7810ull, 0x003fde0007ffe0ffull}; /* IADD3 R13, R13, 0x40, RZ */
static const orion_sass_word T_IMAD = {0x0000000405047224ull, 0x003fde00078e0206ull}; /* IMAD R4, R5, R4, R6 */
static const orion_sass_word T_IMAD_I = {0x0000000402067824ull, 0x000fc600078e020bull}; /* IMAD R6, R2, 0x4, R11 */
static const orion_sass_word T_MOV = {0x0000000200007202ull, 0x003fde0000000f00ull}; /* MOV R0, R2 */
static const orion_sass_word T_MOV_I = {0x0000000800047802ull, 0x003fde0000000f00ull}; /* MOV R4, 0x8 */
static const orion_sass_word T_S2R = {0x0000000000077919ull, 0x00321e0000002100ull}; /* S2R R7, SR_TID.X */
static const orion_sass_word T_LDS = {0x00028c002b197984ull, 0x000e680000000800ull}; /* LDS R25, [R43+0x28c] */
static const orion_sass_word T_STS = {0x0001000c0b007388ull, 0x0081e80000000800ull}; /* STS [R11+0x100], R12 */

static orion_status from_template(orion_sass_word t, orion_sass_insn *x) {
  orion_status st = orion_sass_decode(t, x);
  if (st != ORION_OK)
    return ORION_ERR_INTERNAL;
  x->guard = ORION_SASS_PT;
  x->guard_neg = 0;
  x->ctrl = ORION_SASS_CTRL_SAFE;
  return ORION_OK;
}

/* Set the i-th GPR operand (in layout order, zero registers included). */
static orion_status set_gpr(orion_sass_insn *x, unsigned nth, unsigned num) {
  if (num > ORION_SASS_RZ)
    return ORION_ERR_RANGE;
  for (unsigned i = 0, k = 0; i < x->nregs; i++) {
    if (x->regs[i].file != ORION_SASS_R)
      continue;
    if (k++ == nth) {
      x->regs[i].num = (uint8_t)num;
      return ORION_OK;
    }
  }
  return ORION_ERR_INTERNAL;
}

/* Build from a template and set GPR operands n[0..cnt-1] in layout order;
 * commit to *out only when everything fits. */
static orion_status build(orion_sass_word t, const unsigned *n, unsigned cnt,
                          orion_sass_insn *out) {
  if (!out)
    return ORION_ERR_INVALID_ARG;
  orion_sass_insn x;
  orion_status st = from_template(t, &x);
  for (unsigned i = 0; st == ORION_OK && i < cnt; i++)
    st = set_gpr(&x, i, n[i]);
  if (st == ORION_OK)
    *out = x;
  return st;
}

/* build() plus the 32-bit immediate source. */
static orion_status build_imm(orion_sass_word t, const unsigned *n, unsigned cnt,
                              uint32_t imm, orion_sass_insn *out) {
  orion_status st = build(t, n, cnt, out);
  if (st == ORION_OK)
    out->imm = imm;
  return st;
}

orion_status orion_sass_make_mov(unsigned rd, unsigned rb, orion_sass_insn *out) {
  return build(T_MOV, (unsigned[]){rd, rb}, 2, out);
}

orion_status orion_sass_make_mov_imm(unsigned rd, uint32_t imm,
                                     orion_sass_insn *out) {
  return build_imm(T_MOV_I, (unsigned[]){rd}, 1, imm, out);
}

orion_status orion_sass_make_iadd3(unsigned rd, unsigned ra, unsigned rb,
                                   unsigned rc, orion_sass_insn *out) {
  return build(T_IADD3, (unsigned[]){rd, ra, rb, rc}, 4, out);
}

orion_status orion_sass_make_iadd3_imm(unsigned rd, unsigned ra, uint32_t imm,
                                       unsigned rc, orion_sass_insn *out) {
  return build_imm(T_IADD3_I, (unsigned[]){rd, ra, rc}, 3, imm, out);
}

orion_status orion_sass_make_imad(unsigned rd, unsigned ra, unsigned rb,
                                  unsigned rc, orion_sass_insn *out) {
  return build(T_IMAD, (unsigned[]){rd, ra, rb, rc}, 4, out);
}

orion_status orion_sass_make_imad_imm(unsigned rd, unsigned ra, uint32_t imm,
                                      unsigned rc, orion_sass_insn *out) {
  return build_imm(T_IMAD_I, (unsigned[]){rd, ra, rc}, 3, imm, out);
}

orion_status orion_sass_make_s2r(unsigned rd, unsigned sreg,
                                 orion_sass_insn *out) {
  if (sreg > 0xff)
    return ORION_ERR_RANGE;
  orion_status st = build(T_S2R, (unsigned[]){rd}, 1, out);
  if (st == ORION_OK)
    sass_put(&out->rest, 72, 8, sreg); /* SR_* number, bits 72-79 */
  return st;
}

/* Size field (bits 73-75) of a 4/8/16-byte access. */
static int size_code(unsigned bytes) {
  return bytes == 4 ? 4 : bytes == 8 ? 5 : bytes == 16 ? 6 : -1;
}

static orion_status make_shared(orion_sass_word t, unsigned data, unsigned bytes,
                                unsigned base, int32_t off,
                                orion_sass_insn *out) {
  int sc = size_code(bytes);
  if (sc < 0 || data > ORION_SASS_RZ || base > ORION_SASS_RZ)
    return ORION_ERR_RANGE;
  if (!out)
    return ORION_ERR_INVALID_ARG;
  orion_sass_insn x;
  orion_status st = from_template(t, &x);
  if (st != ORION_OK)
    return st;
  sass_put(&x.rest, 73, 3, (uint64_t)sc);
  x.mem_bytes = (uint8_t)bytes;
  x.mem_off = off;
  for (unsigned i = 0; i < x.nregs; i++) {
    orion_sass_reg *g = &x.regs[i];
    if (i == x.mem_base_index)
      g->num = (uint8_t)base;
    else {
      g->num = (uint8_t)data;
      g->width = (uint8_t)(bytes / 4);
    }
  }
  orion_sass_word w;
  st = orion_sass_encode(&x, &w); /* range check of the offset */
  if (st == ORION_OK)
    *out = x;
  return st;
}

orion_status orion_sass_make_lds(unsigned rd, unsigned bytes, unsigned base,
                                 int32_t off, orion_sass_insn *out) {
  return make_shared(T_LDS, rd, bytes, base, off, out);
}

orion_status orion_sass_make_sts(unsigned base, int32_t off, unsigned rs,
                                 unsigned bytes, orion_sass_insn *out) {
  return make_shared(T_STS, rs, bytes, base, off, out);
}

orion_status orion_sass_local_to_shared(const orion_sass_insn *local,
                                        unsigned base, int32_t off,
                                        orion_sass_insn *out) {
  if (!local || !out)
    return ORION_ERR_INVALID_ARG;
  int load = local->op == ORION_SASS_OP_LDL;
  if (!load && local->op != ORION_SASS_OP_STL)
    return ORION_ERR_INVALID_ARG;
  unsigned data = ORION_SASS_RZ;
  for (unsigned i = 0; i < local->nregs; i++)
    if (i != local->mem_base_index)
      data = local->regs[i].num;
  unsigned sc = (unsigned)sass_bits(local->rest, 73, 3);
  unsigned bytes = sc == 4 ? 4 : sc == 5 ? 8 : sc == 6 ? 16 : 0;
  if (!bytes) /* sub-word spills do not occur; refuse rather than guess */
    return ORION_ERR_RANGE;
  orion_sass_insn x;
  orion_status st = make_shared(load ? T_LDS : T_STS, data, bytes, base, off, &x);
  if (st != ORION_OK)
    return st;
  x.guard = local->guard;
  x.guard_neg = local->guard_neg;
  x.ctrl = local->ctrl;
  *out = x;
  return ORION_OK;
}

/* LDL/STL [Ra+off] -> the access of `bytes` at off, data register data,
 * through Ra still: the size, the offset and the data register change.
 * The word is decoded again, so the result is what the decoder (and the
 * analysis) sees. */
orion_status orion_sass_local_piece(const orion_sass_insn *local, int32_t off, unsigned bytes, unsigned data,
                                    orion_sass_insn *out) {
  int sc = size_code(bytes);
  if (!local || !out || sc < 0 || data > ORION_SASS_RZ ||
      (local->op != ORION_SASS_OP_LDL && local->op != ORION_SASS_OP_STL) || sass_arch_index(local->sm) < 0 ||
      local->form != (local->op == ORION_SASS_OP_LDL ? 4 : 1) || sass_bits(local->rest, 91, 1))
    return ORION_ERR_INVALID_ARG;
  if (!fits_signed(off, 24))
    return ORION_ERR_RANGE;
  orion_sass_word w;
  orion_status st = orion_sass_encode(local, &w);
  if (st != ORION_OK)
    return st;
  sass_put(&w, 73, 3, (uint64_t)sc);
  sass_put(&w, 40, 24, (uint32_t)off & 0xffffffu);
  sass_put(&w, local->op == ORION_SASS_OP_LDL ? 16 : 32, 8, data);
  orion_sass_insn x;
  st = orion_sass_decode_arch(w, local->sm, &x);
  if (st == ORION_OK && (x.op != local->op || x.mem_off != off || x.mem_bytes != bytes))
    st = ORION_ERR_INTERNAL;
  if (st == ORION_OK)
    *out = x;
  return st;
}
