/* test_occupancy.c - unit tests for the occupancy model (orion/occupancy.h).
 *
 * Usage: test_occupancy [measured.csv]
 *
 *  (a) cases worked by hand from NVIDIA's published limits, several arches;
 *  (b) with a CSV argument: every row measured on a real GPU with
 *      cuOccupancyMaxActiveBlocksPerMultiprocessor (benchmarks/occupancy/)
 *      against orion_occupancy_carveout(), and the device attributes in its
 *      header against the model's limits row.  If the file is missing the
 *      test prints SKIPPED and exits 77 (after the other checks pass);
 *  (c) the inverse queries against brute force over the forward query;
 *  (d) invalid input.
 */
#include "orion/occupancy.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h" /* test/unit/check.h */

static const int all_sms[] = {75, 80, 86, 89, 90, 100, 120};
#define N_SMS (int)(sizeof all_sms / sizeof all_sms[0])

static orion_occ_result occ(int sm, int regs, int threads, unsigned st,
                            unsigned dyn, int carveout) {
  orion_occ_input in = {regs, threads, st, dyn};
  orion_occ_result r;
  memset(&r, 0xff, sizeof r);
  orion_status s = orion_occupancy_carveout(sm, &in, carveout, &r);
  CHECK(s == ORION_OK, "sm_%d r%d t%d: %s", sm, regs, threads,
        orion_strerror(s));
  return r;
}

/* One hand-computed case: expected blocks/SM and limiter. */
static void expect(int sm, int regs, int threads, unsigned st, unsigned dyn,
                   int carveout, int blocks, orion_occ_limiter lim) {
  orion_occ_result r = occ(sm, regs, threads, st, dyn, carveout);
  CHECK(r.blocks_per_sm == blocks && r.limiter == lim,
        "sm_%d regs=%d threads=%d smem=%u+%u carveout=%d: got %d blocks "
        "(%s), want %d (%s)",
        sm, regs, threads, st, dyn, carveout, r.blocks_per_sm,
        orion_occ_limiter_name(r.limiter), blocks,
        orion_occ_limiter_name(lim));
  const orion_arch_limits *a = orion_arch_get(sm);
  int wpb = (threads + 31) / 32;
  CHECK(r.warps_per_sm == blocks * wpb, "warps %d", r.warps_per_sm);
  CHECK(a && r.occupancy == (double)(blocks * wpb) / a->max_warps_per_sm,
        "occupancy %f", r.occupancy);
}

/* (a) Worked by hand.  Per-SM limits from the CUDA C++ Programming Guide's
 * compute-capability table; granularities: registers per warp rounded up to
 * 256 and taken from one of 4 sub-partitions of 16K; shared memory per block
 * = use + 1 KB reserved (8.x+), rounded to 128 B (256 B, no reserve, 7.5). */
