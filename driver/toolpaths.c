/* driver/toolpaths.c - see toolpaths.h. */
#include "toolpaths.h"

#include <stdlib.h>
#include <string.h>

#include "orion_build_config.h"
#include "util.h"

static const char *env_nonempty(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

char *drv_cuda_path(void) {
  const char *v = env_nonempty("ORION_CUDA_PATH");
  if (!v)
    v = env_nonempty("CUDA_PATH");
  return drv_xstrdup(v ? v : ORION_DEFAULT_CUDA_PATH);
}

char *drv_real_ptxas(void) {
  const char *v = env_nonempty("ORION_REAL_PTXAS");
  if (v)
    return drv_xstrdup(v);
  char *cuda = drv_cuda_path();
  char *p = drv_xasprintf("%s/bin/ptxas", cuda);
  free(cuda);
  return p;
}

char *drv_clang(void) {
  const char *v = env_nonempty("ORION_CLANG");
  return drv_xstrdup(v ? v : ORION_DEFAULT_CLANG);
}

char *drv_prefix(const char *bin_dir) { return drv_dirname(bin_dir); }

static char *under_prefix(const char *bin_dir, const char *rel) {
  char *prefix = drv_prefix(bin_dir);
  char *p = drv_path_join(prefix, rel);
  free(prefix);
  return p;
}

char *drv_plugin_path(const char *bin_dir) { return under_prefix(bin_dir, "lib/OrionPass.so"); }

char *drv_orion_ptxas_path(const char *bin_dir) { return drv_path_join(bin_dir, "orion-ptxas"); }

char *drv_compat_header_path(const char *bin_dir) {
  return under_prefix(bin_dir, "include/orion/nvcc_compat.h");
}

void drv_nvcc_compat_args(strvec *argv, const char *cuda, const char *compat) {
  sv_push(argv, "-isystem");
  sv_pushf(argv, "%s/include/cccl", cuda);
  sv_push(argv, "-Wno-register"); /* nvcc takes `register` under -std=c++17 */
  if (compat) {
    sv_push(argv, "-include");
    sv_push(argv, compat);
  }
}

char *drv_include_dir(const char *bin_dir) { return under_prefix(bin_dir, "include"); }

char *drv_lib_dir(const char *bin_dir) { return under_prefix(bin_dir, "lib"); }

char *drv_runtime_lib(const char *bin_dir, int shared) {
  return under_prefix(bin_dir, shared ? "lib/liborionrt.so" : "lib/liborionrt.a");
}

int drv_rt_mode_parse(const char *s) {
  if (strcmp(s, "static") == 0)
    return DRV_RT_STATIC;
  if (strcmp(s, "shared") == 0)
    return DRV_RT_SHARED;
  if (strcmp(s, "none") == 0)
    return DRV_RT_NONE;
  return -1;
}

void drv_rt_link_flags(strvec *v, drv_rt_mode mode, const char *bin_dir, const char *cuda) {
  /* Options, not a bare archive path: after a user's `-x cuda` clang would
   * take a file operand for CUDA source. */
  if (mode == DRV_RT_STATIC) {
    char *lib = drv_lib_dir(bin_dir);
    sv_pushf(v, "-L%s", lib);
    sv_push(v, "-l:liborionrt.a");
    free(lib);
  } else if (mode == DRV_RT_SHARED) {
    char *lib = drv_lib_dir(bin_dir);
    sv_pushf(v, "-L%s", lib);
    sv_pushf(v, "-Wl,-rpath,%s", lib);
    sv_push(v, "-lorionrt");
    free(lib);
  }
  sv_pushf(v, "-L%s/lib64", cuda);
  sv_pushf(v, "-Wl,-rpath,%s/lib64", cuda);
  sv_push(v, "-lcudart");
  if (mode != DRV_RT_NONE) {
    sv_push(v, "-ldl");
    sv_push(v, "-lpthread");
    sv_push(v, "-lm"); /* the tuner's exp, log, sqrt */
  }
}
