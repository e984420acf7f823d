/* decode_internal.h - what decode.c shares with encode.c: the rows of
 * ops.def, the architecture columns and bit-field helpers.  Not a public
 * interface. */
#ifndef ORION_SASS_DECODE_INTERNAL_H
#define ORION_SASS_DECODE_INTERNAL_H

#include <stdint.h>

#include "orion/sass.h"

#define SASS_FLAG_VARLAT 1

/* The architecture columns of ops.def, in their order: sm_90, 80, 86, 89. */
#define SASS_NARCH 4

/* What an opcode is (one per ORION_SASS_OP row, indexed by orion_sass_op). */
typedef struct sass_row {
  const char *mnem;
  uint8_t cls, space, flags;
} sass_row;

/* How it is encoded: every ORION_SASS_OP and ORION_SASS_ALT row. */
typedef struct sass_enc {
  int op; /* orion_sass_op */
  uint16_t base;
  const char *layout;
  const char *forms[SASS_NARCH];
} sass_enc;

extern const sass_row sass_rows[ORION_SASS_OP_COUNT];

/* Bits pos..pos+n-1 (n <= 64) of a word / store v there. */
uint64_t sass_bits(orion_sass_word w, unsigned pos, unsigned n);
void sass_put(orion_sass_word *w, unsigned pos, unsigned n, uint64_t v);
/* Width in bits of a register field of an orion_sass_file. */
unsigned sass_file_bits(unsigned file);
/* Column of architecture sm_<sm> in ops.def, -1 if it has none. */
int sass_arch_index(unsigned sm);
/* The encoding row of a 12-bit opcode on architecture column `arch`, NULL
 * if the table does not know it there. */
const sass_enc *sass_find_opcode(unsigned opcode, int arch);
/* The encoding row of opcode `op` with `form` on column `arch`, NULL if
 * that form does not exist there. */
const sass_enc *sass_find_enc(orion_sass_op op, unsigned form, int arch);

#endif
