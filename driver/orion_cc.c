/* orion-cc - compile CUDA with Orion: a clang++ driver wrapper.
 *
 * Usage: orion-cc [orion options] [clang options] inputs...
 *
 * .cu inputs (or -x cuda): one clang++ run with, ahead of the user's
 * arguments,
 *   --cuda-path=<cuda> -Wno-unknown-cuda-version
 *   -fpass-plugin=<prefix>/lib/OrionPass.so --ptxas-path=<prefix>/bin/orion-ptxas
 *   -isystem <cuda>/include/cccl -Wno-register
 *   -include <prefix>/include/orion/nvcc_compat.h
 *   -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1      (nvcc's exact sqrtf)
 *   --cuda-gpu-arch=sm_90                             (when none is given)
 * (--no-orion: no plugin or orion-ptxas, and -DORION_NO_MAXNREG_COMPAT after
 * the header); the user's ptxas --maxrregcount N (-maxrregcount, -Xptxas,
 * -Xcuda-ptxas) also reaches the pass, as ORION_MAXRREGCOUNT=N in clang's
 * environment;
 * and, when linking, after them the runtime and what it needs
 * (--orion-rt=static, the default): -L<prefix>/lib -l:liborionrt.a
 *   -L<cuda>/lib64 -Wl,-rpath,<cuda>/lib64 -lcudart -ldl -lpthread -lm;
 * --orion-rt=shared: -L<prefix>/lib -Wl,-rpath,<prefix>/lib -lorionrt, then
 * the same; --orion-rt=none: only the CUDA runtime, and the pass's host side
 * is turned off (ORION_LAUNCH_HOOK=0 in clang's environment) so the objects
 * do not call the runtime.  --no-orion links no runtime either.
 * Linking objects (no .cu input) with -fgpu-rdc adds --cuda-path and
 * --offload-link, so clang device-links -fgpu-rdc objects (-c output) as
 * it does when a .cu input is linked; such a link without -fgpu-rdc gets
 * no device code (clang's behaviour too).
 * nvcc's options are translated through the option table (cc_args.c,
 * cc_nvcc.c).  Every GPU architecture is checked against Orion's occupancy
 * model first: a well-formed one the model lacks (sm_103) passes through
 * with a warning.  Everything else passes through to clang unchanged.
 *
 * .ptx input (the PTX-level path, e.g. from `nvcc -ptx`): cc_ptx.c.
 *
 * The work is a table of stages (below); each stage either runs one
 * subprocess (printed instead under -###, and before running under -v) or
 * does in-process work (printed as a '#' comment under -###).
 * Errors: "orion-cc: error: <file>: <problem>", exit 1, no output file.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc.h"
#include "cc_report.h"
#include "ptxas_driver.h"
#include "orion/select.h"
#include "orion_build_config.h"

/* ---- usage ---- */