static void test_hand_cases(void) {
  const orion_occ_limiter W = ORION_LIMIT_WARPS, B = ORION_LIMIT_BLOCKS,
                          R = ORION_LIMIT_REGISTERS,
                          S = ORION_LIMIT_SHARED_MEMORY;
  const int D = ORION_CARVEOUT_DEFAULT;
  /* sm_90: 64 warps, 32 blocks, 64K regs, 228 KB. */
  expect(90, 32, 256, 0, 0, D, 8, W);  /* 64/8 warps; regs 32*8*256=64K too */
  expect(90, 64, 256, 0, 0, D, 4, R);  /* 2048/warp: 8 per partition -> 32 */
  expect(90, 255, 256, 0, 0, D, 1, R); /* 8192/warp: 2 per partition -> 8 */
  expect(90, 255, 320, 0, 0, D, 0, R); /* 10 warps > 8 */
  expect(90, 40, 64, 0, 0, D, 24, R);  /* 1280/warp: 12 per partition -> 48
                                          warps; 65536/2560 would say 25 */
  expect(90, 16, 32, 0, 0, D, 32, B);  /* block cap */
  expect(90, 8, 32, 12288, 0, D, 17, S); /* (12288+1024) -> 233472/13312 */
  expect(90, 32, 128, 0, 232448, D, 1, S); /* opt-in maximum: one block */
  expect(90, 32, 128, 0, 232449, D, 0, S); /* one byte more: none */
  expect(90, 32, 128, 0, 115712, D, 2, S); /* 116736 = 233472 / 2 */
  expect(90, 32, 128, 0, 115713, D, 1, S); /* rounds to 116864 */
  expect(90, 32, 1024, 0, 0, D, 2, W);
  expect(90, 65, 1024, 0, 0, D, 0, R); /* 2304/warp * 32 warps > 64K */
  /* Carveout preference (sm_90 sizes 0/8/16/32/64/100/132/164/196/228 KB). */
  expect(90, 32, 128, 0, 0, 0, 8, S);    /* 1 KB blocks in an 8 KB carveout */
  expect(90, 32, 128, 0, 8192, 50, 14, S); /* 50% -> 132 KB / 9216 */
  expect(90, 32, 128, 0, 20000, 0, 1, S);  /* 21120 B: smallest fit 32 KB */
  /* sm_80 (A100): 64 warps, 32 blocks, 164 KB. */
  expect(80, 32, 1024, 0, 0, D, 2, W);
  expect(80, 32, 256, 0, 49152, D, 3, S); /* 167936 / 50176 */
  expect(80, 32, 256, 0, 166912, D, 1, S); /* 163 KB opt-in maximum */
  expect(80, 32, 256, 0, 166913, D, 0, S);
  /* sm_86: 48 warps, 16 blocks, 100 KB. */
  expect(86, 32, 256, 0, 0, D, 6, W);  /* 48/8 */
  expect(86, 16, 64, 0, 0, D, 16, B);  /* 24 by warps, 16 by blocks */
  expect(86, 32, 128, 0, 101376, D, 1, S); /* 99 KB */
  expect(86, 32, 128, 0, 101377, D, 0, S);
  expect(86, 128, 128, 0, 0, D, 4, R); /* 4096/warp: 4 per partition */
  /* sm_89: 48 warps, 24 blocks. */
  expect(89, 16, 64, 0, 0, D, 24, W);  /* 24 by warps and blocks: tie */
  expect(89, 16, 32, 0, 0, D, 24, B);  /* half the warps */
  /* sm_75 (Turing): 32 warps, 16 blocks, 64 KB, 256-byte units, no reserve. */
  expect(75, 32, 1024, 0, 0, D, 1, W);
  expect(75, 72, 128, 0, 0, D, 7, R);  /* 2304/warp: 7 per partition */
  expect(75, 32, 64, 0, 32768, D, 2, S);
  expect(75, 32, 32, 100, 0, D, 16, B); /* 256 B per block */
  expect(75, 32, 64, 0, 65536, D, 1, S);
  expect(75, 32, 64, 0, 65537, D, 0, S);
  expect(75, 32, 64, 0, 20000, 0, 1, S); /* 0% -> 32 KB carveout */
  /* sm_100 like sm_90; sm_120 like sm_89 with 100 KB. */
  expect(100, 32, 128, 0, 115712, D, 2, S);
  expect(120, 16, 32, 0, 0, D, 24, B);
  expect(120, 32, 256, 0, 0, D, 6, W);

  /* Fields of one result, in full. */
  orion_occ_result r = occ(90, 40, 96, 1000, 3000, D);
  CHECK(r.regs_per_warp == 1280, "regs_per_warp %d", r.regs_per_warp);
  CHECK(r.smem_per_block == 5120, "smem_per_block %u", r.smem_per_block);
  CHECK(r.smem_carveout == 233472, "carveout %u", r.smem_carveout);
  CHECK(r.blocks_by_warps == 21 && r.blocks_by_blocks == 32 &&
            r.blocks_by_regs == 16 && r.blocks_by_smem == 45,
        "by %d %d %d %d", r.blocks_by_warps, r.blocks_by_blocks,
        r.blocks_by_regs, r.blocks_by_smem);
  r = occ(75, 0, 32, 0, 0, D); /* 0 registers count as 1; no smem at all */
  CHECK(r.blocks_by_smem == INT_MAX && r.regs_per_warp == 256,
        "sm_75 empty: %d %d", r.blocks_by_smem, r.regs_per_warp);

  unsigned c = 0;
  CHECK(orion_occ_smem_carveout(90, 1024, 0, &c) == ORION_OK && c == 8192,
        "carveout %u", c);
  CHECK(orion_occ_smem_carveout(90, 1024, 50, &c) == ORION_OK &&
            c == 132 * 1024, "carveout %u", c);
  CHECK(orion_occ_smem_carveout(90, 200000, 50, &c) == ORION_OK &&
            c == 196 * 1024, "carveout %u", c); /* one block must fit */
  CHECK(orion_occ_smem_carveout(80, 0, ORION_CARVEOUT_DEFAULT, &c) ==
                ORION_OK && c == 164 * 1024, "carveout %u", c);
  CHECK(orion_occ_smem_carveout(75, 0, 0, &c) == ORION_OK && c == 32 * 1024,
        "carveout %u", c);
}

