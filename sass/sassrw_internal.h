/* sassrw_internal.h - the call-tree frame layouts of sass/stack.c, shared
 * with sass/rewrite.c.  Not a public interface. */
#ifndef ORION_SASSRW_INTERNAL_H
#define ORION_SASSRW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "orion/cubin.h"
#include "orion/sassrw.h"

/* Indices match orion_sassrw_layout - 1 (AUTO is not a layout). */
enum { SASSRW_LAYOUT_PTXAS, SASSRW_LAYOUT_SUM, SASSRW_LAYOUT_CSTACK, SASSRW_NLAYOUTS };

typedef struct sassrw_tree {
  size_t n;       /* functions: the kernel first, callers before callees */
  size_t *funcs;  /* their orion_cubin function indices */
  uint32_t gran;  /* G, bytes */
  uint32_t nb;    /* granules of the old frame */
  uint32_t *newpos[SASSRW_NLAYOUTS]; /* [tree index * nb + old granule] */
  uint32_t region[SASSRW_NLAYOUTS];  /* granules each layout needs */
  int valid[SASSRW_NLAYOUTS];
  char why[SASSRW_NLAYOUTS][160];    /* why a layout is invalid */
} sassrw_tree;

/* Build the three layouts for kernel (analysis a of the unedited cubin c),
 * granule G bytes, old frame [0, frame_bytes).  Every frame access of the
 * tree must lie in that range (the caller checks).  On error nothing is
 * left to free. */
orion_status sassrw_tree_build(const orion_cubin *c, const orion_sassrw *a, size_t kernel, uint32_t G,
                               uint32_t frame_bytes, sassrw_tree *t);
void sassrw_tree_free(sassrw_tree *t);
/* New granule of (func, old granule) under layout; -1 if func is not in
 * the tree or never accesses that granule. */
int sassrw_tree_pos(const sassrw_tree *t, int layout, size_t func, uint32_t granule, uint32_t *pos);

#endif
