/* driver/cc_args.c - orion-cc's command line: one option table, one walker.
 *
 * Every option orion-cc looks at is a row of `options` below: its spelling,
 * how it takes a value (clang's kinds: flag, joined, separate,
 * joined-or-separate), what the value is called in errors, and the handler
 * that records it.  A handler returns PASS (the argument(s) go to clang++
 * unchanged), DROP (consumed: the handler pushed what clang++ gets, if
 * anything) or ERR (it printed an error).  A row without a handler passes
 * through; such rows exist so that an option's value is never taken for an
 * input.  The longest matching spelling wins, as in clang's option tables,
 * so "-obj..." is not "-o bj...".  Arguments no row matches pass through
 * unchanged; arguments not starting with '-' (and "-") are inputs.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"
#include "orion/occupancy.h"
#include "ptxas_driver.h"

typedef enum opt_kind {
  K_FLAG,     /* exactly the name */
  K_JOINED,   /* the name followed by the value (possibly empty) */
  K_SEPARATE, /* exactly the name; the value is the next argument */
  K_JOINED_OR_SEPARATE,
} opt_kind;

enum { ERR = -1, DROP = 0, PASS = 1 };

/* One matched option: how it was spelled and its value (NULL for flags). */
typedef struct cc_arg {
  const char *spelled; /* the argument as given (the name for separate values) */
  const char *val;
  int separate; /* the value was the next argument */
} cc_arg;

typedef int (*opt_fn)(cc *c, const cc_arg *a);

typedef struct cc_opt {
  const char *name;
  opt_kind kind;
  opt_fn fn;        /* NULL: pass through */
  const char *meta; /* what a missing value is called in the error */
} cc_opt;

/* ---- handlers: Orion's own options ---- */

/* Handlers that only set a field: fn sets c->field = value and returns ret. */
#define SET_FIELD(fn, field, value, ret)                                                           \
  static int fn(cc *c, const cc_arg *a) {                                                          \
    (void)a;                                                                                       \
    c->field = (value);                                                                            \
    return ret;                                                                                    \
  }
SET_FIELD(o_dry_run, dry_run, 1, DROP)
SET_FIELD(o_keep, keep, 1, DROP)
SET_FIELD(o_report, report, 1, DROP)
SET_FIELD(o_no_compat, no_compat, 1, DROP)
SET_FIELD(o_no_orion, no_orion, 1, DROP)
SET_FIELD(c_rdc, gpu_rdc, 1, PASS)
SET_FIELD(c_no_rdc, gpu_rdc, 0, PASS)
SET_FIELD(c_verbose, verbose, 1, PASS)
SET_FIELD(c_compile, compile_only, 1, PASS)
SET_FIELD(c_assemble, assemble_only, 1, PASS)
SET_FIELD(c_preprocess, preprocess_only, 1, PASS)
SET_FIELD(c_syntax, syntax_only, 1, PASS)
SET_FIELD(c_deps, deps_only, 1, PASS)
SET_FIELD(c_device_only, device_only, 1, PASS)
SET_FIELD(c_host_only, host_only, 1, PASS)
#undef SET_FIELD

static int o_report_file(cc *c, const cc_arg *a) {
  if (!*a->val) {
    drv_error("missing file name in '--orion-report='");
    return ERR;
  }
  c->report = 1;
  free(c->report_file);
  c->report_file = drv_xstrdup(a->val);
  return DROP;
}

static int o_rt(cc *c, const cc_arg *a) {
  int m = drv_rt_mode_parse(a->val);
  if (m < 0) {
    drv_error("invalid value in '%s' (expected static, shared or none)", a->spelled);
    return ERR;
  }
  c->rt_mode = (drv_rt_mode)m;
  return DROP;
}

static int o_spill(cc *c, const cc_arg *a) {
  if (optx_spill_policy_parse(a->val) < 0) {
    drv_error("invalid value in '%s' (expected auto, pragma, off or sass)", a->spelled);
    return ERR;
  }
  c->spill = a->val;
  return DROP;
}

static int o_unknown_orion(cc *c, const cc_arg *a) {
  (void)c;
  drv_error("unknown Orion option '%s' (see orion-cc --help)", a->spelled);
  return ERR;
}

/* ---- handlers: clang options orion-cc looks at ---- */

static int check_arch(cc *c, const char *list) {
  char *copy = drv_xstrdup(list);
  int ok = 1;
  for (char *save = NULL, *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    int sm;
    if (orion_arch_from_name(a, &sm) != ORION_OK) {
      drv_error("unknown GPU architecture '%s' (supported: %s)", a, orion_arch_supported_list());
      ok = 0;
      break;
    }
    sv_push(&c->archs, a);
  }
  free(copy);
  return ok;
}

static int c_gpu_arch(cc *c, const cc_arg *a) {
  if (!check_arch(c, a->val))
    return ERR;
  c->user_arch = 1;
  return PASS;
}

