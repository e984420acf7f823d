/* orion/ra.h - Orion's allocation algorithms (paper section 3.2), pure C.
 *
 * Three independent pieces, none of which knows about LLVM, PTX or SASS:
 *
 *   1. orion_ra_graph + orion_ra_colour(): single-procedure multi-class
 *      Chaitin-Briggs colouring (paper Fig. 4) of an interference graph whose
 *      nodes are 1, 2, 3 or 4 slots wide (32/64/96/128-bit values).
 *   2. orion_ra_assign(): a generic Kuhn-Munkres (Hungarian) solver for the
 *      square assignment problem on an integer matrix, O(n^3).
 *   3. orion_cstack: the compressible stack (Table 1, Theorem 1): given the
 *      slot sets left by colouring and their liveness across call sites, the
 *      slot layout that minimises the moves needed to compress the stack
 *      before every call, and the moves and restores themselves.
 *
 * ---------------------------------------------------------------------------
 * Data model
 *
 * Colours / slots.  A colour is a 32-bit unit of storage: a register, or a
 * 4-byte on-chip memory slot.  Colours are numbered 0 .. C-1; C is given by
 * the caller (1 <= C <= ORION_RA_MAX_COLOURS).
 *
 * Nodes.  The interference graph has nodes 0 .. n-1 (n fixed at creation).
 * Each node has a width w in 1..4 (default 1) and, when coloured, occupies
 * the consecutive colours c, c+1, .., c+w-1, where c (the node's colour) is a
 * multiple of the alignment of w:
 *
 *      width 1 -> any colour        width 3 -> multiple of 4
 *      width 2 -> multiple of 2     width 4 -> multiple of 4
 *
 * as NVIDIA register files require for 64-bit and 96/128-bit operands
 * (orion_ra_alignment()).  Two nodes joined by an edge interfere and must
 * occupy disjoint colours.  Edges are undirected; adding one twice is
 * harmless; an edge from a node to itself is rejected.
 *
 * Colouring result.  colour[v] is v's first colour or ORION_RA_SPILLED (-1)
 * when v could not be coloured and must be spilled by the caller (who then
 * typically splits the live range and colours again).
 *
 * Slot sets.  After colouring, every colour (slot) holds a set SS_i of
 * variables; the compressible stack sees M such sets (i = 0..M-1) and M
 * physical slots SLOT_0..SLOT_{M-1} counted from the bottom of the caller's
 * stack frame, and N call sites k = 0..N-1.  live(i,k) says whether SS_i is
 * live across call k.  Before call k the caller's stack is compressed to
 * height B_k: every live set must sit in a slot < B_k, so the callee can use
 * slots B_k and up as one contiguous region.  B_k defaults to the number of
 * sets live across k (the minimum); any value from there up to M may be
 * asked for.  A layout maps every set to a distinct slot (a permutation);
 * a live set whose slot is >= B_k is moved before the call into a slot below
 * B_k whose set is dead across the call, and moved back after it.  The
 * solver finds the layout with the fewest moves over all calls (Theorem 1:
 * placing SS_i in SLOT_j costs W_ij = #{k : live(i,k) and j >= B_k}, so the
 * optimum is a minimum-cost perfect matching of sets to slots).
 *
 * ---------------------------------------------------------------------------
 * Conventions
 *
 * Every fallible function returns an orion_status (orion/status.h):
 *   ORION_ERR_INVALID_ARG  a required pointer is NULL, a self-edge, or a
 *                          query on an unsolved orion_cstack;
 *   ORION_ERR_RANGE        a number outside its documented range (node id,
 *                          width, C, set or call index, B_k > M, sizes
 *                          above the ORION_RA_MAX_* / ORION_CSTACK_MAX_*
 *                          limits, a layout that is not a permutation);
 *   ORION_ERR_INFEASIBLE   B_k below the number of sets live across call k,
 *                          or a colouring that violates the constraints
 *                          (orion_ra_verify);
 *   ORION_ERR_NOMEM        an allocation failed; the handle is unchanged.
 * On error, out-parameters and handles are left untouched unless stated
 * otherwise (a failed orion_cstack_solve/use_layout leaves it unsolved).
 *
 * Ownership: handles are created by *_create and freed by *_destroy (NULL is
 * accepted there).  Every array passed in is owned by the caller and only
 * read during the call (it is copied if needed later); every output array is
 * allocated by the caller with the stated length.  The only pointers handed
 * out are the move lists of orion_cstack_moves/restores, owned by the
 * orion_cstack and valid until its next non-const call or destroy.
 *
 * Threads: no global mutable state.  Functions taking a const handle may run
 * concurrently on the same handle; a non-const call needs exclusive access.
 */
