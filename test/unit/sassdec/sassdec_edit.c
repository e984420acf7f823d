/* sassdec_edit.c - the edits the cubin rewriter makes, as raw sm_90 code,
 * and edits of sm_80 code.
 *
 * usage: sassdec_edit OUT.bin [OUT80.bin]
 *
 * Writes one instruction per builder / edit of include/orion/sass.h to
 * OUT.bin (16 bytes each) for `nvdisasm --binary SM90`, and sm_80 edits
 * (retargeted branches, the builders' instructions moved to sm_80) to OUT80.bin for `nvdisasm --binary SM80`, which
 * test/lit/sass/encode-edits.test reads back and compares with the text the
 * edit means.  Before writing, every instruction is decoded again and its
 * fields compared with what was asked (operands, offsets, targets, control
 * bits), and the range checks and the architecture argument are exercised;
 * sass/codec/ops.def is checked to give each (architecture, opcode) and each
 * (architecture, opcode id, form) one row at most.  Any mismatch is printed
 * and the exit status is 1.
 */
#include <stdio.h>
#include <string.h>

#include "orion/sass.h"

static int failed;
static FILE *out, *out80;

#define EXPECT(cond, ...)                                  \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "sassdec_edit:%d: ", __LINE__);      \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
      failed = 1;                                          \
    }                                                      \
  } while (0)

/* Encode, decode again, check the round trip, append to OUT.bin (sm_90)
 * or OUT80.bin (sm_80). */
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
  st = orion_sass_decode_arch(w, in->sm, &back);
  EXPECT(st == ORION_OK, "%s: decode: %s", what, orion_strerror(st));
  EXPECT(back.op == in->op && back.nregs == in->nregs &&
             back.mem_off == in->mem_off && back.imm == in->imm &&
             back.target == in->target && back.guard == in->guard &&
             !memcmp(&back.ctrl, &in->ctrl, sizeof back.ctrl) &&
             !memcmp(back.regs, in->regs, in->nregs * sizeof in->regs[0]),
         "%s: fields changed in the round trip", what);
  unsigned char b[16];
  orion_sass_word_store(w, b);
  if (in->sm == 80 && out80)
    fwrite(b, 1, 16, out80);
  else if (in->sm == 90)
    fwrite(b, 1, 16, out);
  return back;
}

static orion_sass_insn dec_arch(uint64_t lo, uint64_t hi, unsigned sm) {
  orion_sass_insn in;
  memset(&in, 0, sizeof in);
  orion_sass_word w = {lo, hi};
  orion_status st = orion_sass_decode_arch(w, sm, &in);
  EXPECT(st == ORION_OK, "decode sm_%u %016llx %016llx: %s", sm,
         (unsigned long long)hi, (unsigned long long)lo, orion_strerror(st));
  return in;
}

static orion_sass_insn dec(uint64_t lo, uint64_t hi) { return dec_arch(lo, hi, 90); }

