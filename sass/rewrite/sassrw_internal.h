/* sassrw_internal.h - the call-tree frame layouts of sass/rewrite/stack.c, shared
 * with sass/rewrite/rewrite.c.  Not a public interface. */
#ifndef ORION_SASSRW_INTERNAL_H
#define ORION_SASSRW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "orion/cubin.h"
#include "orion/sass.h"
#include "orion/sassrw.h"

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
  uint32_t *newpos[SASSRW_NLAYOUTS]; /* [tree index * nb + old granule] */
  uint32_t region[SASSRW_NLAYOUTS];  /* granules each layout needs */
  int valid[SASSRW_NLAYOUTS];
  char why[SASSRW_NLAYOUTS][160];    /* why a layout is invalid */
  sassrw_site *sites;                /* MOVES: the call sites with moves */
  size_t nsites;
  size_t nmoves;                     /* MOVES: granule moves before all calls */
} sassrw_tree;

/* Build the three layouts for kernel (analysis a of the unedited cubin c),
 * granule G bytes, old frame [0, frame_bytes).  Every frame access of the
 * tree must lie in that range (the caller checks).  On error nothing is
 * left to free. */
orion_status sassrw_tree_build(const orion_cubin *c, const orion_sassrw *a, size_t kernel, uint32_t G,
                               uint32_t frame_bytes, int min_heights, sassrw_tree *t);
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

#endif
