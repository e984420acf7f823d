/* test_jobs.c - orion-ptxas's default number of ptxas --split-compile
 * threads (optx_auto_jobs): bounded by cores and by the memory each thread
 * beyond the first costs (about 400 bytes per byte of PTX, a quarter of
 * the available memory and at most 1 GiB for them all). */
#include "check.h"
#include "ptxas_run.h"

#define MiB (1024.0 * 1024)
#define GiB (1024.0 * MiB)

int main(void) {
  /* small modules: one thread per core */
  CHECK(optx_auto_jobs(30000, 16, 64 * GiB) == 16, "small module, 16 cores");
  CHECK(optx_auto_jobs(30000, 2, 24 * GiB) == 2, "small module, 2 cores");
  CHECK(optx_auto_jobs(0, 4, -1) == 4, "empty module, memory unknown");
  /* one core, or nonsense core counts: one thread */
  CHECK(optx_auto_jobs(30000, 1, 64 * GiB) == 1, "one core");
  CHECK(optx_auto_jobs(30000, 0, 64 * GiB) == 1, "no core count");
  CHECK(optx_auto_jobs(30000, -1, 64 * GiB) == 1, "negative core count");
  /* 3 MB of PTX: an extra thread needs ~1.2 GB, over the 1 GiB cap */
  CHECK(optx_auto_jobs(3 * 1000 * 1000, 16, 64 * GiB) == 1, "3 MB module");
  /* 300 KB: ~120 MB a thread, 8 fit 1 GiB: 1 + 8 = 9 of 16 cores */
  CHECK(optx_auto_jobs(300 * 1000, 16, 64 * GiB) == 9, "300 KB module: %d",
        optx_auto_jobs(300 * 1000, 16, 64 * GiB));
  /* little memory: a quarter of it bounds the extra threads */
  CHECK(optx_auto_jobs(300 * 1000, 16, 1 * GiB) == 3, "300 KB module, 1 GiB free: %d",
        optx_auto_jobs(300 * 1000, 16, 1 * GiB));
  CHECK(optx_auto_jobs(300 * 1000, 16, 0) == 1, "no memory free");
  return CHECK_DONE();
}