/* The limits table: consistency, and the values the H200 reports. */
static void test_table(void) {
  char list[256] = "";
  for (int i = 0; i < N_SMS; i++) {
    const orion_arch_limits *a = orion_arch_get(all_sms[i]);
    CHECK(a != NULL, "sm_%d missing", all_sms[i]);
    if (!a) continue;
    char name[16];
    snprintf(name, sizeof name, "sm_%d", a->sm);
    CHECK(strcmp(a->name, name) == 0, "name %s", a->name);
    CHECK(a->max_warps_per_sm * a->warp_size == a->max_threads_per_sm,
          "%s warps", a->name);
    CHECK(a->max_smem_per_block_optin + a->smem_reserved_per_block ==
              a->smem_per_sm, "%s opt-in", a->name);
    CHECK(a->n_smem_carveouts >= 1 &&
              a->n_smem_carveouts <= ORION_OCC_MAX_CARVEOUTS &&
              a->smem_carveouts[a->n_smem_carveouts - 1] == a->smem_per_sm,
          "%s carveouts", a->name);
    for (int k = 1; k < a->n_smem_carveouts; k++)
      CHECK(a->smem_carveouts[k - 1] < a->smem_carveouts[k],
            "%s carveouts ascending", a->name);
    if (i) strcat(list, ", ");
    strcat(list, a->name);
  }
  CHECK(strcmp(list, orion_arch_supported_list()) == 0, "list '%s' vs '%s'",
        list, orion_arch_supported_list());
  const orion_arch_limits *h = orion_arch_get(90);
  CHECK(h && h->max_threads_per_sm == 2048 && h->max_warps_per_sm == 64 &&
            h->max_blocks_per_sm == 32 && h->regs_per_sm == 65536 &&
            h->max_regs_per_thread == 255 && h->smem_per_sm == 233472 &&
            h->max_smem_per_block_optin == 232448 &&
            h->smem_reserved_per_block == 1024 &&
            h->smem_per_block_default == 49152,
        "sm_90 row");
  CHECK(orion_arch_get(70) == NULL && orion_arch_get(0) == NULL, "unknown");

  static const struct {
    const char *text;
    orion_status st;
    int sm;
  } names[] = {
      {"sm_90", ORION_OK, 90},      {"sm_90a", ORION_OK, 90},
      {"compute_90", ORION_OK, 90}, {"90", ORION_OK, 90},
      {"sm_100f", ORION_OK, 100},   {"compute_120a", ORION_OK, 120},
      {"sm_75", ORION_OK, 75},      {"sm_70", ORION_ERR_UNSUPPORTED_ARCH, 0},
      {"sm_91", ORION_ERR_UNSUPPORTED_ARCH, 0},
      {"sm_", ORION_ERR_PARSE, 0},  {"", ORION_ERR_PARSE, 0},
      {"sm_9x", ORION_ERR_PARSE, 0}, {"sm_090", ORION_ERR_PARSE, 0},
      {"sm90", ORION_ERR_PARSE, 0}, {" sm_90", ORION_ERR_PARSE, 0},
      {"sm_90 ", ORION_ERR_PARSE, 0}, {"sm_90ab", ORION_ERR_PARSE, 0},
      {"sm_99999999999", ORION_ERR_PARSE, 0},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    int sm = -1;
    orion_status st = orion_arch_from_name(names[i].text, &sm);
    CHECK(st == names[i].st && (st != ORION_OK || sm == names[i].sm),
          "'%s': %s, sm %d", names[i].text, orion_strerror(st), sm);
    if (st != ORION_OK) CHECK(sm == -1, "'%s' wrote sm", names[i].text);
  }
}

