/* test_select.c - version selection (select.c, paper Fig. 8) invariants
 * over a sweep of max-live, block sizes and shared memory, plus the paper's
 * direction rule and invalid input. */
#include <string.h>

#include "check.h"
#include "orion/occupancy.h"
#include "orion/select.h"

static void sweep(int sm) {
  static const int blocks[] = {0, 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
  static const unsigned smems[] = {0, 4096, 32768, 100000};
  for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
    for (size_t m = 0; m < sizeof smems / sizeof *smems; m++)
      for (int ml = 0; ml <= 300; ml += 3) {
        orion_select_input in = {sm, ml, blocks[b], smems[m], 0, ORION_CAP_FLOOR_PCT};
        orion_selection s;
        orion_status st = orion_select_versions(&in, &s);
        if (st == ORION_ERR_INFEASIBLE)
          continue; /* block + smem do not fit on an SM */
        CHECK(st == ORION_OK, "sm %d ml %d block %d: %s", sm, ml, blocks[b], orion_strerror(st));
        if (st != ORION_OK)
          continue;
        CHECK(s.n_versions >= 1 && s.n_versions <= ORION_MAX_VERSIONS, "n=%d", s.n_versions);
        CHECK(strcmp(s.versions[0].tag, "orig") == 0 && s.versions[0].max_regs == 0,
              "first version is the original");
        CHECK((s.direction == ORION_DIR_INCREASING) == (ml >= s.threshold),
              "direction rule ml %d thr %d", ml, s.threshold);
        int clones_up = 0, pads_down = 0;
        for (int i = 1; i < s.n_versions; i++) {
          const orion_version *v = &s.versions[i];
          for (int j = 0; j < i; j++)
            CHECK(strcmp(v->tag, s.versions[j].tag) != 0, "duplicate tag %s", v->tag);
          if (v->is_pad) {
            CHECK(v->target_warps < s.original_warps, "pad %s goes down", v->tag);
            pads_down++;
          } else {
            CHECK(v->max_regs >= ORION_MIN_REG_CAP && v->max_regs <= 255, "cap %d", v->max_regs);
            CHECK(v->target_warps >= s.original_warps, "clone %s does not lower occupancy", v->tag);
            clones_up++;
          }
        }
        if (s.direction == ORION_DIR_INCREASING && s.original_warps < s.max_warps)
          CHECK(clones_up >= 1, "increasing has a clone above the original (ml %d)", ml);
        if (s.direction == ORION_DIR_DECREASING)
          CHECK(clones_up <= 1, "decreasing: at most the fail-safe clone");
        (void)pads_down;
      }
}

int main(void) {
  int sms[] = {75, 80, 86, 89, 90};
  for (size_t i = 0; i < sizeof sms / sizeof *sms; i++)
    sweep(sms[i]);

  /* The paper's Kepler threshold is 32 registers; on sm_90 at 256 threads
   * the top level (64 warps) also needs <= 32. */
  orion_selection s;
  orion_select_input in = {90, 32, 256, 0, 0, ORION_CAP_FLOOR_PCT};
  CHECK(orion_select_versions(&in, &s) == ORION_OK && s.threshold == 32 &&
            s.direction == ORION_DIR_INCREASING, "ml 32 -> increasing");
  in.max_live = 31;
  CHECK(orion_select_versions(&in, &s) == ORION_OK && s.direction == ORION_DIR_DECREASING,
        "ml 31 -> decreasing");
  /* The cap floor (40 % of max-live): with max-live 202 at 256 threads no
   * clone below 81 registers; with max-live 60 the top level (32) stays. */
  in.max_live = 202;
  CHECK(orion_select_versions(&in, &s) == ORION_OK, "ml 202");
  int low = 0, clones = 0;
  for (int i = 0; i < s.n_versions; i++)
    if (!s.versions[i].is_pad && s.versions[i].max_regs > 0)
      clones++, low += s.versions[i].max_regs < 81;
  CHECK(clones >= 1 && low == 0, "ml 202: %d clones, %d below the floor", clones, low);
  in.max_live = 60;
  CHECK(orion_select_versions(&in, &s) == ORION_OK, "ml 60");
  int top = 0;
  for (int i = 0; i < s.n_versions; i++)
    top |= !s.versions[i].is_pad && s.versions[i].max_regs == 32;
  CHECK(top, "ml 60 keeps the top level");
  in.max_live = 202; /* floor 0: every level Fig. 8 picks, down to the top (32) */
  in.cap_floor_pct = 0;
  CHECK(orion_select_versions(&in, &s) == ORION_OK, "ml 202, no floor");
  top = 0;
  for (int i = 0; i < s.n_versions; i++)
    top |= !s.versions[i].is_pad && s.versions[i].max_regs == 32;
  CHECK(top, "ml 202, no floor: the top level");
  in.cap_floor_pct = 101;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_INVALID_ARG, "floor 101");
  in.cap_floor_pct = ORION_CAP_FLOOR_PCT;
  /* Budget respected. */
  in.max_live = 200;
  in.max_versions = 2;
  CHECK(orion_select_versions(&in, &s) == ORION_OK && s.n_versions <= 2, "budget 2");
  in.max_versions = 1;
  CHECK(orion_select_versions(&in, &s) == ORION_OK && s.n_versions == 1, "budget 1");

  /* Invalid input. */
  in = (orion_select_input){90, 10, 256, 0, 0, 0};
  CHECK(orion_select_versions(NULL, &s) == ORION_ERR_INVALID_ARG, "NULL in");
  CHECK(orion_select_versions(&in, NULL) == ORION_ERR_INVALID_ARG, "NULL out");
  in.sm = 42;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_UNSUPPORTED_ARCH, "sm_42");
  in.sm = 90;
  in.threads_per_block = 2048;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_INVALID_ARG, "block 2048");
  in.threads_per_block = 256;
  in.max_live = -1;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_INVALID_ARG, "negative max-live");
  in.max_live = 10;
  in.max_versions = 6;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_INVALID_ARG, "6 versions");
  in.max_versions = 0;
  in.smem_static = 300000;
  CHECK(orion_select_versions(&in, &s) == ORION_ERR_INFEASIBLE, "smem too large");
  return CHECK_DONE();
}
