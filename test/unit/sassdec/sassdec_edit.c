/* sassdec_edit.c - the edits the cubin rewriter makes, as raw sm_90 code.
 *
 * usage: sassdec_edit OUT.bin
 *
 * Writes one instruction per builder / edit of include/orion/sass.h to
 * OUT.bin (16 bytes each) for `nvdisasm --binary SM90`, which
 * test/lit/sass/encode-edits.test reads back and compares with the text the
 * edit means.  Before writing, every instruction is decoded again and its
 * fields compared with what was asked (operands, offsets, targets, control
 * bits), and the range checks are exercised; any mismatch is printed and
 * the exit status is 1.
 */
#include <stdio.h>
#include <string.h>

#include "orion/sass.h"

static int failed;
static FILE *out;

#define EXPECT(cond, ...)                                  \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "sassdec_edit:%d: ", __LINE__);      \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
      failed = 1;                                          \
    }                                                      \
  } while (0)

/* Encode, decode again, check the round trip, append to OUT.bin. */
static orion_sass_insn emit(const char *what, orion_status st,
                            const orion_sass_insn *in) {
  orion_sass_insn back;
  memset(&back, 0, sizeof back);
  EXPECT(st == ORION_OK, "%s: %s", what, orion_strerror(st));
  if (st != ORION_OK)
    return back;
  orion_sass_word w;
  st = orion_sass_encode(in, &w);
  EXPECT(st == ORION_OK, "%s: encode: %s", what, orion_strerror(st));
  st = orion_sass_decode(w, &back);
  EXPECT(st == ORION_OK, "%s: decode: %s", what, orion_strerror(st));
  EXPECT(back.op == in->op && back.nregs == in->nregs &&
             back.mem_off == in->mem_off && back.imm == in->imm &&
             back.target == in->target && back.guard == in->guard &&
             !memcmp(&back.ctrl, &in->ctrl, sizeof back.ctrl) &&
             !memcmp(back.regs, in->regs, in->nregs * sizeof in->regs[0]),
         "%s: fields changed in the round trip", what);
  unsigned char b[16];
  orion_sass_word_store(w, b);
  fwrite(b, 1, 16, out);
  return back;
}