static void usage(FILE *f) {
  fprintf(f,
          "usage: orion-cc [orion options] [clang options] file.cu...\n"
          "       orion-cc --cuda-gpu-arch=sm_90 kernel.ptx -o kernel.cubin\n"
          "       orion-cc --cuda-gpu-arch=sm_90 -S kernel.ptx -o kernel.orion.ptx\n"
          "\n"
          "Compiles CUDA with clang++ and Orion's occupancy tuning: the OrionPass\n"
          "plugin emits up to %d versions per kernel, orion-ptxas assembles them and\n"
          "drops duplicates, and the runtime picks the fastest while the program runs.\n"
          "\n"
          "Orion options:\n"
          "  -###                   print the commands, do not run them\n"
          "  -v                     print the commands as they run (and pass -v to clang)\n"
          "  --keep                 keep intermediate files (PTX *.s, cubins) next to the output\n"
          "  --orion-report         print a per-kernel table of Orion's decisions to stderr\n"
          "  --orion-report=FILE    write them as JSON to FILE\n"
          "  --no-nvcc-compat       do not force-include orion/nvcc_compat.h\n"
          "  --no-orion             build without the pass and orion-ptxas (baseline)\n"
          "  --orion-rt=MODE        link liborionrt: static (default), shared, or none (no\n"
          "                         runtime: kernel launches stay plain cudaLaunchKernel)\n"
          "  --orion-spill=POLICY   versions that spill or keep a stack frame: auto (default:\n"
          "                         Orion's SASS rewrite of the frame, or of its most used\n"
          "                         slots, into shared memory where it applies - sm_90, no\n"
          "                         dynamic shared memory, no ABI calls, no occupancy loss -\n"
          "                         and the version's local accesses are at least 1.5x its\n"
          "                         global loads, else local memory; no extra ptxas run, so a\n"
          "                         part that needs a register stays local), smem (as auto;\n"
          "                         where the rewrite cannot apply, ptxas's .pragma\n"
          "                         \"enable_smem_spilling\" with .maxntid where ptxas allows\n"
          "                         it and it lowers local-memory traffic: two more ptxas\n"
          "                         runs), sass (the rewrite wherever it applies, else as\n"
          "                         smem), pragma (the pragma wherever ptxas accepts it: the\n"
          "                         baseline), off (leave them as ptxas made them), partial\n"
          "                         (as sass, and a frame too large moves in part: its most\n"
          "                         used slots, as many as the version's occupancy allows),\n"
          "                         dynamic (as partial, in the launch's dynamic shared\n"
          "                         memory: sized by the runtime for each launch's block,\n"
          "                         beyond 48 KB)\n"
          "  --orion-split          also emit each kernel's split clone, which the runtime\n"
          "                         needs to tune a single launch in parts (ORION_SPLIT=1)\n"
          "  --orion-codegen=LIST   device code-generation defaults (not under --no-orion):\n"
          "                         default, none, or names, no-<name> turning\n"
          "                         one off, read left to right:\n",
          ORION_MAX_VERSIONS);
  cc_codegen_help(f);
  fprintf(f,
          "  --help, --help-nvcc, --version\n"
          "\n"
          "nvcc's options (-arch, -gencode, -use_fast_math, -Xcompiler, -rdc, ...) are\n"
          "translated into clang's through one table; --help-nvcc lists each and what it\n"
          "maps to.  An nvcc option with no clang counterpart is an error naming it.\n"
          "\n"
          "PTX input (.ptx): --cuda-gpu-arch=ARCH (one), -S (write versioned PTX),\n"
          "  -o FILE, -O<n>, -Xptxas ARG (or -Xcuda-ptxas ARG), -v.\n"
          "\n"
          "Everything else goes to clang++ unchanged.  Defaults added: --cuda-gpu-arch=%s,\n"
          "--cuda-path, nvcc-compatible numerics and headers; when linking, liborionrt\n"
          "and cudart.\n"
          "\n"
          "Environment: ORION_CLANG (clang++), ORION_CUDA_PATH or CUDA_PATH (CUDA\n"
          "toolkit), ORION_REAL_PTXAS (ptxas used by orion-ptxas); OrionPass reads\n"
          "ORION_SM, ORION_MAX_VERSIONS, ORION_CAP_FLOOR, ORION_UNROLL_VERSIONS, ORION_BLOCK,\n"
          "ORION_CC_REPORT, ORION_LAUNCH_HOOK, ORION_SPLIT_CLONES (--orion-codegen sets\n"
          "ORION_RELAXED_CAS, ORION_FOLD_POW, ORION_INTERNALIZE, ORION_ALIGN_ARRAYS).\n",
          DEFAULT_ARCH);
}

/* ---- checks shared by the stages ---- */

static int check_readable(const char *path) {
  if (strcmp(path, "-") == 0)
    return 1;
  if (access(path, R_OK) != 0) {
    drv_error("%s: %s", path, strerror(errno));
    return 0;
  }
  orion_strbuf probe;
  if (drv_read_file(path, &probe) != 0) {
    drv_error("%s: %s", path, strerror(errno));
    return 0;
  }
  orion_sb_free(&probe);
  return 1;
}

static int check_output_dir(const char *out) {
  if (!out || strcmp(out, "-") == 0)
    return 1;
  char *dir = drv_dirname(out);
  int ok = access(dir, W_OK | X_OK) == 0;
  if (!ok)
    drv_error("%s: cannot write output: %s", out, strerror(errno));
  free(dir);
  return ok;
}

static int check_tool(const char *path, const char *what, const char *hint) {
  if (drv_is_executable(path))
    return 1;
  drv_error("%s: %s not found or not executable (%s)", path, what, hint);
  return 0;
}

/* ---- stage predicates ---- */

