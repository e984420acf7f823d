/* sassrw_internal.h - the call-tree frame layouts of sass/rewrite/stack.c, shared
 * with sass/rewrite/rewrite.c.  Not a public interface. */
#ifndef ORION_SASSRW_INTERNAL_H
#define ORION_SASSRW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "orion/cubin.h"
#include "orion/sass.h"
#include "orion/sassrw.h"

/* Bit g of a set of 64-bit words (granule and register sets). */
static inline int sassrw_bit(const uint64_t *s, uint32_t g) { return (int)((s[g / 64] >> (g % 64)) & 1); }
static inline void sassrw_bit_set(uint64_t *s, uint32_t g) { s[g / 64] |= 1ull << (g % 64); }

/* Indices match orion_sassrw_layout - 1 (AUTO is not a layout). */
enum { SASSRW_LAYOUT_PTXAS, SASSRW_LAYOUT_SUM, SASSRW_LAYOUT_CSTACK, SASSRW_LAYOUT_MOVES, SASSRW_NLAYOUTS };

/* A call site of the MOVES layout with moves: before the CALL the live
 * granules from[j] (>= the height) go to the dead granules to[j] (below it),
 * after it they come back (absolute new granules of the layout).  The
 * moves go through register temp in two stubs (sass/rewrite/callsite.c): pre
 * replaces the instruction before the CALL, ret the one the call returns
 * to; each stub runs the displaced instruction (pre: first, ret: last). */
typedef struct sassrw_site {
  size_t fi;        /* tree index of the caller */
  size_t call;      /* instruction index of the CALL in the caller */
  uint32_t height;  /* B_k, granules above the caller's base */
  size_t nmoves;
  uint32_t *from, *to;
  unsigned temp;    /* set by sassrw_sites_place */
} sassrw_site;

typedef struct sassrw_tree {
  size_t n;       /* functions: the kernel first, callers before callees */
  size_t *funcs;  /* their orion_cubin function indices */
  uint32_t gran;  /* G, bytes */
  uint32_t nb;    /* granules of the old frame */
  uint32_t shared; /* SUM, CSTACK, MOVES: granules shared across calls, at 0.. */
  int min_heights; /* MOVES: every call compressed to its live count */
  int colour;      /* CSTACK, MOVES: private granules coloured (colour.c) */
  uint32_t *newpos[SASSRW_NLAYOUTS]; /* [tree index * nb + old granule] */
  uint32_t region[SASSRW_NLAYOUTS];  /* granules each layout needs */
  int valid[SASSRW_NLAYOUTS];
  char why[SASSRW_NLAYOUTS][160];    /* why a layout is invalid */
  sassrw_site *sites;                /* MOVES: the call sites with moves */
  size_t nsites;
  size_t nmoves;                     /* MOVES: granule moves before all calls */
} sassrw_tree;

/* Build the layouts for kernel (with colour, CSTACK and MOVES place
 * colour classes of each function's private granules, not granules) (analysis a of the unedited cubin c),
 * granule G bytes, old frame [0, frame_bytes).  Every frame access of the
 * tree must lie in that range (the caller checks).  On error nothing is
 * left to free. */
orion_status sassrw_tree_build(const orion_cubin *c, const orion_sassrw *a, size_t kernel, uint32_t G,
                               uint32_t frame_bytes, int min_heights, int colour, sassrw_tree *t);
void sassrw_tree_free(sassrw_tree *t);
/* sass/rewrite/callsite.c: place every site of t's MOVES layout (temp register,
 * displaceable neighbours of the CALL); when one cannot be placed, MOVES
 * becomes invalid with the reason.  G-byte granules move in 4-byte pieces,
 * split says wider accesses are split (t->gran 4): such an access cannot be
 * displaced.  Returns ORION_OK or ORION_ERR_NOMEM. */
orion_status sassrw_sites_place(const orion_cubin *c, size_t kernel, sassrw_tree *t, int split);
/* Stub instructions the sites take: per site, per 4-byte piece an LDS and
 * an STS before and after the call, plus the two displaced instructions
 * and two BRAs back. */
size_t sassrw_sites_insns(const sassrw_tree *t);
/* New granule of (func, old granule) under layout; -1 if func is not in
 * the tree or never accesses that granule. */
/* Control flow of instruction x, index k of tree function f (size bytes
 * of code): s[0] the fall-through successor unless an unguarded BRA (PT
 * condition), EXIT or RET ends the path; s[1] the encoded target of
 * anything but CALL and RET; UINT32_MAX for none; *callee the tree index
 * of a CALL's target, (size_t)-1 for none.  -1 when a target lies outside
 * f or off an instruction (then no edge). */
int sassrw_insn_flow(const orion_cubin *c, const sassrw_tree *t, const orion_cubin_func *f, size_t size,
                     size_t k, const orion_sass_insn *x, uint32_t s[2], size_t *callee);
/* Tree index of cubin function func, (size_t)-1 if not in the tree. */
size_t sassrw_tree_index(const sassrw_tree *t, size_t func);
int sassrw_tree_pos(const sassrw_tree *t, int layout, size_t func, uint32_t granule, uint32_t *pos);


/* One function's liveness as sass/rewrite/stack.c computes it: n
 * instructions, W-word granule sets; in[i * W]: live-in of instruction i,
 * wr[i * W]: the granules it stores to; succ[2 * i]: its successors. */
