/* test_tune_side.c - side candidates of the runtime's tuner (runtime/tune.c,
 * tune.h step 4: the unroll versions, other code rather than another
 * occupancy) on the simulated GPU of tune_sim.h: tested first, in turn,
 * each against the best so far; the walk then starts from the original
 * with the best so far as its baseline (cfg.side_last: the other way
 * round). */
#include "tune_sim.h"

/* Side candidates (the unroll version): tested first against the
 * original, then the walk from the original against the best so far. */
static void test_side(void) {
  orion_tuner t;
  gpu g;
  int chosen;
  static const int side2[] = {0, 0, 1};
  /* The unrolled code 10 % faster, the cap 3 %: the cap loses against it. */
  static const double u_wins[] = {1.00, 0.97, 0.90};
  sim s1 = {u_wins, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 1, ORION_TUNE_ADAPTIVE, side2};
  gpu_init(&g, &s1);
  run(&g, &t, &chosen);
  CHECK(chosen == 2 && t.c[1].base == 2 && t.c[2].base == 0,
        "side wins: chose %d, cap's baseline %d", chosen, t.c[1].base);
  /* The unrolled code 10 % slower: it loses, the walk from the original
   * finds the cap, tested against the original, in the first direction. */
  static const double u_loses[] = {1.00, 0.95, 1.10};
  sim s2 = {u_loses, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 2, ORION_TUNE_ADAPTIVE, side2};
  gpu_init(&g, &s2);
  run(&g, &t, &chosen);
  CHECK(chosen == 1 && t.c[1].base == 0 && !t.reversed, "side loses: chose %d (base %d)", chosen,
        t.c[1].base);
  /* Both win: the cap beats the unrolled code too; the estimate chains. */
  static const double both[] = {1.00, 0.85, 0.90};
  sim s3 = {both, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 3, ORION_TUNE_ADAPTIVE, side2};
  gpu_init(&g, &s3);
  run(&g, &t, &chosen);
  double sp, half;
  int pairs;
  CHECK(chosen == 1 && t.c[1].base == 2 && orion_tuner_estimate(&t, 1, &sp, &half, &pairs) &&
            fabs(sp - 1 / 0.85) <= half + 0.01,
        "both win: chose %d (base %d), estimate %.3f", chosen, t.c[1].base, sp);
  /* The side candidate in the middle of the order is no step of the walk:
   * orig 0, side 1, cap 2; the walk from 0 goes to 2 without testing 1
   * twice and without turning round. */
  static const int side1[] = {0, 1, 0};
  static const double mid[] = {1.00, 1.20, 0.95};
  sim s4 = {mid, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 4, ORION_TUNE_ADAPTIVE, side1};
  gpu_init(&g, &s4);
  run(&g, &t, &chosen);
  CHECK(chosen == 2 && t.c[2].base == 0 && t.c[1].pairs.n >= 1 && !t.reversed,
        "side in the middle: chose %d", chosen);
  /* A side candidate that fails to launch while under test: the walk
   * starts from the original, in the first direction. */
  sim s5 = {u_loses, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 5, ORION_TUNE_ADAPTIVE, side2};
  gpu_init(&g, &s5);
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_side(&t, 2);
  launch(&g, &t, orion_tuner_next(&t)); /* the original's warm-up */
  CHECK(t.cur == 2, "side first: testing %d", t.cur);
  orion_tuner_drop(&t, 2);
  CHECK(t.cur == 1 && !t.reversed && !orion_tuner_settled(&t), "after the drop: testing %d",
        t.cur);
  /* The original cannot be a side candidate. */
  CHECK(orion_tuner_side(&t, 0) == 0 && orion_tuner_side(&t, 3) == 0, "bad side accepted");
  /* A walk resumed while the side candidate was under test goes on with it. */
  sim s6 = {u_wins, 3, 0, +1, NULL, 0.005, 0, NULL, NULL, 6, ORION_TUNE_ADAPTIVE, side2};
  gpu_init(&g, &s6);
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_side(&t, 2);
  for (int i = 0; i < 6; i++)
    launch(&g, &t, orion_tuner_next(&t));
  char text[ORION_TUNE_WALK_MAX + 1];
  CHECK(t.cur == 2 && orion_tuner_walk_text(&t, text, sizeof text) > 0, "no walk text");
  orion_tuner r;
  orion_tuner_init(&r, ORION_TUNE_ADAPTIVE, 3, 0, +1, NULL, NULL);
  orion_tuner_side(&r, 2);
  CHECK(orion_tuner_resume(&r, text) == 0, "resume refused %s", text);
  while (!orion_tuner_settled(&r) && r.launches < 200)
    launch(&g, &r, orion_tuner_next(&r));
  CHECK(orion_tuner_next(&r) == 2, "resumed: chose %d", orion_tuner_next(&r));
}

/* Two side candidates (u4 and u8: orig 0, cap 1, u4 2, u8 3), tested in
 * turn, each against the best so far. */
