/* driver/cc_args.c - orion-cc's command line: one option table, one walker.
 *
 * Every option orion-cc looks at is a row of `options` below: its spelling,
 * how it takes a value (clang's kinds: flag, joined, separate,
 * joined-or-separate), what the value is called in errors, and the handler
 * that records it.  A handler returns CC_PASS (the argument(s) go to clang++
 * unchanged), CC_DROP (consumed: the handler pushed what clang++ gets, if
 * anything) or CC_ERR (it printed an error).  A row without a handler passes
 * through; such rows exist so that an option's value is never taken for an
 * input.  The longest matching spelling wins, as in clang's option tables,
 * so "-obj..." is not "-o bj...".  Arguments no row matches pass through
 * unchanged; arguments not starting with '-' (and "-") are inputs.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_opt.h"
#include "orion/occupancy.h"
#include "ptxas_driver.h"

/* ---- handlers: Orion's own options ---- */

/* Handlers that only set a field: fn sets c->field = value and returns ret. */
#define SET_FIELD(fn, field, value, ret)                                                           \
  static int fn(cc *c, const cc_arg *a) {                                                          \
    (void)a;                                                                                       \
    c->field = (value);                                                                            \
    return ret;                                                                                    \
  }
SET_FIELD(o_dry_run, dry_run, 1, CC_DROP)
SET_FIELD(o_keep, keep, 1, CC_DROP)
SET_FIELD(o_report, report, 1, CC_DROP)
SET_FIELD(o_no_compat, no_compat, 1, CC_DROP)
SET_FIELD(o_no_orion, no_orion, 1, CC_DROP)
SET_FIELD(c_rdc, gpu_rdc, 1, CC_PASS)
SET_FIELD(c_no_rdc, gpu_rdc, 0, CC_PASS)
SET_FIELD(c_verbose, verbose, 1, CC_PASS)
SET_FIELD(c_compile, compile_only, 1, CC_PASS)
SET_FIELD(c_assemble, assemble_only, 1, CC_PASS)
SET_FIELD(c_preprocess, preprocess_only, 1, CC_PASS)
SET_FIELD(c_syntax, syntax_only, 1, CC_PASS)
SET_FIELD(c_deps, deps_only, 1, CC_PASS)
SET_FIELD(c_device_only, device_only, 1, CC_PASS)
SET_FIELD(c_host_only, host_only, 1, CC_PASS)
#undef SET_FIELD

static int o_report_file(cc *c, const cc_arg *a) {
  if (!*a->val) {
    drv_error("missing file name in '--orion-report='");
    return CC_ERR;
  }
  c->report = 1;
  free(c->report_file);
  c->report_file = drv_xstrdup(a->val);
  return CC_DROP;
}

static int o_rt(cc *c, const cc_arg *a) {
  int m = drv_rt_mode_parse(a->val);
  if (m < 0) {
    drv_error("invalid value in '%s' (expected static, shared or none)", a->spelled);
    return CC_ERR;
  }
  c->rt_mode = (drv_rt_mode)m;
  return CC_DROP;
}

static int o_spill(cc *c, const cc_arg *a) {
  if (optx_spill_policy_parse(a->val) < 0) {
    drv_error("invalid value in '%s' (expected " OPTX_SPILL_POLICIES ")", a->spelled);
    return CC_ERR;
  }
  c->spill = a->val;
  return CC_DROP;
}

static int o_codegen(cc *c, const cc_arg *a) {
  if (!cc_codegen_parse(a->val, &c->codegen)) {
    drv_error("invalid value in '%s' (expected default, none, or names of defaults, each "
              "optionally no-<name>; orion-cc --help lists them)",
              a->spelled);
    return CC_ERR;
  }
  return CC_DROP;
}

static int o_split(cc *c, const cc_arg *a) {
  (void)a;
  c->split = 1;
  return CC_DROP;
}

static int o_unknown_orion(cc *c, const cc_arg *a) {
  (void)c;
  drv_error("unknown Orion option '%s' (see orion-cc --help)", a->spelled);
  return CC_ERR;
}

/* ---- handlers: clang options orion-cc looks at ---- */

static int c_gpu_arch(cc *c, const cc_arg *a) {
  char *copy = drv_xstrdup(a->val);
  int ok = 1, added;
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && ok; t = strtok_r(NULL, ",", &save))
    ok = cc_add_arch(c, t, &added);
  free(copy);
  c->user_arch = 1;
  return ok ? CC_PASS : CC_ERR;
}

static int c_cuda_path(cc *c, const cc_arg *a) {
  c->user_cuda_path = 1;
  free(c->cuda);
  c->cuda = drv_xstrdup(a->val);
  return CC_PASS;
}

/* orion-ptxas runs in its place and calls this one */
static int c_ptxas_path(cc *c, const cc_arg *a) {
  c->user_ptxas_path = 1;
  free(c->user_ptxas);
  c->user_ptxas = drv_xstrdup(a->val);
  return CC_DROP;
}

static int c_xcuda_ptxas(cc *c, const cc_arg *a) {
  sv_push(&c->ptxas_user, a->val);
  return CC_PASS;
}

