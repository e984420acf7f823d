/* driver/toolpaths.c - see toolpaths.h. */
#include "toolpaths.h"

#include <stdlib.h>

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

char *drv_include_dir(const char *bin_dir) { return under_prefix(bin_dir, "include"); }

char *drv_lib_dir(const char *bin_dir) { return under_prefix(bin_dir, "lib"); }
