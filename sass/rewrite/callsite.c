/* callsite.c - where the compressible stack's moves and restores go at a
 * call site, and the register they pass through (paper
 * section 3.2: the caller's live slots above the compressed height move
 * below it before the call and back after it).
 *
 * No code may move (sass/rewrite/rewrite.c keeps every offset), so a site (call k
 * of tree function f with moves, sass/rewrite/stack.c's MOVES layout) gets two
 * stubs appended to the section:
 *   pre  the instruction P just before the CALL becomes BRA pre; pre runs
 *        P, then per 4-byte piece  LDS Rt, [R1+from] ; STS [R1+to], Rt,
 *        then BRA to the CALL;
 *   ret  the instruction Q the call returns to (the CALL's successor)
 *        becomes BRA ret; ret runs the pieces back (LDS Rt, [R1+to] ;
 *        STS [R1+from], Rt, moves in reverse order), then Q, then BRA to
 *        the instruction after Q.
 * A site is placed when
 *   - the CALL is unguarded and neither it nor Q is the target of a branch
 *     or BSSY (so every path to the call runs P just before it, and only
 *     the return reaches Q);
 *   - P and Q lie in f and are plain (ALU, uniform ALU, memory, NOP: no
 *     control flow or special-register read), carry no relocation, are in
 *     no offset list of the kernel's .nv.info (the driver patches those
 *     places), and are not frame accesses split into stubs of their own;
 *   - some register Rt below the kernel's register count, other than R1,
 *     is dead between P and the CALL and just before Q, and is no operand
 *     of P or Q.
 * Otherwise the MOVES layout is invalid (the rewrite takes another one).
 *
 * GPR liveness is interprocedural (whole-program ptxas keeps a caller's
 * values in registers its callees leave alone, so a register free inside
 * a callee may hold its caller's value): bottom-up, what each function may
 * read before writing it (arguments, the return address); a CALL reads
 * that of its callee and kills nothing (an over-approximation: liveness
 * only grows); top-down (callers first), a function's RET has live-out
 * everything live at the return points of all its call sites.  Control
 * flow as in sass/rewrite/stack.c; an unguarded BRA, EXIT or RET ends a path.
 *
 * Contract: requires t built by sassrw_tree_build on the unedited cubin
 * c; reads c; sets every site's temp or invalidates t's MOVES layout.
 * sassrw_emit_site (at the end) writes a placed site's two stubs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/sass.h"
#include "sassrw_internal.h"

#define RW 4 /* 64-bit words of a GPR set (R0..R254) */
#define SHT_REL_ 9u
#define SHT_RELA_ 4u

typedef uint64_t regset[RW];

typedef struct fn_regs {
  size_t n;
  orion_sass_insn *x;
  regset *use, *def, *in;
  uint32_t *succ;         /* n * 2, UINT32_MAX none */
  size_t *callee;         /* n: tree index of a CALL's callee, else SIZE_MAX */
  unsigned char *target;  /* n: some branch or BSSY lands here */
  regset entry;           /* read before written, callees included */
  regset retout;          /* live after its RETs */
} fn_regs;

static void rs_or(uint64_t *a, const uint64_t *b) {
  for (int w = 0; w < RW; w++)
    a[w] |= b[w];
}

static void rs_add(uint64_t *s, const orion_sass_reg *r) {
  if (r->file != ORION_SASS_R || r->num == ORION_SASS_RZ)
    return;
  for (unsigned k = 0; k < r->width && r->num + k < ORION_SASS_RZ; k++)
    sassrw_bit_set(s, r->num + k);
}