static int c_cuda_path(cc *c, const cc_arg *a) {
  c->user_cuda_path = 1;
  free(c->cuda);
  c->cuda = drv_xstrdup(a->val);
  return PASS;
}

/* orion-ptxas runs in its place and calls this one */
static int c_ptxas_path(cc *c, const cc_arg *a) {
  c->user_ptxas_path = 1;
  free(c->user_ptxas);
  c->user_ptxas = drv_xstrdup(a->val);
  return DROP;
}


/* nvcc's spelling; clang's is -Xcuda-ptxas */
static int c_xptxas(cc *c, const cc_arg *a) {
  sv_push(&c->ptxas_user, a->val);
  sv_push(&c->user_args, "-Xcuda-ptxas");
  sv_push(&c->user_args, a->val);
  return DROP;
}

static int c_xcuda_ptxas(cc *c, const cc_arg *a) {
  sv_push(&c->ptxas_user, a->val);
  return PASS;
}

/* -O<digit>: for the PTX path's ptxas too; clang takes it as well. */
static int c_opt_level(cc *c, const cc_arg *a) {
  if (a->val[0] >= '0' && a->val[0] <= '9' && !a->val[1])
    sv_push(&c->ptxas_user, a->spelled);
  return PASS;
}

static int c_output(cc *c, const cc_arg *a) {
  c->output = a->val;
  return PASS;
}

static int c_lang(cc *c, const cc_arg *a) {
  if (!a->separate && strchr(a->val, '='))
    return PASS; /* not a -x */
  c->lang = strcmp(a->val, "none") == 0 ? NULL : a->val;
  if (strcmp(a->val, "cu") != 0)
    return PASS;
  c->lang = "cuda"; /* nvcc's spelling of -x cuda */
  if (a->separate) {
    sv_push(&c->user_args, "-x");
    sv_push(&c->user_args, "cuda");
  } else {
    sv_push(&c->user_args, "-xcuda");
  }
  return DROP;
}

/* ---- the table ---- */

static const cc_opt options[] = {
    /* Orion's own */
    {"-###", K_FLAG, o_dry_run, NULL},
    {"--keep", K_FLAG, o_keep, NULL},
    {"--orion-report", K_FLAG, o_report, NULL},
    {"--orion-report=", K_JOINED, o_report_file, NULL},
    {"--no-nvcc-compat", K_FLAG, o_no_compat, NULL},
    {"--no-orion", K_FLAG, o_no_orion, NULL},
    {"--orion-rt=", K_JOINED, o_rt, NULL},
    {"--orion-spill=", K_JOINED, o_spill, NULL},
    {"--orion-", K_JOINED, o_unknown_orion, NULL},
    /* clang's, looked at (and passed on unless the handler says) */
    {"-v", K_FLAG, c_verbose, NULL},
    {"--cuda-gpu-arch=", K_JOINED, c_gpu_arch, NULL},
    {"--offload-arch=", K_JOINED, c_gpu_arch, NULL},
    {"--cuda-path=", K_JOINED, c_cuda_path, NULL},
    {"--ptxas-path=", K_JOINED, c_ptxas_path, NULL},
    {"-fgpu-rdc", K_FLAG, c_rdc, NULL},
    {"-fcuda-rdc", K_FLAG, c_rdc, NULL},
    {"-fno-gpu-rdc", K_FLAG, c_no_rdc, NULL},
    {"-fno-cuda-rdc", K_FLAG, c_no_rdc, NULL},
    {"-c", K_FLAG, c_compile, NULL},
    {"-S", K_FLAG, c_assemble, NULL},
    {"-E", K_FLAG, c_preprocess, NULL},
    {"-fsyntax-only", K_FLAG, c_syntax, NULL},
    {"-M", K_FLAG, c_deps, NULL},
    {"-MM", K_FLAG, c_deps, NULL},
    {"--cuda-device-only", K_FLAG, c_device_only, NULL},
    {"--offload-device-only", K_FLAG, c_device_only, NULL},
    {"--cuda-host-only", K_FLAG, c_host_only, NULL},
    {"--offload-host-only", K_FLAG, c_host_only, NULL},
    {"-Xptxas", K_SEPARATE, c_xptxas, NULL},
    {"-Xcuda-ptxas", K_SEPARATE, c_xcuda_ptxas, NULL},
    {"-O", K_JOINED, c_opt_level, NULL},
    {"-o", K_JOINED_OR_SEPARATE, c_output, "file name"},
    {"-obj", K_JOINED, NULL, NULL}, /* -objcmt-..., not -o bj... */
    {"-x", K_JOINED_OR_SEPARATE, c_lang, NULL},
    /* clang's whose value is the next argument: passed on as they are */
    {"-I", K_SEPARATE, NULL, NULL},
    {"-L", K_SEPARATE, NULL, NULL},
    {"-D", K_SEPARATE, NULL, NULL},
    {"-U", K_SEPARATE, NULL, NULL},
    {"-include", K_SEPARATE, NULL, NULL},
    {"-imacros", K_SEPARATE, NULL, NULL},
    {"-isystem", K_SEPARATE, NULL, NULL},
    {"-idirafter", K_SEPARATE, NULL, NULL},
    {"-iquote", K_SEPARATE, NULL, NULL},
    {"-isysroot", K_SEPARATE, NULL, NULL},
    {"-iprefix", K_SEPARATE, NULL, NULL},
    {"-iwithprefix", K_SEPARATE, NULL, NULL},
    {"-iwithprefixbefore", K_SEPARATE, NULL, NULL},
    {"-cxx-isystem", K_SEPARATE, NULL, NULL},
    {"-Xclang", K_SEPARATE, NULL, NULL},
    {"-Xlinker", K_SEPARATE, NULL, NULL},
    {"-Xassembler", K_SEPARATE, NULL, NULL},
    {"-Xpreprocessor", K_SEPARATE, NULL, NULL},
    {"-Xarch_device", K_SEPARATE, NULL, NULL},
    {"-Xarch_host", K_SEPARATE, NULL, NULL},
    {"-Xcuda-fatbinary", K_SEPARATE, NULL, NULL},
    {"-Xoffload-linker", K_SEPARATE, NULL, NULL},
    {"-Xopenmp-target", K_SEPARATE, NULL, NULL},
    {"-mllvm", K_SEPARATE, NULL, NULL},
    {"-MF", K_SEPARATE, NULL, NULL},
    {"-MT", K_SEPARATE, NULL, NULL},
    {"-MQ", K_SEPARATE, NULL, NULL},
    {"-target", K_SEPARATE, NULL, NULL},
    {"-u", K_SEPARATE, NULL, NULL},
    {"-T", K_SEPARATE, NULL, NULL},
    {"-z", K_SEPARATE, NULL, NULL},
    {"-l", K_SEPARATE, NULL, NULL},
    {"-F", K_SEPARATE, NULL, NULL},
    {"-B", K_SEPARATE, NULL, NULL},
    {"-arch", K_SEPARATE, NULL, NULL},
    {"-include-pch", K_SEPARATE, NULL, NULL},
    {"-resource-dir", K_SEPARATE, NULL, NULL},
    {"--sysroot", K_SEPARATE, NULL, NULL},
    {"--serialize-diagnostics", K_SEPARATE, NULL, NULL},
    {"-dependency-file", K_SEPARATE, NULL, NULL},
    {"-ivfsoverlay", K_SEPARATE, NULL, NULL},
    {"--param", K_SEPARATE, NULL, NULL},
    {"-e", K_SEPARATE, NULL, NULL},
};

