/* decode.c - SASS decoder (sm_90, sm_80, sm_86, sm_89): 128 bits ->
 * orion_sass_insn.
 *
 * Algorithm: the opcode (bits 0-11) is split into a 9-bit base and a 3-bit
 * form; the row of sass/codec/ops.def (ORION_SASS_OP or ORION_SASS_ALT) with
 * that base and that form in the architecture's column gives the opcode
 * (its class and memory space) and the operand layout, a short string read
 * left to right (its grammar is in the .def header).  Each token takes its bits out of the
 * word; every bit a token owns is cleared from a copy of the word, which
 * ends as insn->rest, so orion_sass_encode (encode.c) can rebuild the word
 * from the fields alone.  Bits that only select widths (size fields) stay in
 * `rest`: they are read, never written.
 *
 * Contracts: see include/orion/sass.h.  No global mutable state.
 */
#include <string.h>

#include "orion/sass.h"
#include "decode_internal.h"

const sass_row sass_rows[ORION_SASS_OP_COUNT] = {
#define ORION_SASS_OP(id, mnem, base, cls, space, flags, layout, f90, f80, f86, f89) \
  {mnem, ORION_SASS_##cls, ORION_SASS_SPACE_##space, flags},
#include "ops.def"
#undef ORION_SASS_OP
};

static const sass_enc sass_encs[] = {
#define ORION_SASS_OP(id, mnem, base, cls, space, flags, layout, f90, f80, f86, f89) \
  {ORION_SASS_OP_##id, base, layout, {f90, f80, f86, f89}},
#define ORION_SASS_ALT(id, base, layout, f90, f80, f86, f89) \
  {ORION_SASS_OP_##id, base, layout, {f90, f80, f86, f89}},
#include "ops.def"
#undef ORION_SASS_ALT
#undef ORION_SASS_OP
};
#define N_ENCS (sizeof sass_encs / sizeof sass_encs[0])

static const unsigned sass_archs[SASS_NARCH] = {90, 80, 86, 89};

uint64_t sass_bits(orion_sass_word w, unsigned pos, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned b = pos + i;
    uint64_t bit = b < 64 ? (w.lo >> b) & 1 : (w.hi >> (b - 64)) & 1;
    v |= bit << i;
  }
  return v;
}

void sass_put(orion_sass_word *w, unsigned pos, unsigned n, uint64_t v) {
  for (unsigned i = 0; i < n; i++) {
    unsigned b = pos + i;
    uint64_t bit = (v >> i) & 1;
    if (b < 64)
      w->lo = (w->lo & ~(1ull << b)) | (bit << b);
    else
      w->hi = (w->hi & ~(1ull << (b - 64))) | (bit << (b - 64));
  }
}

static int64_t sext(uint64_t v, unsigned n) {
  uint64_t m = 1ull << (n - 1);
  return (int64_t)((v ^ m) - m);
}

unsigned sass_file_bits(unsigned file) {
  switch (file) {
  case ORION_SASS_R: return 8;
  case ORION_SASS_UR: return 6;
  case ORION_SASS_B: return 4;
  default: return 3;
  }
}

int sass_arch_index(unsigned sm) {
  for (int i = 0; i < SASS_NARCH; i++)
    if (sass_archs[i] == sm)
      return i;
  return -1;
}

int orion_sass_arch_supported(unsigned sm) { return sass_arch_index(sm) >= 0; }

static int has_form(const char *forms, unsigned form) {
  return form != 0 && form < 8 && strchr(forms, (int)('0' + form)) != NULL;
}

const sass_enc *sass_find_opcode(unsigned opcode, int arch) {
  for (size_t i = 0; i < N_ENCS; i++)
    if (sass_encs[i].base == (opcode & 0x1ff) &&
        has_form(sass_encs[i].forms[arch], opcode >> 9))
      return &sass_encs[i];
  return NULL;
}

const sass_enc *sass_find_enc(orion_sass_op op, unsigned form, int arch) {
  for (size_t i = 0; i < N_ENCS; i++)
    if (sass_encs[i].op == (int)op && has_form(sass_encs[i].forms[arch], form))
      return &sass_encs[i];
  return NULL;
}

/* Register width code of a layout token. */
static unsigned width_of(char c, orion_sass_word w) {
  unsigned s;
  switch (c) {
  case '1': return 1;
  case '2': return 2;
  case '4': return 4;
  case 'z': /* memory size field: U8 S8 U16 S16 32 64 128 */
    s = (unsigned)sass_bits(w, 73, 3);
    return s == 5 ? 2 : s == 6 ? 4 : 1;
  case 'a': /* atomic size field: U32 S32 U64 S64 ... F64: 64-bit ones take 2 */
    s = (unsigned)sass_bits(w, 73, 3);
    return s == 2 || s == 3 || s == 6 ? 2 : 1;
  case 'f': return sass_bits(w, 75, 2) == 3 ? 2 : 1;
  case 'g': return sass_bits(w, 84, 2) == 3 ? 2 : 1;
  default: return 0;
  }
}

typedef struct dstate {
  orion_sass_word w;
  orion_sass_word rest;
  orion_sass_insn *in;
  int bad;
} dstate;

static void take(dstate *s, unsigned pos, unsigned n) {
  sass_put(&s->rest, pos, n, 0);
}

static void add_reg(dstate *s, unsigned file, unsigned field, unsigned width,
                    int def, unsigned port) {
  orion_sass_insn *in = s->in;
  if (in->nregs >= ORION_SASS_MAX_REGS) {
    s->bad = 1;
    return;
  }
  orion_sass_reg *r = &in->regs[in->nregs++];
  unsigned nb = sass_file_bits(file);
  memset(r, 0, sizeof *r);
  r->file = (uint8_t)file;
  r->num = (uint8_t)sass_bits(s->w, field, nb);
  r->width = (uint8_t)width;
  r->def = (uint8_t)def;
  r->field = (uint8_t)field;
  r->port = (uint8_t)port;
  take(s, field, nb);
  if ((file == ORION_SASS_P || file == ORION_SASS_UP) && !def) {
    r->neg = (uint8_t)sass_bits(s->w, field + 3, 1);
    take(s, field + 3, 1);
  }
}

/* The decimal number at t[*i] (of a layout token of n characters); *i
 * moves past its digits. */
static unsigned decimal(const char *t, size_t n, size_t *i) {
  unsigned v = 0;
  for (; *i < n && t[*i] >= '0' && t[*i] <= '9'; ++*i)
    v = v * 10 + (unsigned)(t[*i] - '0');
  return v;
}

/* The immediate in bits at .. at + n - 1 (n <= 32). */
static void take_imm_at(dstate *s, unsigned at, unsigned n) {
  if (s->in->has_imm || !n || n > 32 || at + n > 128) {
    s->bad = 1;
    return;
  }
  s->in->has_imm = 1;
  s->in->imm_at = (uint8_t)at;
  s->in->imm_bits = (uint8_t)n;
  s->in->imm = (uint32_t)sass_bits(s->w, at, n);
  take(s, at, n);
}

static void take_imm(dstate *s) { take_imm_at(s, 32, 32); }

static void take_cbank(dstate *s) {
  s->in->has_cbank = 1;
  s->in->cbank = (uint8_t)sass_bits(s->w, 54, 5);
  s->in->cbank_off = (int32_t)sass_bits(s->w, 38, 16);
  take(s, 38, 21);
}

/* A form-placed source: which = 'S' (b), 'C' (c) or 'V' (single). */
static void form_source(dstate *s, char which, unsigned file, unsigned width,
                        int def) {
  unsigned f = s->in->form;
  unsigned port = which == 'C' ? 3 : 2;
  /* kind: 'r' register @32, 'R' register @64, 'i' imm, 'c' cbank, 'u' UR@32 */
  static const char s_kind[8] = {0, 'r', 'R', 'R', 'i', 'c', 'u', 'R'};
  static const char c_kind[8] = {0, 'R', 'i', 'c', 'R', 'R', 'R', 'u'};
  static const char v_kind[8] = {0, 'r', 'i', 'c', 'i', 'c', 'u', 'u'};
  char k = which == 'S' ? s_kind[f] : which == 'C' ? c_kind[f] : v_kind[f];
  switch (k) {
  case 'r': add_reg(s, file, 32, width, def, port); break;
  case 'R': add_reg(s, file, 64, width, def, port); break;
  case 'u': add_reg(s, ORION_SASS_UR, 32, width, def, port); break;
  case 'i': take_imm(s); break;
  case 'c': take_cbank(s); break;
  default: s->bad = 1; break;
  }
}

/* kind: the letter after 'M' (or 'K'); implicit: the token ends in '~'.
 * Atomics: 's', 't' and 'a' are 'l', 'u' and 'h' with the atomic size
 * field (32-bit unless it says 64); 'n' is 'a' without a descriptor. */
static void mem_operand(dstate *s, char kind, int implicit) {
  orion_sass_insn *in = s->in;
  int atomic = kind == 's' || kind == 't' || kind == 'a' || kind == 'n';
  kind = kind == 's' ? 'l' : kind == 't' ? 'u' : kind == 'a' ? 'h' : kind;
  if (kind == 'c' || kind == 'K') {
    if (kind == 'c')
      add_reg(s, ORION_SASS_R, 24, 1, 0, 1);
    take_cbank(s);
    return;
  }
  if (kind == 'g' || kind == 'h') {
    add_reg(s, ORION_SASS_UR, kind == 'g' ? 32 : 64, 2, 0, 0);
    if (!s->bad)
      in->regs[in->nregs - 1].implicit = (uint8_t)implicit;
  } else if (kind != 'l' && kind != 'u' && kind != 'n') { /* n: no descriptor */
    s->bad = 1;
    return;
  }
  int shared_form = kind == 'l' || kind == 'u';
  unsigned aw = shared_form ? 1 : (sass_bits(s->w, 72, 1) ? 2 : 1);
  in->has_mem = 1;
  in->mem_base_index = in->nregs;
  add_reg(s, ORION_SASS_R, 24, aw, 0, 1);
  if (shared_form && sass_bits(s->w, 91, 1)) /* [Ra + URb + off] */
    add_reg(s, ORION_SASS_UR, kind == 'u' ? 64 : 32, 1, 0, 0);
  in->mem_off = (int32_t)sext(sass_bits(s->w, 40, 24), 24);
  take(s, 40, 24);
  static const uint8_t bytes[8] = {1, 1, 2, 2, 4, 8, 16, 0};
  in->mem_bytes = atomic ? 4u * width_of('a', s->w) : bytes[sass_bits(s->w, 73, 3)];
  if (!in->mem_bytes)
    s->bad = 1;
}

static void target(dstate *s, char kind) {
  orion_sass_insn *in = s->in;
  if (kind != 'j' && kind != 'b') {
    s->bad = 1;
    return;
  }
  in->has_target = 1;
  if (kind == 'j') {
    uint64_t lo8 = sass_bits(s->w, 16, 8);
    int64_t hi = sext(sass_bits(s->w, 34, 48), 48);
    in->target = (int64_t)(((uint64_t)hi << 10) | (lo8 << 2));
    take(s, 16, 8);
  } else {
    in->target = sext(sass_bits(s->w, 34, 48), 48) * 4;
  }
  take(s, 34, 48);
}

static unsigned file_of(char c) {
  switch (c) {
  case 'R': return ORION_SASS_R;
  case 'U': return ORION_SASS_UR;
  case 'P': return ORION_SASS_P;
  case 'Q': return ORION_SASS_UP;
  case 'B': return ORION_SASS_B;
  case 'X': return ORION_SASS_P;
  default: return 99;
  }
}

/* One layout token (t points at it, n characters). */
static void token(dstate *s, const char *t, size_t n) {
  const char *colon = memchr(t, ':', n);
  if (colon) { /* ":p" overrides the reuse port of the operand */
    unsigned before = s->in->nregs;
    token(s, t, (size_t)(colon - t));
    if (colon + 2 != t + n || s->in->nregs > before + 1)
      s->bad = 1;
    else if (s->in->nregs == before + 1) /* not an immediate */
      s->in->regs[before].port = (uint8_t)(colon[1] - '0');
    return;
  }
  if ((n == 2 || (n == 3 && t[2] == 'w')) && t[0] == 'P' && t[1] == 'R') { /* all predicates read (PRw: written) */
    orion_sass_insn *in = s->in;
    if (in->nregs >= ORION_SASS_MAX_REGS) {
      s->bad = 1;
      return;
    }
    orion_sass_reg *r = &in->regs[in->nregs++];
    memset(r, 0, sizeof *r);
    r->file = ORION_SASS_P;
    r->def = n == 3;
    r->width = 7;
    r->field = 0xff; /* not an encoding field */
    return;
  }
  if (t[0] == 'M' && (n == 2 || (n == 3 && t[2] == '~' && (t[1] == 'g' || t[1] == 'h' || t[1] == 'a')))) {
    mem_operand(s, t[1], n == 3);
    return;
  }
  if (t[0] == 'K' && n == 1) {
    mem_operand(s, 'K', 0);
    return;
  }
  if (t[0] == 'T' && n == 2) {
    target(s, t[1]);
    return;
  }
  if (t[0] == 'I' && n >= 4 && t[1] == '@') { /* I@<bit>.<bits>: an immediate field */
    size_t i = 2;
    unsigned at = decimal(t, n, &i), nb = 0;
    if (i < n && t[i] == '.') {
      i++;
      nb = decimal(t, n, &i);
    }
    if (i != n)
      s->bad = 1;
    else
      take_imm_at(s, at, nb);
    return;
  }
  if (n < 3 || (t[0] != 'd' && t[0] != 'u')) {
    s->bad = 1;
    return;
  }
  int def = t[0] == 'd';
  char k = t[1];
  if (k == 'S' || k == 'C' || k == 'V') {
    unsigned file = ORION_SASS_R;
    size_t i = 2;
    if (t[i] == 'U') {
      file = ORION_SASS_UR;
      i++;
    }
    unsigned width = width_of(t[i], s->w);
    if (!width || i + 1 != n)
      s->bad = 1;
    else
      form_source(s, k, file, width, def);
    return;
  }
  unsigned file = file_of(k);
  unsigned width = width_of(t[2], s->w);
  if (k == 'X') /* P or UP: the bit below the field says which */
    file = 0;
  if (file == 99 || !width || n < 5 || t[3] != '@') {
    s->bad = 1;
    return;
  }
  size_t i = 4;
  unsigned field = decimal(t, n, &i);
  if (k == 'X')
    file = sass_bits(s->w, field - 1, 1) ? ORION_SASS_UP : ORION_SASS_P;
  add_reg(s, file, field, width, def,
          field == 24 ? 1 : field == 32 ? 2 : field == 64 ? 3 : 0);
}

orion_status orion_sass_decode_arch(orion_sass_word w, unsigned sm,
                                    orion_sass_insn *out) {
  if (!out)
    return ORION_ERR_INVALID_ARG;
  int arch = sass_arch_index(sm);
  if (arch < 0)
    return ORION_ERR_UNSUPPORTED_ARCH;
  unsigned opcode = (unsigned)(w.lo & 0xfff);
  const sass_enc *e = sass_find_opcode(opcode, arch);
  if (!e)
    return ORION_ERR_PARSE;
  const sass_row *r = &sass_rows[e->op];
  orion_sass_insn in;
  memset(&in, 0, sizeof in);
  dstate s = {w, w, &in, 0};
  in.op = (orion_sass_op)e->op;
  in.opcode = (uint16_t)opcode;
  in.sm = (uint8_t)sm;
  in.form = (uint8_t)(opcode >> 9);
  in.cls = r->cls;
  in.space = r->space;
  in.guard = (uint8_t)sass_bits(w, 12, 3);
  in.guard_neg = (uint8_t)sass_bits(w, 15, 1);
  in.guard_file = r->cls == ORION_SASS_UNIFORM ? ORION_SASS_UP : ORION_SASS_P;
  take(&s, 0, 16);
  for (const char *t = e->layout; *t;) {
    while (*t == ' ')
      t++;
    size_t n = strcspn(t, " ");
    if (n)
      token(&s, t, n);
    t += n;
  }
  in.ctrl.stall = (uint8_t)sass_bits(w, 105, 4);
  in.ctrl.yield = (uint8_t)sass_bits(w, 109, 1);
  in.ctrl.wbar = (uint8_t)sass_bits(w, 110, 3);
  in.ctrl.rbar = (uint8_t)sass_bits(w, 113, 3);
  in.ctrl.wait = (uint8_t)sass_bits(w, 116, 6);
  in.ctrl.reuse = (uint8_t)sass_bits(w, 122, 4);
  take(&s, 105, 21);
  if (s.bad)
    return ORION_ERR_PARSE;
  in.rest = s.rest;
  *out = in;
  return ORION_OK;
}

orion_status orion_sass_decode(orion_sass_word w, orion_sass_insn *out) {
  return orion_sass_decode_arch(w, 90, out);
}

orion_sass_word orion_sass_word_load(const unsigned char b[16]) {
  orion_sass_word w = {0, 0};
  for (int i = 7; i >= 0; i--) {
    w.lo = (w.lo << 8) | b[i];
    w.hi = (w.hi << 8) | b[8 + i];
  }
  return w;
}

void orion_sass_word_store(orion_sass_word w, unsigned char b[16]) {
  for (int i = 0; i < 8; i++) {
    b[i] = (unsigned char)(w.lo >> (8 * i));
    b[8 + i] = (unsigned char)(w.hi >> (8 * i));
  }
}

const char *orion_sass_op_name(orion_sass_op op) {
  return (unsigned)op < ORION_SASS_OP_COUNT ? sass_rows[op].mnem : "?";
}

static const char *const class_names[] = {
#define ORION_X(n) #n,
    ORION_SASS_CLASS_LIST(ORION_X)
#undef ORION_X
};
static const char *const space_names[] = {
#define ORION_X(n) #n,
    ORION_SASS_SPACE_LIST(ORION_X)
#undef ORION_X
};

const char *orion_sass_class_name(orion_sass_class cls) {
  return (unsigned)cls < ORION_SASS_CLASS_COUNT ? class_names[cls] : "?";
}

const char *orion_sass_space_name(orion_sass_space space) {
  return (unsigned)space < ORION_SASS_SPACE_COUNT ? space_names[space] : "?";
}

int orion_sass_op_varlat(orion_sass_op op) {
  return (unsigned)op < ORION_SASS_OP_COUNT &&
         (sass_rows[op].flags & SASS_FLAG_VARLAT);
}
