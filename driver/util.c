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
  strbuf b;
  sb_init(&b);
  sb_addf(&b, "%s: %s: ", drv_prog, kind);
  sb_vaddf(&b, fmt, ap);
  sb_addc(&b, '\n');
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  sb_free(&b);
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

char *drv_xasprintf(const char *fmt, ...) {
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vaddf(&b, fmt, ap);
  va_end(ap);
  return sb_detach(&b);
}

/* ---- strbuf ---- */

void sb_init(strbuf *b) {
  b->cap = 64;
  b->len = 0;
  b->p = drv_xmalloc(b->cap);
  b->p[0] = 0;
}

void sb_free(strbuf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

void sb_reserve(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->p = drv_xrealloc(b->p, cap);
  b->cap = cap;
}

void sb_add(strbuf *b, const char *s, size_t n) {
  sb_reserve(b, n);
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void sb_adds(strbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

void sb_addc(strbuf *b, char c) { sb_add(b, &c, 1); }

void sb_vaddf(strbuf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, aq);
  va_end(aq);
  if (n < 0)
    return;
  if ((size_t)n >= b->cap - b->len) {
    sb_reserve(b, (size_t)n);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
  }
  b->len += (size_t)n;
}

void sb_addf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vaddf(b, fmt, ap);
  va_end(ap);
}

char *sb_detach(strbuf *b) {
  char *p = b->p;
  b->p = NULL;
  b->len = b->cap = 0;
  return p;
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
  strbuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vaddf(&b, fmt, ap);
  va_end(ap);
  sv_push_owned(s, sb_detach(&b));
}

void sv_extend(strvec *s, const strvec *from) {
  for (size_t i = 0; i < from->n; i++)
    sv_push(s, from->v[i]);
}

/* ---- files ---- */

int drv_read_file(const char *path, strbuf *out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    errno = EISDIR;
    return -1;
  }
  strbuf b;
  sb_init(&b);
  for (;;) {
    sb_reserve(&b, 65536);
    ssize_t r = read(fd, b.p + b.len, b.cap - b.len - 1);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      close(fd);
      sb_free(&b);
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

static unsigned temp_counter;

char *drv_sibling_temp(const char *path, const char *suffix) {
  char *dir = drv_dirname(path);
  char *p = drv_xasprintf("%s/.%s.orion-tmp.%ld.%u%s", dir, drv_basename(path),
                          (long)getpid(), temp_counter++, suffix ? suffix : "");
  free(dir);
  return p;
}

int drv_write_file_atomic(const char *path, const char *data, size_t n) {
  char *tmp = drv_sibling_temp(path, "");
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    errno = e;
    return -1;
  }
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(fd, data + off, n - off);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      goto fail;
    }
    off += (size_t)w;
  }
  if (close(fd) != 0) {
    fd = -1;
    goto fail;
  }
  fd = -1;
  if (rename(tmp, path) != 0)
    goto fail;
  free(tmp);
  return 0;
fail : {
  int e = errno;
  if (fd >= 0)
    close(fd);
  unlink(tmp);
  free(tmp);
  errno = e;
  return -1;
}
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

void drv_quote(strbuf *b, const char *arg) {
  sb_addc(b, '"');
  for (const char *p = arg; *p; p++) {
    if (*p == '"' || *p == '\\' || *p == '$' || *p == '`')
      sb_addc(b, '\\');
    sb_addc(b, *p);
  }
  sb_addc(b, '"');
}
