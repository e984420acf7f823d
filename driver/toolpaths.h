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
 *   <prefix>/include/orion/nvcc_compat.h,  prefix = dirname(dir of exe).
 * Every function returns a malloc'd string (never NULL).
 */
#ifndef ORION_DRIVER_TOOLPATHS_H
#define ORION_DRIVER_TOOLPATHS_H

char *drv_cuda_path(void);
char *drv_real_ptxas(void);
char *drv_clang(void);

/* bin_dir: directory of the running executable (drv_self_dir). */
char *drv_prefix(const char *bin_dir);
char *drv_plugin_path(const char *bin_dir);
char *drv_orion_ptxas_path(const char *bin_dir);
char *drv_compat_header_path(const char *bin_dir);
char *drv_include_dir(const char *bin_dir);
char *drv_lib_dir(const char *bin_dir);

#endif /* ORION_DRIVER_TOOLPATHS_H */
