/* driver/ptxas_run.c - see ptxas_run.h. */
#define _GNU_SOURCE 1
#include "ptxas_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Measured with ptxas 13.0 on sm_90 (benchmarks/compile/results/
 * ptxas-memory.md): every --split-compile thread beyond the first adds
 * resident memory that grows with the module's entries where they are many
 * and small (4,000 entries in 8.7 MB of PTX: 348 MB with one thread, 2.40 GB
 * with two, 513 KB an entry) and with its bytes where they are few and
 * large (S3D.cu, 183 entries in 7.2 MB: 303 MB, 588 MB, 40 bytes a byte).
 * The estimate takes the larger of the two with a margin, so the default
 * is bounded by memory as well as by cores. */
#define EXTRA_BYTES_PER_PTX_BYTE 64.0
#define EXTRA_BYTES_PER_ENTRY (640.0 * 1024)
#define EXTRA_BUDGET_MAX (1024.0 * 1024 * 1024)

/* MemAvailable of /proc/meminfo in bytes, or -1. */
static double mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f)
    return -1;
  char line[256];
  double kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
      break;
  fclose(f);
  return kb < 0 ? -1 : kb * 1024.0;
}

int optx_auto_jobs(size_t ptx_bytes, size_t entries, long cores, double avail) {
  if (cores < 1)
    cores = 1;
  double budget = EXTRA_BUDGET_MAX;
  if (avail >= 0 && avail / 4 < budget)
    budget = avail / 4;
  double by_bytes = EXTRA_BYTES_PER_PTX_BYTE * (double)ptx_bytes;
  double by_entries = EXTRA_BYTES_PER_ENTRY * (double)entries;
  double per = by_bytes > by_entries ? by_bytes : by_entries;
  double extra = budget / (per > 1 ? per : 1);
  long n = 1 + (extra > (double)cores ? cores : (long)extra);
  return (int)(n < cores ? n : cores);
}

/* Bytes of the file at path and its ".entry" directives (some may be in
 * comments: an estimate); 0 and 0 when it cannot be read. */
static void ptx_size(const char *path, size_t *bytes, size_t *entries) {
  *bytes = *entries = 0;
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return;
  char buf[1 << 16];
  size_t keep = 0, n;
  while ((n = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
    *bytes += n;
    size_t len = keep + n;
    for (const char *p = buf; (p = memmem(p, len - (size_t)(p - buf), ".entry", 6)) != NULL; p += 6)
      (*entries)++;
    keep = len < 5 ? len : 5; /* the start of a ".entry" cut by the block's end */
    memmove(buf, buf + len - keep, keep);
  }
  fclose(f);
}

void optx_resolve_jobs(optx_cmd *c, const char *ptx_path) {
  if (c->jobs != 0)
    return;
  size_t bytes, entries;
  ptx_size(ptx_path, &bytes, &entries);
  c->jobs = optx_auto_jobs(bytes, entries, sysconf(_SC_NPROCESSORS_ONLN), mem_available());
}

void optx_build_argv(strvec *v, const char *real, const optx_cmd *c, const strvec *extra,
                     const char *input, const char *output, int verbose) {
  sv_init(v);
  sv_push(v, real);
  sv_extend(v, &c->rest);
  if (verbose)
    sv_push(v, "-v");
  if (!c->user_split && c->jobs != 1) {
    sv_push(v, "--split-compile");
    sv_pushf(v, "%d", c->jobs);
  }
  if (extra)
    sv_extend(v, extra);
  sv_push(v, "--output-file");
  sv_push(v, output);
  sv_push(v, input);
}

void optx_echo_command(const optx_cmd *c, char *const argv[]) {
  if (!c->echo)
    return;
  orion_strbuf b;
  orion_sb_init(&b);
  drv_format_command(&b, argv, NULL);
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  fflush(stderr);
  orion_sb_free(&b);
}

int optx_run_ptxas(const optx_cmd *c, strvec *argv, drv_proc_result *r) {
  optx_echo_command(c, argv->v);
  return drv_run(argv->v, NULL, 1, r);
}

void optx_result_free(optx_result *res) {
  if (!res)
    return;
  for (size_t i = 0; i < res->n; i++) {
    free(res->e[i].name);
    free(res->e[i].kernel);
    free(res->e[i].tag);
    free(res->e[i].spill_reason);
    free(res->e[i].sass_note);
    free(res->e[i].reason);
  }
  free(res->e);
  memset(res, 0, sizeof *res);
}

char *optx_write_temp_ptx(const orion_strbuf *text) {
  const char *t = getenv("TMPDIR");
  char *path = drv_xasprintf("%s/orion-ptxas-XXXXXX.ptx", t && *t ? t : "/tmp");
  int fd = mkstemps(path, 4);
  if (fd < 0) {
    free(path);
    return NULL;
  }
  size_t off = 0;
  while (off < text->len) {
    ssize_t w = write(fd, text->p + off, text->len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      unlink(path);
      free(path);
      return NULL;
    }
    off += (size_t)w;
  }
  if (close(fd) != 0) {
    unlink(path);
    free(path);
    return NULL;
  }
  return path;
}
