/* outfile.c - orion/outfile.h.  The target of an existing regular file is
 * its realpath; something else that exists (a device, a FIFO, a pipe behind
 * /dev/stdout, whose /proc link names no file) is opened by the path given;
 * a missing one is found by following links by hand (readlink per step), so
 * that a dangling link still names the file to create.  Then: in place for
 * what is not a regular file, else temporary + rename in the target's own
 * directory (a rename never crosses file systems), with the old mode applied
 * to the temporary first. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "orion/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

static char *dup_n(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (!p) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* The link text t read at path, as a path: relative ones from path's folder. */
static char *link_join(const char *path, const char *t) {
  const char *slash = strrchr(path, '/');
  if (t[0] == '/' || !slash)
    return dup_n(t, strlen(t));
  size_t d = (size_t)(slash - path) + 1, n = strlen(t);
  char *p = malloc(d + n + 1);
  if (!p) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(p, path, d);
  memcpy(p + d, t, n + 1);
  return p;
}

char *orion_resolve_target(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0) /* it exists: its real path, or the path for a device */
    return S_ISREG(st.st_mode) ? realpath(path, NULL) : dup_n(path, strlen(path));
  char *cur = dup_n(path, strlen(path)); /* missing: the file a dangling link names */
  for (int i = 0; cur && i <= MAX_LINKS; i++) {
    char buf[PATH_MAX];
    ssize_t n = readlink(cur, buf, sizeof buf - 1);
    if (n < 0) {
      if (errno == EINVAL || errno == ENOENT || errno == ENOTDIR)
        return cur; /* not a link, or nothing there yet */
      int e = errno;
      free(cur);
      errno = e;
      return NULL;
    }
    buf[n] = 0;
    char *next = link_join(cur, buf);
    free(cur);
    cur = next;
  }
  if (cur) {
    free(cur);
    errno = ELOOP;
  }
  return NULL;
}

static unsigned temp_counter;

static char *temp_for_target(const char *target, const char *suffix) {
  const char *slash = strrchr(target, '/');
  size_t d = slash ? (size_t)(slash - target) + 1 : 0;
  const char *base = target + d;
  size_t n = d + strlen(base) + strlen(suffix ? suffix : "") + 64;
  char *p = malloc(n);
  if (!p) {
    errno = ENOMEM;
    return NULL;
  }
  snprintf(p, n, "%.*s.%s.orion-tmp.%ld.%u%s", (int)d, target, base, (long)getpid(),
           temp_counter++, suffix ? suffix : "");
  return p;
}

/* What exists at target: 0 nothing, 1 a regular file (*mode its bits),
 * 2 something else to write in place; -1 on error (a directory: EISDIR). */
static int target_kind(const char *target, mode_t *mode) {
  struct stat st;
  if (stat(target, &st) != 0)
    return errno == ENOENT ? 0 : -1;
  if (S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return -1;
  }
  *mode = st.st_mode & 07777;
  return S_ISREG(st.st_mode) ? 1 : 2;
}

char *orion_temp_beside(const char *path, const char *suffix) {
  char *target = orion_resolve_target(path);
  if (!target)
    return NULL;
  mode_t mode;
  char *t;
  if (target_kind(target, &mode) == 2) { /* copied, not renamed: any folder will do */
    const char *dir = getenv("TMPDIR");
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s/orion-out", dir && *dir ? dir : "/tmp");
    t = temp_for_target(name, suffix);
  } else {
    t = temp_for_target(target, suffix);
  }
  int e = errno;
  free(target);
  errno = e;
  return t;
}

static int write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Write in place into an existing target that is not a regular file. */
static int write_in_place(const char *target, const void *data, size_t n) {
  int fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return -1;
  int rc = write_all(fd, data, n);
  int e = errno;
  if (close(fd) != 0 && rc == 0)
    return -1;
  errno = e;
  return rc;
}

/* Rename the complete tmp over target, giving it the mode of the file it
 * replaces (kind 1). */