/* The longest spelling that matches a, or NULL. */
static const cc_opt *match(const char *a, size_t *name_len) {
  const cc_opt *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
    const cc_opt *o = &options[i];
    size_t n = strlen(o->name);
    int hit = o->kind == K_FLAG || o->kind == K_SEPARATE ? strcmp(a, o->name) == 0
                                                          : strncmp(a, o->name, n) == 0;
    if (hit && n > best_len) {
      best = o;
      best_len = n;
    }
  }
  *name_len = best_len;
  return best;
}

static int is_cuda_name(const char *f) { return drv_has_suffix(f, ".cu"); }
static int is_ptx_name(const char *f) { return drv_has_suffix(f, ".ptx"); }

static void add_input(cc *c, const char *a) {
  sv_push(&c->inputs, a);
  if (c->lang ? strcmp(c->lang, "cuda") == 0 : is_cuda_name(a))
    sv_push(&c->cuda_inputs, a);
  else if (!c->lang && is_ptx_name(a))
    sv_push(&c->ptx_inputs, a);
}

int cc_parse_args(cc *c, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      add_input(c, a);
      sv_push(&c->user_args, a);
      continue;
    }
    size_t n;
    const cc_opt *o = match(a, &n);
    if (!o) {
      sv_push(&c->user_args, a); /* clang's business */
      continue;
    }
    cc_arg arg = {a, NULL, 0};
    if (o->kind == K_SEPARATE || (o->kind == K_JOINED_OR_SEPARATE && !a[n])) {
      if (i + 1 >= argc) {
        drv_error("missing %s after '%s'", o->meta ? o->meta : "argument", a);
        return 0;
      }
      arg.val = argv[i + 1];
      arg.separate = 1;
    } else if (o->kind != K_FLAG) {
      arg.val = a + n;
    }
    int r = o->fn ? o->fn(c, &arg) : PASS;
    if (r == ERR)
      return 0;
    if (r == PASS) {
      sv_push(&c->user_args, a);
      if (arg.separate)
        sv_push(&c->user_args, arg.val);
    }
    i += arg.separate;
  }
  return 1;
}
