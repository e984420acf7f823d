/* orion-config - print what a build needs to use Orion by hand, in the way
 * llvm-config does for LLVM:
 *
 *   clang++ -x cuda --cuda-gpu-arch=sm_90 $(orion-config --cflags) \
 *     app.cu -o app $(orion-config --ldflags)
 *
 * Paths are relative to this executable (<prefix>/bin/orion-config), so the
 * build tree and an install tree (wherever it was copied) both answer
 * correctly; the CUDA root follows ORION_CUDA_PATH, CUDA_PATH, then the
 * build default.  Several options print one line each, in the order given;
 * --static (the default) and --shared print nothing and choose, wherever
 * they stand (the last one wins), which liborionrt --ldflags and --libs
 * name: liborionrt.a, or liborionrt.so with an rpath (the same flags as
 * orion-cc's --orion-rt=static|shared).  Exit 1 on an unknown option
 * (message on stderr, nothing on stdout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion_build_config.h"
#include "cc_codegen.h"
#include "toolpaths.h"
#include "util.h"

typedef struct cfg {
  char *bin;  /* directory of this executable */
  char *cuda; /* the CUDA root */
  drv_rt_mode rt;
} cfg;

/* The words of v that start with prefix (NULL: all), joined by spaces. */
static char *join_words(const strvec *v, const char *prefix) {
  orion_strbuf b;
  orion_sb_init(&b);
  for (size_t j = 0; j < v->n; j++) {
    if (prefix && strncmp(v->v[j], prefix, strlen(prefix)) != 0)
      continue;
    if (b.len)
      orion_sb_addc(&b, ' ');
    orion_sb_adds(&b, v->v[j]);
  }
  return orion_sb_detach(&b);
}

/* --codegen-flags: orion-cc's device code-generation defaults that are
 * clang options (cc_codegen.c). */
static char *ans_codegen(const cfg *c) {
  (void)c;
  strvec dev, env;
  sv_init(&dev);
  sv_init(&env);
  cc_codegen_args(cc_codegen_defaults(), 0, &dev, &env);
  char *s = join_words(&dev, NULL);
  sv_free(&dev);
  sv_free(&env);
  return s;
}

/* --cflags: what orion-cc adds to clang's command line for CUDA sources
 * (its device code-generation defaults included), plus the include
 * directory of orion/rt.h. */
static char *ans_cflags(const cfg *c) {
  char *plugin = drv_plugin_path(c->bin);
  char *ptxas = drv_orion_ptxas_path(c->bin);
  char *compat = drv_compat_header_path(c->bin);
  char *inc = drv_include_dir(c->bin);
  char *codegen = ans_codegen(c);
  char *s = drv_xasprintf("--cuda-path=%s -Wno-unknown-cuda-version -fpass-plugin=%s "
                          "--ptxas-path=%s -I%s -isystem %s/include/cccl -include %s "
                          "-mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1%s%s",
                          c->cuda, plugin, ptxas, inc, c->cuda, compat, *codegen ? " " : "",
                          codegen);
  free(plugin);
  free(ptxas);
  free(compat);
  free(inc);
  free(codegen);
  return s;
}

/* The runtime's link flags joined by spaces; libs_only keeps the -l... ones. */
static char *link_flags(const cfg *c, int libs_only) {
  strvec v;
  sv_init(&v);
  drv_rt_link_flags(&v, c->rt, c->bin, c->cuda);
  char *s = join_words(&v, libs_only ? "-l" : NULL);
  sv_free(&v);
  return s;
}

static char *ans_ldflags(const cfg *c) { return link_flags(c, 0); }
static char *ans_libs(const cfg *c) { return link_flags(c, 1); }
static char *ans_plugin(const cfg *c) { return drv_plugin_path(c->bin); }
static char *ans_ptxas(const cfg *c) { return drv_orion_ptxas_path(c->bin); }
static char *ans_cuda(const cfg *c) { return drv_xstrdup(c->cuda); }
static char *ans_prefix(const cfg *c) { return drv_prefix(c->bin); }
static char *ans_bindir(const cfg *c) { return drv_xstrdup(c->bin); }
static char *ans_libdir(const cfg *c) { return drv_lib_dir(c->bin); }
static char *ans_incdir(const cfg *c) { return drv_include_dir(c->bin); }
static char *ans_cmakedir(const cfg *c) {
  char *lib = drv_lib_dir(c->bin);
  char *s = drv_path_join(lib, "cmake/Orion");
  free(lib);
  return s;
}
static char *ans_cmake_cuda_root(const cfg *c) {
  char *lib = drv_lib_dir(c->bin);
  char *s = drv_path_join(lib, "orion/cuda");
  free(lib);
  return s;
}
static char *ans_version(const cfg *c) {
  (void)c;
  return drv_xstrdup(ORION_VERSION_STRING);
}

