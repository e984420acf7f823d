/* test_optimal.c - the compressible stack's layout is optimal (Theorem 1).
 *
 * On seeded random instances with M <= 8 slot sets and N <= 6 calls:
 *   - the solver's move count equals the minimum over all M! layouts,
 *     counted by definition (live sets at or above B_k, call by call);
 *   - its layout costs that much by orion_cstack_layout_cost too;
 *   - the moves and restores it emits, simulated slot by slot, leave every
 *     live set alone in a slot < B_k at every call and bring every set back
 *     (chk_cs_simulate);
 *   - use_layout on a random layout emits moves that simulate correctly
 *     and cost what layout_cost says.
 * B_k is the minimum for about half the calls and a random larger value
 * (up to M) otherwise.  Usage: ra_optimal [instances] [seed].
 */
#include "check.h"
#include "ra_check.h"

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 6000;
  rng r = {argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed0005};
  int by_m[9] = {0};
  long long moves_opt = 0, moves_naive = 0;
  char why[200];
  for (int it = 0; it < rounds; it++) {
    /* A third of the instances at the largest size. */
    int M = it % 3 == 0 ? 8 : rng_int(&r, 1, 8);
    int N = it % 3 == 0 ? 6 : rng_int(&r, 1, 6);
    unsigned char live[8 * 6];
    int B[6], identity[8];
    int dens = rng_int(&r, 10, 90);
    for (int c = 0; c < M * N; c++)
      live[c] = (unsigned char)(rng_int(&r, 0, 99) < dens);
    orion_cstack *cs = NULL;
    CHECK(orion_cstack_create(M, N, &cs) == ORION_OK, "create");
    if (!cs)
      break;
    if (rng_chance(&r, 1, 2)) {
      CHECK(orion_cstack_set_liveness(cs, live) == ORION_OK, "liveness");
    } else {
      for (int i = 0; i < M; i++)
        for (int k = 0; k < N; k++)
          CHECK(orion_cstack_set_live(cs, i, k, live[i * N + k] * 7) ==
                    ORION_OK,
                "set_live");
    }
    for (int k = 0; k < N; k++) {
      int nl = 0;
      for (int i = 0; i < M; i++)
        nl += live[i * N + k];
      B[k] = nl;
      if (rng_chance(&r, 1, 2)) {
        B[k] = rng_int(&r, nl, M);
        CHECK(orion_cstack_set_height(cs, k, B[k]) == ORION_OK, "height");
      }
    }
    for (int i = 0; i < M; i++)
      identity[i] = i;

    long long best = chk_cs_brute(M, N, live, B);
    long long t = -1, c = -1;
    CHECK(orion_cstack_solve(cs) == ORION_OK, "solve");
    CHECK(orion_cstack_total_moves(cs, &t) == ORION_OK && t == best,
          "instance %d (M=%d N=%d): %lld moves, brute force %lld", it, M, N,
          t, best);
    CHECK(chk_cs_simulate(cs, M, N, live, B, best, why, sizeof why),
          "instance %d: %s", it, why);
    int slot[8];
    orion_cstack_layout(cs, slot);
    CHECK(orion_cstack_layout_cost(cs, slot, &c) == ORION_OK && c == best,
          "instance %d: layout_cost %lld", it, c);
    CHECK(orion_cstack_layout_cost(cs, identity, &c) == ORION_OK &&
              c == chk_layout_moves(M, N, live, B, identity),
          "instance %d: naive cost", it);
    moves_naive += c;
    moves_opt += best;

    /* Any layout's moves simulate too. */
    for (int i = M - 1; i > 0; i--) {
      int j = rng_int(&r, 0, i), tmp = slot[i];
      slot[i] = slot[j];
      slot[j] = tmp;
    }
    long long want = chk_layout_moves(M, N, live, B, slot);
    CHECK(orion_cstack_use_layout(cs, slot) == ORION_OK, "use_layout");
    CHECK(chk_cs_simulate(cs, M, N, live, B, want, why, sizeof why),
          "instance %d (random layout): %s", it, why);
    by_m[M]++;
    orion_cstack_destroy(cs);
  }
  printf("optimality vs brute force: %d instances (M=1..8:", rounds);
  for (int m = 1; m <= 8; m++)
    printf(" %d", by_m[m]);
  printf("), N <= 6; moves: optimal %lld, naive layout %lld\n", moves_opt,
         moves_naive);
  return CHECK_DONE();
}