/* (b) Rows measured on a GPU. */
static int test_measured(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("SKIPPED: %s missing; run benchmarks/occupancy/measure.sh on a "
           "GPU\n", path);
    return 77;
  }
  char line[512];
  int rows = 0, matched = 0, shown = 0, attrs = 0, sm = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') {
      int maj, min, v;
      char key[64];
      if (sscanf(line, "# compute_capability: %d.%d", &maj, &min) == 2)
        sm = maj * 10 + min;
      if (sscanf(line, "# device_attr %63[a-z_]=%d", key, &v) == 2) {
        const orion_arch_limits *a = orion_arch_get(sm);
        CHECK(a != NULL, "%s: device sm_%d unknown to the model", path, sm);
        if (!a) continue;
        static const struct {
          const char *key;
          size_t off;
          int is_unsigned;
        } fields[] = {
#define FIELD(k, m, u) {k, offsetof(orion_arch_limits, m), u}
            FIELD("warp_size", warp_size, 0),
            FIELD("max_threads_per_block", max_threads_per_block, 0),
            FIELD("max_threads_per_sm", max_threads_per_sm, 0),
            FIELD("max_blocks_per_sm", max_blocks_per_sm, 0),
            FIELD("regs_per_sm", regs_per_sm, 0),
            FIELD("regs_per_block", max_regs_per_block, 0),
            FIELD("smem_per_sm", smem_per_sm, 1),
            FIELD("smem_per_block", smem_per_block_default, 1),
            FIELD("smem_per_block_optin", max_smem_per_block_optin, 1),
            FIELD("reserved_smem_per_block", smem_reserved_per_block, 1),
#undef FIELD
        };
        for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
          if (strcmp(key, fields[k].key) != 0) continue;
          const char *p = (const char *)a + fields[k].off;
          long model = fields[k].is_unsigned ? (long)*(const unsigned *)p
                                             : (long)*(const int *)p;
          CHECK(model == v, "device attribute %s = %d, model %s has %ld", key,
                v, a->name, model);
          attrs++;
        }
      }
      continue;
    }
    int arch, regs, block, blocks, carve = ORION_CARVEOUT_DEFAULT;
    unsigned st, dyn;
    int n = sscanf(line, "%d,%d,%d,%u,%u,%d,%d", &arch, &regs, &block, &st,
                   &dyn, &blocks, &carve);
    if (n < 6) continue; /* the column header */
    rows++;
    orion_occ_input in = {regs, block, st, dyn};
    orion_occ_result r;
    orion_status s = orion_occupancy_carveout(arch, &in, carve, &r);
    if (s == ORION_OK && r.blocks_per_sm == blocks) {
      matched++;
    } else if (shown++ < 20) {
      fprintf(stderr,
              "%s: sm_%d regs=%d block=%d smem=%u+%u carveout=%d: measured "
              "%d, model %d (%s)\n",
              path, arch, regs, block, st, dyn, carve, blocks,
              s == ORION_OK ? r.blocks_per_sm : -1,
              s == ORION_OK ? orion_occ_limiter_name(r.limiter)
                            : orion_strerror(s));
    }
  }
  fclose(f);
  printf("%s: %d of %d measured rows match; %d device attributes checked\n",
         path, matched, rows, attrs);
  CHECK(rows > 0 && matched == rows, "%d of %d rows differ", rows - matched,
        rows);
  CHECK(attrs >= 10, "device attributes: %d", attrs);
  return 0;
}

static int warps_of(int sm, int regs, int threads, unsigned smem) {
  orion_occ_input in = {regs, threads, smem, 0};
  orion_occ_result r;
  if (orion_occupancy(sm, &in, &r) != ORION_OK) return -1;
  return r.warps_per_sm;
}

