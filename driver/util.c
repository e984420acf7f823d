/* driver/util.c - see util.h. */
#define _GNU_SOURCE 1
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *drv_prog = "orion";

static void vdiag(const char *kind, const char *fmt, va_list ap) {
  orion_strbuf b;
  orion_sb_init(&b);
  orion_sb_addf(&b, "%s: %s: ", drv_prog, kind);
  orion_sb_vaddf(&b, fmt, ap);
  orion_sb_addc(&b, '\n');
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  orion_sb_free(&b);
}

void drv_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag("error", fmt, ap);
  va_end(ap);
}

void drv_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag("warning", fmt, ap);
  va_end(ap);
}

void drv_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag("note", fmt, ap);
  va_end(ap);
}

static void oom(void) {
  fprintf(stderr, "%s: error: out of memory\n", drv_prog);
  exit(1);
}

/* Every tool's string buffers stop the tool on out of memory, as drv_xmalloc. */
__attribute__((constructor)) static void install_oom_handler(void) {
  orion_sb_set_oom_handler(oom);
}

void *drv_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    oom();
  return p;
}

void *drv_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    oom();
  return q;
}

char *drv_xstrdup(const char *s) { return drv_xstrndup(s, strlen(s)); }

char *drv_xstrndup(const char *s, size_t n) {
  char *p = drv_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static char *xvasprintf(const char *fmt, va_list ap) {
  orion_strbuf b;
  orion_sb_init(&b);
  orion_sb_vaddf(&b, fmt, ap);
  return orion_sb_detach(&b);
}

char *drv_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

/* ---- strvec ---- */

void sv_init(strvec *s) {
  s->n = 0;
  s->cap = 8;
  s->v = drv_xmalloc(s->cap * sizeof *s->v);
  s->v[0] = NULL;
}

void sv_free(strvec *s) {
  if (!s->v)
    return;
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

void sv_push_owned(strvec *s, char *str) {
  if (s->n + 2 > s->cap) {
    s->cap *= 2;
    s->v = drv_xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = str;
  s->v[s->n] = NULL;
}

void sv_push(strvec *s, const char *str) { sv_push_owned(s, drv_xstrdup(str)); }

void sv_pushf(strvec *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sv_push_owned(s, xvasprintf(fmt, ap));
  va_end(ap);
}

void sv_extend(strvec *s, const strvec *from) {
  for (size_t i = 0; i < from->n; i++)
    sv_push(s, from->v[i]);
}

/* ---- files ---- */

int drv_read_file(const char *path, orion_strbuf *out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    errno = EISDIR;
    return -1;
  }
  orion_strbuf b;
  orion_sb_init(&b);
  for (;;) {
    orion_sb_reserve(&b, 65536);
    ssize_t r = read(fd, b.p + b.len, b.cap - b.len - 1);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      close(fd);
      orion_sb_free(&b);
      errno = e;
      return -1;
    }
    if (r == 0)
      break;
    b.len += (size_t)r;
    b.p[b.len] = 0;
  }
  close(fd);
  *out = b;
  return 0;
}

char *drv_make_temp_dir(const char *tag) {
  const char *t = getenv("TMPDIR");
  if (!t || !*t)
    t = "/tmp";
  char *tmpl = drv_xasprintf("%s/%s-XXXXXX", t, tag);
  if (!mkdtemp(tmpl)) {
    free(tmpl);
    return NULL;
  }
  return tmpl;
}

void drv_remove_temp_dir(const char *dir) {
  if (!dir)
    return;
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char *p = drv_path_join(dir, e->d_name);
      unlink(p);
      free(p);
    }
    closedir(d);
  }
  rmdir(dir);
}

int drv_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

int drv_is_executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *drv_self_dir(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    return drv_dirname(buf);
  }
  if (argv0 && strchr(argv0, '/')) {
    char *r = realpath(argv0, NULL);
    if (r) {
      char *d = drv_dirname(r);
      free(r);
      return d;
    }
  }
  return drv_xstrdup(".");
}

char *drv_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return drv_xstrdup(".");
  if (slash == path)
    return drv_xstrdup("/");
  return drv_xstrndup(path, (size_t)(slash - path));
}

const char *drv_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

char *drv_path_join(const char *a, const char *b) {
  size_t la = strlen(a);
  if (la && a[la - 1] == '/')
    return drv_xasprintf("%s%s", a, b);
  return drv_xasprintf("%s/%s", a, b);
}

char *drv_canonical(const char *path) {
  char *r = realpath(path, NULL);
  if (r)
    return r;
  return drv_xstrdup(path);
}

int drv_has_suffix(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && memcmp(s + ls - lx, suffix, lx) == 0;
}

int drv_has_prefix(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

void drv_quote(orion_strbuf *b, const char *arg) {
  orion_sb_addc(b, '"');
  for (const char *p = arg; *p; p++) {
    if (*p == '"' || *p == '\\' || *p == '$' || *p == '`')
      orion_sb_addc(b, '\\');
    orion_sb_addc(b, *p);
  }
  orion_sb_addc(b, '"');
}