/* -O<digit>: for the PTX path's ptxas too; clang takes it as well. */
static int c_opt_level(cc *c, const cc_arg *a) {
  if (a->val[0] >= '0' && a->val[0] <= '9' && !a->val[1])
    sv_pushf(&c->ptxas_user, "-O%s", a->val);
  return CC_PASS;
}

static int c_output(cc *c, const cc_arg *a) {
  c->output = a->val;
  return CC_PASS;
}

static int c_lang(cc *c, const cc_arg *a) {
  if (!a->separate && strchr(a->val, '='))
    return CC_PASS; /* not a -x */
  c->lang = strcmp(a->val, "none") == 0 ? NULL : a->val;
  if (strcmp(a->val, "cu") != 0)
    return CC_PASS;
  c->lang = "cuda"; /* nvcc's spelling of -x cuda */
  if (a->separate) {
    sv_push(&c->user_args, "-x");
    sv_push(&c->user_args, "cuda");
  } else {
    sv_push(&c->user_args, "-xcuda");
  }
  return CC_DROP;
}

/* ---- the table ---- */

/* Rows: Orion's and clang's spellings take a handler (or none: passed on);
 * nvcc's give, as their text, what they map to.  NV_AS rows stand for the
 * row or the clang words named (see act_as). */
#define O(name, kind, fn) {name, kind, fn, NULL, NULL, NULL}
#define NV(name, kind, fn, help) {name, kind, fn, NULL, NULL, help}
#define NV_AS(name, kind, alias) {name, kind, NULL, NULL, alias, NULL}
#define NV_IGNORE(name, kind, why) {name, kind, nv_ignore, NULL, NULL, why}
#define NV_NO(name, kind, why) {name, kind, nv_unmapped, NULL, NULL, why}

static const char edg_why[] = "an option of nvcc's EDG front end (numbered diagnostics); "
                              "clang has no EDG front end";
static const char threads_why[] = "clang compiles each architecture itself and orion-ptxas "
                                  "sets ptxas's threads";