#ifndef ORION_RA_H
#define ORION_RA_H

#include <stddef.h>

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_RA_SPILLED (-1)         /* colour of a spilled node */
#define ORION_RA_MAX_WIDTH 4          /* widest node, in colours */
#define ORION_RA_MAX_NODES (1 << 20)  /* nodes per graph */
#define ORION_RA_MAX_EDGES (1 << 24)  /* add_edge calls per graph */
#define ORION_RA_MAX_COLOURS (1 << 16)
#define ORION_RA_ASSIGN_MAX_N (1 << 16)
#define ORION_CSTACK_MAX_SETS 4096    /* M */
#define ORION_CSTACK_MAX_CALLS 65536  /* N */
#define ORION_CSTACK_MAX_CELLS (1 << 24) /* M * N */
#define ORION_CSTACK_MIN_HEIGHT (-1)  /* B_k = number of live sets */

/* ---------------------------------------------------------------- colour */

typedef struct orion_ra_graph orion_ra_graph;

/* Alignment of a node of the given width (1, 2, 4, 4), or 0 when width is
 * outside 1..ORION_RA_MAX_WIDTH. */
int orion_ra_alignment(int width);

/* New graph of num_nodes nodes (0..ORION_RA_MAX_NODES), all of width 1, no
 * edges.  *graph receives a handle owned by the caller. */
orion_status orion_ra_graph_create(int num_nodes, orion_ra_graph **graph);

/* Free a graph; NULL is ignored. */
void orion_ra_graph_destroy(orion_ra_graph *graph);

/* Number of nodes, or -1 for NULL. */
int orion_ra_graph_num_nodes(const orion_ra_graph *graph);

/* Set node's width (1..4).  RANGE for a bad node or width. */
orion_status orion_ra_graph_set_width(orion_ra_graph *graph, int node,
                                      int width);

/* *width = node's width. */
orion_status orion_ra_graph_width(const orion_ra_graph *graph, int node,
                                  int *width);

/* Add the undirected edge a-b.  INVALID_ARG when a == b, RANGE for an
 * out-of-range id or when ORION_RA_MAX_EDGES edges were already added. */
orion_status orion_ra_graph_add_edge(orion_ra_graph *graph, int a, int b);

/* Fig. 4(b): the simplification order for C = num_colours colours.
 * order[0..n-1] receives the nodes in push order (order[0] is pushed first,
 * i.e. sits at the bottom and is coloured last).  optimistic, when not NULL,
 * receives n flags in the same order: 1 when the node was pushed while not
 * guaranteed colourable (Briggs' optimistic push; a spill candidate), 0 when
 * the conservative test guaranteed it a colour. */
orion_status orion_ra_stack_order(const orion_ra_graph *graph, int num_colours,
                                  int *order, unsigned char *optimistic);

/* Fig. 4(c): colour the graph with num_colours colours.
 * colour[0..n-1] receives each node's first colour (aligned, and
 * colour + width <= num_colours) or ORION_RA_SPILLED.  spills (optional, n
 * entries) receives the spilled nodes in the order they were spilled, and
 * *num_spills (optional) their count.  Guarantees: no two adjacent nodes
 * share a colour; every node pushed non-optimistically is coloured. */
orion_status orion_ra_colour(const orion_ra_graph *graph, int num_colours,
                             int *colour, int *spills, int *num_spills);

/* Check a colouring: every non-spilled colour[v] aligned and in range, no
 * two adjacent non-spilled nodes overlapping.  OK or INFEASIBLE. */
orion_status orion_ra_verify(const orion_ra_graph *graph, int num_colours,
                             const int *colour);

/* ---------------------------------------------------------------- assign */

