/* test_jobs.c - orion-ptxas's default number of ptxas --split-compile
 * threads (optx_auto_jobs): bounded by cores and by the memory each thread
 * beyond the first costs (the larger of 64 bytes a byte of PTX and 640 KB
 * an entry; a quarter of the available memory and at most 1 GiB for them
 * all). */
#include "check.h"
#include "ptxas_run.h"

#define MiB (1024.0 * 1024)
#define GiB (1024.0 * MiB)

int main(void) {
  /* small modules: one thread per core */
  CHECK(optx_auto_jobs(30000, 10, 16, 64 * GiB) == 16, "small module, 16 cores");
  CHECK(optx_auto_jobs(30000, 10, 2, 24 * GiB) == 2, "small module, 2 cores");
  CHECK(optx_auto_jobs(0, 0, 4, -1) == 4, "empty module, memory unknown");
  /* one core, or nonsense core counts: one thread */
  CHECK(optx_auto_jobs(30000, 10, 1, 64 * GiB) == 1, "one core");
  CHECK(optx_auto_jobs(30000, 10, 0, 64 * GiB) == 1, "no core count");
  CHECK(optx_auto_jobs(30000, 10, -1, 64 * GiB) == 1, "negative core count");
  /* 4,000 entries in 8.7 MB (2,000 kernels and their clones): 2.4 GB a
   * thread by entries, over the 1 GiB cap */
  CHECK(optx_auto_jobs(8650000, 4000, 16, 64 * GiB) == 1, "4,000 small entries");
  /* 183 entries in 7.2 MB (S3D.cu): 440 MB a thread by bytes, 2 fit */
  CHECK(optx_auto_jobs(7200000, 183, 16, 64 * GiB) == 3, "S3D.cu: %d",
        optx_auto_jobs(7200000, 183, 16, 64 * GiB));
  CHECK(optx_auto_jobs(7200000, 183, 2, 24 * GiB) == 2, "S3D.cu, 2 cores");
  /* 300 KB, 20 entries: 19 MB a thread by bytes, 12.5 MB by entries: 16 */
  CHECK(optx_auto_jobs(300 * 1000, 20, 16, 64 * GiB) == 16, "300 KB module: %d",
        optx_auto_jobs(300 * 1000, 20, 16, 64 * GiB));
  /* little memory: a quarter of it bounds the extra threads */
  CHECK(optx_auto_jobs(7200000, 183, 16, 4 * GiB) == 3, "S3D.cu, 4 GiB free: %d",
        optx_auto_jobs(7200000, 183, 16, 4 * GiB));
  CHECK(optx_auto_jobs(7200000, 183, 16, 1 * GiB) == 1, "S3D.cu, 1 GiB free");
  CHECK(optx_auto_jobs(300 * 1000, 20, 16, 0) == 1, "no memory free");
  return CHECK_DONE();
}