static void test_two_sides(void) {
  orion_tuner t;
  gpu g;
  int chosen;
  static const int sides[] = {0, 0, 1, 1};
  /* u4 10 % faster, u8 20 %: u8 is tested against u4 and wins; the cap
   * (3 % faster than the original) loses against u8. */
  static const double u8_best[] = {1.00, 0.97, 0.90, 0.80};
  sim s1 = {u8_best, 4, 0, +1, NULL, 0.005, 0, NULL, NULL, 7, ORION_TUNE_ADAPTIVE, sides};
  gpu_init(&g, &s1);
  run(&g, &t, &chosen);
  double sp, half;
  int pairs;
  CHECK(chosen == 3 && t.c[2].base == 0 && t.c[3].base == 2 && t.c[1].base == 3 &&
            orion_tuner_estimate(&t, 3, &sp, &half, &pairs) && fabs(sp - 1 / 0.80) <= half + 0.02,
        "u8 best: chose %d (u8's base %d, cap's %d), estimate %.3f", chosen, t.c[3].base,
        t.c[1].base, sp);
  /* u4 20 % faster, u8 10 %: u8 loses against u4, which stays. */
  static const double u4_best[] = {1.00, 1.05, 0.80, 0.90};
  sim s2 = {u4_best, 4, 0, +1, NULL, 0.005, 0, NULL, NULL, 8, ORION_TUNE_ADAPTIVE, sides};
  gpu_init(&g, &s2);
  run(&g, &t, &chosen);
  CHECK(chosen == 2 && t.c[3].base == 2, "u4 best: chose %d (u8's base %d)", chosen, t.c[3].base);
  /* u4 10 % slower, u8 10 % faster: u8 is tested against the original. */
  static const double u4_loses[] = {1.00, 1.05, 1.10, 0.90};
  sim s3 = {u4_loses, 4, 0, +1, NULL, 0.005, 0, NULL, NULL, 9, ORION_TUNE_ADAPTIVE, sides};
  gpu_init(&g, &s3);
  run(&g, &t, &chosen);
  CHECK(chosen == 3 && t.c[3].base == 0, "u4 loses: chose %d (u8's base %d)", chosen,
        t.c[3].base);
}

/* Tune on curve with candidates 2 and 3 side ones and cfg.side_last =
 * last; returns the choice, *first the launch on which candidate 1 (the
 * cap) first ran. */
static int tune_order(const double *curve, int last, unsigned seed, orion_tuner *t, int *first) {
  static const int sides[] = {0, 0, 1, 1};
  sim s = {curve, 4, 0, +1, NULL, 0.01, 0, NULL, NULL, seed, ORION_TUNE_ADAPTIVE, sides};
  gpu g;
  gpu_init(&g, &s);
  orion_tune_cfg cfg;
  orion_tune_cfg_default(&cfg);
  cfg.side_last = last;
  orion_tuner_init(t, ORION_TUNE_ADAPTIVE, 4, 0, +1, NULL, &cfg);
  orion_tuner_side(t, 2);
  orion_tuner_side(t, 3);
  *first = -1;
  for (int it = 0; !orion_tuner_settled(t) && it < 500; it++) {
    int c = orion_tuner_next(t);
    if (c == 1 && *first < 0)
      *first = it;
    launch(&g, t, c);
  }
  return orion_tuner_next(t);
}

/* cfg.side_last: the walk first, then the side candidates, each against
 * the walk's choice.  rsbench's lookup on an H200: r128 alone 1.62x, u4
 * 1.5 % faster than the original, u8 equal. */
static void test_side_last(void) {
  orion_tuner t;
  int first_side, first_last;
  static const double rs[] = {1.00, 0.62, 0.985, 1.00};
  int c0 = tune_order(rs, 0, 21, &t, &first_side);
  int c1 = tune_order(rs, 1, 21, &t, &first_last);
  CHECK(c0 == 1 && c1 == 1, "rsbench: chose %d side first, %d side last", c0, c1);
  CHECK(first_last >= 0 && first_last < 4 && first_last < first_side,
        "the cap first ran on launch %d side last, %d side first", first_last, first_side);
  CHECK(t.c[2].base == 1 && t.c[3].base == 1 && t.c[2].state != 0 && t.c[3].state != 0,
        "side candidates tested against %d and %d", t.c[2].base, t.c[3].base);
  /* A side candidate that beats the walk's choice is chosen. */
  static const double u4[] = {1.00, 0.97, 0.80, 1.00};
  int c2 = tune_order(u4, 1, 22, &t, &first_last);
  CHECK(c2 == 2 && t.c[2].base == 1 && t.c[1].base == 0, "u4 after the cap: chose %d (base %d)",
        c2, t.c[2].base);
  /* No cap wins: the side candidates against the original. */
  static const double none[] = {1.00, 1.10, 0.90, 1.00};
  int c3 = tune_order(none, 1, 23, &t, &first_last);
  CHECK(c3 == 2 && t.c[2].base == 0 && t.reversed, "no cap: chose %d (base %d)", c3,
        t.c[2].base);
}

int main(void) {
  test_side();
  test_two_sides();
  test_side_last();
  return CHECK_DONE();
}
