/* energy.c - GPU energy of one child process, read from NVML.
 *
 *   energy [-d <index>] [-o <file>] -- <program> [args...]
 *
 * Reads nvmlDeviceGetTotalEnergyConsumption (millijoules since the driver
 * loaded; Volta and later) of GPU <index> (default 0, NVML's numbering)
 * just before starting the child and just after it exits, and reports
 *   ENERGY mj=<after - before> wall_s=<seconds> gpu=<name>
 * or, where NVML, the device or the counter is not available,
 *   ENERGY unsupported reason=<why>
 * as one line on stderr, or into <file> (written to <file>.tmp, then
 * renamed).  The child runs either way: a missing counter never costs a
 * measurement run.
 *
 * NVML is opened with dlopen("libnvidia-ml.so.1") so the wrapper builds
 * without the NVML headers or the driver, and runs on machines without a
 * GPU.  The declarations below are the documented NVML C ABI (nvml.h):
 * nvmlReturn_t is an int, 0 = success; nvmlDevice_t an opaque pointer.
 *
 * Exit status: the child's (128 + signal when it died of one); 127 when it
 * could not be started; 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int nvml_ret;
typedef void *nvml_dev;

typedef struct {
  void *lib;
  nvml_ret (*init)(void);
  nvml_ret (*shutdown)(void);
  nvml_ret (*by_index)(unsigned, nvml_dev *);
  nvml_ret (*energy)(nvml_dev, unsigned long long *);
  nvml_ret (*name)(nvml_dev, char *, unsigned);
  const char *(*errstr)(nvml_ret);
  nvml_dev dev;
  int inited; /* nvmlInit succeeded: shut down at the end */
  char gpu[96];
} nvml;

/* Opens NVML and device idx; on failure writes why into err and returns -1. */
static int nvml_open(nvml *n, unsigned idx, char *err, size_t errn) {
  memset(n, 0, sizeof *n);
  n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  if (!n->lib) {
    snprintf(err, errn, "no_libnvidia-ml.so.1");
    return -1;
  }
  /* POSIX guarantees the object/function pointer conversion dlsym needs. */
  *(void **)&n->init = dlsym(n->lib, "nvmlInit_v2");
  *(void **)&n->shutdown = dlsym(n->lib, "nvmlShutdown");
  *(void **)&n->by_index = dlsym(n->lib, "nvmlDeviceGetHandleByIndex_v2");
  *(void **)&n->energy = dlsym(n->lib, "nvmlDeviceGetTotalEnergyConsumption");
  *(void **)&n->name = dlsym(n->lib, "nvmlDeviceGetName");
  *(void **)&n->errstr = dlsym(n->lib, "nvmlErrorString");
  if (!n->init || !n->shutdown || !n->by_index || !n->energy) {
    snprintf(err, errn, "libnvidia-ml.so.1_lacks_the_energy_API");
    return -1;
  }
  nvml_ret r = n->init();
  n->inited = r == 0;
  if (r == 0)
    r = n->by_index(idx, &n->dev);
  unsigned long long probe;
  if (r == 0)
    r = n->energy(n->dev, &probe);
  if (r != 0) {
    const char *s = n->errstr ? n->errstr(r) : "error";
    snprintf(err, errn, "nvml_%d_", r);
    size_t l = strlen(err);
    for (; *s && l + 1 < errn; s++) /* one word: spaces become '_' */
      err[l++] = *s == ' ' ? '_' : *s;
    err[l] = '\0';
    return -1;
  }
  if (!n->name || n->name(n->dev, n->gpu, sizeof n->gpu) != 0)
    snprintf(n->gpu, sizeof n->gpu, "unknown");
  for (char *p = n->gpu; *p; p++)
    if (*p == ' ')
      *p = '_';
  return 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Writes line to path atomically (tmp + rename), or to stderr when path is NULL. */
static int emit(const char *path, const char *line) {
  if (!path) {
    fprintf(stderr, "%s\n", line);
    return 0;
  }
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
    fprintf(stderr, "energy: output path too long: %s\n", path);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "energy: cannot write %s: %s\n", path, strerror(errno));
    unlink(tmp);
    return -1;
  }
  return 0;
}

static int usage(void) {
  fprintf(stderr, "usage: energy [-d <gpu index>] [-o <file>] -- <program> [args...]\n");
  return 2;
}

int main(int argc, char **argv) {
  unsigned idx = 0;
  const char *out = NULL;
  int a = 1;
  for (; a < argc && strcmp(argv[a], "--"); a++) {
    if (!strcmp(argv[a], "-d") && a + 1 < argc) {
      char *end;
      unsigned long v = strtoul(argv[++a], &end, 10);
      if (*end || v > 64) {
        fprintf(stderr, "energy: bad GPU index '%s'\n", argv[a]);
        return 2;
      }
      idx = (unsigned)v;
    } else if (!strcmp(argv[a], "-o") && a + 1 < argc) {
      out = argv[++a];
    } else {
      return usage();
    }
  }
  if (a + 1 >= argc)
    return usage();
  char **child = argv + a + 1;

  nvml n;
  char why[160];
  int ok = nvml_open(&n, idx, why, sizeof why) == 0;
  unsigned long long e0 = 0, e1 = 0;
  if (ok && n.energy(n.dev, &e0) != 0) {
    ok = 0;
    snprintf(why, sizeof why, "energy_read_failed");
  }
  fflush(NULL);
  double t0 = now_s();
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "energy: fork: %s\n", strerror(errno));
    return 127;
  }
  if (pid == 0) {
    execvp(child[0], child);
    fprintf(stderr, "energy: cannot run %s: %s\n", child[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "energy: waitpid: %s\n", strerror(errno));
      return 127;
    }
  double wall = now_s() - t0;
  if (ok && n.energy(n.dev, &e1) != 0) {
    ok = 0;
    snprintf(why, sizeof why, "energy_read_failed");
  }
  char line[512];
  if (ok)
    snprintf(line, sizeof line, "ENERGY mj=%llu wall_s=%.3f gpu=%s", e1 - e0, wall, n.gpu);
  else
    snprintf(line, sizeof line, "ENERGY unsupported reason=%s wall_s=%.3f", why, wall);
  if (n.lib) {
    if (n.inited)
      n.shutdown();
    dlclose(n.lib);
  }
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
  if (emit(out, line) != 0 && rc == 0)
    rc = 1;
  return rc;
}
