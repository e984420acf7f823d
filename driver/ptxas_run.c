/* driver/ptxas_run.c - see ptxas_run.h. */
#define _GNU_SOURCE 1
#include "ptxas_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Measured with ptxas 13.0 on sm_90 (benchmarks/compile/results/
 * many_kernels.md): every --split-compile thread
 * beyond the first adds about 330 bytes of resident memory per byte of PTX
 * (a 3 MB module: 159 MB with one thread, 1.18 GB with two), so the default
 * is bounded by memory as well as by cores. */
#define EXTRA_BYTES_PER_PTX_BYTE 400.0
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

int optx_auto_jobs(size_t ptx_bytes, long cores, double avail) {
  if (cores < 1)
    cores = 1;
  double budget = EXTRA_BUDGET_MAX;
  if (avail >= 0 && avail / 4 < budget)
    budget = avail / 4;
  double per = EXTRA_BYTES_PER_PTX_BYTE * (double)(ptx_bytes ? ptx_bytes : 1);
  double extra = budget / per;
  long n = 1 + (extra > (double)cores ? cores : (long)extra);
  return (int)(n < cores ? n : cores);
}

void optx_resolve_jobs(optx_cmd *c, size_t ptx_bytes) {
  if (c->jobs == 0)
    c->jobs = optx_auto_jobs(ptx_bytes, sysconf(_SC_NPROCESSORS_ONLN), mem_available());
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