static int ptx_mode(const cc *c) { return c->ptx_inputs.n > 0; }
static int clang_mode(const cc *c) { return !ptx_mode(c); }
static int ptx_assemble_mode(const cc *c) { return ptx_mode(c) && !c->assemble_only; }
static int report_mode(const cc *c) { return c->report && !c->dry_run; }

/* ---- link predicates ---- */

static int linking(const cc *c) {
  return !c->compile_only && !c->assemble_only && !c->preprocess_only && !c->syntax_only &&
         !c->deps_only && !c->device_only;
}

/* The clang stage links an executable that gets liborionrt. */
static int links_runtime(const cc *c) {
  return clang_mode(c) && linking(c) && c->inputs.n && !c->no_orion && c->rt_mode != DRV_RT_NONE;
}

/* ---- stage: validate ---- */

static int stage_validate(cc *c) {
  if (ptx_mode(c) && cc_ptx_check_options(c) != 0)
    return 1;
  if (c->dry_run)
    return 0;
  for (size_t i = 0; i < c->inputs.n; i++)
    if (!check_readable(c->inputs.v[i]))
      return 1;
  if (!check_output_dir(c->output))
    return 1;
  if (c->report_file && !check_output_dir(c->report_file))
    return 1;
  if (ptx_mode(c)) {
    if (!check_tool(c->real_ptxas, "ptxas", "set ORION_REAL_PTXAS, or ORION_CUDA_PATH to a CUDA toolkit"))
      return 1;
    if (!c->assemble_only && !check_tool(c->orion_ptxas, "orion-ptxas", "is Orion installed completely?"))
      return 1;
    return 0;
  }
  if (!check_tool(c->clang, "clang++", "set ORION_CLANG"))
    return 1;
  if (links_runtime(c)) {
    char *lib = drv_runtime_lib(c->bin_dir, c->rt_mode == DRV_RT_SHARED);
    int ok = drv_file_exists(lib);
    if (!ok)
      drv_error("%s: Orion runtime library not found (build the orionrt target, or use "
                "--orion-rt=none)",
                lib);
    free(lib);
    if (!ok)
      return 1;
  }
  int device_work = c->cuda_inputs.n && !c->preprocess_only && !c->syntax_only &&
                    !c->deps_only && !c->host_only;
  if (device_work && !c->no_orion) {
    if (!drv_file_exists(c->plugin)) {
      drv_error("%s: Orion pass plugin not found (build the OrionPass target, or use --no-orion)",
                c->plugin);
      return 1;
    }
    if (!check_tool(c->orion_ptxas, "orion-ptxas", "is Orion installed completely?"))
      return 1;
  }
  if (device_work && !c->assemble_only) {
    const char *p = c->user_ptxas_path ? c->user_ptxas : c->real_ptxas;
    if (!check_tool(p, "ptxas", c->user_ptxas_path ? "check --ptxas-path"
                                                   : "set ORION_REAL_PTXAS, or ORION_CUDA_PATH to a CUDA toolkit"))
      return 1;
  }
  return 0;
}

/* ---- stage: clang ---- */

/* clang runs ptxas (ours or the user's): device code is assembled. */
static int runs_ptxas(const cc *c) {
  return c->cuda_inputs.n && !c->preprocess_only && !c->syntax_only && !c->deps_only &&
         !c->host_only && !c->assemble_only;
}

