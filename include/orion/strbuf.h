/* orion/strbuf.h - the growable string buffer and JSON string escaping that
 * every Orion component shares (support/strbuf.c).
 *
 * Contracts:
 *  - An orion_strbuf holds len bytes (NULs allowed) followed by a NUL; p is
 *    NULL only after orion_sb_free/orion_sb_detach or when init ran out of
 *    memory.  Appending to a freed or detached buffer starts it afresh.
 *  - Out of memory: the handler given to orion_sb_set_oom_handler runs (the
 *    tools print an error and exit); with none (the runtime, the pass) the
 *    buffer sets oom, keeps what it had and ignores further appends, so a
 *    caller checks oom once at the end.
 *  - orion_sb_json appends s as a JSON string: quoted, with " \ escaped,
 *    \n \t \r as such and the other control bytes as \u00XX; other bytes
 *    (UTF-8 included) verbatim; NULL is written as "".
 */
#ifndef ORION_STRBUF_H
#define ORION_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orion_strbuf {
  char *p;
  size_t len, cap;
  int oom; /* an allocation failed: contents are a prefix of what was appended */
} orion_strbuf;

void orion_sb_init(orion_strbuf *b);
void orion_sb_free(orion_strbuf *b);
/* requires: nothing; ensures room for extra more bytes unless out of memory. */
void orion_sb_reserve(orion_strbuf *b, size_t extra);
void orion_sb_add(orion_strbuf *b, const char *s, size_t n);
void orion_sb_adds(orion_strbuf *b, const char *s);
void orion_sb_addc(orion_strbuf *b, char c);
void orion_sb_addf(orion_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void orion_sb_vaddf(orion_strbuf *b, const char *fmt, va_list ap);
char *orion_sb_detach(orion_strbuf *b); /* caller frees; b is reset */
void orion_sb_json(orion_strbuf *b, const char *s);

/* Called on out of memory by every buffer of the process; NULL (the
 * default) selects the sticky oom flag. */
void orion_sb_set_oom_handler(void (*handler)(void));

#ifdef __cplusplus
}
#endif
#endif /* ORION_STRBUF_H */
