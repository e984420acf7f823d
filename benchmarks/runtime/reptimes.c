/* reptimes.c - LD_PRELOAD shim for the benchmark programs: prints every
 * result of the program's cudaEventElapsedTime on stderr as
 * "REPTIME <ms>", so each repetition's time (the programs time every
 * repetition with events and print only the median and the sum) can be
 * read without changing them.  liborionrt times with the driver API
 * (cuEventElapsedTime), so only the program's own calls show.
 *
 *   cc -shared -fPIC -O2 reptimes.c -o reptimes.so -ldl
 *   LD_PRELOAD=./reptimes.so ./euler_flux
 *
 * Needs a program linked against the shared CUDA runtime (orion-cc's
 * default; nvcc links it statically unless -cudart shared). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

typedef int (*elapsed_fn)(float *, void *, void *);

int cudaEventElapsedTime(float *ms, void *start, void *end) {
  static elapsed_fn real;
  if (!real)
    real = (elapsed_fn)dlsym(RTLD_NEXT, "cudaEventElapsedTime");
  int rc = real ? real(ms, start, end) : 1; /* 1: cudaErrorInvalidValue */
  if (rc == 0 && ms)
    fprintf(stderr, "REPTIME %.4f\n", *ms);
  return rc;
}
