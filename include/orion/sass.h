/* orion/sass.h - decoder and encoder of SASS instructions for sm_90
 * (Hopper), sm_80 (A100), sm_86 (Ampere GA10x) and sm_89 (Ada).
 *
 * Every Volta-and-later instruction is 128 bits, stored little endian as two
 * 64-bit words; bit n of the instruction is bit n of `lo` for n < 64 and bit
 * n-64 of `hi` otherwise.  The decoder splits such a word into the fields the
 * cubin rewriter needs; the encoder puts them back:
 *
 *   opcode       bits 0-11: a 9-bit base (0-8) and a 3-bit operand form
 *                (9-11: which of the b/c sources is a register, a 32-bit
 *                immediate, a constant-bank address or a uniform register)
 *   guard        bits 12-14 predicate (7 = PT), bit 15 negation
 *   registers    each operand's register file, number, width (1, 2 or 4
 *                consecutive 32-bit registers), def/use role and the field it
 *                sits in (Rd 16-23, Ra 24-31, Rb 32-39, Rc 64-71, uniform
 *                registers in 6 bits, predicates in 3 bits plus negation)
 *   memory       base register, 32/64-bit address, signed byte offset, access
 *                size (LDL/STL/LDS/STS/LDG/STG/LDC...)
 *   target       branch/call/return/BSSY offset in bytes from the end of the
 *                instruction (on sm_90 BRA, CALL.REL and RET.REL split it
 *                between bits 16-23 and 34-81; BSSY, and every one of them
 *                on sm_80-89, keeps it whole in 34-81)
 *   control      stall 105-108, yield 109, write barrier 110-112, read
 *                barrier 113-115, wait mask 116-121, reuse 122-125
 *
 * What each opcode has is data: the X-macro table sass/codec/ops.def (name, 9-bit
 * base, class, memory space, operand layout, and per architecture the forms
 * that exist there).  The architectures share the instruction format; an
 * opcode or form the table does not list for the architecture decodes as
 * unknown.  Bits that no decoded field covers (modifiers such as .U32,
 * .FTZ, comparison codes) are kept verbatim in `rest`; encoding a decoded
 * instruction unchanged gives back the same 128 bits.  Register operands are conservative where the
 * layout says so: every register the instruction may read is a use and
 * every register it writes is a def (validated against `nvdisasm -plr`).
 *
 * Architectures: orion_sass_decode_arch takes the cubin's sm number (80,
 * 86, 89 or 90; orion_cubin_header.sm) and records it in insn->sm, which
 * orion_sass_encode follows; orion_sass_decode is the sm_90 call.  The
 * builders below make sm_90 instructions; orion_sass_set_arch moves one to
 * another architecture.
 *
 * Status: ORION_ERR_INVALID_ARG for NULL pointers, ORION_ERR_UNSUPPORTED_ARCH
 * for an architecture other than those four, ORION_ERR_PARSE for an
 * opcode/form the table does not know (the instruction must then be treated
 * as unknown: copied verbatim, the function left alone), ORION_ERR_RANGE for
 * a field value that does not fit its bits when encoding.  On error the
 * out-parameter is left untouched.
 *
 * Ownership: all structures are plain values owned by the caller; no
 * allocation, no global mutable state, every function is thread-safe.
 */
#ifndef ORION_SASS_H
#define ORION_SASS_H

#include <stdint.h>

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instruction as stored in .text (little endian, 16 bytes). */
typedef struct orion_sass_word {
  uint64_t lo, hi;
} orion_sass_word;

/* Read / write a word from / to 16 little-endian bytes. */
orion_sass_word orion_sass_word_load(const unsigned char bytes[16]);
void orion_sass_word_store(orion_sass_word w, unsigned char bytes[16]);

