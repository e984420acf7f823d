/* access.c - one frame access of the rewrite (include/orion/sassrw.h has
 * the layout): LDL/STL [R1+off] -> LDS/STS [Rb+off'] of its granule's
 * on-chip place (Rb the region's base register: R1, or in a partial
 * rewrite a register of its own), or, in a partial rewrite, left at
 * ptxas's own place [R1+off]; with a split granule an access wider than
 * 4 bytes goes to a stub of 4-byte pieces, each placed on its own (unless
 * all of them stay local: then the access stays whole).
 */
#include <stdlib.h>

#include "orion/sass.h"
#include "sassrw_internal.h"

/* The access of x's `bytes` at frame offset off, data register data, as
 * an LDS/STS of its on-chip granule or an LDL/STL at [R1 + off] (partial).
 * ORION_ERR_INTERNAL if off's granule has no place (cannot happen). */
static orion_status place_one(const orion_sass_insn *x, size_t func, sassrw_placing *pl, int32_t off,
                              unsigned bytes, unsigned data, orion_sass_insn *y) {
  uint32_t G = pl->t->gran, pos, slot;
  if (sassrw_tree_pos(pl->t, pl->layout, func, (uint32_t)off / G, &pos))
    return ORION_ERR_INTERNAL;
  if (!sassrw_part_slot(pl->part, pos, &slot)) {
    pl->local++;
    return orion_sass_local_piece(x, off, bytes, data, y);
  }
  int32_t noff = (int32_t)(pl->region + (uint64_t)slot * pl->thr * G + (uint32_t)off % G);
  return x->op == ORION_SASS_OP_LDL ? orion_sass_make_lds(data, bytes, pl->base, noff, y)
                                    : orion_sass_make_sts(pl->base, noff, data, bytes, y);
}

/* x's data register (RZ for none). */
static unsigned data_reg(const orion_sass_insn *x) {
  unsigned data = ORION_SASS_RZ;
  for (unsigned i = 0; i < x->nregs; i++)
    if (i != x->mem_base_index && x->regs[i].file == ORION_SASS_R)
      data = x->regs[i].num;
  return data;
}

/* The stub of a wide access x (at byte offset `at` of the section) at
 * *stub: one 4-byte piece per word j (LDS/STS of its granule, or, partial,
 * LDL/STL [R1 + off + 4j]), then BRA back; x's place becomes a BRA to the
 * stub carrying x's wait mask.  Every piece keeps x's guard and
 * scoreboards, so a consumer waiting on x's scoreboard waits for all of
 * them; stalls only grow. */
static orion_status split_access(const orion_sass_insn *x, size_t func, sassrw_placing *pl, uint64_t at,
                                 uint64_t *stub, unsigned char *code) {
  unsigned data = data_reg(x);
  orion_sass_ctrl in = x->ctrl;
  in.reuse = 0;
  orion_sass_ctrl to = {in.stall ? in.stall : 1, in.yield, 7, 7, in.wait, 0};
  orion_status st = sassrw_bra(at, *stub, to, pl->sm, code + at);
  uint64_t s = *stub;
  for (uint32_t j = 0; st == ORION_OK && j < x->mem_bytes / 4; j++, s += 16) {
    unsigned r = data == ORION_SASS_RZ ? ORION_SASS_RZ : data + j;
    orion_sass_insn y;
    if ((st = place_one(x, func, pl, x->mem_off + (int32_t)(4 * j), 4, r, &y)) != ORION_OK)
      break;
    y.guard = x->guard;
    y.guard_neg = x->guard_neg;
    y.ctrl = in;
    y.ctrl.wait = 0; /* the BRA waited */
    if (!y.ctrl.stall)
      y.ctrl.stall = 1;
    st = sassrw_enc(&y, pl->sm, code + s);
  }
  orion_sass_ctrl back = {in.stall ? in.stall : 1, in.yield, 7, 7, 0, 0};
  if (st == ORION_OK)
    st = sassrw_bra(s, at + 16, back, pl->sm, code + s);
  *stub = s + 16;
  return st;
}

/* Whether every word of wide access x stays in local memory (partial). */
static int all_local(const orion_sass_insn *x, size_t func, const sassrw_placing *pl) {
  for (uint32_t j = 0; pl->part && j < x->mem_bytes / 4; j++) {
    uint32_t pos, slot;
    if (sassrw_tree_pos(pl->t, pl->layout, func, (uint32_t)x->mem_off / 4 + j, &pos) ||
        sassrw_part_slot(pl->part, pos, &slot))
      return 0;
  }
  return pl->part != NULL;
}

/* sassrw_internal.h has the contract. */
orion_status sassrw_place_access(const orion_sass_insn *x, size_t func, sassrw_placing *pl, uint64_t at,
                                 uint64_t *stub, unsigned char *code) {
  if (pl->split && x->mem_bytes > pl->t->gran && !all_local(x, func, pl)) {
    pl->stubs++;
    return split_access(x, func, pl, at, stub, code);
  }
  orion_sass_insn y;
  orion_status st = place_one(x, func, pl, x->mem_off, x->mem_bytes, data_reg(x), &y);
  if (st != ORION_OK)
    return st;
  y.guard = x->guard;
  y.guard_neg = x->guard_neg;
  y.ctrl = x->ctrl;
  return sassrw_enc(&y, pl->sm, code + at);
}
