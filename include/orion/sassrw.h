/* orion/sassrw.h - stack-frame analysis and the frame-to-shared-memory
 * rewrite of sm_90, sm_80, sm_86 and sm_89 cubins (sm_80-89: no GPU of
 * theirs checks the result here; the disassembly does, test/unit/sassrw).
 *
 * Analysis (sass/rewrite/frame.c).  orion_sassrw_analyze() decodes every function
 * of a cubin (include/orion/sass.h) and records, per function: the basic
 * blocks (leaders: the entry, branch/BSSY targets, the instruction after a
 * BRA, EXIT or RET), the direct calls (CALL.REL targets resolved to
 * functions), how R1 - the stack pointer - is set up (loaded from
 * c[0x0][X] at the entry, X read from the code: LDC on sm_90, MOV or
 * IMAD.MOV.U32 R1, RZ, RZ on sm_80-89) and moved (IADD3 / VIADD R1, R1, imm), the R1-relative frame slots (LDL/STL [R1+imm] with their
 * sizes), and the first fact that makes it unsafe to move the frame:
 *   - an instruction the decoder does not know (it may touch anything);
 *   - R1 read other than as the base of an LDL/STL or by an R1 move (the
 *     stack pointer is copied, added to, converted: a local address
 *     escapes), or written other than by the entry load or an R1 move;
 *   - an LDL/STL whose base is not R1 or that adds a uniform register
 *     (register-indexed local memory);
 *   - a call whose target is not a function of the cubin (indirect);
 *   - a branch leaving the function;
 *   - a read of the block's shared memory size (S2R SR_SMEMSZ,
 *     %total_smem_size), which every rewrite enlarges;
 *   - recursion (a cycle of the call graph), or a callee that is unsafe.
 * Nothing is assumed about registers an unknown instruction reads or
 * writes: the function is unsafe and left as it is.
 *
 * Rewrite (sass/rewrite/rewrite.c): a kernel and its call tree (whole-program
 * ptxas output: CALL.REL into the kernel's text section, callees that never
 * load or move R1, so the tree shares the kernel's one frame [R1, R1 + F)).
 * Every LDL/STL [R1+off] of the tree becomes LDS/STS [R1+off'] into a
 * per-thread region of the kernel's static shared memory, laid out
 * slot-major: with G the granule (below), N the kernel's maximum threads
 * per block (EIATTR_MAX_THREADS or REQNTID, required) and t the linear
 * thread index, old granule off / G of function f goes to new granule
 * p = pos(f, off / G) and
 *     off'  =  region + p * N * G + off % G,   R1 = t * G (+ CTA rank, below)
 *     region: the old .nv.shared.<k> size, 16-aligned; a kernel without one
 *     gets one (orion_cubin_add_nobits_section) and region 0x400 (sm_90
 *     static data starts after the 1 KB reserved area the size counts;
 *     sm_80-89 have none: region 0, and the section must join a shared
 *     segment the cubin already has)
 * so a warp's G-byte accesses to one slot hit consecutive G-byte words:
 * bank-conflict free for G-byte accesses, while a narrower access in a
 * region of G = 8 or 16 sees a 2- or 4-way conflict.  The granule
 * (orion_sassrw_granule) is either WIDE, the largest access of the tree
 * (4, 8 or 16 bytes; nothing changes size), or SPLIT, G = 4: every wider
 * access becomes one 4-byte LDS/STS per word, each word its own granule
 * (so the words of one old slot need not stay adjacent), in a stub
 * appended to the section that its old place branches to (BRA there, the
 * stub: the pieces with the old guard, then BRA back to the next
 * instruction; the BRA carries the old wait mask, every piece the old
 * read/write scoreboard, so consumers wait for all of them).  AUTO takes
 * SPLIT when the tree has more 4-byte accesses than wider ones.  pos() is
 * one of four layouts (sass/rewrite/stack.c has the algorithms):
 *   PTXAS   identity: ptxas's own frame, F / G granules;
 *   SUM     every function a private frame, one after the other;
 *   CSTACK  the compressible stack of orion-ra (Theorem 1): private
 *           frames, a callee's starting at its caller's height at the
 *           call, raised until no slot has to move;
 *   MOVES   the compressible stack with moves: the smallest region the
 *           slots live across each call allow; before a call the live
 *           slots above its height move below it, after it they come
 *           back (opts.min_heights: every call compressed to its live
 *           slots, the paper's rule, rather than as little as that region
 *           needs).  The moves are 4-byte LDS/STS pairs through a
 *           register dead at the call (interprocedural liveness) in two
 *           stubs: the instruction before the CALL branches to one that
 *           runs it and the moves and branches back to the CALL, the
 *           instruction the call returns to branches to one that runs the
 *           restores and it (sass/rewrite/callsite.c; sites it cannot place, e.g.
 *           a call that is a branch target, make MOVES invalid);
 * AUTO (the default) takes the smallest valid one (ties: CSTACK, PTXAS,
 * SUM; MOVES, which adds code, only when strictly smaller).  Frame slots
 * through which a value crosses a call (stack arguments such as a spilled
 * return address, results) stay shared by the whole tree in SUM, CSTACK
 * and MOVES, at the bottom of the region.
 * R1 itself holds t * G | rank << 24 (nothing else reads it once the frame
 * is gone; on sm_90 shared-window addresses carry the CTA's rank in the
 * cluster in bits 24-31, as ptxas forms them; sm_80-89 have no clusters:
 * t * G).  No code moves: the kernel's first instruction, its load of R1
 * from c[0x0][X], becomes a BRA to a prologue appended to the text section,
 * which computes R1 from SR_TID.X/Y/Z, c[0x0][0x0] and c[0x0][0x4] (loaded
 * the way the kernel loads R1) and, on sm_90, SR_CgaCtaId, with R0 and
 * R2-R6 as temporaries (nothing is live at a kernel's entry) and branches
 * back to the second instruction;
 * the kernel's R1 moves become NOPs.  So branch, call and BSSY targets,
 * return addresses, EXIT/S2RCTAID offset lists, relocations and symbols all
 * keep their values; the last function of the section grows to cover the
 * prologue and the stubs.  The .nv.shared.<k> size grows by the region; FRAME_SIZE,
 * MIN_STACK_SIZE and MAX_STACK_SIZE of every function of the tree become 0.
 *
 * Slot colouring (opts.colour, sass/rewrite/colour.c): before CSTACK and
 * MOVES lay a function's private granules out, the ones never live at the
 * same time (interference from the backward liveness of stack.c: a
 * granule stored to while another is live, or both live at the entry) are
 * coloured with orion_ra_colour, and each colour class, not each granule,
 * is one slot set.  The result gives the regions with and without it.
 *
 * Partial placement (opts.partial, sass/rewrite/partial.c): when the region
 * of the chosen layout (PTXAS, SUM or CSTACK; MOVES is not combined with
 * it) does not fit below opts.smem_limit, only its k granules with the most
 * estimated dynamic accesses (10^loop depth per access, loop depth from the
 * backward branches of the SASS, callees weighted by their call sites) go
 * to the region, k = (limit - region) / (N * G), renumbered in layout
 * order; every access of another granule stays LDL/STL [R1 + off] as
 * ptxas wrote it, and R1 stays the stack pointer (tools such as
 * compute-sanitizer's memcheck check local accesses against it): the
 * on-chip part is addressed through a register of its own, Rb, the first
 * above every register the tree names (ptxas names registers up to its
 * count less three on sm_80-90; the two above are not the program's), the
 * count raised by one where that allocates no more registers (granules
 * of 8 per thread) or stays within opts.reg_limit; none left: refused
 * (res.need_reg).  The prologue sets Rb and then runs the kernel's own
 * load of R1.  A split wide access whose words all stay local stays one
 * access; otherwise its stub places word by word.  The local frame and
 * its attributes stay.
 *
 * Dynamic region (opts.dynamic): the same accesses, laid out warp by
 * warp at the end of the launch's dynamic shared memory instead of in
 * static memory sized for N threads.  With C granules per thread,
 * w = t / 32 and l = t % 32 (SR_LANEID: warps are formed from consecutive
 * linear thread indices), D the launch's dynamic size (c[0x0][0x2c]) and
 * region where the dynamic part starts, granule p of warp w lane l is at
 *     region + D - (w + 1) * 32 * C * G + p * 32 * G + l * G,
 * so the base register holds region + D - 32 * C * G - (t - l) * C * G
 * + l * G (four more prologue instructions: S2R SR_LANEID, the load of D,
 * two IMADs, and an IADD3) and an access is [base + p * 32 * G + off % G]:
 * the code depends on no block size.  A launch of any block shape whose
 * program asks for M bytes of dynamic memory brings
 * align16(M) + ceil(threads / 32) * 32 * C * G bytes (res.warp_bytes per
 * warp; above 48 KB per block with the opt-in attribute): the program's
 * own dynamic data stays where ptxas placed it, below the region.  region
 * is the static .nv.shared.<k> size, grown to 16-aligned (ptxas places
 * dynamic data at the section's end, its size padded to the data's
 * alignment; sm_90: 0x400 and a section added when the kernel has none,
 * as ptxas does for a kernel with only dynamic shared memory; sm_80-89: 0,
 * no section needed).  Warp-sized strides keep a warp's accesses to one
 * slot on consecutive G-byte words.  A tree function that reads D is
 * refused (the region enlarges it).  Partial placement works as above
 * with opts.warp_limit in place of smem_limit.
 *
 * Refused (the kernel is left unchanged and the reason reported): unsafe
 * kernels (or callees); callees that load or move R1 (ABI calls, -rdc);
 * an R1 set-up other than one load at the kernel's first instruction plus
 * entry moves; other functions in the kernel's text section than its call
 * tree; no maximum block size (and no opts->block); sub-word or misaligned
 * frame accesses; frame offsets outside [0, F); fewer than 7 registers; on
 * sm_80-89 a kernel without static shared memory in a cubin without a
 * shared segment (no kernel of it uses shared memory); a
 * static shared size above 48 KB or opts.smem_limit (partial: no granule
 * fits, or no register left for the on-chip part's base); and, unless the caller asserts that the
 * kernel is launched without dynamic shared memory
 * (orion_sassrw_opts.no_dynamic_smem: ptxas bakes the dynamic array's
 * address, the old static size, into the code, so growing the static part
 * would overlap it), any kernel but under opts.dynamic.
 *
 * Ownership: orion_sassrw_analyze() returns a handle the caller frees with
 * orion_sassrw_free(); the records and strings it hands out live until
 * then.  The analysis copies what it needs: it stays valid while the cubin
 * is edited (by the rewrite or otherwise) but describes the code it saw.
 * Not thread-safe on one cubin.
 */
