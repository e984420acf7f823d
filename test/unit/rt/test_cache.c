/* test_cache.c - the runtime's decision cache file (runtime/cache.c):
 * round trip, replacement by key, malformed lines skipped and counted,
 * merge with what another process saved, atomic replacement, and errors
 * for unwritable places. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "check.h"

static orion_cache_entry entry(const char *kernel, unsigned bx, const char *tag) {
  orion_cache_entry e;
  memset(&e, 0, sizeof e);
  e.module = 0x0123456789abcdefULL;
  strcpy(e.gpu, "NVIDIA_H200");
  e.driver = 13000;
  strcpy(e.kernel, kernel);
  e.bx = bx, e.by = 1, e.bz = 1;
  e.shmem = 0;
  strcpy(e.tag, tag);
  e.speedup = 1.25;
  e.iterations = 4;
  return e;
}

/* Lines of both formats: malformed ones counted, the first reported,
 * skipped. */
static void test_parse(void) {
  static const char text[] = "# orion decision cache 1\n"
                             "0123456789abcdef NVIDIA_H200 13000 _Z1kPf 256x1x1 0 r80 1.1 3\n"
                             "garbage\n"
                             "0123456789abcdef NVIDIA_H200 13000 _Z1kPf 0x1x1 0 r80 1.1 3\n"
                             "0123456789abcdef NVIDIA_H200 13000 _Z1kPf 64x1x1 0 r80 -1 3\n"
                             "0123456789abcdef NVIDIA_H200 13000 _Z1kPf 64x1x1 0 r80 1.0 3 extra\n"
                             "0123456789abcdef NVIDIA_H200 13000 _Z1kPf 2048x1x1 0 r80 1.0 3\n";
  orion_cache p = {0};
  int first = -1, nbad = orion_cache_parse(&p, text, sizeof text - 1, &first);
  CHECK(nbad == 5 && first == 3 && p.n == 1, "malformed: %d bad, first %d, %zu kept", nbad, first,
        p.n);
  CHECK(p.e[0].state == ORION_CACHE_CONFIRMED && p.e[0].credit_ms == 0, "format 1: confirmed");
  /* Format 2: the six fields after the ninth, all or none. */
  static const char text2[] =
      "0 G 1 k 1x1x1 0 r80 1.1 3 open 0 0 0 5.5 0.25 w1,2,1,0,1,0,0/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0\n"
      "0 G 1 k 2x1x1 0 r80 1.1 3 tentative 1 -0.1 0.01 1 0 -\n"
      "0 G 1 k 3x1x1 0 r80 1.1 3 maybe 1 -0.1 0.01 1 0 -\n"        /* unknown state */
      "0 G 1 k 4x1x1 0 r80 1.1 3 tentative -1 -0.1 0.01 1 0 -\n"   /* negative count */
      "0 G 1 k 5x1x1 0 r80 1.1 3 tentative 1 -0.1 -0.01 1 0 -\n"   /* negative sum of squares */
      "0 G 1 k 6x1x1 0 r80 1.1 3 tentative 1 -0.1 0.01 -1 0 -\n"   /* negative credit */
      "0 G 1 k 7x1x1 0 r80 1.1 3 tentative 1 -0.1 0.01 1 0\n"      /* a field short */
      "0 G 1 k 8x1x1 0 r80 1.1 3 tentative 1 -0.1 0.01 1 0 - x\n"; /* one too many */
  orion_cache p2 = {0};
  nbad = orion_cache_parse(&p2, text2, sizeof text2 - 1, &first);
  CHECK(nbad == 6 && first == 3 && p2.n == 2 && p2.e[0].state == ORION_CACHE_OPEN &&
            p2.e[0].credit_ms == 5.5 && !strncmp(p2.e[0].walk, "w1,2,1,", 7) &&
            p2.e[1].state == ORION_CACHE_TENTATIVE && !strcmp(p2.e[1].walk, "-") &&
            p2.e[1].checks == 1,
        "format 2: %d bad, first %d, %zu kept", nbad, first, p2.n);
  orion_cache_free(&p2);
  /* Format 3: a window of up to six log-ratios after the walk, no more
   * than the pairs counted. */
  static const char text3[] = "0 G 1 k 1x1x1 0 u8 1.1 3 confirmed 9 -0.2 0.1 1 0 - "
                              "0.137,-0.069,-0.0125,-0.0254,-0.0267,0.318\n"
                              "0 G 1 k 2x1x1 0 u8 1.1 3 tentative 2 -0.1 0.01 1 0 - -0.05,-0.05\n"
                              "0 G 1 k 3x1x1 0 u8 1.1 3 tentative 1 -0.1 0.01 1 0 - -0.05,-0.05\n"
                              "0 G 1 k 4x1x1 0 u8 1.1 3 confirmed 9 -0.2 0.1 1 0 - 1,2,3,4,5,6,7\n"
                              "0 G 1 k 5x1x1 0 u8 1.1 3 confirmed 9 -0.2 0.1 1 0 - -0.05,,1\n"
                              "0 G 1 k 6x1x1 0 u8 1.1 3 confirmed 9 -0.2 0.1 1 0 - -0.05, 1\n"
                              "0 G 1 k 7x1x1 0 u8 1.1 3 confirmed 9 -0.2 0.1 1 0 - 1e300\n";
  orion_cache p3 = {0};
  nbad = orion_cache_parse(&p3, text3, sizeof text3 - 1, &first);
  CHECK(nbad == 5 && first == 3 && p3.n == 2 && p3.e[0].nwin == 6 && p3.e[0].win[0] == 0.137 &&
            p3.e[0].win[5] == 0.318 && p3.e[1].nwin == 2 && p3.e[1].win[1] == -0.05,
        "format 3: %d bad, first %d, %zu kept", nbad, first, p3.n);
  orion_cache_free(&p3);
  /* A NUL inside a line and a line without newline at the end. */
  static const char nul[] = "0123456789abcdef G 1 k 1x1x1 0 t 1 1\n0123\0x\n"
                            "0123456789abcdef G 1 k2 1x1x1 0 t 1 1";
  orion_cache q = {0};
  CHECK(orion_cache_parse(&q, nul, sizeof nul - 1, &first) == 1 && q.n == 2, "NUL and last line");

  orion_cache_free(&p), orion_cache_free(&q);
}