/* Opcode classes.  X(name) */
#define ORION_SASS_CLASS_LIST(X)                                          \
  X(ALU)     /* integer, float, logic, conversion, move, predicate ops */ \
  X(UNIFORM) /* uniform-datapath ALU (UIADD3, UMOV, ...) */               \
  X(SPECIAL) /* special-register reads (S2R, CS2R, S2UR) */               \
  X(LOAD)    /* memory load (see the space) */                            \
  X(STORE)   /* memory store */                                           \
  X(BRANCH)  /* BRA */                                                    \
  X(CALL)    /* CALL.REL / CALL.ABS */                                    \
  X(RET)     /* RET.REL */                                                \
  X(EXIT)    /* EXIT */                                                   \
  X(BARRIER) /* BAR */                                                    \
  X(SYNC)    /* BSSY, BSYNC, BREAK, WARPSYNC: convergence control */      \
  X(NOP)

typedef enum orion_sass_class {
#define ORION_X(n) ORION_SASS_##n,
  ORION_SASS_CLASS_LIST(ORION_X)
#undef ORION_X
  ORION_SASS_CLASS_COUNT
} orion_sass_class;

/* Memory spaces.  X(name) */
/* GENERIC: LD/ST through a generic address (global, shared or local). */
#define ORION_SASS_SPACE_LIST(X) X(NONE) X(LOCAL) X(SHARED) X(GLOBAL) X(CONST) X(GENERIC)

typedef enum orion_sass_space {
#define ORION_X(n) ORION_SASS_SPACE_##n,
  ORION_SASS_SPACE_LIST(ORION_X)
#undef ORION_X
  ORION_SASS_SPACE_COUNT
} orion_sass_space;

/* The opcodes of sass/codec/ops.def (every architecture's), one enumerator per
 * ORION_SASS_OP row. */
typedef enum orion_sass_op {
#define ORION_SASS_OP(id, mnem, base, cls, space, flags, layout, f90, f80, f86, f89) \
  ORION_SASS_OP_##id,
#include "../../sass/codec/ops.def"
#undef ORION_SASS_OP
  ORION_SASS_OP_COUNT
} orion_sass_op;

/* Register files.  Zero registers: RZ = 255, URZ = 63, PT = UPT = 7. */
typedef enum orion_sass_file {
  ORION_SASS_R,  /* general-purpose registers R0..R254 */
  ORION_SASS_UR, /* uniform registers UR0..UR62 */
  ORION_SASS_P,  /* predicates P0..P6 */
  ORION_SASS_UP, /* uniform predicates UP0..UP6 */
  ORION_SASS_B   /* convergence barrier registers B0..B15 */
} orion_sass_file;

#define ORION_SASS_RZ 255
#define ORION_SASS_URZ 63
#define ORION_SASS_PT 7
#define ORION_SASS_SP 1 /* R1: the stack pointer of the ABI */

/* A register operand.  def=1 for a register the instruction writes (a
 * predicated instruction may leave it unchanged), 0 for one it reads; an
 * operand both read and written appears twice.  width is the number of
 * consecutive registers (R2 with width 2 is R2:R3).  The zero registers are
 * listed (they appear in the text) but are neither read nor written.
 * P2R's PR operand is P0 with width 7 and field 0xff (all predicates).
 * implicit=1 for an operand the instruction reads that nvdisasm does not
 * print: the memory descriptor UR of LDG/STG/LD/ST on sm_80-89 (printed
 * as desc[URn] on sm_90). */
typedef struct orion_sass_reg {
  uint8_t file;  /* orion_sass_file */
  uint8_t num;   /* register number */
  uint8_t width; /* 1, 2 or 4 */
  uint8_t def;   /* 1 = written, 0 = read */
  uint8_t neg;   /* predicate operands: negated (!P0) */
  uint8_t field; /* encoding field (internal; keep it when editing num) */
  uint8_t port;  /* 1/2/3 = source a/b/c (for .reuse), 0 otherwise */
  uint8_t implicit; /* 1 = not printed by nvdisasm (see above) */
} orion_sass_reg;

#define ORION_SASS_MAX_REGS 12

/* Control bits (scheduling information of every instruction). */
typedef struct orion_sass_ctrl {
  uint8_t stall; /* 0..15 cycles */
  uint8_t yield; /* 0/1 */
  uint8_t wbar;  /* 0..5 scoreboard set on write, 7 = none */
  uint8_t rbar;  /* 0..5 scoreboard set on read, 7 = none */
  uint8_t wait;  /* 6-bit mask of scoreboards waited on */
  uint8_t reuse; /* 4-bit operand reuse cache flags (bit 0 = source a) */
} orion_sass_ctrl;