/* The rows of sass/codec/ops.def (both kinds) with their architecture columns. */
static const struct {
  const char *id;
  unsigned base;
  const char *forms[4]; /* sm_90, 80, 86, 89 */
} table[] = {
#define ORION_SASS_OP(id, mnem, base, cls, space, flags, layout, f90, f80, f86, f89) \
  {#id, base, {f90, f80, f86, f89}},
#define ORION_SASS_ALT(id, base, layout, f90, f80, f86, f89) {#id, base, {f90, f80, f86, f89}},
#include "../../../sass/codec/ops.def"
#undef ORION_SASS_ALT
#undef ORION_SASS_OP
};

/* Each (architecture, opcode) and (architecture, id, form) in one row. */
static void check_table(void) {
  size_t n = sizeof table / sizeof table[0];
  for (unsigned a = 0; a < 4; a++)
    for (size_t i = 0; i < n; i++)
      for (const char *f = table[i].forms[a]; *f; f++) {
        EXPECT(*f >= '1' && *f <= '7', "%s: form '%c'", table[i].id, *f);
        for (size_t j = i + 1; j < n; j++) {
          if (!strchr(table[j].forms[a], *f))
            continue;
          EXPECT(table[j].base != table[i].base, "column %u: opcode 0x%03x form %c in rows %s and %s",
                 a, table[i].base, *f, table[i].id, table[j].id);
          EXPECT(strcmp(table[j].id, table[i].id), "column %u: %s form %c in two rows", a,
                 table[i].id, *f);
        }
      }
}

/* sm_80 code: the encodings that differ from sm_90 (whole branch offsets,
 * the implicit descriptor of LDG, R2UR's number), decoded, edited and
 * written to OUT80.bin; the architecture argument's errors. */
static void sm80_edits(void) {
  orion_sass_insn x, y;
  orion_sass_word w = {0xfffffff000007947ull, 0x000fc0000383ffffull}; /* sm_80 BRA to itself */
  x = dec_arch(w.lo, w.hi, 80);
  EXPECT(x.sm == 80 && x.op == ORION_SASS_OP_BRA && x.target == -0x10, "sm_80 BRA self loop: %lld",
         (long long)x.target);
  y = dec(w.lo, w.hi);
  EXPECT(y.op == ORION_SASS_OP_BRA && y.target != -0x10, "sm_80 BRA read as sm_90 has another target");
  EXPECT(orion_sass_set_target(&x, 0x100) == ORION_OK, "sm_80 BRA retarget");
  emit("sm_80 BRA", ORION_OK, &x); /* at 0x00: to 0x110 */
  x = dec_arch(0x000002e000007944ull, 0x020fea0003c00000ull, 80); /* CALL.REL.NOINC */
  EXPECT(x.cls == ORION_SASS_CALL && x.target == 0x2e0, "sm_80 CALL offset %lld", (long long)x.target);
  EXPECT(orion_sass_set_target(&x, -0x40) == ORION_OK, "sm_80 CALL retarget");
  emit("sm_80 CALL", ORION_OK, &x); /* at 0x10: to -0x20 */
  x = dec_arch(0x0000000402007981ull, 0x000ea4000c1e1900ull, 80); /* LDG.E R0, [R2.64] */
  EXPECT(x.nregs == 3 && x.regs[0].num == 0 && !x.regs[0].implicit && x.regs[1].file == ORION_SASS_UR &&
             x.regs[1].num == 4 && x.regs[1].width == 2 && x.regs[1].implicit && x.regs[2].num == 2,
         "sm_80 LDG: R0, implicit UR4:UR5, R2:R3");
  y = dec(0x0000000402007981ull, 0x000ea4000c1e1900ull); /* desc[UR4][R2.64] */
  EXPECT(y.nregs == 3 && !y.regs[1].implicit, "sm_90 LDG: descriptor printed");
  x.regs[2].num = 6;
  x.mem_off = 0x20;
  emit("sm_80 LDG", ORION_OK, &x); /* at 0x20: LDG.E R0, [R6.64+0x20] */
  x = dec_arch(0x00000000040473c2ull, 0x00321e00000e0000ull, 80); /* R2UR UR4, R4 */
  EXPECT(x.op == ORION_SASS_OP_R2UR && x.opcode == 0x3c2, "sm_80 R2UR (0x1c2)");
  EXPECT(orion_sass_decode((orion_sass_word){0x00000000040473c2ull, 0x00321e00000e0000ull}, &y) ==
             ORION_ERR_PARSE, "0x3c2 is not an sm_90 opcode");
  x.regs[0].num = 9;
  emit("sm_80 R2UR", ORION_OK, &x); /* at 0x30: R2UR UR9, R4 */

  /* Architectures: unknown ones refused, the out-parameter untouched. */
  EXPECT(orion_sass_arch_supported(80) && orion_sass_arch_supported(86) &&
             orion_sass_arch_supported(89) && orion_sass_arch_supported(90),
         "supported architectures");
  EXPECT(!orion_sass_arch_supported(75) && !orion_sass_arch_supported(100) &&
             !orion_sass_arch_supported(0),
         "unsupported architectures");
  y = x;
  EXPECT(orion_sass_decode_arch(w, 75, &y) == ORION_ERR_UNSUPPORTED_ARCH && !memcmp(&x, &y, sizeof x),
         "sm_75 decode refused");
  EXPECT(orion_sass_decode_arch(w, 80, NULL) == ORION_ERR_INVALID_ARG, "NULL out");
  y.sm = 0;
  EXPECT(orion_sass_encode(&y, &w) == ORION_ERR_UNSUPPORTED_ARCH, "encode without an architecture");
  y.sm = 90; /* R2UR has no form 1 at 0x1c2 on sm_90, but has 0x0ca */
  EXPECT(orion_sass_encode(&y, &w) == ORION_OK && (w.lo & 0xfff) == 0x2ca, "R2UR re-encoded for sm_90");
  y = dec_arch(0x0000000a00007348ull, 0x003fde0003800000ull, 86); /* WARPSYNC R10 */
  EXPECT(y.op == ORION_SASS_OP_WARPSYNC_R && y.nregs == 1 && y.regs[0].num == 10 && !y.has_target,
         "sm_86 WARPSYNC R10");

  /* 0x40 ..: the builders' instructions moved to sm_80 (orion_sass_set_arch),
   * as the rewrite writes them into sm_80-89 code, and an sm_80 spill
   * split in pieces (orion_sass_local_piece). */
  static const char *const built[] = {"LDS", "STS", "S2R", "IMAD imm", "IMAD", "IADD3 imm", "MOV"};
  for (unsigned i = 0; i < sizeof built / sizeof *built; i++) {
    orion_status st = i == 0   ? orion_sass_make_lds(25, 4, 1, 0x804, &x)
                      : i == 1 ? orion_sass_make_sts(1, 0x2c00, 4, 8, &x)
                      : i == 2 ? orion_sass_make_s2r(3, ORION_SASS_SR_TID_Z, &x)
                      : i == 3 ? orion_sass_make_imad_imm(1, 3, 0x8, ORION_SASS_RZ, &x)
                      : i == 4 ? orion_sass_make_imad(3, 3, 6, 2, &x)
                      : i == 5 ? orion_sass_make_iadd3_imm(1, 1, (uint32_t)-0xa8, ORION_SASS_RZ, &x)
                               : orion_sass_make_mov(3, 4, &x);
    if (st == ORION_OK)
      st = orion_sass_set_arch(&x, 80);
    emit(built[i], st, &x);
  }
  x = dec_arch(0x00000800011c7983ull, 0x007ea80000100a00ull, 80); /* LDL.64 R28, [R1+0x8] */
  EXPECT(x.op == ORION_SASS_OP_LDL && x.mem_off == 8 && x.mem_bytes == 8, "sm_80 LDL.64");
  emit("sm_80 LDL piece", orion_sass_local_piece(&x, 0xc, 4, 29, &y), &y); /* LDL R29, [R1+0xc] */
  y = x;
  EXPECT(orion_sass_set_arch(&y, 75) == ORION_ERR_UNSUPPORTED_ARCH && !memcmp(&x, &y, sizeof x),
         "set_arch to sm_75 refused, the instruction unchanged");
  x = dec(0x0000000402007981ull, 0x000ea4000c1e1900ull); /* sm_90 LDG: the descriptor is printed */
  y = x;
  EXPECT(orion_sass_set_arch(&y, 80) == ORION_ERR_RANGE && !memcmp(&x, &y, sizeof x),
         "sm_90 LDG is not moved to sm_80 (another operand layout)");
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: sassdec_edit OUT.bin [OUT80.bin]\n");
    return 2;
  }
  out = fopen(argv[1], "wb");
  out80 = argc == 3 ? fopen(argv[2], "wb") : NULL;
  if (!out || (argc == 3 && !out80)) {
    fprintf(stderr, "sassdec_edit: %s: cannot open\n", argv[out ? 2 : 1]);
    return 2;
  }
  check_table();
  sm80_edits();
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

  if (fclose(out) != 0 || (out80 && fclose(out80) != 0)) {
    fprintf(stderr, "sassdec_edit: write error\n");
    return 2;
  }
  return failed;
}