int main(void) {
  char dir[] = "/tmp/orion-cache-test-XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  char path[256];
  snprintf(path, sizeof path, "%s/sub/dir/decisions", dir);

  orion_cache c = {0};
  orion_cache_entry a = entry("_Z1kPf", 256, "r80"), b = entry("_Z1kPf", 128, "p32");
  b.state = ORION_CACHE_TENTATIVE, b.checks = 2, b.rc_sum = -0.25, b.rc_sumsq = 0.0325;
  b.credit_ms = 12.5, b.loss_ms = -3.25;
  b.nwin = 2, b.win[0] = -0.1, b.win[1] = -0.15;
  strcpy(b.walk, "w1,2,1,0,1,0,0/0,0,0,0,0,0,0,0/1,0,2,1,-0.2,0.02,-0.1,-0.09");
  CHECK(orion_cache_put(&c, &a) == 0 && orion_cache_put(&c, &b) == 0 && c.n == 2, "put");
  orion_cache_entry a2 = a;
  strcpy(a2.tag, "r64");
  CHECK(orion_cache_put(&c, &a2) == 0 && c.n == 2, "same key replaces");
  CHECK(!strcmp(orion_cache_find(&c, &a)->tag, "r64"), "find");
  orion_cache_entry other_gpu = a;
  strcpy(other_gpu.gpu, "NVIDIA_A100");
  CHECK(orion_cache_find(&c, &other_gpu) == NULL, "GPU is part of the key");

  char err[512];
  CHECK(orion_cache_save(&c, path, err, sizeof err) == 0, "save (creates the directory): %s", err);
  orion_cache r = {0};
  int bad = -1, first = -1;
  CHECK(orion_cache_load(&r, path, &bad, &first, err, sizeof err) == 0 && r.n == 2 && bad == 0,
        "load back");
  const orion_cache_entry *got = orion_cache_find(&r, &b);
  CHECK(got && !strcmp(got->tag, "p32") && got->speedup > 1.2499 && got->iterations == 4,
        "fields survive");
  CHECK(got && got->state == ORION_CACHE_TENTATIVE && got->checks == 2 && got->rc_sum == -0.25 &&
            got->rc_sumsq == 0.0325 && got->credit_ms == 12.5 && got->loss_ms == -3.25 &&
            !strcmp(got->walk, b.walk) && got->nwin == 2 && got->win[0] == -0.1 &&
            got->win[1] == -0.15,
        "the evidence survives: state %d checks %d sums %g %g credit %g loss %g", got->state,
        got->checks, got->rc_sum, got->rc_sumsq, got->credit_ms, got->loss_ms);
  got = orion_cache_find(&r, &a);
  CHECK(got && got->state == ORION_CACHE_CONFIRMED && got->checks == 0 && got->nwin == 0,
        "a decision");

  /* Another process saves its own decision: both are kept. */
  orion_cache other = {0};
  orion_cache_entry d = entry("_Z5otherv", 64, "orig");
  orion_cache_put(&other, &d);
  CHECK(orion_cache_save(&other, path, err, sizeof err) == 0, "second save");
  orion_cache_free(&r);
  orion_cache_load(&r, path, &bad, &first, err, sizeof err);
  CHECK(r.n == 3, "merged: %zu entries", r.n);

  test_parse();

  /* A corrupt file on disk is read with its bad lines skipped, and saving
   * rewrites it clean. */
  FILE *f = fopen(path, "a");
  fputs("\x01\x02 corrupt\n", f);
  fclose(f);
  orion_cache_free(&r);
  CHECK(orion_cache_load(&r, path, &bad, &first, err, sizeof err) == 0 && bad == 1 && r.n == 3,
        "corrupt file: %d bad", bad);
  CHECK(orion_cache_save(&c, path, err, sizeof err) == 0, "rewrite");
  orion_cache_free(&r);
  orion_cache_load(&r, path, &bad, &first, err, sizeof err);
  CHECK(bad == 0 && r.n == 3, "clean after save");

  /* Unwritable: an error naming the path, and no file appears. */
  char ro[300];
  snprintf(ro, sizeof ro, "%s/ro", dir);
  mkdir(ro, 0555);
  char rop[400];
  snprintf(rop, sizeof rop, "%s/decisions", ro);
  if (geteuid() != 0) { /* root writes anywhere */
    CHECK(orion_cache_save(&c, rop, err, sizeof err) == -1 && strstr(err, ro), "read-only: %s",
          err);
    CHECK(access(rop, F_OK) != 0, "no file left behind");
  }
  CHECK(orion_cache_save(&c, "/proc/orion-no/x", err, sizeof err) == -1 && strstr(err, "/proc"),
        "impossible path: %s", err);
  /* A directory where the file should be: load fails with a message. */
  orion_cache z = {0};
  CHECK(orion_cache_load(&z, dir, &bad, &first, err, sizeof err) == -1 && strstr(err, dir),
        "directory: %s", err);
  /* A missing file is an empty cache. */
  char missing[300];
  snprintf(missing, sizeof missing, "%s/none", dir);
  CHECK(orion_cache_load(&z, missing, &bad, &first, err, sizeof err) == 0 && z.n == 0, "missing");
  /* A path under a regular file can never hold a cache: the load names the
   * problem (the runtime then saves nothing), and so does a save. */
  char underfile[700];
  snprintf(underfile, sizeof underfile, "%s/sub/decisions", path); /* path: a file */
  CHECK(orion_cache_load(&z, underfile, &bad, &first, err, sizeof err) == -1 && z.n == 0 &&
            strstr(err, "Not a directory"),
        "under a file: load: %s", err);
  CHECK(orion_cache_save(&c, underfile, err, sizeof err) == -1 && strstr(err, "Not a directory"),
        "under a file: save: %s", err);
  /* A path whose directories do not exist yet: writable where the nearest
   * existing one is (the save creates the rest). */
  char deep[700];
  snprintf(deep, sizeof deep, "%s/a/b/decisions", dir);
  CHECK(orion_cache_writable(deep) == 0, "deep path under a writable directory");

  orion_cache_free(&c), orion_cache_free(&r), orion_cache_free(&other), orion_cache_free(&z);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "chmod -R u+w %s && rm -rf %s", dir, dir);
  CHECK(system(cmd) == 0, "cleanup");
  return CHECK_DONE();
}
