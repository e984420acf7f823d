/* emit.c - the instructions the rewrite writes itself: an instruction
 * encoded in place for the cubin's architecture, an unguarded BRA between
 * two byte offsets of a text section, and the NOP and BRA templates (as
 * ptxas 13 emits them).  Shared by the rewrite's phases (rewrite.c), frame
 * accesses (access.c) and call-site stubs (callsite.c).
 */
#include "orion/cubin.h"
#include "orion/sass.h"
#include "sassrw_internal.h"

const orion_sass_word sassrw_w_nop = {0x0000000000007918ull, 0x000fc00000000000ull};
/* BRA to itself: sm_90 splits the offset (bits 16-23 and 34-81), sm_80-89
 * keep it whole in 34-81. */
static const orion_sass_word w_bra90 = {0xfffffffc00fc7947ull, 0x000fc0000383ffffull};
static const orion_sass_word w_bra80 = {0xfffffff000007947ull, 0x000fc0000383ffffull};

unsigned sassrw_sm(const orion_cubin *c) {
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  return h.sm;
}

orion_status sassrw_decode(const unsigned char *at, unsigned sm, orion_sass_insn *x) {
  return orion_sass_decode_arch(orion_sass_word_load(at), sm, x);
}

orion_status sassrw_enc(const orion_sass_insn *x, unsigned sm, unsigned char *dst) {
  orion_sass_insn y = *x;
  orion_sass_word w;
  orion_status st = y.sm == sm ? ORION_OK : orion_sass_set_arch(&y, sm);
  if (st == ORION_OK)
    st = orion_sass_encode(&y, &w);
  if (st == ORION_OK)
    orion_sass_word_store(w, dst);
  return st;
}

orion_status sassrw_bra(uint64_t at, uint64_t to, orion_sass_ctrl ctrl, unsigned sm, unsigned char *dst) {
  orion_sass_insn x;
  orion_status st = orion_sass_decode_arch(sm == 90 ? w_bra90 : w_bra80, sm, &x);
  if (st == ORION_OK)
    st = orion_sass_set_target(&x, (int64_t)to - (int64_t)(at + 16));
  if (st == ORION_OK) {
    x.ctrl = ctrl;
    st = sassrw_enc(&x, sm, dst);
  }
  return st;
}
