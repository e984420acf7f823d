/* prologue.c - the instructions a rewritten kernel runs first: the
 * per-thread base of its shared-memory region (sassrw_internal.h has the
 * contract, include/orion/sassrw.h the layout).
 *
 * Prologue on sm_90 (every register is dead at a kernel's entry;
 * scoreboards 0-5 are set by the six variable-latency reads and the first
 * IMAD waits on all of them; stall 15 everywhere, as ORION_SASS_CTRL_SAFE):
 *   S2R R0, SR_TID.X ; S2R R2, SR_TID.Y ; S2R R3, SR_TID.Z
 *   S2R R4, SR_CgaCtaId ; LDC R5, c[0x0][0x0] ; LDC R6, c[0x0][0x4]
 *   IMAD R3, R3, R6, R2      (tid.z * ntid.y + tid.y)
 *   IMAD R3, R3, R5, R0      (linear thread index t)
 *   IMAD R3, R3, G, RZ
 *   IMAD R1, R4, 0x1000000, R3   (CTA rank << 24 | t * G)
 *   BRA <kernel + 0x10>
 * The LDC template is the kernel's own LDC R1, c[0x0][X].  On sm_80-89 (no
 * clusters) there is no SR_CgaCtaId: the third IMAD writes R1 = t * G; the
 * constants are loaded by the kernel's own MOV or IMAD.MOV.U32 of R1 as
 * the template (fixed latency: no scoreboard).
 */
#include "orion/sass.h"
#include "sassrw_internal.h"

#define PROLOGUE 11 /* instructions on sm_90, the BRA back included */

/* The dynamic region's prologue: four more (S2R SR_LANEID, the load of
 * c[0x0][0x2c], an IMAD and the IADD3 of the region's end). */
#define DYN_EXTRA 4

/* Instructions of the prologue on sm_<sm>, the BRA back included: sm_90
 * adds the S2R of SR_CgaCtaId and the IMAD that puts the CTA rank in; a
 * partial rewrite the kernel's own load of R1; a dynamic region DYN_EXTRA. */
unsigned sassrw_prologue_len(unsigned sm, int partial, int dyn) {
  return (sm == 90 ? PROLOGUE : PROLOGUE - 2) + (partial ? 1u : 0u) + (dyn ? DYN_EXTRA : 0u);
}

/* r1_init (the kernel's load of R1 from c[0x0][X]) loading c[0x0][off]
 * into register rd instead, with safe control bits. */
static orion_sass_insn const_load_like(const orion_sass_insn *r1_init, unsigned rd, int32_t off) {
  orion_sass_insn x = *r1_init;
  for (unsigned i = 0; i < x.nregs; i++)
    if (x.regs[i].def && x.regs[i].file == ORION_SASS_R)
      x.regs[i].num = (uint8_t)rd;
  x.cbank_off = off;
  x.ctrl = ORION_SASS_CTRL_SAFE;
  return x;
}

/* Build the prologue at byte offset `at` of the section into out
 * (sassrw_prologue_len instructions): the region's per-thread base into register
 * ps->base, then, when that is not R1 (partial: R1 stays the stack
 * pointer), the kernel's own load of R1.  It returns to `back`.  r1_init, the kernel's first
 * instruction (it loads R1 from c[0x0][X]), is the template of the loads
 * of c[0x0][0x0] and c[0x0][0x4]; every variable-latency result gets a
 * scoreboard of its own, which the first IMAD waits on. */
orion_status sassrw_prologue(const orion_sass_insn *r1_init, const sassrw_prologue_spec *ps, uint64_t at,
                             uint64_t back, unsigned char *out) {
  unsigned sm = r1_init->sm, np = 0, cga = sm == 90, base = ps->base;
  orion_sass_insn p[PROLOGUE + DYN_EXTRA];
  orion_status st = ORION_OK;
  static const unsigned sr[4] = {ORION_SASS_SR_TID_X, ORION_SASS_SR_TID_Y, ORION_SASS_SR_TID_Z, ORION_SASS_SR_CGACTAID};
  static const unsigned rd[4] = {0, 2, 3, 4};
  for (unsigned k = 0; k < 3 + cga && st == ORION_OK; k++)
    st = orion_sass_make_s2r(rd[k], sr[k], &p[np++]);
  for (unsigned k = 0; k < 2; k++) /* R5 = c[0x0][0x0] ; R6 = c[0x0][0x4] */
    p[np++] = const_load_like(r1_init, 5 + k, (int32_t)(4 * k));
  for (unsigned k = 0; k < np; k++) {
    p[k].ctrl.wbar = orion_sass_op_varlat(p[k].op) ? (uint8_t)k : 7;
    p[k].ctrl.wait = 0;
  }
  if (st == ORION_OK)
    st = orion_sass_make_imad(3, 3, 6, 2, &p[np++]);
  if (st == ORION_OK)
    st = orion_sass_make_imad(3, 3, 5, 0, &p[np++]);
  if (st == ORION_OK && ps->dyn) { /* R3 = -t * stride + lane * (stride + gran) + region - 32 * stride + R5 */
    if ((st = orion_sass_make_s2r(2, ORION_SASS_SR_LANEID, &p[np])) == ORION_OK)
      p[np++].ctrl.wbar = 0;
    p[np] = const_load_like(r1_init, 5, ORION_SASS_CB_DYN_SMEM_SIZE); /* R5 is dead after the IMADs */
    p[np++].ctrl.wbar = orion_sass_op_varlat(r1_init->op) ? 1 : 7; /* the next IMAD waits on every scoreboard */
    if (st == ORION_OK)
      st = orion_sass_make_imad_imm(3, 3, (uint32_t)0 - ps->stride, ORION_SASS_RZ, &p[np++]);
    if (st == ORION_OK)
      st = orion_sass_make_imad_imm(3, 2, ps->gran + ps->stride, 3, &p[np++]);
    if (st == ORION_OK)
      st = orion_sass_make_iadd3_imm(cga ? 3 : base, 3, ps->region - 32 * ps->stride, 5, &p[np++]);
  } else if (st == ORION_OK) {
    st = orion_sass_make_imad_imm(cga ? 3 : base, 3, ps->gran, ORION_SASS_RZ, &p[np++]);
  }
  if (st == ORION_OK && cga)
    st = orion_sass_make_imad_imm(base, 4, 0x1000000u, 3, &p[np++]);
  if (base != ORION_SASS_SP)
    p[np++] = *r1_init;
  for (unsigned k = 0; st == ORION_OK && k < np; k++)
    st = sassrw_enc(&p[k], sm, out + 16 * k);
  if (st == ORION_OK)
    st = sassrw_bra(at + 16 * np, back, ORION_SASS_CTRL_SAFE, sm, out + 16 * np);
  return st;
}