/* A decoded instruction.  Fields not meaningful for the opcode are 0. */
typedef struct orion_sass_insn {
  orion_sass_op op;
  uint16_t opcode; /* the 12-bit opcode (base | form << 9) */
  uint8_t sm;      /* architecture decoded for: 80, 86, 89 or 90 */
  uint8_t form;    /* bits 9-11 */
  uint8_t cls;     /* orion_sass_class */
  uint8_t space;   /* orion_sass_space */
  uint8_t guard;   /* guard predicate number, 7 = PT (always) */
  uint8_t guard_neg;
  uint8_t guard_file; /* ORION_SASS_P, or ORION_SASS_UP for uniform ops */
  uint8_t nregs;
  orion_sass_reg regs[ORION_SASS_MAX_REGS];
  /* Memory operand of LDL/STL/LDS/STS/LDG/STG (has_mem): [base + offset],
   * base is regs[mem_base_index] (RZ when absent; LDS/STS may add a uniform
   * register, listed after it); mem_bytes is the access size (1, 2, 4, 8,
   * 16).  LDC/ULDC give has_cbank instead (LDC's base register is in regs). */
  uint8_t has_mem;
  uint8_t mem_base_index;
  uint8_t mem_bytes;
  int32_t mem_off;
  /* Constant-bank operand (has_cbank): c[cbank][cbank_off]. */
  uint8_t has_cbank;
  uint8_t cbank;
  int32_t cbank_off;
  /* Immediate source (has_imm) in bits imm_at .. imm_at + imm_bits - 1:
   * the form-placed 32 bits at 32, or a narrower field (SHFL's lane at 53
   * or clamp at 40; a second immediate stays in rest).  0/0 reads 32/32. */
  uint8_t has_imm;
  uint8_t imm_at, imm_bits;
  uint32_t imm;
  /* Branch target (has_target): byte offset from the next instruction. */
  uint8_t has_target;
  int64_t target;
  orion_sass_ctrl ctrl;
  orion_sass_word rest; /* bits no decoded field covers */
} orion_sass_insn;

/* Whether the decoder knows architecture sm_<sm> (80, 86, 89, 90). */
int orion_sass_arch_supported(unsigned sm);

/* Decode one instruction of architecture sm_<sm>. */
orion_status orion_sass_decode_arch(orion_sass_word w, unsigned sm,
                                    orion_sass_insn *out);
/* Decode one sm_90 instruction: orion_sass_decode_arch(w, 90, out). */
orion_status orion_sass_decode(orion_sass_word w, orion_sass_insn *out);

/* Encode for in->sm (ORION_ERR_UNSUPPORTED_ARCH if that is not one of the
 * four; ORION_ERR_RANGE if the opcode's form does not exist there): rest |
 * every field of `in`.  Fields are range-checked (register numbers against
 * their field width, mem_off against 24 signed bits, target against its
 * field in 4-byte units, control bits). */
orion_status orion_sass_encode(const orion_sass_insn *in, orion_sass_word *out);

/* Names: "IADD3", "ALU", "LOCAL"; "?" for an out-of-range value. */
const char *orion_sass_op_name(orion_sass_op op);
const char *orion_sass_class_name(orion_sass_class cls);
const char *orion_sass_space_name(orion_sass_space space);

/* Whether the opcode's result arrives with variable latency (the consumer
 * must wait on a scoreboard the producer sets in wbar): loads, S2R, MUFU... */
int orion_sass_op_varlat(orion_sass_op op);

/* --- Builders for the instructions the rewriter inserts or edits. --------
 * Each fills *out with a complete instruction that orion_sass_encode turns
 * into bits nvdisasm prints as shown.  Guard PT; control bits
 * ORION_SASS_CTRL_SAFE (stall 15, wait on every scoreboard, none set):
 * the caller sets scoreboards for variable-latency results. */
extern const orion_sass_ctrl ORION_SASS_CTRL_SAFE;

