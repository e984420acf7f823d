/* test_tune_ahead.c - the tuner's choice one launch ahead (runtime/tune.c,
 * tune.h step 10) on the simulated GPU of tune_sim.h.  The property: before
 * each launch's time is fed, orion_tuner_next_ahead names what
 * orion_tuner_next will name once it is fed, unless the feed ended the
 * test or the re-check under way (a verdict) or it answered -1; and it
 * answers for most launches of a test, so a caller can keep the GPU busy.
 * Random tuners: candidate curves, noise, side candidates, keys that
 * change, re-checks after settling; and a dry look leaves the tuner as it
 * was.  No answer where the pair being closed has the candidate slower. */
#include <stdio.h>

#include "tune_sim.h"

static unsigned long long key_every7(int i) { return (unsigned long long)(i / 7) << 1; }

typedef struct tally {
  int asked, answered, agreed, verdicts;
} tally;

/* One launch of candidate c, with the look ahead checked against the
 * tuner's next choice after the real feed. */
static void checked_launch(gpu *g, orion_tuner *t, int c, tally *n) {
  unsigned long long key = g->s->key ? g->s->key(g->it) : 0;
  orion_tuner before = *t;
  int a = orion_tuner_next_ahead(t, c, key);
  CHECK(memcmp(&before, t, sizeof before) == 0, "next_ahead changed the tuner");
  int phase = t->phase, cur = t->cur, base = t->base;
  launch(g, t, c);
  n->asked++;
  if (a < 0)
    return;
  n->answered++;
  if (t->phase != phase || t->cur != cur || t->base != base) {
    n->verdicts++; /* a verdict: the launch chosen ahead may be one of the loser */
    return;
  }
  CHECK(orion_tuner_next(t) == a, "ahead %d, then next %d (launch %d, phase %d)", a,
        orion_tuner_next(t), t->launches, t->phase);
  n->agreed += orion_tuner_next(t) == a;
}

static void random_tuners(void) {
  tally n = {0, 0, 0, 0};
  unsigned seed = 777;
  for (int round = 0; round < 400; round++) {
    double curve[6];
    int side[6] = {0}, cands = 3 + round % 4;
    for (int i = 0; i < cands; i++)
      curve[i] = 0.8 + 0.5 * urand(&seed);
    if (round % 3 == 0)
      side[cands - 1] = 1;
    sim s = {curve, cands, 1, round % 2 ? 1 : -1, NULL, 0.02 + 0.1 * urand(&seed), 0.3, NULL,
             round % 5 == 0 ? key_every7 : NULL, seed, ORION_TUNE_ADAPTIVE, side};
    orion_tuner t;
    gpu g;
    gpu_init(&g, &s);
    orion_tuner_init(&t, s.mode, s.n, s.orig, s.dir, NULL, NULL);
    for (int i = 0; i < cands; i++)
      if (side[i])
        orion_tuner_side(&t, i);
    for (int it = 0; !orion_tuner_settled(&t) && it < 500; it++)
      checked_launch(&g, &t, orion_tuner_next(&t), &n);
    for (int r = 0; r < 4 && orion_tuner_recheck(&t); r++) /* re-checks: three launches each */
      while (!orion_tuner_settled(&t))
        checked_launch(&g, &t, orion_tuner_next(&t), &n);
  }
  printf("ahead: answered %d of %d launches (%d before a verdict)\n", n.answered, n.asked,
         n.verdicts);
  CHECK(n.agreed > 0 && n.answered == n.agreed + n.verdicts, "answered %d, agreed %d, verdicts %d",
        n.answered, n.agreed, n.verdicts);
  CHECK(n.answered * 10 >= n.asked * 6, "answered only %d of %d launches", n.answered, n.asked);
}

/* Exhaustive mode and a settled tuner never answer. */
static void no_answer(void) {
  orion_tuner t;
  orion_tuner_init(&t, ORION_TUNE_EXHAUSTIVE, 3, 1, 1, NULL, NULL);
  CHECK(orion_tuner_next_ahead(&t, 1, 0) == -1, "exhaustive answered");
  orion_tuner_init(&t, ORION_TUNE_ADAPTIVE, 3, 1, 1, NULL, NULL);
  CHECK(orion_tuner_next_ahead(&t, 1, 0) == -1, "the original's warm-up answered");
  orion_tuner_settle_on(&t, 2);
  CHECK(orion_tuner_next_ahead(&t, 2, 0) == -1, "a settled tuner answered");
}

/* A pair about to close with the candidate slower so far: no answer (a
 * verdict against it is likely); with it faster: the candidate again. */
static void slower_candidate(void) {
  for (int slow = 0; slow < 2; slow++) {
    double curve[2] = {1.0, slow ? 1.3 : 0.8};
    sim s = {curve, 2, 0, 1, NULL, 0.01, 0.3, NULL, NULL, 99, ORION_TUNE_ADAPTIVE, NULL};
    orion_tuner t;
    gpu g;
    gpu_init(&g, &s);
    orion_tuner_init(&t, s.mode, s.n, s.orig, s.dir, NULL, NULL);
    for (int it = 0; !t.have_c && it < 20; it++)
      launch(&g, &t, orion_tuner_next(&t));
    CHECK(t.have_c && orion_tuner_next(&t) == 0, "no candidate sample waiting for its pair");
    int a = orion_tuner_next_ahead(&t, 0, t.c_key);
    CHECK(slow ? a == -1 : a == 1, "candidate %s: ahead %d", slow ? "slower" : "faster", a);
  }
}

int main(void) {
  random_tuners();
  no_answer();
  slower_candidate();
  return CHECK_DONE();
}
