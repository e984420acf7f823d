/* emit.c - the instructions the rewrite writes itself: an instruction
 * encoded in place, an unguarded BRA between two byte offsets of a text
 * section, and the NOP and BRA templates (as ptxas 13 emits them for
 * sm_90).  Shared by the rewrite's phases (rewrite.c), frame accesses
 * (access.c) and call-site stubs (callsite.c).
 */
#include "orion/sass.h"
#include "sassrw_internal.h"

const orion_sass_word sassrw_w_nop = {0x0000000000007918ull, 0x000fc00000000000ull};
const orion_sass_word sassrw_w_bra = {0xfffffffc00fc7947ull, 0x000fc0000383ffffull};

orion_status sassrw_enc(const orion_sass_insn *x, unsigned char *dst) {
  orion_sass_word w;
  orion_status st = orion_sass_encode(x, &w);
  if (st == ORION_OK)
    orion_sass_word_store(w, dst);
  return st;
}

orion_status sassrw_bra(uint64_t at, uint64_t to, orion_sass_ctrl ctrl, unsigned char *dst) {
  orion_sass_insn x;
  orion_status st = orion_sass_decode(sassrw_w_bra, &x);
  if (st == ORION_OK)
    st = orion_sass_set_target(&x, (int64_t)to - (int64_t)(at + 16));
  if (st == ORION_OK) {
    x.ctrl = ctrl;
    st = sassrw_enc(&x, dst);
  }
  return st;
}