/* (c) Inverse queries against brute force. */
static const int shapes[] = {1, 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
static const unsigned smem_pts[] = {0, 4096, 20000, 50000, 100000};

static void test_max_regs(void) {
  int cases = 0;
  for (int i = 0; i < N_SMS; i++)
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
      for (size_t m = 0; m < sizeof smem_pts / sizeof smem_pts[0]; m++) {
        int sm = all_sms[i], T = shapes[t];
        unsigned smem = smem_pts[m];
        const orion_arch_limits *a = orion_arch_get(sm);
        for (int target = 1; target <= a->max_warps_per_sm + 1; target++) {
          int want = -1;
          for (int r = 1; r <= 255; r++)
            if (warps_of(sm, r, T, smem) >= target) want = r;
          int got = -7;
          orion_status s =
              orion_occ_max_regs_for_warps(sm, T, smem, target, &got);
          if (want < 0)
            CHECK(s == ORION_ERR_INFEASIBLE && got == -7,
                  "sm_%d T=%d smem=%u target=%d: %s", sm, T, smem, target,
                  orion_strerror(s));
          else
            CHECK(s == ORION_OK && got == want,
                  "sm_%d T=%d smem=%u target=%d: got %d want %d", sm, T, smem,
                  target, got, want);
          cases++;
        }
      }
  CHECK(cases > 1000, "cases %d", cases);
  int r = 0;
  CHECK(orion_occ_max_regs_for_warps(90, 256, 0, 64, &r) == ORION_OK &&
            r == 32, "sm_90 256 threads full occupancy: %d", r);
  CHECK(orion_occ_max_regs_for_warps(90, 128, 0, 32, &r) == ORION_OK &&
            r == 64, "sm_90 half occupancy: %d", r);
}

static void test_reg_levels(void) {
  for (int i = 0; i < N_SMS; i++)
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
      for (size_t m = 0; m < sizeof smem_pts / sizeof smem_pts[0]; m++)
        for (int min_regs = 0; min_regs <= 255; min_regs += 51) {
          int sm = all_sms[i], T = shapes[t];
          unsigned smem = smem_pts[m];
          /* Brute force: each level's largest count, highest level first. */
          orion_occ_level want[256];
          int nw = 0;
          for (int r = (min_regs ? min_regs : 1); r <= 255; r++) {
            int w = warps_of(sm, r, T, smem);
            if (w == 0) continue;
            int k;
            for (k = 0; k < nw; k++)
              if (want[k].warps_per_sm == w) break;
            if (k == nw) want[nw++].warps_per_sm = w;
            want[k].max_regs = r;
          }
          for (int a = 0; a < nw; a++) /* sort by warps, descending */
            for (int b = a + 1; b < nw; b++)
              if (want[b].warps_per_sm > want[a].warps_per_sm) {
                orion_occ_level x = want[a];
                want[a] = want[b];
                want[b] = x;
              }
          orion_occ_level got[ORION_OCC_MAX_LEVELS];
          int n = -1;
          orion_status s = orion_occ_reg_levels(sm, T, smem, min_regs, got,
                                                ORION_OCC_MAX_LEVELS, &n);
          CHECK(s == ORION_OK && n == nw, "sm_%d T=%d smem=%u min=%d: n=%d "
                "want %d", sm, T, smem, min_regs, n, nw);
          for (int k = 0; s == ORION_OK && k < n && k < nw; k++)
            CHECK(got[k].warps_per_sm == want[k].warps_per_sm &&
                      got[k].max_regs == want[k].max_regs,
                  "sm_%d T=%d smem=%u level %d: (%d,%d) want (%d,%d)", sm, T,
                  smem, k, got[k].warps_per_sm, got[k].max_regs,
                  want[k].warps_per_sm, want[k].max_regs);
          if (nw >= 2) { /* truncated output keeps the highest levels */
            orion_occ_level two[2];
            s = orion_occ_reg_levels(sm, T, smem, min_regs, two, 2, &n);
            CHECK(s == ORION_OK && n == 2 &&
                      two[1].warps_per_sm == want[1].warps_per_sm,
                  "truncated levels");
          }
        }
  /* sm_90, 256 threads (8 warps): a partition holds 16384 / Rw warps, so
   * 64 warps up to 32 registers, 48 up to 40 (1280/warp: 12 per partition),
   * 40 up to 48, 32 up to 64, 24 up to 80, 16 up to 128, 8 up to 255; 56
   * warps (14 per partition) would need Rw <= 1170, i.e. 1024: unreachable. */
  static const int want_w[] = {64, 48, 40, 32, 24, 16, 8};
  static const int want_r[] = {32, 40, 48, 64, 80, 128, 255};
  orion_occ_level lv[ORION_OCC_MAX_LEVELS];
  int n = 0;
  CHECK(orion_occ_reg_levels(90, 256, 0, 16, lv, ORION_OCC_MAX_LEVELS, &n) ==
                ORION_OK && n == 7, "sm_90 256-thread levels: n=%d", n);
  for (int k = 0; k < n && k < 7; k++)
    CHECK(lv[k].warps_per_sm == want_w[k] && lv[k].max_regs == want_r[k],
          "level %d: (%d,%d)", k, lv[k].warps_per_sm, lv[k].max_regs);
}

static void test_dyn_smem(void) {
  static const int regs_pts[] = {16, 32, 64, 128};
  static const int t_pts[] = {32, 128, 256, 1024};
  static const unsigned st_pts[] = {0, 12345};
  static const unsigned dyn_pts[] = {0, 3000};
  int exhaustive = 0;
  for (int i = 0; i < N_SMS; i++)
    for (size_t a = 0; a < 4; a++)
      for (size_t b = 0; b < 4; b++)
        for (size_t c = 0; c < 2; c++)
          for (size_t d = 0; d < 2; d++) {
            int sm = all_sms[i];
            const orion_arch_limits *L = orion_arch_get(sm);
            orion_occ_input in = {regs_pts[a], t_pts[b], st_pts[c],
                                  dyn_pts[d]};
            orion_occ_result now;
            orion_occupancy(sm, &in, &now);
            int wpb = (t_pts[b] + 31) / 32;
            for (int target = 0; target <= L->max_warps_per_sm; target++) {
              unsigned got = 0xdeadbeef;
              orion_status s = orion_occ_dyn_smem_for_warps(sm, &in, target,
                                                            &got);
              /* Brute force: the smallest size that works, byte by byte
               * (32 registers, the two hardest targets: one block, one block
               * fewer; elsewhere the answer and the byte before it). */
              int full = regs_pts[a] == 32 &&
                         (target == wpb || target == now.warps_per_sm - wpb);
              long want = -1;
              if (target >= wpb && now.blocks_per_sm > 0) {
                if (full) {
                  for (unsigned long long x = in.smem_dynamic;
                       x + in.smem_static <= L->max_smem_per_block_optin;
                       x++) {
                    orion_occ_input t = in;
                    orion_occ_result r;
                    t.smem_dynamic = (unsigned)x;
                    orion_occupancy(sm, &t, &r);
                    if (r.blocks_per_sm > 0 && r.warps_per_sm <= target) {
                      want = (long)x;
                      break;
                    }
                  }
                  exhaustive++;
                } else if (s == ORION_OK) {
                  /* Check the answer and the byte before it. */
                  orion_occ_input t = in;
                  orion_occ_result r;
                  t.smem_dynamic = got;
                  orion_occupancy(sm, &t, &r);
                  CHECK(r.blocks_per_sm > 0 && r.warps_per_sm <= target,
                        "sm_%d: %u does not reach %d", sm, got, target);
                  if (got > in.smem_dynamic) {
                    t.smem_dynamic = got - 1;
                    orion_occupancy(sm, &t, &r);
                    CHECK(r.warps_per_sm > target, "sm_%d: %u not minimal",
                          sm, got);
                  }
                  continue;
                } else {
                  continue; /* INFEASIBLE is checked exhaustively elsewhere */
                }
              }
              if (want < 0)
                CHECK(s == ORION_ERR_INFEASIBLE && got == 0xdeadbeef,
                      "sm_%d r%d T%d smem %u+%u target %d: %s, %u", sm,
                      in.regs_per_thread, in.threads_per_block, in.smem_static,
                      in.smem_dynamic, target, orion_strerror(s), got);
              else
                CHECK(s == ORION_OK && got == (unsigned)want,
                      "sm_%d r%d T%d smem %u+%u target %d: %s, %u want %ld",
                      sm, in.regs_per_thread, in.threads_per_block,
                      in.smem_static, in.smem_dynamic, target,
                      orion_strerror(s), got, want);
            }
          }
  CHECK(exhaustive > 100, "exhaustive cases %d", exhaustive);

  /* Worked: sm_90, 32 registers, 256 threads: 8 blocks; 4 blocks need
   * 233472 / 5 < A, i.e. A >= 46720 (a 128 multiple), so dynamic smem
   * > 46720 - 128 - 1024 = 45568. */
  orion_occ_input in = {32, 256, 0, 0};
  unsigned d = 0;
  CHECK(orion_occ_dyn_smem_for_warps(90, &in, 32, &d) == ORION_OK &&
            d == 45569, "sm_90 pad to 32 warps: %u", d);
  CHECK(orion_occ_dyn_smem_for_warps(90, &in, 64, &d) == ORION_OK && d == 0,
        "already there: %u", d);
  CHECK(orion_occ_dyn_smem_for_warps(90, &in, 7, &d) == ORION_ERR_INFEASIBLE,
        "below one block");
  in.regs_per_thread = 255;
  in.threads_per_block = 512; /* cannot run at all */
  CHECK(orion_occ_dyn_smem_for_warps(90, &in, 16, &d) == ORION_ERR_INFEASIBLE,
        "cannot run");
}

/* (d) Invalid input. */
static void test_invalid(void) {
  orion_occ_input ok = {32, 256, 0, 0}, bad;
  orion_occ_result r;
  memset(&r, 0x5a, sizeof r);
  orion_occ_result before = r;
  CHECK(orion_occupancy(70, &ok, &r) == ORION_ERR_UNSUPPORTED_ARCH, "sm_70");
  CHECK(orion_occupancy(0, &ok, &r) == ORION_ERR_UNSUPPORTED_ARCH, "sm 0");
  CHECK(orion_occupancy(90, NULL, &r) == ORION_ERR_INVALID_ARG, "NULL in");
  CHECK(orion_occupancy(90, &ok, NULL) == ORION_ERR_INVALID_ARG, "NULL out");
  bad = ok, bad.threads_per_block = 0;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_ERR_INVALID_ARG, "block 0");
  bad = ok, bad.threads_per_block = 1025;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_ERR_INVALID_ARG, "block 1025");
  bad = ok, bad.threads_per_block = -32;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_ERR_INVALID_ARG, "block < 0");
  bad = ok, bad.regs_per_thread = 256;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_ERR_INVALID_ARG, "regs 256");
  bad = ok, bad.regs_per_thread = -1;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_ERR_INVALID_ARG, "regs -1");
  CHECK(orion_occupancy_carveout(90, &ok, 101, &r) == ORION_ERR_INVALID_ARG,
        "carveout 101");
  CHECK(orion_occupancy_carveout(90, &ok, -2, &r) == ORION_ERR_INVALID_ARG,
        "carveout -2");
  CHECK(memcmp(&r, &before, sizeof r) == 0, "out written on error");
  bad = ok, bad.smem_dynamic = 0xffffffffu, bad.smem_static = 0xffffffffu;
  CHECK(orion_occupancy(90, &bad, &r) == ORION_OK && r.blocks_per_sm == 0 &&
            r.limiter == ORION_LIMIT_SHARED_MEMORY, "huge smem: no overflow");

  unsigned c = 7;
  CHECK(orion_occ_smem_carveout(90, 1024, 101, &c) == ORION_ERR_INVALID_ARG,
        "carveout pct");
  CHECK(orion_occ_smem_carveout(90, 1024, 0, NULL) == ORION_ERR_INVALID_ARG,
        "carveout NULL");
  CHECK(orion_occ_smem_carveout(91, 1024, 0, &c) ==
            ORION_ERR_UNSUPPORTED_ARCH, "carveout arch");
  CHECK(orion_occ_smem_carveout(90, 233473, 0, &c) == ORION_ERR_INFEASIBLE &&
            c == 7, "carveout too big");

  int regs = 7;
  CHECK(orion_occ_max_regs_for_warps(91, 256, 0, 8, &regs) ==
            ORION_ERR_UNSUPPORTED_ARCH, "max_regs arch");
  CHECK(orion_occ_max_regs_for_warps(90, 0, 0, 8, &regs) ==
            ORION_ERR_INVALID_ARG, "max_regs block 0");
  CHECK(orion_occ_max_regs_for_warps(90, 1025, 0, 8, &regs) ==
            ORION_ERR_INVALID_ARG, "max_regs block 1025");
  CHECK(orion_occ_max_regs_for_warps(90, 256, 0, 0, &regs) ==
            ORION_ERR_INVALID_ARG, "max_regs target 0");
  CHECK(orion_occ_max_regs_for_warps(90, 256, 0, 8, NULL) ==
            ORION_ERR_INVALID_ARG, "max_regs NULL");
  CHECK(orion_occ_max_regs_for_warps(90, 256, 0, 65, &regs) ==
            ORION_ERR_INFEASIBLE && regs == 7, "max_regs target 65");

  unsigned d = 9;
  CHECK(orion_occ_dyn_smem_for_warps(91, &ok, 8, &d) ==
            ORION_ERR_UNSUPPORTED_ARCH, "dyn arch");
  CHECK(orion_occ_dyn_smem_for_warps(90, NULL, 8, &d) == ORION_ERR_INVALID_ARG,
        "dyn NULL in");
  CHECK(orion_occ_dyn_smem_for_warps(90, &ok, 8, NULL) ==
            ORION_ERR_INVALID_ARG, "dyn NULL out");
  CHECK(orion_occ_dyn_smem_for_warps(90, &ok, -1, &d) ==
            ORION_ERR_INVALID_ARG, "dyn target -1");
  bad = ok, bad.threads_per_block = 2048;
  CHECK(orion_occ_dyn_smem_for_warps(90, &bad, 8, &d) ==
            ORION_ERR_INVALID_ARG, "dyn block 2048");
  bad = ok, bad.regs_per_thread = 300;
  CHECK(orion_occ_dyn_smem_for_warps(90, &bad, 8, &d) ==
            ORION_ERR_INVALID_ARG && d == 9, "dyn regs 300");

  orion_occ_level lv[4];
  int n = 5;
  CHECK(orion_occ_reg_levels(91, 256, 0, 16, lv, 4, &n) ==
            ORION_ERR_UNSUPPORTED_ARCH, "levels arch");
  CHECK(orion_occ_reg_levels(90, 0, 0, 16, lv, 4, &n) ==
            ORION_ERR_INVALID_ARG, "levels block 0");
  CHECK(orion_occ_reg_levels(90, 256, 0, 256, lv, 4, &n) ==
            ORION_ERR_INVALID_ARG, "levels min 256");
  CHECK(orion_occ_reg_levels(90, 256, 0, -1, lv, 4, &n) ==
            ORION_ERR_INVALID_ARG, "levels min -1");
  CHECK(orion_occ_reg_levels(90, 256, 0, 16, NULL, 4, &n) ==
            ORION_ERR_INVALID_ARG, "levels NULL");
  CHECK(orion_occ_reg_levels(90, 256, 0, 16, lv, -1, &n) ==
            ORION_ERR_INVALID_ARG, "levels capacity -1");
  CHECK(orion_occ_reg_levels(90, 256, 0, 16, lv, 4, NULL) ==
            ORION_ERR_INVALID_ARG && n == 5, "levels NULL count");
  CHECK(orion_occ_reg_levels(90, 256, 0, 16, NULL, 0, &n) == ORION_OK &&
            n == 0, "levels capacity 0");

  int sm = 3;
  CHECK(orion_arch_from_name(NULL, &sm) == ORION_ERR_INVALID_ARG && sm == 3,
        "name NULL");
  CHECK(orion_arch_from_name("sm_90", NULL) == ORION_ERR_INVALID_ARG,
        "name out NULL");
  CHECK(strcmp(orion_occ_limiter_name(ORION_LIMIT_SHARED_MEMORY),
               "shared memory") == 0 &&
            strcmp(orion_occ_limiter_name(ORION_LIMIT_WARPS), "warps") == 0 &&
            strcmp(orion_occ_limiter_name((orion_occ_limiter)42), "unknown") ==
                0,
        "limiter names");
}

int main(int argc, char **argv) {
  test_table();
  test_hand_cases();
  test_max_regs();
  test_reg_levels();
  test_dyn_smem();
  test_invalid();
  int skipped = argc > 1 ? test_measured(argv[1]) : 0;
  int rc = CHECK_DONE();
  if (rc == 0 && skipped) return 77;
  return rc;
}