static const cc_opt options[] = {
    /* Orion's own */
    O("-###", K_FLAG, o_dry_run),
    O("--keep", K_FLAG, o_keep),
    O("--orion-report", K_FLAG, o_report),
    O("--orion-report=", K_JOINED, o_report_file),
    O("--no-nvcc-compat", K_FLAG, o_no_compat),
    O("--no-orion", K_FLAG, o_no_orion),
    O("--orion-rt=", K_JOINED, o_rt),
    O("--orion-spill=", K_JOINED, o_spill),
    O("--orion-split", K_FLAG, o_split),
    O("--orion-codegen=", K_JOINED, o_codegen),
    O("--orion-", K_JOINED, o_unknown_orion),
    /* clang's, looked at (and passed on unless the handler says) */
    O("-v", K_FLAG, c_verbose),
    O("--cuda-gpu-arch=", K_JOINED, c_gpu_arch),
    O("--offload-arch=", K_JOINED, c_gpu_arch),
    O("--cuda-path=", K_JOINED, c_cuda_path),
    O("--ptxas-path=", K_JOINED, c_ptxas_path),
    O("-fgpu-rdc", K_FLAG, c_rdc),
    O("-fcuda-rdc", K_FLAG, c_rdc),
    O("-fno-gpu-rdc", K_FLAG, c_no_rdc),
    O("-fno-cuda-rdc", K_FLAG, c_no_rdc),
    O("-c", K_FLAG, c_compile),
    O("-S", K_FLAG, c_assemble),
    O("-E", K_FLAG, c_preprocess),
    O("-fsyntax-only", K_FLAG, c_syntax),
    O("-M", K_FLAG, c_deps),
    O("-MM", K_FLAG, c_deps),
    O("--cuda-device-only", K_FLAG, c_device_only),
    O("--offload-device-only", K_FLAG, c_device_only),
    O("--cuda-host-only", K_FLAG, c_host_only),
    O("--offload-host-only", K_FLAG, c_host_only),
    O("-Xcuda-ptxas", K_SEPARATE, c_xcuda_ptxas),
    O("-O", K_JOINED, c_opt_level),
    {"-o", K_JOINED_OR_SEPARATE, c_output, "file name", NULL, NULL},
    O("-obj", K_JOINED, NULL), /* -objcmt-..., not -o bj... */
    O("-x", K_JOINED_OR_SEPARATE, c_lang),
    O("-m", K_JOINED, NULL), /* -m64, -march=...: passed on */
    /* clang's whose value is the next argument: passed on as they are */
    O("-I", K_SEPARATE, NULL),
    O("-L", K_SEPARATE, NULL),
    O("-D", K_SEPARATE, NULL),
    O("-U", K_SEPARATE, NULL),
    O("-include", K_SEPARATE, NULL),
    O("-imacros", K_SEPARATE, NULL),
    O("-isystem", K_SEPARATE, NULL),
    O("-idirafter", K_SEPARATE, NULL),
    O("-iquote", K_SEPARATE, NULL),
    O("-isysroot", K_SEPARATE, NULL),
    O("-iprefix", K_SEPARATE, NULL),
    O("-iwithprefix", K_SEPARATE, NULL),
    O("-iwithprefixbefore", K_SEPARATE, NULL),
    O("-cxx-isystem", K_SEPARATE, NULL),
    O("-Xclang", K_SEPARATE, NULL),
    O("-Xassembler", K_SEPARATE, NULL),
    O("-Xpreprocessor", K_SEPARATE, NULL),
    O("-Xarch_device", K_SEPARATE, NULL),
    O("-Xarch_host", K_SEPARATE, NULL),
    O("-Xcuda-fatbinary", K_SEPARATE, NULL),
    O("-Xoffload-linker", K_SEPARATE, NULL),
    O("-Xopenmp-target", K_SEPARATE, NULL),
    O("-mllvm", K_SEPARATE, NULL),
    O("-MF", K_SEPARATE, NULL),
    O("-MT", K_SEPARATE, NULL),
    O("-MQ", K_SEPARATE, NULL),
    O("-target", K_SEPARATE, NULL),
    O("-u", K_SEPARATE, NULL),
    O("-T", K_SEPARATE, NULL),
    O("-z", K_SEPARATE, NULL),
    O("-l", K_SEPARATE, NULL),
    O("-F", K_SEPARATE, NULL),
    O("-B", K_SEPARATE, NULL),
    O("-include-pch", K_SEPARATE, NULL),
    O("-resource-dir", K_SEPARATE, NULL),
    O("--sysroot", K_SEPARATE, NULL),
    O("--serialize-diagnostics", K_SEPARATE, NULL),
    O("-dependency-file", K_SEPARATE, NULL),
    O("-ivfsoverlay", K_SEPARATE, NULL),
    O("--param", K_SEPARATE, NULL),
    O("-e", K_SEPARATE, NULL),

    /* nvcc's: architectures and code */
    NV("-arch", K_EQ_OR_SEPARATE, nv_arch, "--cuda-gpu-arch=sm_XX (sm_XX or compute_XX)"),
    NV("--gpu-architecture", K_EQ_OR_SEPARATE, nv_arch, "as -arch"),
    NV("-code", K_EQ_OR_SEPARATE, nv_code, "--cuda-gpu-arch=sm_XX for each code sm_XX/compute_XX"),
    NV("--gpu-code", K_EQ_OR_SEPARATE, nv_code, "as -code"),
    NV("-gencode", K_EQ_OR_SEPARATE, nv_gencode, "--cuda-gpu-arch=sm_XX for each code= entry"),
    NV("--generate-code", K_EQ_OR_SEPARATE, nv_gencode, "as -gencode"),
    NV("-rdc", K_EQ_OR_SEPARATE, nv_rdc, "-fgpu-rdc / -fno-gpu-rdc"),
    NV("--relocatable-device-code", K_EQ_OR_SEPARATE, nv_rdc, "as -rdc"),
    NV("-dc", K_FLAG, nv_compile_rdc, "-fgpu-rdc -c"),
    NV("--device-c", K_FLAG, nv_compile_rdc, "as -dc"),
    NV("-dw", K_FLAG, nv_compile_rdc, "-fno-gpu-rdc -c"),
    NV("--device-w", K_FLAG, nv_compile_rdc, "as -dw"),
    NV("-ptx", K_FLAG, nv_device_output, "--cuda-device-only -S (default output <input>.ptx)"),
    NV("--ptx", K_FLAG, nv_device_output, "as -ptx"),
    NV("-cubin", K_FLAG, nv_device_output, "--cuda-device-only -c (default output <input>.cubin)"),
    NV("--cubin", K_FLAG, nv_device_output, "as -cubin"),
    NV("-cudart", K_EQ_OR_SEPARATE, nv_cudart, "shared: what orion-cc links; static, none: refused"),
    NV("--cudart", K_EQ_OR_SEPARATE, nv_cudart, "as -cudart"),
    /* device code generation */
    NV("-maxrregcount", K_EQ_OR_SEPARATE, nv_maxrregcount, "-Xcuda-ptxas --maxrregcount=N"),
    NV("--maxrregcount", K_EQ_OR_SEPARATE, nv_maxrregcount, "as -maxrregcount"),
    NV("-use_fast_math", K_FLAG, nv_fast_math,
       "-Xarch_device -ffast-math -fcuda-flush-denormals-to-zero, and no exact sqrtf"),
    NV("--use_fast_math", K_FLAG, nv_fast_math, "as -use_fast_math"),
    NV("-ftz", K_EQ_OR_SEPARATE, nv_ftz, "-f[no-]cuda-flush-denormals-to-zero"),
    NV("--ftz", K_EQ_OR_SEPARATE, nv_ftz, "as -ftz"),
    NV("-prec-div", K_EQ_OR_SEPARATE, nv_prec_div, "-mllvm -nvptx-prec-divf32=2 (true) or 1 (false)"),
    NV("--prec-div", K_EQ_OR_SEPARATE, nv_prec_div, "as -prec-div"),
    NV("-prec-sqrt", K_EQ_OR_SEPARATE, nv_prec_sqrt,
       "true: -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1 (the default); false: without it"),
    NV("--prec-sqrt", K_EQ_OR_SEPARATE, nv_prec_sqrt, "as -prec-sqrt"),
    NV("-fmad", K_EQ_OR_SEPARATE, nv_fmad, "-Xarch_device -ffp-contract=fast (true) or off (false)"),
    NV("--fmad", K_EQ_OR_SEPARATE, nv_fmad, "as -fmad"),
    NV("-lineinfo", K_FLAG, nv_lineinfo, "-Xarch_device -gline-tables-only"),
    NV("--generate-line-info", K_FLAG, nv_lineinfo, "as -lineinfo"),
    NV("-G", K_FLAG, nv_device_debug, "-Xarch_device -g -Xarch_device --cuda-noopt-device-debug"),
    NV("--device-debug", K_FLAG, nv_device_debug, "as -G"),
    NV("-res-usage", K_FLAG, nv_res_usage, "-Xcuda-ptxas -v"),
    NV("--resource-usage", K_FLAG, nv_res_usage, "as -res-usage"),
    NV("-default-stream", K_EQ_OR_SEPARATE, nv_default_stream,
       "-Xclang -fgpu-default-stream=legacy|per-thread (null: legacy)"),
    NV("--default-stream", K_EQ_OR_SEPARATE, nv_default_stream, "as -default-stream"),
    NV_IGNORE("-extra-device-vectorization", K_FLAG,
              "an optimisation hint; clang vectorises at -O2 and above"),
    NV_IGNORE("--extra-device-vectorization", K_FLAG, "as -extra-device-vectorization"),
    NV_IGNORE("-restrict", K_FLAG, "an optimisation assertion about kernel pointers; dropping it "
                                   "changes no result"),
    NV_IGNORE("--restrict", K_FLAG, "as -restrict"),
    /* other tools' options */
    NV("-Xcompiler", K_EQ_OR_SEPARATE, nv_xcompiler, "each comma-separated item to clang++ as is"),
    NV("--compiler-options", K_EQ_OR_SEPARATE, nv_xcompiler, "as -Xcompiler"),
    NV("-Xptxas", K_EQ_OR_SEPARATE, nv_xptxas, "-Xcuda-ptxas <item> for each comma-separated item"),
    NV("--ptxas-options", K_EQ_OR_SEPARATE, nv_xptxas, "as -Xptxas"),
    NV("-Xlinker", K_EQ_OR_SEPARATE, nv_xlinker, "-Xlinker <item> for each comma-separated item"),
    NV("--linker-options", K_EQ_OR_SEPARATE, nv_xlinker, "as -Xlinker"),
    NV("-ccbin", K_EQ_OR_SEPARATE, nv_ccbin, "ignored with a note: clang++ compiles the host code"),
    NV("--compiler-bindir", K_EQ_OR_SEPARATE, nv_ccbin, "as -ccbin"),
    NV_IGNORE("-allow-unsupported-compiler", K_FLAG, "clang++ is the host compiler"),
    NV_IGNORE("--allow-unsupported-compiler", K_FLAG, "clang++ is the host compiler"),
    NV_IGNORE("-Xcudafe", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("--cudafe-options", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("-diag-suppress", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("--diag-suppress", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("-diag-warn", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("--diag-warn", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("-diag-error", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("--diag-error", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("-err-no", K_FLAG, edg_why),
    NV_IGNORE("--display-error-number", K_FLAG, edg_why),
    NV_IGNORE("-no-err-no", K_FLAG, edg_why),
    NV_IGNORE("--no-display-error-number", K_FLAG, edg_why),
    NV_IGNORE("-brief-diag", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("--brief-diagnostics", K_EQ_OR_SEPARATE, edg_why),
    NV_IGNORE("-forward-unknown-to-host-compiler", K_FLAG, "orion-cc passes on what it does not know"),
    NV_IGNORE("--forward-unknown-to-host-compiler", K_FLAG, "orion-cc passes on what it does not know"),
    NV_IGNORE("-forward-unknown-opts", K_FLAG, "orion-cc passes on what it does not know"),
    NV_IGNORE("--forward-unknown-opts", K_FLAG, "orion-cc passes on what it does not know"),
    NV_IGNORE("-t", K_EQ_OR_SEPARATE, threads_why),
    NV_IGNORE("--threads", K_EQ_OR_SEPARATE, threads_why),
    NV_IGNORE("-split-compile", K_EQ_OR_SEPARATE, threads_why),
    NV_IGNORE("--split-compile", K_EQ_OR_SEPARATE, threads_why),
    NV_IGNORE("-noprof", K_FLAG, "nvcc.profile is nvcc's own configuration"),
    NV_IGNORE("--dont-use-profile", K_FLAG, "nvcc.profile is nvcc's own configuration"),
    NV_IGNORE("-jobserver", K_FLAG, "nvcc's own parallel jobs"),
    NV_IGNORE("--jobserver", K_FLAG, "nvcc's own parallel jobs"),
    NV_IGNORE("-no-compress", K_FLAG, "fatbinary compression only"),
    NV_IGNORE("--no-compress", K_FLAG, "fatbinary compression only"),
    NV_IGNORE("-compress-mode", K_EQ_OR_SEPARATE, "fatbinary compression only"),
    NV_IGNORE("--compress-mode", K_EQ_OR_SEPARATE, "fatbinary compression only"),
    /* language */
    NV("-std", K_EQ_OR_SEPARATE, nv_std, "-std=<value>"),
    NV("--std", K_EQ_OR_SEPARATE, nv_std, "as -std"),
    NV_AS("--x", K_EQ_OR_SEPARATE, "-x"),
    NV_AS("-expt-relaxed-constexpr", K_FLAG, "-D__CUDACC_RELAXED_CONSTEXPR__"),
    NV_AS("--expt-relaxed-constexpr", K_FLAG, "-D__CUDACC_RELAXED_CONSTEXPR__"),
    NV_AS("-extended-lambda", K_FLAG, "-D__CUDACC_EXTENDED_LAMBDA__"),
    NV_AS("--extended-lambda", K_FLAG, "-D__CUDACC_EXTENDED_LAMBDA__"),
    NV_AS("-expt-extended-lambda", K_FLAG, "-D__CUDACC_EXTENDED_LAMBDA__"),
    NV_AS("--expt-extended-lambda", K_FLAG, "-D__CUDACC_EXTENDED_LAMBDA__"),
    NV_IGNORE("-nohdinitlist", K_FLAG, "only makes nvcc stricter"),
    NV_IGNORE("--no-host-device-initializer-list", K_FLAG, "only makes nvcc stricter"),
    NV_IGNORE("-nohdmoveforward", K_FLAG, "only makes nvcc stricter"),
    NV_IGNORE("--no-host-device-move-forward", K_FLAG, "only makes nvcc stricter"),
    NV_AS("-noeh", K_FLAG, "-fno-exceptions"),
    NV_AS("--no-exceptions", K_FLAG, "-fno-exceptions"),
    NV_AS("-ftemplate-backtrace-limit", K_EQ_OR_SEPARATE, "-ftemplate-backtrace-limit="),
    NV_AS("--ftemplate-backtrace-limit", K_EQ_OR_SEPARATE, "-ftemplate-backtrace-limit="),
    NV_AS("-ftemplate-depth", K_EQ_OR_SEPARATE, "-ftemplate-depth="),
    NV_AS("--ftemplate-depth", K_EQ_OR_SEPARATE, "-ftemplate-depth="),
    NV_AS("--frandom-seed", K_EQ_OR_SEPARATE, "-frandom-seed="),
    /* warnings */
    NV_AS("--Wreorder", K_FLAG, "-Wreorder"),
    NV_AS("--Wno-deprecated-declarations", K_FLAG, "-Wno-deprecated-declarations"),
    NV_IGNORE("-Wno-deprecated-gpu-targets", K_FLAG, "clang gives no deprecated-target warning"),
    NV_IGNORE("--Wno-deprecated-gpu-targets", K_FLAG, "clang gives no deprecated-target warning"),
    NV_IGNORE("-Wdefault-stream-launch", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV_IGNORE("--Wdefault-stream-launch", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV_IGNORE("-Wmissing-launch-bounds", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV_IGNORE("--Wmissing-launch-bounds", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV_IGNORE("-Wext-lambda-captures-this", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV_IGNORE("--Wext-lambda-captures-this", K_FLAG, "an nvcc diagnostic clang does not have"),
    NV("--Werror", K_EQ_OR_SEPARATE, nv_werror,
       "all-warnings: -Werror; deprecated-declarations, reorder: -Werror=<kind>; nvcc-only kinds "
       "ignored"),
    NV_AS("--disable-warnings", K_FLAG, "-w"),
    /* nvcc's long names of clang's options */
    NV_AS("--output-file", K_EQ_OR_SEPARATE, "-o"),
    NV_AS("--compile", K_FLAG, "-c"),
    NV_AS("--preprocess", K_FLAG, "-E"),
    NV_AS("--generate-dependencies", K_FLAG, "-M"),
    NV_AS("--generate-nonsystem-dependencies", K_FLAG, "-MM"),
    NV_AS("--generate-dependencies-with-compile", K_FLAG, "-MD"),
    NV_AS("--generate-nonsystem-dependencies-with-compile", K_FLAG, "-MMD"),
    NV_AS("--dependency-output", K_EQ_OR_SEPARATE, "-MF"),
    NV_AS("--generate-dependency-targets", K_FLAG, "-MP"),
    NV_AS("--dependency-target-name", K_EQ_OR_SEPARATE, "-MT"),
    NV_AS("--pre-include", K_EQ_OR_SEPARATE, "-include"),
    NV_AS("--library", K_EQ_OR_SEPARATE, "-l"),
    NV_AS("--library-path", K_EQ_OR_SEPARATE, "-L"),
    NV_AS("--include-path", K_EQ_OR_SEPARATE, "-I"),
    NV_AS("--system-include", K_EQ_OR_SEPARATE, "-isystem"),
    NV_AS("--define-macro", K_EQ_OR_SEPARATE, "-D"),
    NV_AS("--undefine-macro", K_EQ_OR_SEPARATE, "-U"),
    NV_AS("--optimize", K_EQ_OR_SEPARATE, "-O"),
    NV_AS("--debug", K_FLAG, "-g"),
    NV_AS("--profile", K_FLAG, "-pg"),
    NV_AS("--shared", K_FLAG, "-shared"),
    NV_AS("--machine", K_EQ_OR_SEPARATE, "-m"),
    NV_AS("--m64", K_FLAG, "-m64"),
    NV_AS("-dryrun", K_FLAG, "-###"),
    NV_AS("--dryrun", K_FLAG, "-###"),
    NV_AS("--verbose", K_FLAG, "-v"),
    NV_AS("-keep", K_FLAG, "--keep"),
    NV_AS("--save-temps", K_FLAG, "-save-temps"),
    NV_AS("--link", K_FLAG, ""),
    NV_AS("-link", K_FLAG, ""),
    /* nvcc's that have no clang counterpart: one error each */
    NV_NO("-dlink", K_FLAG, "clang device-links -fgpu-rdc objects when it links the program: "
                            "link the -dc objects with orion-cc"),
    NV_NO("--device-link", K_FLAG, "as -dlink"),
    NV_NO("-fatbin", K_FLAG, "clang makes no stand-alone fatbinary: use -c"),
    NV_NO("--fatbin", K_FLAG, "as -fatbin"),
    NV_NO("-cuda", K_FLAG, "clang writes no .cu.cpp.ii: use -E"),
    NV_NO("--cuda", K_FLAG, "as -cuda"),
    NV_NO("-optix-ir", K_FLAG, "clang writes no OptiX IR"),
    NV_NO("--optix-ir", K_FLAG, "as -optix-ir"),
    NV_NO("-ltoir", K_FLAG, "clang writes no NVVM LTO IR"),
    NV_NO("--ltoir", K_FLAG, "as -ltoir"),
    NV_NO("-lib", K_FLAG, "make the library with ar from -c objects"),
    NV_NO("--lib", K_FLAG, "as -lib"),
    NV_NO("-run", K_FLAG, "build, then run the program"),
    NV_NO("--run", K_FLAG, "as -run"),
    NV_NO("-run-args", K_EQ_OR_SEPARATE, "build, then run the program"),
    NV_NO("--run-args", K_EQ_OR_SEPARATE, "as -run-args"),
    NV_NO("-odir", K_EQ_OR_SEPARATE, "name the output with -o"),
    NV_NO("--output-directory", K_EQ_OR_SEPARATE, "as -odir"),
    NV_NO("-objtemp", K_FLAG, "nvcc's temporary-file placement"),
    NV_NO("--objdir-as-tempdir", K_FLAG, "as -objtemp"),
    NV_NO("-arbin", K_EQ_OR_SEPARATE, "only for -lib"),
    NV_NO("--archiver-binary", K_EQ_OR_SEPARATE, "as -arbin"),
    NV_NO("-cudadevrt", K_EQ_OR_SEPARATE, "clang's device link chooses the device runtime"),
    NV_NO("--cudadevrt", K_EQ_OR_SEPARATE, "as -cudadevrt"),
    NV_NO("-ldir", K_EQ_OR_SEPARATE, "clang finds libdevice under --cuda-path"),
    NV_NO("--libdevice-directory", K_EQ_OR_SEPARATE, "as -ldir"),
    NV_NO("-target-dir", K_EQ_OR_SEPARATE, "give --cuda-path"),
    NV_NO("--target-directory", K_EQ_OR_SEPARATE, "as -target-dir"),
    NV_NO("-opt-info", K_EQ_OR_SEPARATE, "use clang's -Rpass options"),
    NV_NO("--optimization-info", K_EQ_OR_SEPARATE, "as -opt-info"),
    NV_NO("-Ofc", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--Ofast-compile", K_EQ_OR_SEPARATE, "as -Ofc"),
    NV_NO("-dopt", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--dopt", K_EQ_OR_SEPARATE, "as -dopt"),
    NV_NO("-dlto", K_FLAG, "device link-time optimisation is not supported by orion-cc"),
    NV_NO("--dlink-time-opt", K_FLAG, "as -dlto"),
    NV_NO("-lto", K_FLAG, "device link-time optimisation is not supported by orion-cc"),
    NV_NO("--lto", K_FLAG, "as -lto"),
    NV_NO("-gen-opt-lto", K_FLAG, "device link-time optimisation is not supported by orion-cc"),
    NV_NO("--gen-opt-lto", K_FLAG, "as -gen-opt-lto"),
    NV_NO("-fdevice-syntax-only", K_FLAG, "use -fsyntax-only"),
    NV_NO("--fdevice-syntax-only", K_FLAG, "use -fsyntax-only"),
    NV_NO("-fdevice-time-trace", K_EQ_OR_SEPARATE, "use clang's -ftime-trace"),
    NV_NO("--fdevice-time-trace", K_EQ_OR_SEPARATE, "use clang's -ftime-trace"),
    NV_NO("-keep-dir", K_EQ_OR_SEPARATE, "--keep writes next to the output"),
    NV_NO("--keep-dir", K_EQ_OR_SEPARATE, "as -keep-dir"),
    NV_NO("-clean", K_FLAG, "no clang counterpart"),
    NV_NO("--clean-targets", K_FLAG, "as -clean"),
    NV_NO("-time", K_EQ_OR_SEPARATE, "use clang's -ftime-report"),
    NV_NO("--time", K_EQ_OR_SEPARATE, "as -time"),
    NV_NO("-nodlink", K_FLAG, "clang device-links -fgpu-rdc objects when it links"),
    NV_NO("--no-device-link", K_FLAG, "as -nodlink"),
    NV_NO("--entries", K_EQ_OR_SEPARATE, "clang compiles every kernel"),
    NV_NO("-keep-device-functions", K_FLAG, "no clang counterpart"),
    NV_NO("--keep-device-functions", K_FLAG, "as -keep-device-functions"),
    NV_NO("-src-in-ptx", K_FLAG, "no clang counterpart"),
    NV_NO("--source-in-ptx", K_FLAG, "as -src-in-ptx"),
    NV_NO("-ewp", K_FLAG, "no clang counterpart"),
    NV_NO("--extensible-whole-program", K_FLAG, "as -ewp"),
    NV_NO("-static-global-template-stub", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--static-global-template-stub", K_EQ_OR_SEPARATE, "as -static-global-template-stub"),
    NV_NO("-device-entity-has-hidden-visibility", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--device-entity-has-hidden-visibility", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("-device-stack-protector", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--device-stack-protector", K_EQ_OR_SEPARATE, "as -device-stack-protector"),
    NV_NO("-sanitize", K_EQ_OR_SEPARATE, "no clang counterpart for device code"),
    NV_NO("--sanitize", K_EQ_OR_SEPARATE, "as -sanitize"),
    NV_NO("-reloc-ptx", K_FLAG, "no clang counterpart"),
    NV_NO("--relocatable-ptx", K_FLAG, "as -reloc-ptx"),
    NV_NO("-jtd", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--jump-table-density", K_EQ_OR_SEPARATE, "as -jtd"),
    NV_NO("-hls", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("--host-linker-script", K_EQ_OR_SEPARATE, "as -hls"),
    NV_NO("-aug-hls", K_FLAG, "no clang counterpart"),
    NV_NO("--augment-host-linker-script", K_FLAG, "as -aug-hls"),
    NV_NO("-qpp-config", K_EQ_OR_SEPARATE, "QNX only"),
    NV_NO("--qpp-config", K_EQ_OR_SEPARATE, "QNX only"),
    NV_NO("-astoolspatch", K_FLAG, "no clang counterpart"),
    NV_NO("--compile-as-tools-patch", K_FLAG, "as -astoolspatch"),
    NV_NO("-code-ls", K_FLAG, "see orion-cc --help for the architectures"),
    NV_NO("--list-gpu-code", K_FLAG, "as -code-ls"),
    NV_NO("-arch-ls", K_FLAG, "see orion-cc --help for the architectures"),
    NV_NO("--list-gpu-arch", K_FLAG, "as -arch-ls"),
    NV_NO("-use-local-env", K_FLAG, "Windows only"),
    NV_NO("--use-local-env", K_FLAG, "Windows only"),
    NV_NO("-force-cl-env-setup", K_FLAG, "Windows only"),
    NV_NO("--force-cl-env-setup", K_FLAG, "Windows only"),
    NV_NO("-idp", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("--input-drive-prefix", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("-ddp", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("--dependency-drive-prefix", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("-dp", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("--drive-prefix", K_EQ_OR_SEPARATE, "Windows only"),
    NV_NO("--no-align-double", K_FLAG, "no clang counterpart"),
    NV_NO("-Xarchive", K_EQ_OR_SEPARATE, "only for -lib"),
    NV_NO("--archive-options", K_EQ_OR_SEPARATE, "only for -lib"),
    NV_NO("-Xnvlink", K_EQ_OR_SEPARATE, "clang's device link is clang-linker-wrapper's"),
    NV_NO("--nvlink-options", K_EQ_OR_SEPARATE, "as -Xnvlink"),
    NV_NO("-Xfatbin", K_EQ_OR_SEPARATE, "use -Xcuda-fatbinary"),
    NV_NO("-optf", K_EQ_OR_SEPARATE, "put the options on the command line"),
    NV_NO("--options-file", K_EQ_OR_SEPARATE, "as -optf"),
    NV_NO("-forward-unknown-to-host-linker", K_FLAG, "pass linker options with -Xlinker"),
    NV_NO("--forward-unknown-to-host-linker", K_FLAG, "as -forward-unknown-to-host-linker"),
    NV_NO("--split-compile-extended", K_EQ_OR_SEPARATE, "no clang counterpart"),
    NV_NO("-split-compile-extended", K_EQ_OR_SEPARATE, "no clang counterpart"),
};

#undef O
#undef NV
#undef NV_AS
#undef NV_IGNORE
#undef NV_NO

#define N_OPTIONS (sizeof options / sizeof *options)

static int opt_matches(const cc_opt *o, const char *a, size_t n) {
  switch (o->kind) {
  case K_FLAG:
  case K_SEPARATE:
    return strcmp(a, o->name) == 0;
  case K_EQ_OR_SEPARATE:
    return strncmp(a, o->name, n) == 0 && (a[n] == '\0' || a[n] == '=');
  default:
    return strncmp(a, o->name, n) == 0;
  }
}

/* The longest spelling that matches a, or NULL. */
static const cc_opt *match(const char *a, size_t *name_len) {
  const cc_opt *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < N_OPTIONS; i++) {
    size_t n = strlen(options[i].name);
    if (n > best_len && opt_matches(&options[i], a, n)) {
      best = &options[i];
      best_len = n;
    }
  }
  *name_len = best_len;
  return best;
}

static const cc_opt *find_row(const char *name) {
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (strcmp(options[i].name, name) == 0)
      return &options[i];
  return NULL;
}

static const char *opt_reason(const cc_opt *o) {
  const cc_opt *t = o->help && drv_has_prefix(o->help, "as ") ? find_row(o->help + 3) : NULL;
  return t && t->help ? t->help : o->help;
}

/* An nvcc row that stands for other spellings: the row named by its alias
 * acts (its handler, then it is passed on in that row's form); else the
 * alias's words go to clang, with the value joined to an alias ending in
 * '=' or after them. */
static int act_as(cc *c, const cc_opt *o, cc_arg *arg) {
  const cc_opt *t = find_row(o->alias);
  if (t) {
    arg->opt = t;
    arg->reason = opt_reason(t);
    int r = t->fn ? t->fn(c, arg) : CC_PASS;
    if (r != CC_PASS)
      return r;
    if (t->kind == K_FLAG) {
      sv_push(&c->user_args, t->name);
    } else if (t->kind == K_JOINED) {
      sv_pushf(&c->user_args, "%s%s", t->name, arg->val);
    } else {
      sv_push(&c->user_args, t->name);
      sv_push(&c->user_args, arg->val);
    }
    return CC_DROP;
  }
  strvec words;
  sv_init(&words);
  char *copy = drv_xstrdup(o->alias);
  for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
    sv_push(&words, w);
  free(copy);
  if (arg->val && words.n && drv_has_suffix(o->alias, "=")) {
    char *last = words.v[words.n - 1];
    words.v[words.n - 1] = drv_xasprintf("%s%s", last, arg->val);
    free(last);
  } else if (arg->val) {
    sv_push(&words, arg->val);
  }
  sv_extend(&c->user_args, &words);
  sv_free(&words);
  return CC_DROP;
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

/* Handle the option o matched at argv[*i] (name length n). */
static int take_option(cc *c, const cc_opt *o, size_t n, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  cc_arg arg = {a, o, NULL, 0, opt_reason(o)};
  int sep = o->kind == K_SEPARATE ||
            ((o->kind == K_JOINED_OR_SEPARATE || o->kind == K_EQ_OR_SEPARATE) && !a[n]);
  if (sep) {
    if (*i + 1 >= argc) {
      drv_error("missing %s after '%s'", o->meta ? o->meta : "argument", a);
      return 0;
    }
    arg.val = argv[++*i];
    arg.separate = 1;
  } else if (o->kind == K_EQ_OR_SEPARATE) {
    arg.val = a + n + 1;
  } else if (o->kind != K_FLAG) {
    arg.val = a + n;
  }
  int r = o->alias ? act_as(c, o, &arg) : o->fn ? o->fn(c, &arg) : CC_PASS;
  if (r == CC_ERR)
    return 0;
  if (r == CC_PASS) {
    sv_push(&c->user_args, a);
    if (arg.separate)
      sv_push(&c->user_args, arg.val);
  }
  return 1;
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
    if (!o)
      sv_push(&c->user_args, a); /* clang's business */
    else if (!take_option(c, o, n, argc, argv, &i))
      return 0;
  }
  return cc_nvcc_finish(c);
}

void cc_print_nvcc_options(FILE *f) {
  for (size_t i = 0; i < N_OPTIONS; i++) {
    const cc_opt *o = &options[i];
    if (o->help == NULL && o->alias == NULL)
      continue; /* Orion's and clang's rows */
    const char *value = o->kind == K_FLAG ? "" : " <value>";
    if (o->fn == nv_unmapped)
      fprintf(f, "%s%s\tunsupported: %s\n", o->name, value, o->help);
    else if (o->fn == nv_ignore)
      fprintf(f, "%s%s\tignored: %s\n", o->name, value, o->help);
    else if (o->alias)
      fprintf(f, "%s%s\t%s\n", o->name, value, o->alias[0] ? o->alias : "(nothing: the default)");
    else
      fprintf(f, "%s%s\t%s\n", o->name, value, o->help);
  }
}
