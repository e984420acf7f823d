/* test_support.c - support/: the string buffer (growth, printf appends,
 * detach), JSON escaping, the status strings, and output files written
 * through a symbolic link (relative and dangling ones too), into a FIFO, a
 * character device and a pipe in place, with a replaced file's mode kept and a
 * failure (a directory in the way) leaving the old file and no temporary. */
#define _DEFAULT_SOURCE 1 /* mkdtemp, symlink */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "orion/outfile.h"
#include "orion/status.h"
#include "orion/strbuf.h"

static char dir[64];

static char *at(const char *name) {
  static char buf[4][256];
  static int k;
  char *p = buf[k++ & 3];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

static char *slurp(const char *path) {
  static char buf[256];
  int fd = open(path, O_RDONLY);
  ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
  if (fd >= 0)
    close(fd);
  buf[n > 0 ? n : 0] = 0;
  return buf;
}

/* Entries of dir whose name holds "orion-tmp". */
static int temporaries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strstr(e->d_name, "orion-tmp") != NULL;
  if (d)
    closedir(d);
  return n;
}

static void test_strbuf(void) {
  orion_strbuf b;
  orion_sb_init(&b);
  for (int i = 0; i < 1000; i++)
    orion_sb_addf(&b, "%d,", i);
  CHECK(b.len == 3890 && !strncmp(b.p, "0,1,2,", 6) && b.p[b.len] == 0 && !b.oom, "len %zu",
        b.len);
  char *p = orion_sb_detach(&b);
  CHECK(p && !b.p && b.len == 0, "detach");
  free(p);
  orion_sb_adds(&b, "again"); /* after detach: starts afresh */
  CHECK(b.p && !strcmp(b.p, "again"), "append after detach: %s", b.p ? b.p : "(null)");
  orion_sb_free(&b);
  orion_sb_init(&b);
  orion_sb_json(&b, "a\"b\\c\nd\te\rf\x01g\xc3\xa9");
  CHECK(!strcmp(b.p, "\"a\\\"b\\\\c\\nd\\te\\rf\\u0001g\xc3\xa9\""), "json %s", b.p);
  orion_sb_json(&b, NULL);
  CHECK(!strcmp(b.p + b.len - 2, "\"\""), "NULL as empty string: %s", b.p);
  orion_sb_free(&b);
}

static void test_status(void) {
  CHECK(!strcmp(orion_strerror(ORION_OK), "success"), "ok");
  CHECK(orion_strerror((orion_status)999)[0], "unknown status has a message");
}

static void test_replace_regular(void) {
  const char *f = at("r.json");
  CHECK(orion_write_file_atomic(f, "new file\n", 9, 0) == 0, "create: %s", strerror(errno));
  CHECK(!strcmp(slurp(f), "new file\n"), "content %s", slurp(f));
  chmod(f, 0600);
  CHECK(orion_write_file_atomic(f, "second\n", 7, ORION_WRITE_SYNC) == 0, "replace");
  struct stat st;
  CHECK(stat(f, &st) == 0 && (st.st_mode & 0777) == 0600, "mode kept: %o",
        (unsigned)(st.st_mode & 0777));
  CHECK(!strcmp(slurp(f), "second\n"), "content %s", slurp(f));
  CHECK(temporaries() == 0, "no temporary left");
}

static void test_symlinks(void) {
  mkdir(at("sub"), 0755);
  CHECK(symlink("sub/target", at("link")) == 0, "symlink");
  CHECK(orion_write_file_atomic(at("link"), "via link\n", 9, 0) == 0, "write through dangling");
  struct stat st;
  CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
  CHECK(!strcmp(slurp(at("sub/target")), "via link\n"), "target written: %s",
        slurp(at("sub/target")));
  chmod(at("sub/target"), 0640);
  CHECK(symlink("../link", at("sub/chain")) == 0, "chain");
  CHECK(orion_write_file_atomic(at("sub/chain"), "chained\n", 8, 0) == 0, "through two");
  CHECK(lstat(at("sub/chain"), &st) == 0 && S_ISLNK(st.st_mode), "chain kept");
  CHECK(stat(at("sub/target"), &st) == 0 && (st.st_mode & 0777) == 0640, "mode %o",
        (unsigned)(st.st_mode & 0777));
  CHECK(!strcmp(slurp(at("sub/target")), "chained\n"), "target %s", slurp(at("sub/target")));
  /* A file produced by another tool, then put into place through the link. */
  char *tmp = orion_temp_beside(at("link"), ".cubin");
  CHECK(tmp && !strncmp(tmp, at("sub/.target.orion-tmp"), strlen(at("sub/.target.orion-tmp"))),
        "temporary beside the target: %s", tmp ? tmp : "(null)");
  int fd = tmp ? open(tmp, O_WRONLY | O_CREAT, 0644) : -1;
  CHECK(fd >= 0 && write(fd, "tool\n", 5) == 5, "tool output");
  if (fd >= 0)
    close(fd);
  CHECK(tmp && orion_replace_file(tmp, at("link")) == 0, "replace through link");
  CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode), "link kept after replace");
  CHECK(!strcmp(slurp(at("sub/target")), "tool\n"), "replaced %s", slurp(at("sub/target")));
  free(tmp);
  CHECK(symlink("loop", at("loop")) == 0 && orion_write_file_atomic(at("loop"), "x", 1, 0) != 0 &&
            errno == ELOOP, "a link loop is ELOOP");
}