/* LDL/STL -> LDS/STS with the same size and data registers, address
 * [base + off] (base a GPR, RZ for an absolute address). */
orion_status orion_sass_local_to_shared(const orion_sass_insn *local,
                                        unsigned base, int32_t off,
                                        orion_sass_insn *out);
/* LDS Rd, [base + off] / STS [base + off], Rs; bytes 4, 8 or 16. */
orion_status orion_sass_make_lds(unsigned rd, unsigned bytes, unsigned base,
                                 int32_t off, orion_sass_insn *out);
orion_status orion_sass_make_sts(unsigned base, int32_t off, unsigned rs,
                                 unsigned bytes, orion_sass_insn *out);
/* MOV Rd, Rb  /  MOV Rd, imm */
orion_status orion_sass_make_mov(unsigned rd, unsigned rb, orion_sass_insn *out);
orion_status orion_sass_make_mov_imm(unsigned rd, uint32_t imm,
                                     orion_sass_insn *out);
/* IADD3 Rd, Ra, Rb, Rc  /  IADD3 Rd, Ra, imm, Rc */
orion_status orion_sass_make_iadd3(unsigned rd, unsigned ra, unsigned rb,
                                   unsigned rc, orion_sass_insn *out);
orion_status orion_sass_make_iadd3_imm(unsigned rd, unsigned ra, uint32_t imm,
                                       unsigned rc, orion_sass_insn *out);
/* IMAD Rd, Ra, Rb, Rc  /  IMAD Rd, Ra, imm, Rc  (low 32 bits of a*b+c) */
orion_status orion_sass_make_imad(unsigned rd, unsigned ra, unsigned rb,
                                  unsigned rc, orion_sass_insn *out);
orion_status orion_sass_make_imad_imm(unsigned rd, unsigned ra, uint32_t imm,
                                      unsigned rc, orion_sass_insn *out);
/* LDL/STL [Ra + off] -> the same access of `bytes` (4, 8, 16) at
 * [Ra + off], data register `data` (local's architecture; Ra, guard and
 * control bits kept): one piece of a wider frame access that stays in local memory.
 * ORION_ERR_INVALID_ARG for anything but a plain LDL/STL. */
orion_status orion_sass_local_piece(const orion_sass_insn *local, int32_t off, unsigned bytes, unsigned data,
                                    orion_sass_insn *out);
/* S2R Rd, SR_<n>: special-register numbers as in the hardware. */
#define ORION_SASS_SR_TID_X 0x21
#define ORION_SASS_SR_TID_Y 0x22
#define ORION_SASS_SR_TID_Z 0x23
#define ORION_SASS_SR_CTAID_X 0x25
#define ORION_SASS_SR_LANEID 0x00
#define ORION_SASS_SR_SMEMSZ 0x32   /* the block's shared memory size (%total_smem_size) */
#define ORION_SASS_SR_CGACTAID 0x88 /* the CTA's rank in its cluster (sm_90) */
/* c[0x0][0x2c]: the launch's dynamic shared memory size (%dynamic_smem_size) */
#define ORION_SASS_CB_DYN_SMEM_SIZE 0x2c
orion_status orion_sass_make_s2r(unsigned rd, unsigned sreg,
                                 orion_sass_insn *out);

/* The same instruction for sm_<sm>: requires that its modifier bits (kept
 * in rest) mean the same there, as the builders' do (they are what ptxas
 * writes on all four).  ORION_ERR_UNSUPPORTED_ARCH for an unknown
 * architecture, ORION_ERR_RANGE when its opcode form does not exist on
 * sm_<sm> or has another operand layout there; *insn is then unchanged. */
orion_status orion_sass_set_arch(orion_sass_insn *insn, unsigned sm);

/* Retarget a branch/call/BSSY: set the byte offset from the next
 * instruction (ORION_ERR_INVALID_ARG if the instruction has no target,
 * ORION_ERR_RANGE if the offset is not a multiple of 4 or does not fit). */
orion_status orion_sass_set_target(orion_sass_insn *insn, int64_t target);

#ifdef __cplusplus
}
#endif
#endif /* ORION_SASS_H */
