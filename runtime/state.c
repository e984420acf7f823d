/* state.c - liborionrt's one global, its warnings, and the CUDA error and
 * stream-capture state the runtime's own calls must leave as they found
 * them (state.h). */
#include "state.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

rt_globals orion_rt = {.once = PTHREAD_ONCE_INIT, .mu = PTHREAD_MUTEX_INITIALIZER};
const char *const orion_rt_mode_names[] = {"off", "static", "adaptive", "exhaustive", "fixed"};

/* ---- warnings: one line each, once per process ------------------------- */
static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER; /* a leaf lock */

void orion_rt_warn(unsigned bit, const char *fmt, ...) {
  pthread_mutex_lock(&warn_mu);
  int seen = bit && (orion_rt.warned & bit);
  orion_rt.warned |= bit;
  pthread_mutex_unlock(&warn_mu);
  if (seen)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "orion: warning: %s\n", line);
}

/* ---- stream capture: while a capture in global mode runs in any thread,
 * or one in thread-local mode in this thread, CUDA refuses "potentially
 * unsafe" calls such as waiting on an event and invalidates the capture
 * (cudaErrorStreamCaptureInvalidated at the program's next captured call).
 * The runtime's own such calls (discovery, reading a timing event) are no
 * part of any graph: they run with this thread's mode set to relaxed. -- */
CUstreamCaptureMode orion_rt_relax_capture(void) {
  CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
  orion_rt.api.cuThreadExchangeStreamCaptureMode(&m);
  return m;
}
void orion_rt_restore_capture(CUstreamCaptureMode m) {
  orion_rt.api.cuThreadExchangeStreamCaptureMode(&m);
}

/* Microseconds on the monotonic clock, for ORION_DEBUG's cost lines. */
double orion_rt_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}