/* Decode tree function i into F (the analysis found it decodable). */
static int decode(const orion_cubin *c, const sassrw_tree *t, size_t i, fn_regs *F) {
  const unsigned char *text;
  size_t size;
  orion_cubin_func f;
  if (orion_cubin_func_own_text(c, t->funcs[i], &text, &size) || orion_cubin_get_func(c, t->funcs[i], &f))
    return -1;
  size_t n = size / 16, m = n ? n : 1;
  F->n = n;
  F->x = malloc(m * sizeof *F->x);
  F->use = calloc(m, sizeof *F->use);
  F->def = calloc(m, sizeof *F->def);
  F->in = calloc(m, sizeof *F->in);
  F->succ = malloc(2 * m * sizeof *F->succ);
  F->callee = malloc(m * sizeof *F->callee);
  F->target = calloc(m, 1);
  if (!F->x || !F->use || !F->def || !F->in || !F->succ || !F->callee || !F->target)
    return -1;
  unsigned sm = sassrw_sm(c);
  for (size_t k = 0; k < n; k++) {
    orion_sass_insn *x = &F->x[k];
    if (sassrw_decode(text + 16 * k, sm, x) != ORION_OK)
      return -1;
    int guarded = x->guard != ORION_SASS_PT || x->guard_neg;
    for (unsigned r = 0; r < x->nregs; r++) {
      const orion_sass_reg *g = &x->regs[r];
      if (g->def && !guarded)
        rs_add(F->def[k], g);
      else if (!g->def)
        rs_add(F->use[k], g);
    }
    uint32_t *s = &F->succ[2 * k];
    if (sassrw_insn_flow(c, t, &f, size, k, x, s, &F->callee[k]))
      return -1; /* the analysis allows no branch out of a function */
    if (s[1] != UINT32_MAX)
      F->target[s[1]] = 1;
    if (x->cls == ORION_SASS_CALL && F->callee[k] == SIZE_MAX)
      return -1;
  }
  return 0;
}

/* Backward liveness of F to a fixed point; a CALL reads its callee's
 * entry set, a RET has live-out F->retout. */
static void liveness(fn_regs *F, const fn_regs *all) {
  memset(F->in, 0, (F->n ? F->n : 1) * sizeof *F->in);
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = F->n; k-- > 0;) {
      regset out = {0};
      for (int e = 0; e < 2; e++)
        if (F->succ[2 * k + e] != UINT32_MAX)
          rs_or(out, F->in[F->succ[2 * k + e]]);
      if (F->x[k].cls == ORION_SASS_RET)
        rs_or(out, F->retout);
      if (F->callee[k] != SIZE_MAX)
        rs_or(out, all[F->callee[k]].entry);
      for (int w = 0; w < RW; w++) {
        uint64_t v = F->use[k][w] | (out[w] & ~F->def[k][w]);
        if (v != F->in[k][w]) {
          F->in[k][w] = v;
          changed = 1;
        }
      }
    }
  }
}

/* Whether instruction k of F may be run from a stub: plain, no relocation,
 * in no offset list of the kernel's .nv.info, not a split frame access. */
static const char *displaceable(const orion_cubin *c, const orion_cubin_func *kf, const orion_cubin_func *f,
                                const fn_regs *F, size_t k, const sassrw_tree *t, int split) {
  const orion_sass_insn *x = &F->x[k];
  switch (x->cls) {
  case ORION_SASS_ALU:
  case ORION_SASS_UNIFORM:
  case ORION_SASS_LOAD:
  case ORION_SASS_STORE:
  case ORION_SASS_NOP:
    break;
  default:
    return "a control or special instruction";
  }
  if (split && (x->op == ORION_SASS_OP_LDL || x->op == ORION_SASS_OP_STL) && x->mem_bytes > t->gran)
    return "a split frame access";
  uint64_t off = f->value + 16 * k;
  for (size_t s = 1; s < orion_cubin_section_count(c); s++) {
    orion_cubin_section sec;
    if (orion_cubin_get_section(c, s, &sec) || (sec.type != SHT_REL_ && sec.type != SHT_RELA_) ||
        sec.info != f->text)
      continue;
    for (size_t r = 0; r < orion_cubin_reloc_count(c, s); r++) {
      orion_cubin_reloc rel;
      if (!orion_cubin_get_reloc(c, s, r, &rel) && rel.offset >= off && rel.offset < off + 16)
        return "relocated";
    }
  }
  /* any u32 of the kernel's SVAL records equal to the offset: offset lists
   * (EXIT, S2RCTAID, ...) and, conservatively, a coincidence elsewhere;
   * but not EIATTR_ANNOTATIONS, which only labels spill instructions for
   * disassemblers ("SpillRefill") */
  for (size_t r = 0; kf->nvinfo && r < orion_cubin_nvinfo_count(c, kf->nvinfo); r++) {
    orion_eiattr_rec rec;
    if (orion_cubin_nvinfo_get(c, kf->nvinfo, r, &rec) || !rec.payload || rec.attr == ORION_EIATTR_ANNOTATIONS)
      continue;
    for (size_t b = 0; b + 4 <= rec.value; b += 4) {
      uint32_t v = (uint32_t)rec.payload[b] | (uint32_t)rec.payload[b + 1] << 8 |
                   (uint32_t)rec.payload[b + 2] << 16 | (uint32_t)rec.payload[b + 3] << 24;
      if (v == off)
        return "in a .nv.info offset list";
    }
  }
  return NULL;
}