static void test_special(void) {
  /* A FIFO: written in place, read back by the reader opened first. */
  CHECK(mkfifo(at("fifo"), 0600) == 0, "mkfifo");
  int rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
  CHECK(orion_write_file_atomic(at("fifo"), "piped\n", 6, 0) == 0, "write into FIFO: %s",
        strerror(errno));
  char buf[16] = {0};
  CHECK(read(rd, buf, sizeof buf - 1) == 6 && !strcmp(buf, "piped\n"), "read %s", buf);
  close(rd);
  struct stat st;
  CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode), "still a FIFO");
  /* A character device behind a link: /dev/null stays a device. */
  CHECK(symlink("/dev/null", at("null")) == 0, "symlink to /dev/null");
  CHECK(orion_write_file_atomic(at("null"), "gone\n", 5, 0) == 0, "write to /dev/null");
  char *tmp = orion_temp_beside(at("null"), ".cubin");
  CHECK(tmp && strncmp(tmp, "/dev/", 5) != 0, "temporary not in /dev: %s", tmp ? tmp : "");
  int fd = tmp ? open(tmp, O_WRONLY | O_CREAT, 0644) : -1;
  if (fd >= 0)
    close(fd);
  CHECK(tmp && orion_replace_file(tmp, at("null")) == 0 && access(tmp, F_OK) != 0,
        "copied into the device, temporary removed");
  free(tmp);
  CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null is a device");
  CHECK(lstat(at("null"), &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
  /* A pipe behind a /proc link (what /dev/stdout is in a pipeline). */
  int fds[2];
  CHECK(pipe(fds) == 0, "pipe");
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fds[1]);
  CHECK(orion_write_file_atomic(proc, "through\n", 8, 0) == 0, "write into the pipe: %s",
        strerror(errno));
  memset(buf, 0, sizeof buf);
  CHECK(read(fds[0], buf, sizeof buf - 1) == 8 && !strcmp(buf, "through\n"), "pipe read %s", buf);
  close(fds[0]);
  close(fds[1]);
}

static void test_failure(void) {
  const char *f = at("keep");
  orion_write_file_atomic(f, "old\n", 4, 0);
  mkdir(at("adir"), 0755);
  CHECK(orion_write_file_atomic(at("adir"), "x", 1, 0) != 0 && errno == EISDIR, "directory");
  CHECK(orion_write_file_atomic(at("nodir/x"), "x", 1, 0) != 0 && errno == ENOENT, "no folder");
  CHECK(!strcmp(slurp(f), "old\n"), "untouched");
  CHECK(temporaries() == 0, "no temporary left");
}

/* A run that fails leaves the output as it was; one that succeeds keeps its own. */
static void test_keep(void) {
  const char *f = at("app");
  orion_write_file_atomic(f, "old\n", 4, 0);
  orion_output_kept k;
  CHECK(orion_output_keep(f, &k) == 0 && k.existed && k.link, "kept");
  unlink(f); /* what a linker does before it fails */
  CHECK(orion_output_settle(f, &k, 0) == 0 && !strcmp(slurp(f), "old\n"), "put back: %s", slurp(f));
  CHECK(orion_output_keep(f, &k) == 0, "kept again");
  unlink(f);
  orion_write_file_atomic(f, "new\n", 4, 0);
  CHECK(orion_output_settle(f, &k, 1) == 0 && !strcmp(slurp(f), "new\n"), "new kept: %s", slurp(f));
  const char *g = at("fresh");
  CHECK(orion_output_keep(g, &k) == 0 && !k.existed && !k.link, "nothing there");
  orion_write_file_atomic(g, "partial\n", 8, 0);
  CHECK(orion_output_settle(g, &k, 0) == 0 && access(g, F_OK) != 0, "a new file removed on failure");
  CHECK(temporaries() == 0, "no temporary left");
}

int main(void) {
  const char *t = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/orion-support-XXXXXX", t && *t && strlen(t) < 30 ? t : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_strbuf();
  test_status();
  test_replace_regular();
  test_symlinks();
  test_special();
  test_failure();
  test_keep();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return CHECK_DONE();
}