static int commit(const char *tmp, const char *target, int kind, mode_t mode) {
  if ((kind == 1 && chmod(tmp, mode) != 0) || rename(tmp, target) != 0) {
    int e = errno;
    unlink(tmp);
    errno = e;
    return -1;
  }
  return 0;
}

int orion_write_file_atomic(const char *path, const void *data, size_t n, unsigned flags) {
  char *target = orion_resolve_target(path);
  if (!target)
    return -1;
  mode_t mode = 0;
  int kind = target_kind(target, &mode), rc = -1, e = 0;
  if (kind == 2) {
    rc = write_in_place(target, data, n);
  } else if (kind >= 0) {
    char *tmp = temp_for_target(target, "");
    int fd = tmp ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
    if (fd >= 0) {
      int ok = write_all(fd, data, n) == 0 && (!(flags & ORION_WRITE_SYNC) || fsync(fd) == 0);
      e = errno;
      ok = close(fd) == 0 && ok;
      if (!ok) {
        unlink(tmp);
        errno = e ? e : EIO;
      } else {
        rc = commit(tmp, target, kind, mode);
      }
    }
    e = errno;
    free(tmp);
    errno = e;
  }
  e = errno;
  free(target);
  errno = e;
  return rc;
}

/* Copy the file src into the existing non-regular target. */
static int copy_in_place(const char *src, const char *target) {
  int fd = open(src, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  char *buf = NULL;
  ssize_t got = -1;
  if (fstat(fd, &st) == 0 && (buf = malloc((size_t)st.st_size + 1)) != NULL) {
    size_t off = 0;
    while (off < (size_t)st.st_size) {
      ssize_t r = read(fd, buf + off, (size_t)st.st_size - off);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      off += (size_t)r;
    }
    got = (ssize_t)off;
  }
  int e = errno;
  close(fd);
  int rc = got == (ssize_t)st.st_size ? write_in_place(target, buf, (size_t)got) : -1;
  if (got != (ssize_t)st.st_size)
    errno = buf ? (e ? e : EIO) : ENOMEM;
  e = errno;
  free(buf);
  errno = e;
  return rc;
}

int orion_replace_file(const char *tmp, const char *path) {
  char *target = orion_resolve_target(path);
  mode_t mode = 0;
  int kind = target ? target_kind(target, &mode) : -1, rc = -1;
  if (kind == 2) {
    rc = copy_in_place(tmp, target);
    int e = errno;
    unlink(tmp);
    errno = e;
  } else if (kind >= 0) {
    rc = commit(tmp, target, kind, mode);
  } else {
    int e = errno;
    unlink(tmp);
    errno = e;
  }
  int e = errno;
  free(target);
  errno = e;
  return rc;
}

int orion_output_keep(const char *path, orion_output_kept *kept) {
  kept->existed = 0;
  kept->link = NULL;
  char *target = orion_resolve_target(path);
  if (!target)
    return -1;
  struct stat st;
  kept->existed = lstat(target, &st) == 0;
  if (kept->existed && S_ISREG(st.st_mode) && (kept->link = temp_for_target(target, ".keep")) &&
      link(target, kept->link) != 0) {
    free(kept->link); /* no hard links here: the file is left alone, not kept */
    kept->link = NULL;
  }
  free(target);
  return 0;
}

int orion_output_settle(const char *path, orion_output_kept *kept, int ok) {
  int rc = 0;
  char *target = orion_resolve_target(path);
  struct stat st;
  if (!target)
    rc = -1;
  else if (kept->link)
    rc = ok ? unlink(kept->link) : rename(kept->link, target);
  else if (!ok && !kept->existed && lstat(target, &st) == 0 && S_ISREG(st.st_mode))
    rc = unlink(target); /* a new file where there was none */
  int e = errno;
  if (rc != 0 && kept->link)
    unlink(kept->link);
  free(target);
  free(kept->link);
  kept->link = NULL;
  errno = e;
  return rc;
}
