/* decode_internal.h - what decode.c shares with encode.c: the rows of
 * sm90_ops.def and bit-field helpers.  Not a public interface. */
#ifndef ORION_SASS_DECODE_INTERNAL_H
#define ORION_SASS_DECODE_INTERNAL_H

#include <stdint.h>

#include "orion/sass.h"

#define SASS_FLAG_VARLAT 1

typedef struct sass_row {
  const char *mnem;
  uint16_t base;
  const char *forms;
  uint8_t cls, space, flags;
  const char *layout;
} sass_row;

extern const sass_row sass_rows[ORION_SASS_OP_COUNT];

/* Bits pos..pos+n-1 (n <= 64) of a word / store v there. */
uint64_t sass_bits(orion_sass_word w, unsigned pos, unsigned n);
void sass_put(orion_sass_word *w, unsigned pos, unsigned n, uint64_t v);
/* Width in bits of a register field of an orion_sass_file. */
unsigned sass_file_bits(unsigned file);
/* Row index of a 12-bit opcode, -1 if the table does not know it. */
int sass_find_row(unsigned opcode);
int sass_row_has_form(const sass_row *r, unsigned form);

#endif