static const struct option {
  const char *name;
  char *(*answer)(const cfg *); /* NULL: a modifier that prints nothing */
  const char *help;
} options[] = {
    {"--cflags", ans_cflags,
     "compile flags for CUDA sources (clang 22): the OrionPass plugin,\n"
     "               orion-ptxas, the CUDA path, cccl headers, nvcc-compatible\n"
     "               numerics and helper header, the include directory of orion/rt.h,\n"
     "               the device code-generation defaults (--codegen-flags)"},
    {"--codegen-flags", ans_codegen,
     "orion-cc's device code-generation defaults that are clang options\n"
     "               (-Xarch_device ...; orion-cc --help lists them)"},
    {"--ldflags", ans_ldflags,
     "everything a link needs: search paths, rpaths, liborionrt,\n"
     "               the CUDA runtime, -ldl -lpthread -lm"},
    {"--libs", ans_libs, "the libraries of --ldflags alone (the -l options)"},
    {"--static", NULL, "--ldflags/--libs name liborionrt.a (the default)"},
    {"--shared", NULL, "--ldflags/--libs name liborionrt.so"},
    {"--plugin", ans_plugin, "path of the OrionPass clang plugin (-fpass-plugin=)"},
    {"--ptxas", ans_ptxas, "path of orion-ptxas (--ptxas-path=)"},
    {"--cuda-path", ans_cuda, "the CUDA toolkit Orion uses"},
    {"--prefix", ans_prefix, "Orion's installation prefix"},
    {"--bindir", ans_bindir, "directory of Orion's tools"},
    {"--libdir", ans_libdir, "directory of OrionPass.so and liborionrt"},
    {"--includedir", ans_incdir, "directory holding orion/rt.h"},
    {"--cmakedir", ans_cmakedir, "directory of OrionConfig.cmake (find_package(Orion))"},
    {"--cmake-cuda-root", ans_cmake_cuda_root,
     "a view of the CUDA toolkit for CMake's CUDAToolkit_ROOT when\n"
     "               a CMake project device-links with orion-cc\n"
     "               (CUDA_SEPARABLE_COMPILATION)"},
    {"--version", ans_version, "Orion's version"},
    {"--help", NULL, "this text"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static void usage(FILE *f) {
  fprintf(f, "usage: orion-config OPTION...\n");
  for (size_t i = 0; i < N_OPTIONS; i++)
    fprintf(f, "  %-12s %s\n", options[i].name, options[i].help);
}

static const struct option *find_option(const char *a) {
  if (strcmp(a, "-h") == 0)
    a = "--help";
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (strcmp(a, options[i].name) == 0)
      return &options[i];
  return NULL;
}

int main(int argc, char **argv) {
  drv_prog = "orion-config";
  cfg c = {NULL, NULL, DRV_RT_STATIC};
  int prints = 0;
  for (int i = 1; i < argc; i++) {
    const struct option *o = find_option(argv[i]);
    if (!o) {
      drv_error("unknown option '%s' (see orion-config --help)", argv[i]);
      return 1;
    }
    if (strcmp(o->name, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (o->answer)
      prints++;
    else
      c.rt = strcmp(o->name, "--shared") == 0 ? DRV_RT_SHARED : DRV_RT_STATIC;
  }
  if (!prints) {
    usage(stderr);
    return 1;
  }
  c.bin = drv_self_dir(argv[0]);
  c.cuda = drv_cuda_path();
  for (int i = 1; i < argc; i++) {
    const struct option *o = find_option(argv[i]);
    if (!o->answer)
      continue;
    char *s = o->answer(&c);
    printf("%s\n", s);
    free(s);
  }
  free(c.bin);
  free(c.cuda);
  return 0;
}
