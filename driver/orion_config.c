/* orion-config - print what a build needs to use Orion by hand.
 *
 *   clang++ -x cuda --cuda-gpu-arch=sm_90 \
 *     -fpass-plugin=$(orion-config --plugin) --ptxas-path=$(orion-config --ptxas) \
 *     $(orion-config --cflags) app.cu -o app $(orion-config --ldflags)
 *
 * Paths are relative to this executable (<prefix>/bin/orion-config), so the
 * build tree and an install tree both answer correctly; the CUDA root
 * follows ORION_CUDA_PATH, CUDA_PATH, then the build default.  Several
 * options print one line each, in the order given; --static (the default)
 * and --shared print nothing and choose, wherever they stand (the last one
 * wins), which liborionrt --ldflags links: -L<prefix>/lib
 * -l:liborionrt.a, or -L<prefix>/lib -Wl,-rpath,<prefix>/lib -lorionrt; then
 * the CUDA runtime, -ldl and -lpthread (the same flags as orion-cc's
 * --orion-rt=static|shared).  Exit 1 on an unknown option (message on
 * stderr, nothing on stdout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion_build_config.h"
#include "toolpaths.h"
#include "util.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: orion-config OPTION...\n"
          "  --plugin     path of the OrionPass clang plugin (-fpass-plugin=)\n"
          "  --ptxas      path of orion-ptxas (--ptxas-path=)\n"
          "  --cflags     compile flags for CUDA sources (CUDA path, cccl headers,\n"
          "               nvcc-compatible numerics and helper header)\n"
          "  --ldflags    link flags (liborionrt and the CUDA runtime)\n"
          "  --static     --ldflags links liborionrt.a (the default)\n"
          "  --shared     --ldflags links liborionrt.so\n"
          "  --cuda-path  the CUDA toolkit Orion uses\n"
          "  --prefix     Orion's installation prefix\n"
          "  --version    Orion's version\n"
          "  --help       this text\n");
}

int main(int argc, char **argv) {
  drv_prog = "orion-config";
  if (argc < 2) {
    usage(stderr);
    return 1;
  }
  drv_rt_mode rt = DRV_RT_STATIC;
  int prints = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--static") == 0 || strcmp(a, "--shared") == 0) {
      rt = a[3] == 't' ? DRV_RT_STATIC : DRV_RT_SHARED;
      continue;
    }
    if (strcmp(a, "--plugin") && strcmp(a, "--ptxas") && strcmp(a, "--cflags") &&
        strcmp(a, "--ldflags") && strcmp(a, "--cuda-path") && strcmp(a, "--prefix") &&
        strcmp(a, "--version")) {
      drv_error("unknown option '%s' (see orion-config --help)", a);
      return 1;
    }
    prints++;
  }
  if (!prints) {
    usage(stderr);
    return 1;
  }
  char *bin = drv_self_dir(argv[0]);
  char *cuda = drv_cuda_path();
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char *s = NULL;
    if (strcmp(a, "--static") == 0 || strcmp(a, "--shared") == 0)
      continue;
    if (strcmp(a, "--plugin") == 0)
      s = drv_plugin_path(bin);
    else if (strcmp(a, "--ptxas") == 0)
      s = drv_orion_ptxas_path(bin);
    else if (strcmp(a, "--cuda-path") == 0)
      s = drv_xstrdup(cuda);
    else if (strcmp(a, "--prefix") == 0)
      s = drv_prefix(bin);
    else if (strcmp(a, "--version") == 0)
      s = drv_xstrdup(ORION_VERSION_STRING);
    else if (strcmp(a, "--cflags") == 0) {
      char *compat = drv_compat_header_path(bin);
      s = drv_xasprintf("--cuda-path=%s -Wno-unknown-cuda-version -isystem %s/include/cccl "
                        "-include %s -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1",
                        cuda, cuda, compat);
      free(compat);
    } else if (strcmp(a, "--ldflags") == 0) {
      strvec v;
      sv_init(&v);
      drv_rt_link_flags(&v, rt, bin, cuda);
      strbuf b;
      sb_init(&b);
      for (size_t j = 0; j < v.n; j++) {
        if (j)
          sb_addc(&b, ' ');
        sb_adds(&b, v.v[j]);
      }
      sv_free(&v);
      s = sb_detach(&b);
    }
    printf("%s\n", s);
    free(s);
  }
  free(bin);
  free(cuda);
  return 0;
}
