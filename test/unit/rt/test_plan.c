/* test_plan.c - runtime/plan.c: Pareto pruning of clones, the round guard
 * and chunk sizes, on the configurations of the H200 benchmark programs
 * (registers and warps per SM from benchmarks/eval/results). */
#include <math.h>

#include "check.h"
#include "cache.h"
#include "plan.h"

static int same(const int *a, const int *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

static void test_carry(void) {
  /* What the cache keeps: decisions, tentative choices, open walks, and
   * the original once walks stayed open in ORION_CACHE_OPEN_RUNS (5) runs. */
  int open;
  CHECK(orion_plan_carry(1, 1, 0, 0, &open) == ORION_CACHE_CONFIRMED && open == 0, "original");
  CHECK(orion_plan_carry(1, 0, 1, 0, &open) == ORION_CACHE_CONFIRMED, "confirmed choice");
  CHECK(orion_plan_carry(1, 0, 0, 2, &open) == ORION_CACHE_TENTATIVE && open == 0, "tentative");
  CHECK(orion_plan_carry(0, 1, 1, 0, &open) == ORION_CACHE_OPEN && open == 1, "open once");
  CHECK(orion_plan_carry(0, 1, 1, 1, &open) == ORION_CACHE_OPEN && open == 2, "open twice");
  CHECK(orion_plan_carry(0, 1, 1, 3, &open) == ORION_CACHE_OPEN && open == 4, "open 4 times");
  CHECK(orion_plan_carry(0, 1, 1, 4, &open) == ORION_CACHE_CONFIRMED && open == 0,
        "open a fifth time: the original");
}

static void test_split(void) {
  /* Split allowance: 0.5 % of the original's time at 8 us a chunk.
   * rsbench's lookup (121 ms): 75 chunks, what its tuning took on an H100;
   * jenkins-hash's kernel (0.47 ms) would get 0: never split; about 19.2 ms is
   * the least that allows the 12 chunks of one candidate's test. */
  CHECK(orion_plan_split_chunks(121.0) == 75, "rsbench: %d", orion_plan_split_chunks(121.0));
  CHECK(orion_plan_split_chunks(0.47) == 0 && orion_plan_split_chunks(19.1) == 0 &&
            orion_plan_split_chunks(19.3) == 12,
        "too short to split");
  CHECK(orion_plan_split_chunks(0) == 0 && orion_plan_split_chunks(-1) == 0 &&
            orion_plan_split_chunks(NAN) == 0 && orion_plan_split_chunks(1e300) == 1000000,
        "bad or huge estimates");
}

int main(void) {
  int keep[8];

  /* particles: p28 (pad), orig 53r/36w, r32 32r/44w, r40 40r/48w.  r32
   * spills more than r40 and runs fewer warps: left out. */
  static const int pr[] = {53, 53, 32, 40}, pw[] = {28, 36, 44, 48}, pc[] = {0, 0, 1, 1};
  static const int pk[] = {1, 1, 0, 1};
  orion_plan_pareto(4, pr, pw, pc, keep);
  CHECK(same(keep, pk, 4), "particles keeps %d %d %d %d", keep[0], keep[1], keep[2], keep[3]);

  /* recursive_gauss: the clones' shared-memory spills leave them below the
   * original's warps (r32 22w, r40 28w < 36w): both left out; the padding
   * version p24 stays (never pruned, though the original has its registers
   * and more warps). */
  static const int rr[] = {56, 32, 40, 56}, rw[] = {24, 22, 28, 36}, rc[] = {0, 1, 1, 0};
  static const int rk[] = {1, 0, 0, 1};
  orion_plan_pareto(4, rr, rw, rc, keep);
  CHECK(same(keep, rk, 4), "recursive_gauss keeps %d %d %d %d", keep[0], keep[1], keep[2],
        keep[3]);

  /* hotspot: orig 82r/16w, r80 76r/24w, r48 48r/40w, r32 32r/64w - a
   * Pareto front, all kept. */
  static const int hr[] = {82, 76, 48, 32}, hw[] = {16, 24, 40, 64}, hc[] = {0, 1, 1, 1};
  static const int hk[] = {1, 1, 1, 1};
  orion_plan_pareto(4, hr, hw, hc, keep);
  CHECK(same(keep, hk, 4), "hotspot keeps all");

  /* Two clones equal on both counts: the first stays.  A clone equal to the
   * original: the original stays. */
  static const int er[] = {64, 40, 40}, ew[] = {32, 48, 48}, ec[] = {0, 1, 1};
  static const int ek[] = {1, 1, 0};
  orion_plan_pareto(3, er, ew, ec, keep);
  CHECK(same(keep, ek, 3), "equal clones keep the first");
  static const int qr[] = {40, 40}, qw[] = {48, 48}, qc[] = {1, 0};
  static const int qk[] = {0, 1};
  orion_plan_pareto(2, qr, qw, qc, keep);
  CHECK(same(keep, qk, 2), "a clone equal to the original goes");
  orion_plan_pareto(0, NULL, NULL, NULL, keep); /* no candidates: nothing touched */

  /* Rounds and the guard: recursive_gauss, 2048 blocks on 132 SMs, 18 per
   * SM for the original (2376 a round), 12 for p24 (1584). */
  CHECK(orion_plan_rounds(2048, 132, 18) == 1 && orion_plan_rounds(2048, 132, 12) == 2,
        "rounds");
  CHECK(orion_plan_rounds(2048, 0, 18) == 0 && orion_plan_rounds(2048, 132, 0) == 0,
        "rounds, bad input");
  CHECK(orion_plan_round_guard(2048, 132, 18, 12), "p24 needs a second round");
  CHECK(!orion_plan_round_guard(2048, 132, 18, 24), "more blocks per SM: never");
  CHECK(!orion_plan_round_guard(100, 132, 18, 1), "one round either way (gaussian fan1)");
  CHECK(!orion_plan_round_guard(5000, 132, 18, 12), "the original needs two rounds itself");
  CHECK(!orion_plan_round_guard(2048, 132, 18, 0), "a candidate that cannot run");

  /* Chunks.  One-dimensional grid (euler_flux, 8 blocks per SM): exactly
   * four waves. */
  double f = -1;
  CHECK(orion_plan_chunk(4, 132, 8, 1, 0.03, &f) == 4224 && f == 0, "1-D chunk");
  /* nlm_denoise, 120 x 68 blocks, 1 block per SM.  Slices of 68 blocks
   * (along x): four waves would be 8 slices, 544 blocks, a fifth round with
   * 16 blocks (21 % inflation); 17 slices (1156 blocks, 2.8 %) is the first
   * within 3 %.  Slices of 120 (along y): 11 slices are ten whole waves. */
  CHECK(orion_plan_chunk(4, 132, 1, 68, 0.03, &f) == 17 && fabs(f - 32.0 / 1156) < 1e-12,
        "nlm along x: %g", f);
  CHECK(orion_plan_chunk(4, 132, 1, 120, 0.03, &f) == 11 && f == 0, "nlm along y");
  /* None within tolerance: the least inflation in [qmin, 3 qmin] (r80's
   * one-wave probe along y: 6 slices, 720 blocks in two rounds of 396). */
  CHECK(orion_plan_chunk(1, 132, 3, 120, 0.03, &f) == 6 && fabs(f - 0.1) < 1e-12,
        "least inflation: %g", f);
  CHECK(orion_plan_chunk(0, 132, 3, 120, 0.03, &f) == 0 &&
            orion_plan_chunk(1, 0, 3, 120, 0.03, NULL) == 0 &&
            orion_plan_chunk(1, 132, 0, 120, 0.03, NULL) == 0 &&
            orion_plan_chunk(1, 132, 3, 0, 0.03, NULL) == 0,
        "bad input");

  /* Idle padding (H200, 132 SMs).  srad's roi_stats launches 1 block and
   * gaussian's fan1 12: no padding limit (2 to 6 blocks per SM) binds.
   * 264 blocks put 2 on an SM: idle at 2, binding at 1.  An empty launch or
   * a version that cannot run never counts as idle. */
  CHECK(orion_plan_pad_idle(1, 132, 2) && orion_plan_pad_idle(12, 132, 1), "roi_stats, fan1");
  CHECK(orion_plan_pad_idle(264, 132, 2) && !orion_plan_pad_idle(264, 132, 1) &&
            !orion_plan_pad_idle(265, 132, 2),
        "two blocks per SM");
  CHECK(!orion_plan_pad_idle(0, 132, 2) && !orion_plan_pad_idle(12, 132, 0) &&
            !orion_plan_pad_idle(12, 0, 2),
        "idle padding, bad input");

  /* Direction.  fdtd3d's candidates by warps: p16, r80 (conservative),
   * orig, r32; the compiler predicted increasing: the walk starts down,
   * toward r80.  hotspot (orig, r80 conservative above it) and a kernel
   * with no conservative version keep the compiler's direction. */
  CHECK(orion_plan_direction(2, 1, 1) == -1, "fdtd3d starts toward r80");
  CHECK(orion_plan_direction(1, 2, 1) == 1, "hotspot: as predicted");
  CHECK(orion_plan_direction(3, -1, -1) == -1 && orion_plan_direction(3, -1, 1) == 1,
        "no conservative version: the compiler's");
  CHECK(orion_plan_direction(2, 2, -1) == -1, "conservative merged into the original");
  /* Risk priors (lulesh, H200 builds): calcMonotonicQ's r32 (8 B more
   * frame: 0.15), tsp's r40 (none: 0.03), calcKinematics' r32 (648 B:
   * 1), tensorT's p8 (64 -> 8 warps: capped at 1), a p48 of 64 warps
   * (1/6), p32 (1/2). */
  CHECK(orion_plan_risk(0, 48, 64, 0, 8) == 0.15, "small spill");
  CHECK(orion_plan_risk(0, 48, 64, 0, 0) == 0.03, "no spill");
  CHECK(orion_plan_risk(0, 8, 64, 0, 648) == 1, "heavy spill");
  CHECK(orion_plan_risk(0, 8, 24, 256, 400) == 0.5, "more spill than the original's 256 B");
  CHECK(orion_plan_risk(1, 64, 8, 0, 0) == 1, "p8");
  CHECK(fabs(orion_plan_risk(1, 64, 48, 0, 0) - 1.0 / 6) < 1e-12, "p48");
  CHECK(orion_plan_risk(1, 64, 32, 0, 0) == 0.5, "p32");
  CHECK(orion_plan_risk(1, 64, 62, 0, 0) == 0.05, "the floor");

  /* Re-check gaps: 32, 65 (every 64), 64, 65, ...; none when 0. */
  static const long gaps[] = {32, 65, 64, 65, 64, 65};
  for (int k = 0; k < 6; k++)
    CHECK(orion_plan_recheck_gap(k, 64) == gaps[k], "gap %d: %ld", k, orion_plan_recheck_gap(k, 64));
  CHECK(orion_plan_recheck_gap(0, 3) == 3 && orion_plan_recheck_gap(0, 0) > 1000000000L,
        "small or no ORION_RECHECK");

  test_carry();
  test_split();
  return CHECK_DONE();
}