#ifndef ORION_SASSRW_H
#define ORION_SASSRW_H

#include <stddef.h>
#include <stdint.h>

#include "orion/cubin.h"
#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One R1-relative frame slot: [R1 + off], bytes wide, as seen after the
 * function's entry moves of R1. */
typedef struct orion_sassrw_slot {
  int32_t off;
  uint32_t bytes;
  uint32_t loads, stores;
} orion_sassrw_slot;

typedef struct orion_sassrw_func {
  size_t func; /* orion_cubin function index */
  const char *name;
  int is_kernel;
  uint64_t size;                  /* bytes of code */
  size_t n_insns, n_blocks, n_edges;
  size_t n_local;                 /* LDL/STL instructions */
  size_t n_global_loads;          /* loads from global or generic memory (LDG, LD) */
  long r1_init_cbank;             /* X of the entry's load of R1 from c[0x0][X]; -1 if none */
  int64_t r1_init_at;             /* its offset in the function, -1 if none */
  int r1_init_op;                 /* its orion_sass_op (LDC, MOV or IMAD); -1 if none */
  int64_t r1_entry_delta;         /* sum of the R1 moves in the entry block */
  size_t n_r1_moves;              /* all R1 moves, entry block or not */
  int r1_moves_outside_entry;     /* an R1 move after the entry block */
  size_t n_slots;
  const orion_sassrw_slot *slots; /* sorted by offset, then size */
  uint32_t frame_bytes;           /* max(off + bytes) over slots, 0 if none */
  uint32_t max_access;            /* largest slot size */
  int subword, misaligned;        /* slots of 1/2 bytes; off % bytes != 0 */
  size_t n_calls;                 /* CALL instructions */
  size_t n_callees;
  const size_t *callees;          /* function indices, without duplicates */
  int shared_access;              /* LDS/STS or SR_CgaCtaId reads */
  int reads_dyn_size;             /* reads c[0x0][0x2c], the launch's dynamic shared memory size */
  int safe;                       /* no unsafe fact (own or via callees) */
  const char *reason;             /* first unsafe fact, "" when safe */
} orion_sassrw_func;