typedef struct sassrw_live_view {
  size_t n, W;
  const uint64_t *in, *wr;
  const uint32_t *succ;
} sassrw_live_view;
/* sass/rewrite/colour.c: cls[s] the colour class of granule setg[s] (s <
 * M), *nsets the classes; granules of one class are never live together.
 * On error every granule is its own class. */
orion_status sassrw_colour_sets(const sassrw_live_view *v, const uint32_t *setg, uint32_t M, uint32_t *cls,
                                uint32_t *nsets);

/* sass/rewrite/partial.c: the on-chip part of layout `layout` of t when
 * only k of its granules fit (the file's opening comment has the
 * algorithm). */
typedef struct sassrw_part {
  uint32_t n;             /* granules of the layout */
  uint32_t k;             /* of which on chip */
  uint32_t *slot;         /* [layout granule]: on-chip granule, UINT32_MAX local */
  uint64_t *weight;       /* [layout granule]: estimated dynamic accesses */
  uint64_t weight_on_chip, weight_total;
  unsigned top_gpr;       /* the highest register a tree instruction names */
} sassrw_part;
/* requires: every frame access of t lies in its frame (lay_out checked). */
orion_status sassrw_part_build(const orion_cubin *c, const sassrw_tree *t, int layout, int split, uint32_t k,
                               sassrw_part *p);
void sassrw_part_free(sassrw_part *p);
/* The register that holds the on-chip part's per-thread base, so that R1
 * stays the stack pointer for the local part: the first above every
 * register the tree names, within the kernel's register count
 * `regcount` (*count = regcount) or one more that allocates no more
 * registers (granules of 8) or stays within `limit` (*count = the raised
 * count); RZ when none. */
unsigned sassrw_part_base(const sassrw_part *p, unsigned regcount, unsigned limit, unsigned *count);
/* *slot: the on-chip granule of layout granule pos (pos itself when p is
 * NULL, a full rewrite); 0 when it stays in local memory. */
int sassrw_part_slot(const sassrw_part *p, uint32_t pos, uint32_t *slot);

/* Where the frame goes: tree t's layout, the region at `region` for thr
 * threads, addressed through register base (R1, or in a partial rewrite
 * the register of sassrw_part_base), split wider accesses, and with part
 * (a partial rewrite) the granules left in local memory at their own
 * [R1 + off]. */
typedef struct sassrw_placing {
  const sassrw_tree *t;
  int layout, split;
  uint32_t region;
  uint64_t thr;
  const sassrw_part *part;
  unsigned base, sm;
  size_t local, stubs; /* out: accesses (or pieces) left local; split accesses */
} sassrw_placing;
/* Rewrite frame access x (an LDL/STL of tree function func at byte `at`
 * of the section copy code) as pl says; a stub, if any, at *stub, which
 * moves past it.  requires: x's granules have places in pl's layout. */
orion_status sassrw_place_access(const orion_sass_insn *x, size_t func, sassrw_placing *pl, uint64_t at,
                                 uint64_t *stub, unsigned char *code);

/* sass/rewrite/emit.c: the cubin's architecture (80, 86, 89 or 90); the
 * instruction at `at` decoded for sm_<sm>; NOP as ptxas 13 emits it (the
 * same word on all four); x encoded for sm_<sm> at dst (a builder's sm_90
 * instruction moved there by orion_sass_set_arch); an unguarded BRA at
 * byte `at` to `to` with control bits ctrl. */
extern const orion_sass_word sassrw_w_nop;
unsigned sassrw_sm(const orion_cubin *c);
orion_status sassrw_decode(const unsigned char *at, unsigned sm, orion_sass_insn *x);
orion_status sassrw_enc(const orion_sass_insn *x, unsigned sm, unsigned char *dst);
orion_status sassrw_bra(uint64_t at, uint64_t to, orion_sass_ctrl ctrl, unsigned sm, unsigned char *dst);
/* sass/rewrite/callsite.c: the two stubs of MOVES site s at *stub (the CALL
 * at byte `call` of the section, the region at `region`, thr threads, G-byte
 * granules); *stub moves past them. */
orion_status sassrw_emit_site(const sassrw_site *s, uint64_t call, uint32_t region, uint64_t thr, uint32_t G,
                              unsigned sm, uint64_t *stub, unsigned char *code);

/* What the prologue computes into the base register: t * gran (static
 * region), or with dyn, from the end of the launch's shared memory,
 * region + dyn_size - 32 * stride - (t - lane) * stride + lane * gran
 * (stride: the bytes per thread of the dynamic region; region: where the
 * dynamic part starts). */
typedef struct {
  unsigned gran, base, dyn;
  uint32_t stride, region;
} sassrw_prologue_spec;

/* Instructions of the prologue on sm_<sm>, the BRA back included:
 * partial, the kernel's own load of R1 after the base; dyn, the dynamic
 * region's four more. */
unsigned sassrw_prologue_len(unsigned sm, int partial, int dyn);

/* Build the prologue at byte offset `at` of the section into out
 * (sassrw_prologue_len instructions): the region's per-thread base into
 * register ps->base, then, when that is not R1 (partial: R1 stays the
 * stack pointer), the kernel's own load of R1; it returns to `back`.
 * requires r1_init to be the kernel's first instruction, its load of R1
 * from c[0x0][X], and every register but R1 dead there. */
orion_status sassrw_prologue(const orion_sass_insn *r1_init, const sassrw_prologue_spec *ps, uint64_t at,
                             uint64_t back, unsigned char *out);

#endif