/* What a compile of .cu inputs gets ahead of the user's arguments. */
static void clang_cuda_flags(cc *c, strvec *argv, strvec *env) {
  if (!c->user_cuda_path)
    sv_pushf(argv, "--cuda-path=%s", c->cuda);
  sv_push(argv, "-Wno-unknown-cuda-version");
  if (!c->no_orion) {
    sv_pushf(argv, "-fpass-plugin=%s", c->plugin);
    /* only where clang runs ptxas: elsewhere clang calls it unused (-Werror) */
    if (runs_ptxas(c))
      sv_pushf(argv, "--ptxas-path=%s", c->orion_ptxas);
    if (c->user_ptxas_path)
      sv_pushf(env, "ORION_REAL_PTXAS=%s", c->user_ptxas);
    else if (c->user_cuda_path)
      sv_pushf(env, "ORION_CUDA_PATH=%s", c->cuda);
    if (c->rt_mode == DRV_RT_NONE)
      sv_push(env, "ORION_LAUNCH_HOOK=0"); /* no runtime: plain launches */
    if (c->spill)
      sv_pushf(env, "ORION_PTXAS_SPILL=%s", c->spill);
    if (c->split)
      sv_push(env, "ORION_SPLIT_CLONES=1"); /* the pass emits the split clones */
    if (!c->host_only)
      cc_codegen_args(c->codegen, c->gpu_rdc, argv, env);
    if (c->verbose && !c->dry_run)
      sv_push(env, "ORION_PTXAS_COMMANDS=1"); /* orion-ptxas shows its ptxas runs */
    int maxrreg = ptxas_args_maxrregcount(&c->ptxas_user);
    if (maxrreg && !c->host_only)
      sv_pushf(env, "ORION_MAXRREGCOUNT=%d", maxrreg); /* a ceiling for the pass too */
  } else if (c->user_ptxas_path && runs_ptxas(c)) {
    sv_pushf(argv, "--ptxas-path=%s", c->user_ptxas);
  }
  /* nvcc compatibility: headers, language and numerics */
  drv_nvcc_compat_args(argv, c->cuda, c->no_compat ? NULL : c->compat);
  if (!c->no_compat && c->no_orion) /* no pass to read its __maxnreg__: clang's own */
    sv_push(argv, "-DORION_NO_MAXNREG_COMPAT");
  if (cc_prec_sqrt(c)) {
    sv_push(argv, "-mllvm");
    sv_push(argv, "-nvvm-reflect-add=__CUDA_PREC_SQRT=1");
  }
  if (!c->user_arch)
    sv_push(argv, "--cuda-gpu-arch=" DEFAULT_ARCH);
  sv_extend(argv, &c->nv_cuda);
  if (!c->host_only)
    sv_extend(argv, &c->nv_device);
  if (runs_ptxas(c))
    sv_extend(argv, &c->nv_ptxas);
}

static int stage_clang(cc *c) {
  strvec argv, env;
  sv_init(&argv);
  sv_init(&env);
  sv_push(&argv, c->clang);
  int cuda = c->cuda_inputs.n > 0;
  if (cuda)
    clang_cuda_flags(c, &argv, &env);
  else if (c->user_ptxas_path)
    sv_pushf(&argv, "--ptxas-path=%s", c->user_ptxas);
  if (c->keep)
    sv_push(&argv, "-save-temps=obj");
  sv_extend(&argv, &c->user_args);
  /* -fgpu-rdc objects carry their device code for a link-time device link
   * (clang's offload driver: clang-linker-wrapper, nvlink), which clang
   * runs for a link of objects only when told (with a .cu input it does it
   * anyway); without it the program would have no device code at all.
   * nvcc device-links such objects without being told: so does orion-cc. */
  if (linking(c) && c->inputs.n && !cuda && (c->gpu_rdc || cc_inputs_have_rdc(c))) {
    if (!c->user_cuda_path)
      sv_pushf(&argv, "--cuda-path=%s", c->cuda);
    sv_push(&argv, "--offload-link");
  }
  if (linking(c) && c->inputs.n)
    drv_rt_link_flags(&argv, links_runtime(c) ? c->rt_mode : DRV_RT_NONE, c->bin_dir, c->cuda);
  if (c->report && cuda && !c->no_orion) {
    if (!cc_need_tmpdir(c)) {
      sv_free(&argv);
      sv_free(&env);
      return 1;
    }
    sv_pushf(&env, "ORION_CC_REPORT=%s/pass.jsonl", c->tmpdir);
    sv_pushf(&env, "ORION_PTXAS_REPORT=%s/ptxas-%%p.json", c->tmpdir);
  }
  int st = cc_run_cmd(c, &argv, &env, 0, NULL);
  if (cuda && !c->no_orion)
    cc_note_spill_commands(c, "clang runs it as its ptxas", 0);
  if (st == 0 && c->keep && !c->dry_run && cuda) {
    char *dir = c->output ? drv_dirname(c->output) : drv_xstrdup(".");
    drv_note("kept intermediate files in %s: PTX <input>-cuda-nvptx64-nvidia-cuda-<arch>.s, "
             "cubin <input>-cuda-nvptx64-nvidia-cuda-<arch>.o",
             dir);
    free(dir);
  }
  sv_free(&argv);
  sv_free(&env);
  return st;
}

/* ---- stage: report ---- */

static int stage_report(cc *c) {
  if (!c->tmpdir)
    return 0;
  return cc_report_emit(c->tmpdir, c->report_file);
}

/* ---- the stage table ---- */