typedef struct orion_sassrw orion_sassrw;

/* Analyse every function of c (sm_80, 86, 89, 90: ORION_ERR_UNSUPPORTED_ARCH
 * otherwise).  A function that cannot be decoded is not an error: it is
 * unsafe with a reason. */
orion_status orion_sassrw_analyze(const orion_cubin *c, orion_sassrw **out);
void orion_sassrw_free(orion_sassrw *a); /* NULL is fine */
size_t orion_sassrw_count(const orion_sassrw *a);
/* Record of function i (the orion_cubin function index), NULL if out of range. */
const orion_sassrw_func *orion_sassrw_get(const orion_sassrw *a, size_t i);

/* Frame layout of the rewrite (see above). */
typedef enum orion_sassrw_layout {
  ORION_SASSRW_LAYOUT_AUTO,
  ORION_SASSRW_LAYOUT_PTXAS,
  ORION_SASSRW_LAYOUT_SUM,
  ORION_SASSRW_LAYOUT_CSTACK,
  ORION_SASSRW_LAYOUT_MOVES
} orion_sassrw_layout;
/* "auto", "ptxas", "sum", "cstack", "moves"; NULL out of range. */
const char *orion_sassrw_layout_name(orion_sassrw_layout l);

/* The region's granule (see above). */
typedef enum orion_sassrw_granule {
  ORION_SASSRW_GRANULE_AUTO,
  ORION_SASSRW_GRANULE_SPLIT, /* 4 bytes, wider accesses split */
  ORION_SASSRW_GRANULE_WIDE   /* the largest access */
} orion_sassrw_granule;
/* "auto", "split", "wide"; NULL out of range. */
const char *orion_sassrw_granule_name(orion_sassrw_granule g);