/* Place site s; returns NULL or why not (in buf). */
static const char *place(const orion_cubin *c, const orion_cubin_func *kf, const sassrw_tree *t,
                         const fn_regs *R, sassrw_site *s, int split, char *buf, size_t len) {
  const fn_regs *F = &R[s->fi];
  orion_cubin_func f;
  if (orion_cubin_get_func(c, t->funcs[s->fi], &f))
    return "no such function";
  size_t k = s->call;
  const orion_sass_insn *x = &F->x[k];
  const char *why = NULL;
  if (x->guard != ORION_SASS_PT || x->guard_neg)
    why = "the call is guarded";
  else if (k == 0 || k + 1 >= F->n || (s->fi == 0 && k == 1))
    why = "the call starts or ends its function, or follows the kernel's R1 set-up";
  else if (F->target[k] || F->target[k + 1])
    why = "a branch lands on the call or its return point";
  else if (!(why = displaceable(c, kf, &f, F, k - 1, t, split)))
    why = displaceable(c, kf, &f, F, k + 1, t, split);
  if (why) {
    snprintf(buf, len, "call at %s+0x%zx: %s", f.name, 16 * k, why);
    return buf;
  }
  regset busy = {0};
  rs_or(busy, F->in[k]);
  rs_or(busy, F->in[k + 1]);
  for (int d = -1; d <= 1; d += 2)
    for (unsigned r = 0; r < F->x[k + d].nregs; r++)
      rs_add(busy, &F->x[k + d].regs[r]);
  for (unsigned r = 0; kf->regcount > 0 && r < (unsigned)kf->regcount && r < ORION_SASS_RZ; r++)
    if (r != ORION_SASS_SP && !sassrw_bit(busy, r)) {
      s->temp = r;
      return NULL;
    }
  snprintf(buf, len, "call at %s+0x%zx: no register is free for the moves", f.name, 16 * k);
  return buf;
}

orion_status sassrw_sites_place(const orion_cubin *c, size_t kernel, sassrw_tree *t, int split) {
  if (!t->valid[SASSRW_LAYOUT_MOVES] || !t->nsites)
    return ORION_OK;
  orion_cubin_func kf;
  if (orion_cubin_get_func(c, kernel, &kf) || sassrw_tree_index(t, kernel) != 0)
    return ORION_ERR_INTERNAL;
  fn_regs *R = calloc(t->n, sizeof *R);
  orion_status st = R ? ORION_OK : ORION_ERR_NOMEM;
  for (size_t i = 0; st == ORION_OK && i < t->n; i++)
    if (decode(c, t, i, &R[i]))
      st = ORION_ERR_NOMEM; /* allocation, or a tree the analysis should not have passed */
  if (st == ORION_OK) {
    /* bottom-up (callees last in the tree order): entry sets, RETs dead */
    for (size_t i = t->n; i-- > 0;) {
      liveness(&R[i], R);
      if (R[i].n)
        memcpy(R[i].entry, R[i].in[0], sizeof(regset));
    }
    /* top-down: every caller final before its callees */
    for (size_t i = 0; i < t->n; i++) {
      liveness(&R[i], R);
      for (size_t k = 0; k < R[i].n; k++)
        if (R[i].callee[k] != SIZE_MAX && k + 1 < R[i].n)
          rs_or(R[R[i].callee[k]].retout, R[i].in[k + 1]);
    }
    char buf[160];
    for (size_t j = 0; j < t->nsites; j++) {
      const char *why = place(c, &kf, t, R, &t->sites[j], split, buf, sizeof buf);
      for (size_t o = 0; !why && o < j; o++) /* P or Q shared with another site */
        if (t->sites[o].fi == t->sites[j].fi &&
            (t->sites[o].call > t->sites[j].call ? t->sites[o].call - t->sites[j].call
                                                 : t->sites[j].call - t->sites[o].call) < 3) {
          snprintf(buf, sizeof buf, "calls at +0x%zx and +0x%zx are too close for their stubs",
                   16 * t->sites[o].call, 16 * t->sites[j].call);
          why = buf;
        }
      if (why && t->valid[SASSRW_LAYOUT_MOVES]) {
        t->valid[SASSRW_LAYOUT_MOVES] = 0;
        snprintf(t->why[SASSRW_LAYOUT_MOVES], sizeof t->why[SASSRW_LAYOUT_MOVES], "%s", why);
      }
    }
  }
  for (size_t i = 0; R && i < t->n; i++) {
    free(R[i].x);
    free(R[i].use);
    free(R[i].def);
    free(R[i].in);
    free(R[i].succ);
    free(R[i].callee);
    free(R[i].target);
  }
  free(R);
  return st;
}

