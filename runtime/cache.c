/* cache.c - the decision cache file (cache.h).  Contract: plain POSIX I/O;
 * never leaves a partial file behind (orion/outfile.h); the caller
 * serialises calls on one orion_cache. */
#include "cache.h"

#include "orion/outfile.h"
#include "orion/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "# orion decision cache 3\n"
#define WIN_TEXT (ORION_CACHE_WINDOW * 16 + 2) /* a window field's room; read by %97s */
_Static_assert(WIN_TEXT == 98, "parse_tail reads a window field with %97s");

static const char *const state_names[] = {"confirmed", "tentative", "open"};

static int same_key(const orion_cache_entry *a, const orion_cache_entry *b) {
  return a->module == b->module && a->driver == b->driver && a->bx == b->bx && a->by == b->by &&
         a->bz == b->bz && a->shmem == b->shmem && strcmp(a->gpu, b->gpu) == 0 &&
         strcmp(a->kernel, b->kernel) == 0;
}

const orion_cache_entry *orion_cache_find(const orion_cache *c, const orion_cache_entry *key) {
  for (size_t i = 0; i < c->n; i++)
    if (same_key(&c->e[i], key))
      return &c->e[i];
  return NULL;
}

int orion_cache_put(orion_cache *c, const orion_cache_entry *e) {
  for (size_t i = 0; i < c->n; i++)
    if (same_key(&c->e[i], e)) {
      c->e[i] = *e;
      return 0;
    }
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    orion_cache_entry *ne = realloc(c->e, cap * sizeof *ne);
    if (!ne)
      return -1;
    c->e = ne;
    c->cap = cap;
  }
  c->e[c->n++] = *e;
  return 0;
}

void orion_cache_free(orion_cache *c) {
  free(c->e);
  memset(c, 0, sizeof *c);
}

/* A field is a run of printable non-space ASCII. */
static int valid_field(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s <= ' ' || *s > '~')
      return 0;
  return 1;
}

int orion_cache_format(const orion_cache_entry *e, char *buf, size_t n) {
  if (!valid_field(e->gpu) || !valid_field(e->kernel) || !valid_field(e->tag))
    return -1;
  const char *walk = e->walk[0] ? e->walk : "-";
  if (e->state < ORION_CACHE_CONFIRMED || e->state > ORION_CACHE_OPEN || !valid_field(walk))
    return -1;
  if (e->nwin < 0 || e->nwin > ORION_CACHE_WINDOW || e->nwin > e->checks)
    return -1;
  char win[WIN_TEXT] = "-";
  for (int i = 0, at = 0; i < e->nwin; i++)
    at += snprintf(win + at, sizeof win - (size_t)at, "%s%.6g", i ? "," : "", e->win[i]);
  int w = snprintf(buf, n,
                   "%016llx %s %d %s %ux%ux%u %llu %s %.4f %d %s %d %.6g %.6g %.6g %.6g %s %s\n",
                   e->module, e->gpu, e->driver, e->kernel, e->bx, e->by, e->bz, e->shmem, e->tag,
                   e->speedup, e->iterations, state_names[e->state], e->checks, e->rc_sum,
                   e->rc_sumsq, e->credit_ms, e->loss_ms, walk, win);
  return w < 0 || (size_t)w >= n ? -1 : w;
}

/* A window field: `-`, or up to ORION_CACHE_WINDOW comma-separated
 * log-ratios; 0, or -1 when malformed. */
static int parse_window(const char *s, orion_cache_entry *e) {
  e->nwin = 0;
  if (!strcmp(s, "-"))
    return 0;
  for (;;) {
    char *end;
    double x = strtod(s, &end);
    if (end == s || !(x > -100 && x < 100) || e->nwin == ORION_CACHE_WINDOW)
      return -1;
    e->win[e->nwin++] = x;
    if (!*end)
      return 0;
    if (*end != ',')
      return -1;
    s = end + 1;
  }
}

/* The fields of formats 2 and 3 after the first nine (rest:
 * NUL-terminated); 0, or -1 when malformed. */
static int parse_tail(const char *rest, orion_cache_entry *e) {
  char state[16], win[WIN_TEXT], extra[2];
  int used = 0, wused = 0;
  if (sscanf(rest, "%15s %d %lf %lf %lf %lf %640s %n", state, &e->checks, &e->rc_sum,
             &e->rc_sumsq, &e->credit_ms, &e->loss_ms, e->walk, &used) != 7 || !used ||
      strlen(e->walk) >= ORION_CACHE_WALK_MAX)
    return -1; /* (a walk of the longest length may have been cut) */
  int k = sscanf(rest + used, "%97s %n%1s", win, &wused, extra); /* format 2: none */
  if (k > 0 && (k != 1 || strlen(win) >= sizeof win - 1 || parse_window(win, e) != 0 ||
                e->nwin > e->checks))
    return -1;
  e->state = -1;
  for (int i = ORION_CACHE_CONFIRMED; i <= ORION_CACHE_OPEN; i++)
    if (!strcmp(state, state_names[i]))
      e->state = i;
  if (e->state < 0 || e->checks < 0 || e->checks > 1000000 || !(e->rc_sumsq >= 0) ||
      !(e->rc_sum > -1e6 && e->rc_sum < 1e6) || !(e->rc_sumsq < 1e12) ||
      !(e->credit_ms >= 0 && e->credit_ms < 1e15) || !(e->loss_ms > -1e15 && e->loss_ms < 1e15))
    return -1;
  return 0;
}

