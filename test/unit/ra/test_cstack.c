/* test_cstack.c - the compressible stack on hand-built cases.
 *
 * The paper's Fig. 6 example, reconstructed from its text (section 3.2):
 * four slots S1..S4 (sets 0..3 here), calls foo1, foo2, foo3 (0..2).
 *   - At foo1, var5 in S4 is copied to S2, "between the slots that contain
 *     var3 and var1": S1 (var1), S3 (var3) and S4 (var5) are live, S2 is
 *     free, and foo1's caller frame must be 3 contiguous slots: B = 3.
 *   - "S3 is unused when foo2 is called": S1, S2, S4 live, B = 3.
 *   - The naive layout needs one move at each call, three in all; the
 *     layout S2 -> 4th slot, S3 -> 2nd, S4 -> 3rd needs one, at foo2, and
 *     leaves the free slots contiguous at foo1 and foo3.  foo3 therefore
 *     has two live sets, one of them S3 (naive: moved; optimal: not): S1
 *     and S3, B = 2.
 * One move is the minimum: foo1 and foo2 both keep 3 of 4 slots and have
 * different dead sets (S2, S3), so one of them has a live set in slot 4.
 */
#include <limits.h>

#include "check.h"
#include "ra_check.h"

enum { S1, S2, S3, S4 };
enum { FOO1, FOO2, FOO3 };

static const unsigned char fig6_live[4 * 3] = {
    /*       foo1 foo2 foo3 */
    /* S1 */ 1, 1, 1,
    /* S2 */ 0, 1, 0,
    /* S3 */ 1, 0, 1,
    /* S4 */ 1, 1, 0,
};

static orion_cstack *fig6(void) {
  orion_cstack *cs = NULL;
  CHECK(orion_cstack_create(4, 3, &cs) == ORION_OK, "create");
  CHECK(orion_cstack_set_liveness(cs, fig6_live) == ORION_OK, "liveness");
  return cs;
}

static void test_fig6(void) {
  orion_cstack *cs = fig6();
  const int B[3] = {3, 3, 2};
  char why[200];
  int identity[4] = {0, 1, 2, 3};
  int paper[4] = {0, 3, 1, 2}; /* Fig. 6(b) */
  long long t = -1;

  /* (a) the naive layout: three moves, var5 S4 -> S2 at foo1. */
  CHECK(orion_cstack_layout_cost(cs, identity, &t) == ORION_OK && t == 3,
        "naive layout costs %lld", t);
  CHECK(orion_cstack_use_layout(cs, identity) == ORION_OK, "use naive");
  CHECK(chk_cs_simulate(cs, 4, 3, fig6_live, B, 3, why, sizeof why), "%s",
        why);
  const orion_cstack_move *mv;
  int n = -1;
  CHECK(orion_cstack_moves(cs, FOO1, &mv, &n) == ORION_OK && n == 1 &&
            mv[0].set == S4 && mv[0].from == 3 && mv[0].to == 1,
        "foo1: var5's S4 -> S2");
  CHECK(orion_cstack_restores(cs, FOO1, &mv, &n) == ORION_OK && n == 1 &&
            mv[0].set == S4 && mv[0].from == 1 && mv[0].to == 3,
        "foo1: restored S2 -> S4");
  CHECK(orion_cstack_moves(cs, FOO2, &mv, &n) == ORION_OK && n == 1 &&
            mv[0].set == S4 && mv[0].to == 2,
        "foo2: S4 -> the free S3");
  CHECK(orion_cstack_moves(cs, FOO3, &mv, &n) == ORION_OK && n == 1 &&
            mv[0].set == S3 && mv[0].to == 1,
        "foo3: S3 -> S2");

  /* (b) the paper's layout: one move, at foo2. */
  CHECK(orion_cstack_layout_cost(cs, paper, &t) == ORION_OK && t == 1,
        "Fig. 6(b) layout costs %lld", t);

  /* The solver: one move (some optimal layout), simulated. */
  CHECK(orion_cstack_solve(cs) == ORION_OK, "solve");
  CHECK(orion_cstack_total_moves(cs, &t) == ORION_OK && t == 1,
        "optimal %lld", t);
  CHECK(chk_cs_simulate(cs, 4, 3, fig6_live, B, 1, why, sizeof why), "%s",
        why);
  CHECK(chk_cs_brute(4, 3, fig6_live, B) == 1, "brute force agrees");
  int f1 = -1, f3 = -1;
  orion_cstack_moves(cs, FOO1, &mv, &f1);
  orion_cstack_moves(cs, FOO3, &mv, &f3);
  CHECK(f1 == 0 && f3 == 0, "no moves at foo1 (%d) and foo3 (%d)", f1, f3);

  /* Asking for more room than the minimum: B = 4 at every call never moves
   * anything; B(foo3) = 3 frees the move at foo3 in the naive layout. */
  CHECK(orion_cstack_set_height(cs, FOO3, 3) == ORION_OK, "B3 = 3");
  CHECK(orion_cstack_layout_cost(cs, identity, &t) == ORION_OK && t == 2,
        "naive with B(foo3)=3: %lld", t);
  for (int k = 0; k < 3; k++)
    orion_cstack_set_height(cs, k, 4);
  CHECK(orion_cstack_solve(cs) == ORION_OK &&
            orion_cstack_total_moves(cs, &t) == ORION_OK && t == 0,
        "B = M: no moves");
  orion_cstack_destroy(cs);
}