static orion_sass_insn dec(uint64_t lo, uint64_t hi) {
  orion_sass_insn in;
  memset(&in, 0, sizeof in);
  orion_sass_word w = {lo, hi};
  orion_status st = orion_sass_decode(w, &in);
  EXPECT(st == ORION_OK, "decode %016llx %016llx: %s", (unsigned long long)hi,
         (unsigned long long)lo, orion_strerror(st));
  return in;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sassdec_edit OUT.bin\n");
    return 2;
  }
  out = fopen(argv[1], "wb");
  if (!out) {
    fprintf(stderr, "sassdec_edit: %s: cannot open\n", argv[1]);
    return 2;
  }
  orion_sass_insn x, y;

  /* 0x00 .. 0x30: LDL/STL (ptxas 13.0 spill code) moved to shared memory. */
  orion_sass_insn ldl = dec(0x00000000010e7983ull, 0x000ee80000300a00ull); /* LDL.LU.64 R14, [R1] */
  orion_sass_insn stl = dec(0x0000880601007387ull, 0x000fe20000100800ull); /* STL [R1+0x88], R6 */
  EXPECT(ldl.space == ORION_SASS_SPACE_LOCAL && ldl.cls == ORION_SASS_LOAD, "LDL class");
  EXPECT(stl.has_mem && stl.mem_off == 0x88 && stl.regs[stl.mem_base_index].num == 1,
         "STL [R1+0x88]");
  y = emit("LDL->LDS", orion_sass_local_to_shared(&ldl, 7, 0x40, &x), &x);
  EXPECT(y.space == ORION_SASS_SPACE_SHARED && y.mem_bytes == 8 &&
             y.ctrl.wbar == ldl.ctrl.wbar && y.ctrl.wait == ldl.ctrl.wait,
         "LDS keeps size and control bits");
  y = emit("STL->STS", orion_sass_local_to_shared(&stl, 3, -0x10, &x), &x);
  EXPECT(y.mem_off == -0x10 && y.cls == ORION_SASS_STORE, "STS offset");
  emit("LDS.128", orion_sass_make_lds(8, 16, 12, 0x7ffff0, &x), &x);
  emit("STS", orion_sass_make_sts(ORION_SASS_RZ, 0x100, 9, 4, &x), &x);

  /* 0x40 .. 0xc0: the per-thread base and stack-pointer arithmetic. */
  emit("S2R", orion_sass_make_s2r(0, ORION_SASS_SR_TID_X, &x), &x);
  emit("S2R.Y", orion_sass_make_s2r(2, ORION_SASS_SR_TID_Y, &x), &x);
  emit("IMAD imm", orion_sass_make_imad_imm(6, 7, 0x80, 8, &x), &x);
  emit("IMAD", orion_sass_make_imad(6, 7, 9, ORION_SASS_RZ, &x), &x);
  emit("IADD3 imm", orion_sass_make_iadd3_imm(1, 1, (uint32_t)-0x40, ORION_SASS_RZ, &x), &x);
  emit("IADD3", orion_sass_make_iadd3(2, 3, 4, 5, &x), &x);
  emit("MOV", orion_sass_make_mov(3, 4, &x), &x);
  emit("MOV imm", orion_sass_make_mov_imm(5, 0x1234, &x), &x);
  /* A guard and control bits set by hand on a built instruction. */
  orion_sass_make_mov(1, 2, &x);
  x.guard = 3;
  x.guard_neg = 1;
  x.ctrl = (orion_sass_ctrl){2, 1, 0, 7, 0x21, 0};
  y = emit("guarded MOV", ORION_OK, &x);
  EXPECT(y.guard == 3 && y.guard_neg && y.ctrl.stall == 2 && y.ctrl.wbar == 0 &&
             y.ctrl.wait == 0x21 && y.ctrl.yield == 1,
         "guard / control bits");

  /* 0xd0 .. 0xf0: retargeted branch, call and BSSY. */
  orion_sass_insn bra = dec(0xfffffffc00fc7947ull, 0x000fc0000383ffffull); /* BRA to itself */
  EXPECT(bra.has_target && bra.target == -0x10, "BRA self loop: %lld", (long long)bra.target);
  EXPECT(orion_sass_set_target(&bra, 0x100) == ORION_OK, "BRA retarget");
  emit("BRA", ORION_OK, &bra); /* at 0xd0: to 0x1e0 */
  orion_sass_insn call = dec(0x00000004003c7944ull, 0x003fde0003c00000ull); /* CALL.REL.NOINC */
  EXPECT(call.cls == ORION_SASS_CALL && call.target == 0x4f0, "CALL offset %lld",
         (long long)call.target);
  EXPECT(orion_sass_set_target(&call, -0x100) == ORION_OK, "CALL retarget");
  emit("CALL", ORION_OK, &call); /* at 0xe0: to -0x10 */
  orion_sass_insn bssy = dec(0x000001a000007945ull, 0x003fde0003800000ull); /* BSSY B0 */
  EXPECT(bssy.target == 0x1a0, "BSSY offset");
  EXPECT(orion_sass_set_target(&bssy, 0x2000) == ORION_OK, "BSSY retarget");
  emit("BSSY", ORION_OK, &bssy); /* at 0xf0: to 0x2100 */

  /* Range checks: nothing is written, nothing changes. */
  orion_sass_insn keep = bra;
  EXPECT(orion_sass_set_target(&bra, 2) == ORION_ERR_RANGE, "odd target");
  EXPECT(orion_sass_set_target(&bra, (int64_t)1 << 60) == ORION_ERR_RANGE, "huge target");
  EXPECT(!memcmp(&keep, &bra, sizeof bra), "failed set_target changed the insn");
  EXPECT(orion_sass_make_lds(8, 16, 12, 0x800000, &x) == ORION_ERR_RANGE, "offset > 24 bits");
  EXPECT(orion_sass_make_lds(8, 12, 12, 0, &x) == ORION_ERR_RANGE, "12-byte access");
  EXPECT(orion_sass_make_mov(256, 1, &x) == ORION_ERR_RANGE, "R256");
  EXPECT(orion_sass_local_to_shared(&bra, 1, 0, &x) == ORION_ERR_INVALID_ARG, "BRA as LDL");
  x = ldl;
  x.ctrl.stall = 16;
  orion_sass_word w;
  EXPECT(orion_sass_encode(&x, &w) == ORION_ERR_RANGE, "stall 16");
  EXPECT(orion_sass_decode((orion_sass_word){0xfff, 0}, &x) == ORION_ERR_PARSE, "unknown opcode");

  if (fclose(out) != 0) {
    fprintf(stderr, "sassdec_edit: %s: write error\n", argv[1]);
    return 2;
  }
  return failed;
}