typedef struct orion_sassrw_opts {
  orion_sassrw_layout layout; /* AUTO: the smallest valid region */
  orion_sassrw_granule granule; /* AUTO: SPLIT when 4-byte accesses dominate */
  int no_dynamic_smem; /* the caller knows no kernel uses dynamic shared memory */
  /* MOVES: compress the frame at every call to the slots live across it
   * (the paper's B_k, more moves) instead of as little as the smallest
   * region allows (the fewest moves). */
  int min_heights;
  /* Threads per block to size the region for when the kernel has neither
   * EIATTR_MAX_THREADS nor REQNTID (0: refuse such kernels); the rewrite
   * then adds EIATTR_MAX_THREADS {block, 1, 1}, so the driver refuses
   * larger launches as it does for .maxntid. */
  unsigned block;
  /* The end of the kernel's static shared memory the region may reach
   * (the .nv.shared.<k> size, sm_90's reserved 1 KB included); 0 or
   * above 48 KB: 48 KB. */
  uint32_t smem_limit;
  /* Partial placement: when the whole region does not fit below
   * smem_limit, the granules with the most estimated accesses that fit
   * move, the rest stay in local memory (see above). */
  int partial;
  /* CSTACK and MOVES: each function's private granules that are never
   * live together share a slot (orion-ra's colourer, see above). */
  int colour;
  /* Partial: the register count the kernel may be raised to, so that the
   * on-chip part gets a base register of its own (0: only within the
   * allocation granule of 8 registers, where occupancy cannot change). */
  unsigned reg_limit;
  /* The region in dynamic shared memory, warp by warp (see "Dynamic
   * region" above): no block size needed, nothing static grows; the
   * launch must bring ceil(threads / 32) * res.warp_bytes bytes of it. */
  int dynamic;
  /* Dynamic: the most bytes per warp the region may take (0: what a
   * one-warp block may have on the architecture); partial placement
   * keeps on chip the granules that fit in it. */
  uint32_t warp_limit;
} orion_sassrw_opts;

