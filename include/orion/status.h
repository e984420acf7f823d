/* orion/status.h - the one status vocabulary of every Orion C library
 * (support/status.c); the cubin reader's codes are among them.
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
  X(ORION_ERR_INTERNAL, "internal error")                                 \
  X(ORION_ERR_NOT_FOUND, "no such item")                                  \
  X(ORION_ERR_NOT_ELF, "not an ELF file")                                 \
  X(ORION_ERR_FATBIN, "a CUDA fatbinary, not a cubin")                    \
  X(ORION_ERR_NOT_CUDA, "an ELF file for another machine, not a cubin")   \
  X(ORION_ERR_UNSUPPORTED, "unsupported ELF class, byte order or ABI")    \
  X(ORION_ERR_TRUNCATED, "truncated file")                                \
  X(ORION_ERR_BAD_HEADER, "malformed ELF header")                         \
  X(ORION_ERR_BAD_SECTION, "malformed section")                           \
  X(ORION_ERR_BAD_SYMBOL, "malformed symbol table")                       \
  X(ORION_ERR_BAD_RELOC, "malformed relocation")                          \
  X(ORION_ERR_BAD_NVINFO, "malformed .nv.info record")

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