size_t sassrw_sites_insns(const sassrw_tree *t) {
  size_t n = 0;
  for (size_t j = 0; j < t->nsites; j++)
    n += 4 * t->sites[j].nmoves * (t->gran / 4) + 4;
  return n;
}

/* Scoreboards of the move pieces: the LDS sets SB_W, its STS waits on it
 * and sets SB_R on reading the register, the next LDS waits on that. */
#define SB_W 4
#define SB_R 5

/* The pieces of site s from *at on: every granule moved as 4-byte LDS/STS
 * pairs through s->temp, from[] -> to[] (back: to[] -> from[], the moves
 * in reverse order).  The first LDS waits on every scoreboard. */
static orion_status pieces(const sassrw_site *s, int back, uint32_t region, uint64_t thr, uint32_t G,
                           unsigned sm, uint64_t *at, unsigned char *code) {
  orion_status st = ORION_OK;
  int first = 1;
  for (size_t m = 0; st == ORION_OK && m < s->nmoves; m++) {
    size_t j = back ? s->nmoves - 1 - m : m;
    uint32_t src = back ? s->to[j] : s->from[j], dst = back ? s->from[j] : s->to[j];
    for (uint32_t w = 0; st == ORION_OK && w < G / 4; w++) {
      orion_sass_insn ld, sd;
      int32_t so = (int32_t)(region + (uint64_t)src * thr * G + 4 * w);
      int32_t dof = (int32_t)(region + (uint64_t)dst * thr * G + 4 * w);
      st = orion_sass_make_lds(s->temp, 4, ORION_SASS_SP, so, &ld);
      if (st == ORION_OK)
        st = orion_sass_make_sts(ORION_SASS_SP, dof, s->temp, 4, &sd);
      if (st != ORION_OK)
        break;
      ld.ctrl = (orion_sass_ctrl){2, 0, SB_W, 7, first ? 0x3f : 1u << SB_R, 0};
      sd.ctrl = (orion_sass_ctrl){2, 0, 7, SB_R, 1u << SB_W, 0};
      first = 0;
      if ((st = sassrw_enc(&ld, sm, code + *at)) == ORION_OK)
        st = sassrw_enc(&sd, sm, code + *at + 16);
      *at += 32;
    }
  }
  return st;
}

/* Copy of the (already rewritten) instruction at `from` for a stub: no
 * reuse flags (its neighbours change), stall at least 1, extra wait bits. */
static orion_status displaced(const unsigned char *code, uint64_t from, unsigned wait, unsigned sm,
                              unsigned char *dst) {
  orion_sass_insn x;
  orion_status st = sassrw_decode(code + from, sm, &x);
  if (st != ORION_OK)
    return st;
  x.ctrl.reuse = 0;
  x.ctrl.wait |= (uint8_t)wait;
  if (!x.ctrl.stall)
    x.ctrl.stall = 1;
  return sassrw_enc(&x, sm, dst);
}

/* sassrw_internal.h has the contract; the opening comment the shape. */
orion_status sassrw_emit_site(const sassrw_site *s, uint64_t call, uint32_t region, uint64_t thr, uint32_t G,
                              unsigned sm, uint64_t *stub, unsigned char *code) {
  const orion_sass_ctrl go = {1, 0, 7, 7, 0, 0};
  uint64_t p = call - 16, q = call + 16, a = *stub;
  /* pre: P, the moves, BRA to the CALL */
  orion_status st = displaced(code, p, 0, sm, code + a);
  a += 16;
  if (st == ORION_OK)
    st = pieces(s, 0, region, thr, G, sm, &a, code);
  if (st == ORION_OK)
    st = sassrw_bra(a, call, (orion_sass_ctrl){1, 0, 7, 7, 1u << SB_R, 0}, sm, code + a);
  if (st == ORION_OK)
    st = sassrw_bra(p, *stub, go, sm, code + p);
  a += 16;
  /* ret: the restores, Q (waiting on the last STS's read), BRA after Q */
  uint64_t r = a;
  if (st == ORION_OK)
    st = pieces(s, 1, region, thr, G, sm, &a, code);
  if (st == ORION_OK)
    st = displaced(code, q, 1u << SB_R, sm, code + a);
  a += 16;
  if (st == ORION_OK)
    st = sassrw_bra(a, q + 16, go, sm, code + a);
  if (st == ORION_OK)
    st = sassrw_bra(q, r, go, sm, code + q);
  *stub = a + 16;
  return st;
}