typedef struct stage {
  const char *name;
  int (*applies)(const cc *);
  int (*run)(cc *);
} stage;

static int always(const cc *c) {
  (void)c;
  return 1;
}

static const stage stages[] = {
    {"validate", always, stage_validate},
    {"ptx-probe", ptx_mode, cc_stage_ptx_probe},
    {"ptx-version", ptx_mode, cc_stage_ptx_version},
    {"ptx-assemble", ptx_assemble_mode, cc_stage_ptx_assemble},
    {"clang", clang_mode, stage_clang},
    {"report", report_mode, stage_report},
};

/* Apply f to each of c's vectors (initialisation, release). */
static void for_each_vec(cc *c, void (*f)(strvec *)) {
  strvec *const vecs[] = {&c->user_args, &c->archs,    &c->inputs,    &c->cuda_inputs,
                          &c->ptx_inputs, &c->ptxas_user, &c->nv_archs, &c->nv_codes,
                          &c->nv_gen,    &c->new_archs, &c->nv_device, &c->nv_codegen,
                          &c->nv_cuda,   &c->nv_ptxas};
  for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
    f(vecs[i]);
}

static void cc_free(cc *c) {
  free(c->bin_dir);
  free(c->clang);
  free(c->cuda);
  free(c->plugin);
  free(c->orion_ptxas);
  free(c->compat);
  free(c->real_ptxas);
  free(c->report_file);
  free(c->user_ptxas);
  free(c->versioned_ptx);
  for_each_vec(c, sv_free);
  if (c->probe_done)
    ptxas_info_free(&c->probe);
  if (c->tmpdir && !c->dry_run)
    drv_remove_temp_dir(c->tmpdir);
  free(c->tmpdir);
}

int main(int argc, char **argv) {
  drv_prog = "orion-cc";
  cc c;
  memset(&c, 0, sizeof c);
  for_each_vec(&c, sv_init);
  c.prec_sqrt = -1;
  c.codegen = cc_codegen_defaults();
  c.bin_dir = drv_self_dir(argv[0]);
  c.clang = drv_clang();
  c.cuda = drv_cuda_path();
  c.plugin = drv_plugin_path(c.bin_dir);
  c.orion_ptxas = drv_orion_ptxas_path(c.bin_dir);
  c.compat = drv_compat_header_path(c.bin_dir);

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-help") == 0) {
      usage(stdout);
      cc_free(&c);
      return 0;
    }
    if (strcmp(argv[i], "--help-nvcc") == 0) {
      cc_print_nvcc_options(stdout);
      cc_free(&c);
      return 0;
    }
    if (strcmp(argv[i], "--version") == 0) {
      printf("orion-cc (Orion) %s\nclang: %s\nCUDA: %s\n", ORION_VERSION_STRING, c.clang, c.cuda);
      cc_free(&c);
      return 0;
    }
  }
  if (!cc_parse_args(&c, argc, argv)) {
    cc_free(&c);
    return 1;
  }
  /* --cuda-path given: ptxas comes from there unless ORION_REAL_PTXAS says */
  const char *rp = getenv("ORION_REAL_PTXAS");
  c.real_ptxas = rp && *rp ? drv_xstrdup(rp) : drv_xasprintf("%s/bin/ptxas", c.cuda);
  if (c.inputs.n == 0 && !c.dry_run) {
    drv_error("no input files (see orion-cc --help)");
    cc_free(&c);
    return 1;
  }
  drv_defer_signals();
  /* A failed run (a compile, a link, the report) leaves -o as it was. */
  orion_output_kept kept = {0, NULL};
  int keep = c.output && strcmp(c.output, "-") != 0 && !c.dry_run;
  if (keep && orion_output_keep(c.output, &kept) != 0) {
    drv_error("%s: %s", c.output, strerror(errno));
    cc_free(&c);
    return 1;
  }
  int st = 0;
  for (size_t i = 0; i < sizeof stages / sizeof *stages && st == 0 && !drv_pending_signal(); i++)
    if (stages[i].applies(&c))
      st = stages[i].run(&c);
  if (keep && orion_output_settle(c.output, &kept, st == 0 && !drv_pending_signal()) != 0 &&
      st == 0) {
    drv_error("%s: %s", c.output, strerror(errno));
    st = 1;
  }
  cc_free(&c); /* removes the temporary directory */
  drv_reraise_pending_signal();
  return st;
}
