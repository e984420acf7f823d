/* orion/status.h - status codes shared by every Orion C library.
 *
 * Every fallible function in include/orion/ returns an orion_status.
 * ORION_OK is zero; every other value is an error and the function's
 * out-parameters are then left untouched unless its header says otherwise.
 * orion_strerror() returns a static string and never NULL.
 */
#ifndef ORION_STATUS_H
#define ORION_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, message) */
#define ORION_STATUS_LIST(X)                                              \
  X(ORION_OK, "success")                                                  \
  X(ORION_ERR_INVALID_ARG, "invalid argument")                            \
  X(ORION_ERR_NOMEM, "out of memory")                                     \
  X(ORION_ERR_UNSUPPORTED_ARCH, "unsupported GPU architecture")           \
  X(ORION_ERR_INFEASIBLE, "no solution satisfies the constraints")        \
  X(ORION_ERR_IO, "input/output error")                                   \
  X(ORION_ERR_PARSE, "malformed input")                                   \
  X(ORION_ERR_RANGE, "value out of range")                                \
  X(ORION_ERR_INTERNAL, "internal error")

typedef enum orion_status {
#define ORION_X_ENUM(name, msg) name,
  ORION_STATUS_LIST(ORION_X_ENUM)
#undef ORION_X_ENUM
  ORION_STATUS_COUNT
} orion_status;

/* Human-readable message for a status; static storage, never NULL. */
const char *orion_strerror(orion_status status);

#ifdef __cplusplus
}
#endif
#endif /* ORION_STATUS_H */