/* Per-kernel outcome of the rewrite. */
typedef struct orion_sassrw_result {
  int rewritten;       /* 1 done, 0 left unchanged (see msg) */
  char msg[400];       /* what was done, or why not */
  uint32_t region_off; /* rewritten: region start in shared memory */
  uint32_t region_bytes, granule, threads;
  size_t prologue_insns, moved_accesses;
  size_t split_accesses, stub_insns; /* SPLIT: the wide accesses; all stubs' size */
  size_t call_sites, call_moves, site_insns; /* MOVES: sites with moves, granules moved, their stubs */
  size_t functions;    /* the kernel and its callees */
  orion_sassrw_layout layout; /* the one used */
  /* Once the layouts were computed (layouts_known), for PTXAS, SUM,
   * CSTACK and MOVES (index layout - 1): the region in bytes, 0 when
   * invalid, and why it is invalid. */
  int layouts_known;
  uint32_t layout_bytes[4];
  char layout_why[4][160];
  /* coloured: the layouts coloured (opts.colour); other_bytes: the same
   * regions with the other choice (0: invalid or not computed). */
  int coloured;
  uint32_t other_bytes[4];
  /* Rewritten: granules (slots) and bytes per thread on chip and left in
   * local memory (0 local for a full rewrite), the accesses left as
   * LDL/STL, the estimated dynamic accesses on chip and in all, and
   * (partial only) the register that addresses the on-chip part and the
   * kernel's register count after the rewrite.  need_reg: refused only
   * because no register was left for that base (the same kernel
   * assembled one register lower would do). */
  int partial;
  uint32_t slots_on_chip, slots_local, bytes_on_chip, bytes_local;
  size_t local_accesses;
  uint64_t weight_on_chip, weight_total;
  unsigned base_reg, regcount;
  int need_reg;
  /* Dynamic: the region starts at region_off of the shared window, where
   * the launch's dynamic shared memory starts, and takes warp_bytes per
   * warp of the block (region_bytes = warp_bytes, threads = 32). */
  int dynamic;
  uint32_t warp_bytes;
} orion_sassrw_result;

/* Rewrite kernel func of c (analysis a of the same, unedited cubin).
 * ORION_OK with res->rewritten 0 or 1; an error status only when an edit of
 * the cubin failed midway (the cubin must then be discarded; res->msg says
 * which). */
orion_status orion_sassrw_rewrite_kernel(orion_cubin *c, const orion_sassrw *a, size_t func,
                                         const orion_sassrw_opts *opts,
                                         orion_sassrw_result *res);

#ifdef __cplusplus
}
#endif
#endif /* ORION_SASSRW_H */