/* Kuhn-Munkres: a perfect matching of rows to columns of the n x n matrix
 * weight (row-major, weight[i*n + j]) with the least total weight, or the
 * greatest when maximise != 0.  0 <= n <= ORION_RA_ASSIGN_MAX_N.
 * col_of_row[0..n-1] receives the column of each row; *total (optional) the
 * matched sum.  Ties are broken deterministically.  O(n^3) time, O(n)
 * memory besides the matrix. */
orion_status orion_ra_assign(int n, const int *weight, int maximise,
                             int *col_of_row, long long *total);

/* ---------------------------------------------------------------- cstack */

typedef struct orion_cstack orion_cstack;

/* One data movement: slot set `set` goes from slot `from` to slot `to`. */
typedef struct orion_cstack_move {
  int set;
  int from;
  int to;
} orion_cstack_move;

/* New problem of num_sets slot sets (M, 0..ORION_CSTACK_MAX_SETS) and
 * num_calls call sites (N, 0..ORION_CSTACK_MAX_CALLS, M*N at most
 * ORION_CSTACK_MAX_CELLS); nothing live, every B_k = minimum. */
orion_status orion_cstack_create(int num_sets, int num_calls,
                                 orion_cstack **cstack);

/* Free; NULL is ignored. */
void orion_cstack_destroy(orion_cstack *cstack);

/* live(set, call) = (live != 0). */
orion_status orion_cstack_set_live(orion_cstack *cstack, int set, int call,
                                   int live);

/* All liveness at once: live[set * N + call] != 0 (M*N bytes, caller's). */
orion_status orion_cstack_set_liveness(orion_cstack *cstack,
                                       const unsigned char *live);

/* Ask for B_call = height (0..M), or ORION_CSTACK_MIN_HEIGHT for the number
 * of live sets.  A height below the live count is reported by solve (and
 * layout_cost) as INFEASIBLE, since liveness may still change. */
orion_status orion_cstack_set_height(orion_cstack *cstack, int call,
                                     int height);

/* Compute the optimal layout (Kuhn-Munkres on -W, Theorem 1) and the moves
 * for every call, and make it the cstack's solution.  INFEASIBLE if some
 * B_k < live count.  On any error the cstack is left unsolved. */
orion_status orion_cstack_solve(orion_cstack *cstack);

/* Like solve, but with the caller's layout slot_of_set[0..M-1] (a
 * permutation, e.g. the identity) instead of the optimal one: its moves
 * are emitted by the same rule.  RANGE if not a permutation. */
orion_status orion_cstack_use_layout(orion_cstack *cstack,
                                     const int *slot_of_set);

/* The queries below need a solution (solve or use_layout since the last
 * setter), else INVALID_ARG.
 *
 * After solve: slot_of_set[0..M-1] = the slot of each set (a permutation). */
orion_status orion_cstack_layout(const orion_cstack *cstack, int *slot_of_set);

/* After solve: *total = the number of moves before all calls (the restores
 * after the calls mirror them one for one and are not counted). */
orion_status orion_cstack_total_moves(const orion_cstack *cstack,
                                      long long *total);

/* After solve: the effective B_call. */
orion_status orion_cstack_height(const orion_cstack *cstack, int call,
                                 int *height);

/* After solve: the moves to make before call `call`, in order; each moves a
 * live set from a slot >= B into a slot < B whose set is dead across the
 * call.  *moves points into the cstack (see Ownership); *count may be 0. */
orion_status orion_cstack_moves(const orion_cstack *cstack, int call,
                                const orion_cstack_move **moves, int *count);

/* After solve: the restores to make after call `call` returns: the moves
 * reversed, in reverse order, putting every set back in its slot. */
orion_status orion_cstack_restores(const orion_cstack *cstack, int call,
                                   const orion_cstack_move **moves,
                                   int *count);

/* Moves any layout (a permutation of 0..M-1, e.g. the identity) would need,
 * by the same rule; needs no solve.  RANGE if not a permutation,
 * INFEASIBLE if some B_k < live count. */
orion_status orion_cstack_layout_cost(const orion_cstack *cstack,
                                      const int *slot_of_set,
                                      long long *total);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RA_H */
