/* driver/util.h - small helpers shared by orion-cc, orion-ptxas, orion-config.
 *
 * Contracts:
 *  - Diagnostics go to stderr as "<prog>: error: <msg>" (drv_error) or
 *    "<prog>: warning: <msg>" / "<prog>: note: <msg>".  drv_prog is set once
 *    by main().  Nothing here exits except drv_xmalloc & co on out of memory
 *    (message, exit 1).
 *  - The string buffer is orion/strbuf.h's (out of memory: message, exit 1,
 *    as drv_xmalloc).  strvec: growable NULL-terminated vector of owned
 *    strings, ready for execv/posix_spawn.
 *  - Output files are written with orion/outfile.h (through links and
 *    devices, atomically, keeping the mode).
 *  - drv_quote appends an argument quoted for a POSIX shell the way clang's
 *    -### does: in double quotes, with \ " $ ` escaped.
 */
#ifndef ORION_DRIVER_UTIL_H
#define ORION_DRIVER_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "orion/outfile.h"
#include "orion/strbuf.h"

extern const char *drv_prog;

void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *drv_xmalloc(size_t n);
void *drv_xrealloc(void *p, size_t n);
char *drv_xstrdup(const char *s);
char *drv_xstrndup(const char *s, size_t n);
char *drv_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));


typedef struct strvec {
  char **v;
  size_t n, cap;
} strvec;

void sv_init(strvec *s);
void sv_free(strvec *s);
void sv_push(strvec *s, const char *str);   /* copies str */
void sv_pushf(strvec *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sv_push_owned(strvec *s, char *str);   /* takes ownership */
void sv_extend(strvec *s, const strvec *from);

/* Read a whole file.  On failure returns -1 with errno set; *out untouched. */
int drv_read_file(const char *path, orion_strbuf *out);
/* Make a private temp directory under $TMPDIR (or /tmp).  NULL on failure. */
char *drv_make_temp_dir(const char *tag);
/* Remove a directory made by drv_make_temp_dir and the files in it. */
void drv_remove_temp_dir(const char *dir);

int drv_file_exists(const char *path);
int drv_is_executable(const char *path);
/* Directory holding the running executable (readlink /proc/self/exe),
 * falling back to argv0 resolved via realpath.  Never NULL (".") */
char *drv_self_dir(const char *argv0);
char *drv_dirname(const char *path);
const char *drv_basename(const char *path);
char *drv_path_join(const char *a, const char *b);
/* Lexically normalise "<dir>/../x" forms for display: realpath if it exists. */
char *drv_canonical(const char *path);
int drv_has_suffix(const char *s, const char *suffix);
int drv_has_prefix(const char *s, const char *prefix);

/* Append arg quoted for a POSIX shell (clang -### style). */
void drv_quote(orion_strbuf *b, const char *arg);

#endif /* ORION_DRIVER_UTIL_H */
