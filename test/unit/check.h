/* check.h - minimal assertion helpers for Orion's C unit tests.
 *
 * CHECK(cond, fmt, ...) records a failure with file:line and a message but
 * keeps going; CHECK_DONE() prints "N passed, N failed" and returns the exit
 * status (0 iff nothing failed).  Use in main() as `return CHECK_DONE();`.
 */
#ifndef ORION_TEST_CHECK_H
#define ORION_TEST_CHECK_H
#include <stdio.h>

static int check_passed_, check_failed_;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    if (cond) {                                                  \
      check_passed_++;                                           \
    } else {                                                     \
      check_failed_++;                                           \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,     \
              __LINE__, #cond);                                  \
      fprintf(stderr, __VA_ARGS__);                              \
      fputc('\n', stderr);                                       \
    }                                                            \
  } while (0)

#define CHECK_DONE()                                                    \
  (printf("%d passed, %d failed\n", check_passed_, check_failed_),     \
   check_failed_ ? 1 : 0)

#endif