/* A set live at every call, nothing else live, B = 1: it must go to slot 0. */
static void test_single(void) {
  orion_cstack *cs;
  int slot[5];
  long long t;
  CHECK(orion_cstack_create(5, 4, &cs) == ORION_OK, "create");
  for (int k = 0; k < 4; k++)
    orion_cstack_set_live(cs, 3, k, 1);
  CHECK(orion_cstack_solve(cs) == ORION_OK, "solve");
  CHECK(orion_cstack_layout(cs, slot) == ORION_OK && slot[3] == 0,
        "hot set at the bottom (%d)", slot[3]);
  CHECK(orion_cstack_total_moves(cs, &t) == ORION_OK && t == 0, "no moves");
  /* Two sets, each live at its own calls with B = 1: one slot 0 can't
   * serve both; each call costs a move for whichever is not at the bottom. */
  orion_cstack_set_live(cs, 1, 0, 1);
  orion_cstack_set_live(cs, 3, 0, 0);
  CHECK(orion_cstack_solve(cs) == ORION_OK &&
            orion_cstack_total_moves(cs, &t) == ORION_OK && t == 1,
        "set 1 at call 0, set 3 at 1..3: one move (%lld)", t);
  CHECK(orion_cstack_layout(cs, slot) == ORION_OK && slot[3] == 0,
        "the set live at more calls wins slot 0");
  orion_cstack_destroy(cs);
}

static void test_empty(void) {
  orion_cstack *cs;
  long long t = -1;
  int slot[3] = {-1, -1, -1};
  CHECK(orion_cstack_create(0, 0, &cs) == ORION_OK, "M=N=0");
  CHECK(orion_cstack_solve(cs) == ORION_OK &&
            orion_cstack_total_moves(cs, &t) == ORION_OK && t == 0,
        "empty solve");
  orion_cstack_destroy(cs);
  CHECK(orion_cstack_create(3, 0, &cs) == ORION_OK, "N=0");
  CHECK(orion_cstack_solve(cs) == ORION_OK, "no calls");
  CHECK(orion_cstack_layout(cs, slot) == ORION_OK && slot[0] != slot[1] &&
            slot[1] != slot[2] && slot[0] != slot[2],
        "layout of 3 sets");
  orion_cstack_destroy(cs);
  CHECK(orion_cstack_create(0, 5, &cs) == ORION_OK, "M=0");
  int h = -1;
  CHECK(orion_cstack_solve(cs) == ORION_OK &&
            orion_cstack_height(cs, 4, &h) == ORION_OK && h == 0,
        "M=0 heights");
  orion_cstack_destroy(cs);
}

