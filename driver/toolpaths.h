/* driver/toolpaths.h - where the driver finds the tools and files it runs.
 *
 * Run-time environment beats build-time defaults (orion_build_config.h):
 *   CUDA root    ORION_CUDA_PATH, else CUDA_PATH, else ORION_DEFAULT_CUDA_PATH
 *   real ptxas   ORION_REAL_PTXAS, else <CUDA root>/bin/ptxas
 *   clang++      ORION_CLANG, else ORION_DEFAULT_CLANG
 * Orion's own files are found relative to the running executable, so the
 * build tree (build/bin, build/lib, build/include) and an install tree
 * (prefix/bin, prefix/lib, prefix/include) both work:
 *   <prefix>/bin/orion-ptxas, <prefix>/lib/OrionPass.so,
 *   <prefix>/lib/liborionrt.a and liborionrt.so (the runtime),
 *   <prefix>/include/orion/nvcc_compat.h,  prefix = dirname(dir of exe).
 * Every function returns a malloc'd string (never NULL).
 */
#ifndef ORION_DRIVER_TOOLPATHS_H
#define ORION_DRIVER_TOOLPATHS_H

#include "util.h"

char *drv_cuda_path(void);
char *drv_real_ptxas(void);
char *drv_clang(void);

/* bin_dir: directory of the running executable (drv_self_dir). */
char *drv_prefix(const char *bin_dir);
char *drv_plugin_path(const char *bin_dir);
char *drv_orion_ptxas_path(const char *bin_dir);
char *drv_compat_header_path(const char *bin_dir);
/* What a CUDA compile gets for nvcc's sake (orion-cc's compiles, and
 * orion-advise's parses of them): the toolkit's cccl headers (cub, thrust,
 * libcu++: CUDA 13 keeps them under include/cccl), `register` accepted
 * under C++17, and compat (the header of drv_compat_header_path) forced
 * in unless NULL. */
void drv_nvcc_compat_args(strvec *argv, const char *cuda, const char *compat);
char *drv_include_dir(const char *bin_dir);
char *drv_lib_dir(const char *bin_dir);
/* The runtime library: <prefix>/lib/liborionrt.so if shared, else .a. */
char *drv_runtime_lib(const char *bin_dir, int shared);

/* How a link gets liborionrt (orion-cc --orion-rt=, orion-config). */
typedef enum drv_rt_mode { DRV_RT_STATIC, DRV_RT_SHARED, DRV_RT_NONE } drv_rt_mode;
/* "static"/"shared"/"none" -> mode; -1 for anything else. */
int drv_rt_mode_parse(const char *s);
/* Append the link flags for mode to v, in link order: the runtime (static:
 * -L<lib> -l:liborionrt.a; shared: -L<lib> -Wl,-rpath,<lib> -lorionrt), then the
 * CUDA runtime it needs (-L<cuda>/lib64 -Wl,-rpath,<cuda>/lib64 -lcudart),
 * then -ldl -lpthread -lm unless mode is DRV_RT_NONE. */
void drv_rt_link_flags(strvec *v, drv_rt_mode mode, const char *bin_dir, const char *cuda);

#endif /* ORION_DRIVER_TOOLPATHS_H */
