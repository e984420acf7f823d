/* driver/util.h - small helpers shared by orion-cc, orion-ptxas, orion-config.
 *
 * Contracts:
 *  - Diagnostics go to stderr as "<prog>: error: <msg>" (drv_error) or
 *    "<prog>: warning: <msg>" / "<prog>: note: <msg>".  drv_prog is set once
 *    by main().  Nothing here exits except drv_xmalloc & co on out of memory
 *    (message, exit 1).
 *  - strbuf: growable NUL-terminated byte buffer (may hold NULs; len counts
 *    bytes).  strvec: growable NULL-terminated vector of owned strings, ready
 *    for execv/posix_spawn.
 *  - drv_write_file_atomic writes to "<path>.tmp.<pid>.<n>" in the same
 *    directory and renames it over path, so a reader never sees a partial
 *    file and a failed write leaves nothing behind.
 *  - drv_quote appends an argument quoted for a POSIX shell the way clang's
 *    -### does: in double quotes, with \ " $ ` escaped.
 */
#ifndef ORION_DRIVER_UTIL_H
#define ORION_DRIVER_UTIL_H

#include <stdarg.h>
#include <stddef.h>

extern const char *drv_prog;

void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *drv_xmalloc(size_t n);
void *drv_xrealloc(void *p, size_t n);
char *drv_xstrdup(const char *s);
char *drv_xstrndup(const char *s, size_t n);
char *drv_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct strbuf {
  char *p;
  size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_reserve(strbuf *b, size_t extra);
void sb_add(strbuf *b, const char *s, size_t n);
void sb_adds(strbuf *b, const char *s);
void sb_addc(strbuf *b, char c);
void sb_addf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(strbuf *b, const char *fmt, va_list ap);
char *sb_detach(strbuf *b); /* caller frees; b is reset */

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
int drv_read_file(const char *path, strbuf *out);
/* Write data atomically (temp file + rename).  Returns 0, or -1 with errno. */
int drv_write_file_atomic(const char *path, const char *data, size_t n);
/* A fresh temp path "<dir-of-path>/.<base>.orion-tmp.<pid>.<n><suffix>",
 * not created.  Renaming it over path is atomic (same directory). */
char *drv_sibling_temp(const char *path, const char *suffix);
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
void drv_quote(strbuf *b, const char *arg);

#endif /* ORION_DRIVER_UTIL_H */