static void test_invalid(void) {
  orion_cstack *cs = NULL;
  const orion_cstack_move *mv;
  long long t;
  int n, h, slot[4];
  CHECK(orion_cstack_create(-1, 2, &cs) == ORION_ERR_RANGE, "M<0");
  CHECK(orion_cstack_create(2, -1, &cs) == ORION_ERR_RANGE, "N<0");
  CHECK(orion_cstack_create(ORION_CSTACK_MAX_SETS + 1, 1, &cs) ==
            ORION_ERR_RANGE,
        "M too big");
  CHECK(orion_cstack_create(1, ORION_CSTACK_MAX_CALLS + 1, &cs) ==
            ORION_ERR_RANGE,
        "N too big");
  CHECK(orion_cstack_create(ORION_CSTACK_MAX_SETS, ORION_CSTACK_MAX_CALLS,
                            &cs) == ORION_ERR_RANGE,
        "M*N too big");
  CHECK(orion_cstack_create(2, 2, NULL) == ORION_ERR_INVALID_ARG, "NULL");
  CHECK(cs == NULL, "untouched");

  cs = fig6();
  /* Queries before solve. */
  CHECK(orion_cstack_layout(cs, slot) == ORION_ERR_INVALID_ARG, "unsolved");
  CHECK(orion_cstack_total_moves(cs, &t) == ORION_ERR_INVALID_ARG,
        "unsolved total");
  CHECK(orion_cstack_moves(cs, 0, &mv, &n) == ORION_ERR_INVALID_ARG,
        "unsolved moves");
  CHECK(orion_cstack_restores(cs, 0, &mv, &n) == ORION_ERR_INVALID_ARG,
        "unsolved restores");
  CHECK(orion_cstack_height(cs, 0, &h) == ORION_ERR_INVALID_ARG,
        "unsolved height");
  /* Heights. */
  CHECK(orion_cstack_set_height(cs, 0, 5) == ORION_ERR_RANGE, "B > M");
  CHECK(orion_cstack_set_height(cs, 0, -2) == ORION_ERR_RANGE, "B < -1");
  CHECK(orion_cstack_set_height(cs, 3, 2) == ORION_ERR_RANGE, "bad call");
  CHECK(orion_cstack_set_height(cs, -1, 2) == ORION_ERR_RANGE, "call < 0");
  CHECK(orion_cstack_set_height(cs, 0, 2) == ORION_OK, "B=2 accepted");
  CHECK(orion_cstack_solve(cs) == ORION_ERR_INFEASIBLE,
        "B below the 3 live sets");
  int identity[4] = {0, 1, 2, 3};
  CHECK(orion_cstack_layout_cost(cs, identity, &t) == ORION_ERR_INFEASIBLE,
        "cost with infeasible B");
  CHECK(orion_cstack_use_layout(cs, identity) == ORION_ERR_INFEASIBLE,
        "use with infeasible B");
  CHECK(orion_cstack_layout(cs, slot) == ORION_ERR_INVALID_ARG,
        "unsolved after failure");
  CHECK(orion_cstack_set_height(cs, 0, ORION_CSTACK_MIN_HEIGHT) == ORION_OK,
        "back to min");
  /* Layouts that are not permutations. */
  int dup[4] = {0, 1, 1, 3}, out[4] = {0, 1, 2, 4}, neg[4] = {0, -1, 2, 3};
  CHECK(orion_cstack_layout_cost(cs, dup, &t) == ORION_ERR_RANGE, "dup");
  CHECK(orion_cstack_layout_cost(cs, out, &t) == ORION_ERR_RANGE, "out");
  CHECK(orion_cstack_use_layout(cs, neg) == ORION_ERR_RANGE, "neg");
  CHECK(orion_cstack_layout_cost(cs, NULL, &t) == ORION_ERR_INVALID_ARG,
        "NULL layout");
  CHECK(orion_cstack_layout_cost(cs, identity, NULL) == ORION_ERR_INVALID_ARG,
        "NULL total");
  /* Liveness indices. */
  CHECK(orion_cstack_set_live(cs, 4, 0, 1) == ORION_ERR_RANGE, "set");
  CHECK(orion_cstack_set_live(cs, 0, 3, 1) == ORION_ERR_RANGE, "call");
  CHECK(orion_cstack_set_live(cs, INT_MIN, 0, 1) == ORION_ERR_RANGE, "neg");
  CHECK(orion_cstack_set_liveness(cs, NULL) == ORION_ERR_INVALID_ARG,
        "NULL live");
  /* After solve: out-of-range calls, NULL outs; setters drop the solution. */
  CHECK(orion_cstack_solve(cs) == ORION_OK, "solve");
  CHECK(orion_cstack_moves(cs, 3, &mv, &n) == ORION_ERR_RANGE, "call 3");
  CHECK(orion_cstack_restores(cs, -1, &mv, &n) == ORION_ERR_RANGE, "call -1");
  CHECK(orion_cstack_moves(cs, 0, NULL, &n) == ORION_ERR_INVALID_ARG, "NULL");
  CHECK(orion_cstack_moves(cs, 0, &mv, NULL) == ORION_ERR_INVALID_ARG, "NULL");
  CHECK(orion_cstack_height(cs, 9, &h) == ORION_ERR_RANGE, "height call");
  CHECK(orion_cstack_layout(cs, NULL) == ORION_ERR_INVALID_ARG, "NULL");
  CHECK(orion_cstack_total_moves(cs, NULL) == ORION_ERR_INVALID_ARG, "NULL");
  CHECK(orion_cstack_set_live(cs, 0, 0, 1) == ORION_OK, "set");
  CHECK(orion_cstack_total_moves(cs, &t) == ORION_ERR_INVALID_ARG,
        "solution dropped");
  /* NULL handles. */
  CHECK(orion_cstack_solve(NULL) == ORION_ERR_INVALID_ARG, "solve NULL");
  CHECK(orion_cstack_use_layout(NULL, identity) == ORION_ERR_INVALID_ARG,
        "use NULL");
  CHECK(orion_cstack_set_live(NULL, 0, 0, 1) == ORION_ERR_INVALID_ARG, "NULL handle");
  CHECK(orion_cstack_set_height(NULL, 0, 1) == ORION_ERR_INVALID_ARG, "NULL handle");
  CHECK(orion_cstack_moves(NULL, 0, &mv, &n) == ORION_ERR_INVALID_ARG, "NULL handle");
  CHECK(orion_cstack_restores(NULL, 0, &mv, &n) == ORION_ERR_INVALID_ARG, "NULL handle");
  CHECK(orion_cstack_height(NULL, 0, &h) == ORION_ERR_INVALID_ARG, "NULL handle");
  orion_cstack_destroy(cs);
  orion_cstack_destroy(NULL);
}

int main(void) {
  test_fig6();
  test_single();
  test_empty();
  test_invalid();
  return CHECK_DONE();
}