/* Parse one line (NUL-terminated, no newline), of format 1, 2 or 3. */
static int parse_line(const char *line, orion_cache_entry *e) {
  memset(e, 0, sizeof *e);
  char gpu[ORION_CACHE_GPU_MAX], kernel[ORION_CACHE_NAME_MAX], tag[ORION_CACHE_TAG_MAX],
      extra[2];
  int used = 0;
  /* Field widths are the buffer sizes minus one. */
  int k = sscanf(line, "%llx %127s %d %511s %ux%ux%u %llu %15s %lf %d %n%1s", &e->module, gpu,
                 &e->driver, kernel, &e->bx, &e->by, &e->bz, &e->shmem, tag, &e->speedup,
                 &e->iterations, &used, extra);
  if (k < 11 || !used || (k == 12 && parse_tail(line + used, e) != 0))
    return -1; /* k == 11: format 1, a confirmed decision */
  if (strlen(gpu) >= sizeof gpu - 1 || strlen(kernel) >= sizeof kernel - 1 ||
      strlen(tag) >= sizeof tag - 1)
    return -1; /* possibly cut */
  if (!e->bx || !e->by || !e->bz || e->bx * (unsigned long long)e->by * e->bz > 1024 ||
      !(e->speedup > 0 && e->speedup < 1000) || e->iterations < 0)
    return -1;
  memcpy(e->gpu, gpu, sizeof gpu);
  memcpy(e->kernel, kernel, sizeof kernel);
  memcpy(e->tag, tag, sizeof tag);
  return 0;
}

int orion_cache_parse(orion_cache *c, const char *text, size_t len, int *first_bad) {
  int bad = 0, lineno = 0;
  if (first_bad)
    *first_bad = 0;
  size_t i = 0;
  while (i < len) {
    size_t j = i;
    while (j < len && text[j] != '\n')
      j++;
    lineno++;
    size_t l = j - i;
    if (l > 0 && text[i] != '#') {
      char line[2048];
      orion_cache_entry e;
      int ok = l < sizeof line && !memchr(text + i, '\0', l);
      if (ok) {
        memcpy(line, text + i, l);
        line[l] = '\0';
        ok = parse_line(line, &e) == 0 && orion_cache_put(c, &e) == 0;
      }
      if (!ok && bad++ == 0 && first_bad)
        *first_bad = lineno;
    }
    i = j + 1;
  }
  return bad;
}

int orion_cache_load(orion_cache *c, const char *path, int *bad, int *first_bad, char *err,
                     size_t errn) {
  if (bad)
    *bad = 0;
  if (first_bad)
    *first_bad = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    /* No file: no cache yet.  A path through a file (ENOTDIR) can never
     * hold one: reported now, as a run that settles nothing never writes. */
    if (errno == ENOENT)
      return 0;
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
    snprintf(err, errn, "%s: not a regular file of at most 64 MiB", path);
    close(fd);
    return -1;
  }
  size_t size = (size_t)st.st_size;
  char *buf = malloc(size + 1);
  size_t got = 0;
  while (buf && got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  close(fd);
  if (!buf) {
    snprintf(err, errn, "%s: out of memory", path);
    return -1;
  }
  int nbad = orion_cache_parse(c, buf, got, first_bad);
  free(buf);
  if (bad)
    *bad = nbad;
  return 0;
}

int orion_cache_writable(const char *path) {
  char dir[4096];
  if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
    return ENAMETOOLONG;
  for (char *s = strrchr(dir, '/'); s; s = strrchr(dir, '/')) {
    *s = '\0';
    const char *d = dir[0] ? dir : "/";
    if (access(d, F_OK) == 0)
      return access(d, W_OK) == 0 ? 0 : errno;
  }
  return 0;
}

/* mkdir -p of path's directory part (orion_cache_writable: can it be). */
static int make_parent(const char *path) {
  char dir[4096];
  if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
    return -1;
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir)
    return 0;
  *slash = '\0';
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
      *p = '/';
    }
  return mkdir(dir, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int orion_cache_save(const orion_cache *c, const char *path, char *err, size_t errn) {
  char lock[4200];
  if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock) {
    snprintf(err, errn, "%s: path too long", path);
    return -1;
  }
  if (make_parent(path) != 0) {
    snprintf(err, errn, "%s: cannot create its directory: %s", path, strerror(errno));
    return -1;
  }
  int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lfd < 0) {
    snprintf(err, errn, "%s: %s", lock, strerror(errno));
    return -1;
  }
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  while (fcntl(lfd, F_SETLKW, &fl) != 0 && errno == EINTR)
    ;
  /* Merge: what is on disk now, overlaid with ours. */
  orion_cache merged = {0};
  int rc = -1;
  char lerr[256];
  if (orion_cache_load(&merged, path, NULL, NULL, lerr, sizeof lerr) != 0)
    merged.n = 0; /* unreadable: replace it */
  for (size_t i = 0; i < c->n; i++)
    if (orion_cache_put(&merged, &c->e[i]) != 0) {
      snprintf(err, errn, "%s: out of memory", path);
      goto out;
    }
  orion_strbuf text;
  orion_sb_init(&text);
  orion_sb_adds(&text, HEADER);
  char line[2048];
  for (size_t i = 0; i < merged.n; i++) {
    int l = orion_cache_format(&merged.e[i], line, sizeof line);
    if (l > 0)
      orion_sb_add(&text, line, (size_t)l);
  }
  if (text.oom)
    snprintf(err, errn, "%s: out of memory", path);
  else if (orion_write_file_atomic(path, text.p, text.len, ORION_WRITE_SYNC) != 0)
    snprintf(err, errn, "%s: %s", path, strerror(errno));
  else
    rc = 0;
  orion_sb_free(&text);
out:
  orion_cache_free(&merged);
  close(lfd); /* releases the lock */
  return rc;
}
