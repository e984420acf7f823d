/* orion-cc - compile CUDA with Orion: a clang++ driver wrapper.
 *
 * Usage: orion-cc [orion options] [clang options] inputs...
 *
 * .cu inputs (or -x cuda): one clang++ run with, ahead of the user's
 * arguments,
 *   --cuda-path=<cuda> -Wno-unknown-cuda-version
 *   -fpass-plugin=<prefix>/lib/OrionPass.so --ptxas-path=<prefix>/bin/orion-ptxas
 *   -isystem <cuda>/include/cccl -include <prefix>/include/orion/nvcc_compat.h
 *   -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1      (nvcc's exact sqrtf)
 *   --cuda-gpu-arch=sm_90                             (when none is given)
 * and, when linking, after them the runtime and what it needs
 * (--orion-rt=static, the default): -L<prefix>/lib -l:liborionrt.a
 *   -L<cuda>/lib64 -Wl,-rpath,<cuda>/lib64 -lcudart -ldl -lpthread;
 * --orion-rt=shared: -L<prefix>/lib -Wl,-rpath,<prefix>/lib -lorionrt, then
 * the same; --orion-rt=none: only the CUDA runtime, and the pass's host side
 * is turned off (ORION_LAUNCH_HOOK=0 in clang's environment) so the objects
 * do not call the runtime.  --no-orion links no runtime either.
 * Linking objects (no .cu input) with -fgpu-rdc adds --cuda-path and
 * --offload-link, so clang device-links -fgpu-rdc objects (-c output) as
 * it does when a .cu input is linked; such a link without -fgpu-rdc gets
 * no device code (clang's behaviour too).
 * Every --cuda-gpu-arch/--offload-arch is checked against Orion's occupancy
 * model first.  Everything else passes through to clang unchanged.
 *
 * .ptx input (the PTX-level path, e.g. from `nvcc -ptx`): ptxas -v on the
 * original gives each entry's registers; orion_select_versions picks the
 * versions; each non-padding version becomes a cloned entry
 * K__orion_<tag> with .maxnreg, plus the record string __orion_rec_K; then
 * orion-ptxas assembles it (-o k.cubin), or -S writes the versioned PTX.
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

#include "cc_report.h"
#include "json.h"
#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion/select.h"
#include "orion_build_config.h"
#include "proc.h"
#include "ptx.h"
#include "ptxas_driver.h"
#include "ptxas_info.h"
#include "toolpaths.h"
#include "util.h"

#define DEFAULT_ARCH "sm_90"

typedef struct cc {
  /* tools and files */
  char *bin_dir, *clang, *cuda, *plugin, *orion_ptxas, *compat, *real_ptxas;
  /* orion options */
  int dry_run, verbose, keep, report, no_compat, no_orion;
  drv_rt_mode rt_mode;
  char *report_file;
  const char *spill; /* --orion-spill=auto|sass|pragma|off, or NULL */
  /* what the user asked clang for */
  strvec user_args; /* passed through, in order */
  strvec archs;     /* validated --cuda-gpu-arch / --offload-arch values */
  strvec inputs;
  strvec cuda_inputs;
  strvec ptx_inputs;
  const char *output;
  int compile_only, assemble_only, preprocess_only, syntax_only, deps_only;
  int device_only, host_only;
  int gpu_rdc; /* -fgpu-rdc (or -fcuda-rdc) in effect: the last of it and -fno-gpu-rdc */
  int user_cuda_path, user_ptxas_path;
  char *user_ptxas;
  int user_arch;
  /* PTX path */
  strvec ptxas_user; /* -Xptxas / -Xcuda-ptxas / -O<n> / -v for ptxas */
  char *versioned_ptx;
  ptxas_info probe;
  int probe_done;
  /* scratch */
  char *tmpdir;
} cc;

/* ---- option tables ---- */

/* clang options whose value is the next argument. */
static const char *const clang_sep_opts[] = {
    "-o", "-x", "-I", "-L", "-D", "-U", "-include", "-imacros", "-isystem",
    "-idirafter", "-iquote", "-isysroot", "-iprefix", "-iwithprefix",
    "-iwithprefixbefore", "-cxx-isystem", "-Xclang", "-Xlinker", "-Xassembler",
    "-Xpreprocessor", "-Xarch_device", "-Xarch_host", "-Xcuda-ptxas",
    "-Xcuda-fatbinary", "-Xoffload-linker", "-Xopenmp-target", "-mllvm", "-MF",
    "-MT", "-MQ", "-target", "-u", "-T", "-z", "-l", "-F", "-B", "-arch",
    "-include-pch", "-resource-dir", "--sysroot", "--serialize-diagnostics",
    "-dependency-file", "-ivfsoverlay", "--param", "-e", NULL,
};

static int is_sep_opt(const char *a) {
  for (const char *const *o = clang_sep_opts; *o; o++)
    if (strcmp(a, *o) == 0)
      return 1;
  return 0;
}

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
          "                         Orion's SASS rewrite of the frame into shared memory\n"
          "                         where it applies - sm_90, no dynamic shared memory, no\n"
          "                         ABI calls, no occupancy loss - else ptxas's .pragma\n"
          "                         \"enable_smem_spilling\" with .maxntid where ptxas\n"
          "                         allows it and it lowers local-memory traffic), sass (the\n"
          "                         rewrite wherever it applies, else as auto), pragma (the\n"
          "                         pragma wherever ptxas accepts it: the baseline), off\n"
          "                         (leave them as ptxas made them)\n"
          "  --help, --version\n"
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
          "ORION_SM, ORION_MAX_VERSIONS, ORION_BLOCK, ORION_REPORT, ORION_LAUNCH_HOOK.\n",
          ORION_MAX_VERSIONS, DEFAULT_ARCH);
}

/* ---- argument parsing ---- */

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

static int is_ptx_name(const char *f) { return drv_has_suffix(f, ".ptx"); }

static int is_cuda_name(const char *f) { return drv_has_suffix(f, ".cu"); }

static int parse_args(cc *c, int argc, char **argv) {
  const char *lang = NULL; /* -x value in effect */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* Orion's own options */
    if (strcmp(a, "-###") == 0) {
      c->dry_run = 1;
      continue;
    }
    if (strcmp(a, "--keep") == 0) {
      c->keep = 1;
      continue;
    }
    if (strcmp(a, "--orion-report") == 0) {
      c->report = 1;
      continue;
    }
    if (drv_has_prefix(a, "--orion-report=")) {
      if (!a[15]) {
        drv_error("missing file name in '--orion-report='");
        return 0;
      }
      c->report = 1;
      free(c->report_file);
      c->report_file = drv_xstrdup(a + 15);
      continue;
    }
    if (strcmp(a, "--no-nvcc-compat") == 0) {
      c->no_compat = 1;
      continue;
    }
    if (strcmp(a, "--no-orion") == 0) {
      c->no_orion = 1;
      continue;
    }
    if (drv_has_prefix(a, "--orion-rt=")) {
      int m = drv_rt_mode_parse(a + 11);
      if (m < 0) {
        drv_error("invalid value in '%s' (expected static, shared or none)", a);
        return 0;
      }
      c->rt_mode = (drv_rt_mode)m;
      continue;
    }
    if (drv_has_prefix(a, "--orion-spill=")) {
      if (optx_spill_policy_parse(a + 14) < 0) {
        drv_error("invalid value in '%s' (expected auto, pragma, off or sass)", a);
        return 0;
      }
      c->spill = a + 14;
      continue;
    }
    if (drv_has_prefix(a, "--orion-")) {
      drv_error("unknown Orion option '%s' (see orion-cc --help)", a);
      return 0;
    }
    if (strcmp(a, "-v") == 0)
      c->verbose = 1;
    /* options orion-cc looks at (they still go to clang unless noted) */
    if (drv_has_prefix(a, "--cuda-gpu-arch=") || drv_has_prefix(a, "--offload-arch=")) {
      if (!check_arch(c, strchr(a, '=') + 1))
        return 0;
      c->user_arch = 1;
    } else if (drv_has_prefix(a, "--cuda-path=")) {
      c->user_cuda_path = 1;
      free(c->cuda);
      c->cuda = drv_xstrdup(a + 12);
    } else if (drv_has_prefix(a, "--ptxas-path=")) {
      /* orion-ptxas runs in its place and calls this one */
      c->user_ptxas_path = 1;
      free(c->user_ptxas);
      c->user_ptxas = drv_xstrdup(a + 13);
      continue;
    } else if (strcmp(a, "-fgpu-rdc") == 0 || strcmp(a, "-fcuda-rdc") == 0) {
      c->gpu_rdc = 1;
    } else if (strcmp(a, "-fno-gpu-rdc") == 0 || strcmp(a, "-fno-cuda-rdc") == 0) {
      c->gpu_rdc = 0;
    } else if (strcmp(a, "-c") == 0) {
      c->compile_only = 1;
    } else if (strcmp(a, "-S") == 0) {
      c->assemble_only = 1;
    } else if (strcmp(a, "-E") == 0) {
      c->preprocess_only = 1;
    } else if (strcmp(a, "-fsyntax-only") == 0) {
      c->syntax_only = 1;
    } else if (strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0) {
      c->deps_only = 1;
    } else if (strcmp(a, "--cuda-device-only") == 0 || strcmp(a, "--offload-device-only") == 0) {
      c->device_only = 1;
    } else if (strcmp(a, "--cuda-host-only") == 0 || strcmp(a, "--offload-host-only") == 0) {
      c->host_only = 1;
    } else if (strcmp(a, "-Xptxas") == 0) {
      if (i + 1 >= argc) {
        drv_error("missing argument after '%s'", a);
        return 0;
      }
      /* nvcc spelling; clang's is -Xcuda-ptxas */
      sv_push(&c->ptxas_user, argv[i + 1]);
      sv_push(&c->user_args, "-Xcuda-ptxas");
      sv_push(&c->user_args, argv[++i]);
      continue;
    } else if (strcmp(a, "-Xcuda-ptxas") == 0 && i + 1 < argc) {
      sv_push(&c->ptxas_user, argv[i + 1]);
    } else if (drv_has_prefix(a, "-O") && a[2] >= '0' && a[2] <= '9' && !a[3]) {
      sv_push(&c->ptxas_user, a); /* for the PTX path; clang takes it too */
    }
    if (strcmp(a, "-x") == 0 || (drv_has_prefix(a, "-x") && a[2] && a[1] == 'x' && !strchr(a, '='))) {
      const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[i + 1] : NULL);
      if (!v) {
        drv_error("missing argument after '-x'");
        return 0;
      }
      lang = strcmp(v, "none") == 0 ? NULL : v;
      if (strcmp(v, "cu") == 0) { /* nvcc's spelling of -x cuda */
        lang = "cuda";
        if (a[2]) {
          sv_push(&c->user_args, "-xcuda");
        } else {
          sv_push(&c->user_args, "-x");
          sv_push(&c->user_args, "cuda");
          i++;
        }
        continue;
      }
    }
    if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) {
        drv_error("missing file name after '-o'");
        return 0;
      }
      c->output = argv[i + 1];
    } else if (drv_has_prefix(a, "-o") && a[2] && strcmp(a, "-objcmt") != 0 && a[1] == 'o' &&
               !drv_has_prefix(a, "-obj")) {
      c->output = a + 2;
    }
    if (a[0] == '-' && a[1] && is_sep_opt(a)) {
      if (i + 1 >= argc) {
        drv_error("missing argument after '%s'", a);
        return 0;
      }
      sv_push(&c->user_args, a);
      sv_push(&c->user_args, argv[++i]);
      continue;
    }
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      sv_push(&c->inputs, a);
      if (lang ? strcmp(lang, "cuda") == 0 : is_cuda_name(a))
        sv_push(&c->cuda_inputs, a);
      else if (!lang && is_ptx_name(a))
        sv_push(&c->ptx_inputs, a);
    }
    sv_push(&c->user_args, a);
  }
  return 1;
}

/* ---- running commands ---- */

static void print_command(char *const argv[], char *const env[]) {
  strbuf b;
  sb_init(&b);
  drv_format_command(&b, argv, env);
  fflush(stdout);
  if (b.len)
    fwrite(b.p, 1, b.len, stderr);
  sb_free(&b);
}

/* Run (or under -### print) one command.  capture: collect output in *res. */
static int run_cmd(cc *c, strvec *argv, strvec *env, int capture, drv_proc_result *res) {
  drv_proc_result local;
  drv_proc_result *r = res ? res : &local;
  memset(r, 0, sizeof *r);
  if (c->dry_run || c->verbose)
    print_command(argv->v, env ? env->v : NULL);
  if (c->dry_run)
    return 0;
  int st = drv_run(argv->v, env ? env->v : NULL, capture, r);
  if (st < 0) {
    drv_error("%s: cannot run: %s", argv->v[0], strerror(r->spawn_errno));
    st = 1;
  }
  if (!res)
    drv_proc_result_free(&local);
  return st;
}

static void note_inprocess(cc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_inprocess(cc *c, const char *fmt, ...) {
  if (!c->dry_run && !c->verbose)
    return;
  strbuf b;
  sb_init(&b);
  sb_adds(&b, "# orion-cc (in process): ");
  va_list ap;
  va_start(ap, fmt);
  sb_vaddf(&b, fmt, ap);
  va_end(ap);
  sb_addc(&b, '\n');
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  sb_free(&b);
}

/* Under -###: orion-ptxas's conditional extra ptxas runs, as a comment
 * (what runs depends on ptxas's figures; driver/README.md). */
static void note_spill_commands(cc *c, const char *how, int show_path) {
  if (!c->dry_run)
    return;
  const char *pol = c->spill ? c->spill : "auto";
  const char *px = !show_path ? "ptxas" : c->user_ptxas_path ? c->user_ptxas : c->real_ptxas;
  fflush(stdout);
  if (strcmp(pol, "off") == 0)
    fprintf(stderr, "# orion-ptxas (%s): --orion-spill=off: no extra ptxas run for versions "
                    "that spill\n", how);
  else
    fprintf(stderr,
            "# orion-ptxas (%s): if versions spill or keep a stack frame (--orion-spill=%s)%s: "
            "\"%s\" \"--version\"; \"%s\" <ptxas options> \"-v\" \"--entry\" <version>... on "
            "the PTX with .pragma \"enable_smem_spilling\" (and .maxntid <block>) in those "
            "entries; then the final assembly with the ones kept\n",
            how, pol, strcmp(pol, "auto") == 0 ? " and the SASS rewriter does not apply" : "",
            px, px);
}

/* ---- checks shared by the stages ---- */

static int check_readable(const char *path) {
  if (strcmp(path, "-") == 0)
    return 1;
  if (access(path, R_OK) != 0) {
    drv_error("%s: %s", path, strerror(errno));
    return 0;
  }
  strbuf probe;
  if (drv_read_file(path, &probe) != 0) {
    drv_error("%s: %s", path, strerror(errno));
    return 0;
  }
  sb_free(&probe);
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

static int need_tmpdir(cc *c) {
  if (c->tmpdir)
    return 1;
  if (c->dry_run) {
    const char *t = getenv("TMPDIR");
    c->tmpdir = drv_xasprintf("%s/orion-cc-XXXXXX", t && *t ? t : "/tmp");
    return 1;
  }
  c->tmpdir = drv_make_temp_dir("orion-cc");
  if (!c->tmpdir) {
    drv_error("cannot create a temporary directory: %s", strerror(errno));
    return 0;
  }
  return 1;
}

static const char *first_arch(const cc *c) { return c->archs.n ? c->archs.v[0] : DEFAULT_ARCH; }

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
  if (ptx_mode(c)) {
    if (c->inputs.n != 1) {
      drv_error("a .ptx input must be the only input (got %zu inputs)", c->inputs.n);
      return 1;
    }
    if (c->archs.n > 1) {
      drv_error("%s: give exactly one --cuda-gpu-arch for a .ptx input", c->ptx_inputs.v[0]);
      return 1;
    }
    /* Only options that mean something for PTX are accepted. */
    for (size_t i = 0; i < c->user_args.n; i++) {
      const char *a = c->user_args.v[i];
      if (strcmp(a, "-Xcuda-ptxas") == 0 || strcmp(a, "-o") == 0) {
        i++;
        continue;
      }
      if (a[0] != '-' || strcmp(a, "-S") == 0 || strcmp(a, "-c") == 0 ||
          strcmp(a, "-v") == 0 || drv_has_prefix(a, "--cuda-gpu-arch=") ||
          drv_has_prefix(a, "--offload-arch=") || drv_has_prefix(a, "--cuda-path=") ||
          (a[1] == 'O' && a[2] >= '0' && a[2] <= '9' && !a[3]) ||
          (a[1] == 'o' && a[2]))
        continue;
      drv_error("%s: option '%s' is not supported with a .ptx input", c->ptx_inputs.v[0], a);
      return 1;
    }
  }
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

static int stage_clang(cc *c) {
  strvec argv, env;
  sv_init(&argv);
  sv_init(&env);
  sv_push(&argv, c->clang);
  int cuda = c->cuda_inputs.n > 0;
  if (cuda) {
    if (!c->user_cuda_path)
      sv_pushf(&argv, "--cuda-path=%s", c->cuda);
    sv_push(&argv, "-Wno-unknown-cuda-version");
    if (!c->no_orion) {
      sv_pushf(&argv, "-fpass-plugin=%s", c->plugin);
      sv_pushf(&argv, "--ptxas-path=%s", c->orion_ptxas);
      if (c->user_ptxas_path)
        sv_pushf(&env, "ORION_REAL_PTXAS=%s", c->user_ptxas);
      else if (c->user_cuda_path)
        sv_pushf(&env, "ORION_CUDA_PATH=%s", c->cuda);
      if (c->rt_mode == DRV_RT_NONE)
        sv_push(&env, "ORION_LAUNCH_HOOK=0"); /* no runtime: plain launches */
      if (c->spill)
        sv_pushf(&env, "ORION_PTXAS_SPILL=%s", c->spill);
      if (c->verbose && !c->dry_run)
        sv_push(&env, "ORION_PTXAS_COMMANDS=1"); /* orion-ptxas shows its ptxas runs */
    } else if (c->user_ptxas_path) {
      sv_pushf(&argv, "--ptxas-path=%s", c->user_ptxas);
    }
    /* nvcc compatibility: headers and numerics */
    sv_push(&argv, "-isystem");
    sv_pushf(&argv, "%s/include/cccl", c->cuda);
    if (!c->no_compat) {
      sv_push(&argv, "-include");
      sv_push(&argv, c->compat);
    }
    sv_push(&argv, "-mllvm");
    sv_push(&argv, "-nvvm-reflect-add=__CUDA_PREC_SQRT=1");
    if (!c->user_arch)
      sv_push(&argv, "--cuda-gpu-arch=" DEFAULT_ARCH);
  } else if (c->user_ptxas_path) {
    sv_pushf(&argv, "--ptxas-path=%s", c->user_ptxas);
  }
  if (c->keep)
    sv_push(&argv, "-save-temps=obj");
  sv_extend(&argv, &c->user_args);
  /* -fgpu-rdc objects carry their device code for a link-time device link
   * (clang's offload driver: clang-linker-wrapper, nvlink), which clang
   * runs for a link of objects only when told (with a .cu input it does it
   * anyway); without it the program would have no device code at all. */
  if (linking(c) && c->inputs.n && c->gpu_rdc && !cuda) {
    if (!c->user_cuda_path)
      sv_pushf(&argv, "--cuda-path=%s", c->cuda);
    sv_push(&argv, "--offload-link");
  }
  if (linking(c) && c->inputs.n)
    drv_rt_link_flags(&argv, links_runtime(c) ? c->rt_mode : DRV_RT_NONE, c->bin_dir, c->cuda);
  if (c->report && cuda && !c->no_orion) {
    if (!need_tmpdir(c)) {
      sv_free(&argv);
      sv_free(&env);
      return 1;
    }
    sv_pushf(&env, "ORION_REPORT=%s/pass.jsonl", c->tmpdir);
    sv_pushf(&env, "ORION_PTXAS_REPORT=%s/ptxas-%%p.json", c->tmpdir);
  }
  int st = run_cmd(c, &argv, &env, 0, NULL);
  if (cuda && !c->no_orion)
    note_spill_commands(c, "clang runs it as its ptxas", 0);
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

/* ---- PTX-level path ---- */

static char *ptx_output_path(const cc *c) {
  if (c->output)
    return drv_xstrdup(c->output);
  const char *in = c->ptx_inputs.v[0];
  const char *base = drv_basename(in);
  size_t n = strlen(base) - 4; /* ".ptx" */
  return drv_xasprintf("%.*s%s", (int)n, base, c->assemble_only ? ".orion.ptx" : ".cubin");
}

static int stage_ptx_probe(cc *c) {
  strvec argv;
  sv_init(&argv);
  sv_push(&argv, c->real_ptxas);
  sv_push(&argv, "-arch");
  sv_push(&argv, first_arch(c));
  sv_extend(&argv, &c->ptxas_user);
  sv_push(&argv, "-v");
  sv_push(&argv, "--output-file");
  sv_push(&argv, "/dev/null");
  sv_push(&argv, c->ptx_inputs.v[0]);
  drv_proc_result r;
  int st = run_cmd(c, &argv, NULL, 1, &r);
  sv_free(&argv);
  if (c->dry_run)
    return 0;
  if (st != 0) {
    /* ptxas's own diagnostics, unchanged */
    fflush(stdout);
    if (r.out.p)
      fwrite(r.out.p, 1, r.out.len, stdout);
    fflush(stdout);
    if (r.err.p) {
      strbuf f;
      sb_init(&f);
      ptxas_filter_verbose(r.err.p, r.err.len, &f);
      fwrite(f.p, 1, f.len, stderr);
      sb_free(&f);
    }
    drv_proc_result_free(&r);
    return st;
  }
  if (c->verbose && r.err.p)
    fwrite(r.err.p, 1, r.err.len, stderr);
  ptxas_info_parse(r.err.p, r.err.len, &c->probe);
  c->probe_done = 1;
  drv_proc_result_free(&r);
  return 0;
}

static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  if (!v || !*v)
    return dflt;
  char *end;
  long x = strtol(v, &end, 10);
  return *end ? dflt : (int)x;
}

/* One pass.jsonl line per kernel, in OrionPass's format. */
static void pass_record_json(strbuf *b, const char *module, const char *kernel, int sm,
                             int max_live, const orion_selection *s, int clones,
                             const char *record, const char *note) {
  sb_adds(b, "{\"module\":");
  json_str(b, module);
  sb_adds(b, ",\"kernel\":");
  json_str(b, kernel);
  sb_addf(b,
          ",\"sm\":%d,\"max_live\":%d,\"threshold\":%d,\"block\":%d,\"block_known\":%s,"
          "\"direction\":\"%s\",\"original_warps\":%d,\"max_warps\":%d,\"source\":\"ptxas\","
          "\"versions\":[",
          sm, max_live, s->threshold, s->block, s->block_known ? "true" : "false",
          orion_direction_name(s->direction), s->original_warps, s->max_warps);
  for (int i = 0; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    sb_addf(b, "%s{\"tag\":", i ? "," : "");
    json_str(b, v->tag);
    sb_addf(b, ",\"role\":\"%s\",\"max_regs\":%d,\"target_warps\":%d,\"pad\":%s}",
            orion_role_name(v->role), v->max_regs, v->target_warps, v->is_pad ? "true" : "false");
  }
  sb_addf(b, "],\"clones\":%d,\"record\":", clones);
  if (record)
    json_str(b, record);
  else
    sb_adds(b, "null");
  sb_adds(b, ",\"note\":");
  if (note)
    json_str(b, note);
  else
    sb_adds(b, "null");
  sb_adds(b, "}\n");
}

static int stage_ptx_version(cc *c) {
  const char *in = c->ptx_inputs.v[0];
  char *out = ptx_output_path(c);
  int rc = 1;
  if (c->assemble_only) {
    c->versioned_ptx = drv_xstrdup(out);
  } else if (c->keep) {
    size_t n = strlen(out);
    const char *dot = strrchr(drv_basename(out), '.');
    c->versioned_ptx = drv_xasprintf("%.*s.orion.ptx", (int)(dot ? (size_t)(dot - out) : n), out);
  } else {
    if (!need_tmpdir(c))
      goto out;
    c->versioned_ptx = drv_xasprintf("%s/%s", c->tmpdir, drv_basename(in));
  }
  note_inprocess(c, "select versions for the entries of %s (ptxas registers as max-live) -> %s",
                 in, c->versioned_ptx);
  if (c->dry_run) {
    rc = 0;
    goto out;
  }
  int sm;
  if (orion_arch_from_name(first_arch(c), &sm) != ORION_OK)
    goto out;
  strbuf text;
  if (drv_read_file(in, &text) != 0) {
    drv_error("%s: %s", in, strerror(errno));
    goto out;
  }
  ptx_module m;
  char *err = NULL;
  if (ptx_scan(text.p, text.len, &m, &err) != 0) {
    drv_error("%s: malformed PTX: %s", in, err);
    free(err);
    sb_free(&text);
    goto out;
  }
  if (m.n_entries == 0) {
    drv_error("%s: no kernel entry (.entry) in this PTX; nothing to tune", in);
    ptx_module_free(&m);
    sb_free(&text);
    goto out;
  }
  int max_versions = env_int("ORION_MAX_VERSIONS", 0);
  if (max_versions < 0 || max_versions > ORION_MAX_VERSIONS)
    max_versions = 0;
  int assumed_block = env_int("ORION_BLOCK", 0);
  strbuf ptx, globals, jsonl;
  sb_init(&ptx);
  sb_init(&globals);
  sb_init(&jsonl);
  size_t pos = 0;
  for (size_t i = 0; i < m.n_entries; i++) {
    const ptx_entry *e = &m.entries[i];
    sb_add(&ptx, m.text + pos, e->end - pos);
    pos = e->end;
    size_t kl;
    const char *tag;
    if (ptx_split_clone_name(e->name, &kl, &tag))
      continue; /* already versioned */
    int has_clones = 0;
    for (size_t j = 0; j < m.n_entries; j++)
      if (ptx_split_clone_name(m.entries[j].name, &kl, &tag) && kl == strlen(e->name) &&
          strncmp(m.entries[j].name, e->name, kl) == 0)
        has_clones = 1;
    if (has_clones)
      continue;
    const ptxas_figures *f = ptxas_info_find(&c->probe, e->name);
    if (!f || !f->has_used) {
      drv_warning("%s: ptxas reported no figures for entry '%s'; not versioned", in, e->name);
      continue;
    }
    orion_select_input si;
    memset(&si, 0, sizeof si);
    si.sm = sm;
    si.max_live = f->registers;
    si.threads_per_block = ptx_entry_threads(e);
    if (!si.threads_per_block && assumed_block > 0)
      si.threads_per_block = assumed_block;
    si.smem_static = (unsigned)f->smem;
    si.max_versions = max_versions;
    orion_selection sel;
    orion_status os = orion_select_versions(&si, &sel);
    if (os != ORION_OK) {
      drv_warning("%s: entry '%s': version selection failed (%s); not versioned", in, e->name,
                  orion_strerror(os));
      continue;
    }
    if (si.threads_per_block && ptx_entry_threads(e))
      sel.block_known = 1;
    int clones = 0;
    for (int v = 1; v < sel.n_versions; v++) {
      const orion_version *ver = &sel.versions[v];
      if (ver->is_pad || ver->max_regs <= 0)
        continue;
      char *cname = drv_xasprintf("%s%s%s", e->name, ORION_CLONE_INFIX, ver->tag);
      sb_addc(&ptx, '\n');
      ptx_emit_clone(&m, e, cname, ver->max_regs, &ptx);
      free(cname);
      clones++;
    }
    orion_record rec;
    memset(&rec, 0, sizeof rec);
    const char *note = NULL;
    char recbuf[2048];
    int have_rec = 0;
    if (strlen(e->name) < sizeof rec.kernel) {
      memcpy(rec.kernel, e->name, strlen(e->name) + 1);
      rec.sm = sm;
      rec.max_live = f->registers;
      rec.sel = sel;
      if (orion_record_format(&rec, recbuf, sizeof recbuf) == ORION_OK) {
        char *sym = drv_xasprintf("%s%s", ORION_RECORD_PREFIX, e->name);
        ptx_emit_string_global(sym, recbuf, &globals);
        free(sym);
        have_rec = 1;
      } else {
        note = "record not emitted (formatting failed)";
      }
    } else {
      note = "record not emitted (kernel name too long)";
    }
    pass_record_json(&jsonl, in, e->name, sm, f->registers, &sel, clones,
                     have_rec ? recbuf : NULL, note);
  }
  sb_add(&ptx, m.text + pos, m.len - pos);
  if (globals.len) {
    sb_adds(&ptx, "\n// Orion decision records (orion/record.h)\n");
    sb_add(&ptx, globals.p, globals.len);
  }
  if (drv_write_file_atomic(c->versioned_ptx, ptx.p, ptx.len) != 0) {
    drv_error("%s: cannot write output: %s", c->versioned_ptx, strerror(errno));
  } else {
    rc = 0;
    if (c->report && jsonl.len) {
      if (need_tmpdir(c)) {
        char *p = drv_path_join(c->tmpdir, "pass.jsonl");
        if (drv_write_file_atomic(p, jsonl.p, jsonl.len) != 0)
          drv_warning("%s: cannot write: %s", p, strerror(errno));
        free(p);
      }
    }
    if (c->keep && !c->assemble_only)
      drv_note("kept the versioned PTX as %s", c->versioned_ptx);
  }
  sb_free(&ptx);
  sb_free(&globals);
  sb_free(&jsonl);
  ptx_module_free(&m);
  sb_free(&text);
out:
  free(out);
  return rc;
}

static int stage_ptx_assemble(cc *c) {
  char *out = ptx_output_path(c);
  strvec argv;
  sv_init(&argv);
  sv_push(&argv, c->orion_ptxas);
  sv_push(&argv, "-arch");
  sv_push(&argv, first_arch(c));
  sv_extend(&argv, &c->ptxas_user);
  if (c->report) {
    if (!need_tmpdir(c)) {
      sv_free(&argv);
      free(out);
      return 1;
    }
    sv_pushf(&argv, "--orion-report=%s/ptxas-1.json", c->tmpdir);
  }
  if (c->spill)
    sv_pushf(&argv, "--orion-spill=%s", c->spill);
  if (c->verbose && !c->dry_run)
    sv_push(&argv, "--orion-commands");
  sv_push(&argv, "--output-file");
  sv_push(&argv, out);
  sv_push(&argv, c->versioned_ptx);
  strvec env;
  sv_init(&env);
  if (c->user_cuda_path)
    sv_pushf(&env, "ORION_CUDA_PATH=%s", c->cuda);
  int st = run_cmd(c, &argv, &env, 0, NULL);
  note_spill_commands(c, "runs", 1);
  sv_free(&env);
  sv_free(&argv);
  free(out);
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
    {"ptx-probe", ptx_mode, stage_ptx_probe},
    {"ptx-version", ptx_mode, stage_ptx_version},
    {"ptx-assemble", ptx_assemble_mode, stage_ptx_assemble},
    {"clang", clang_mode, stage_clang},
    {"report", report_mode, stage_report},
};

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
  sv_free(&c->user_args);
  sv_free(&c->archs);
  sv_free(&c->inputs);
  sv_free(&c->cuda_inputs);
  sv_free(&c->ptx_inputs);
  sv_free(&c->ptxas_user);
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
  sv_init(&c.user_args);
  sv_init(&c.archs);
  sv_init(&c.inputs);
  sv_init(&c.cuda_inputs);
  sv_init(&c.ptx_inputs);
  sv_init(&c.ptxas_user);
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
    if (strcmp(argv[i], "--version") == 0) {
      printf("orion-cc (Orion) %s\nclang: %s\nCUDA: %s\n", ORION_VERSION_STRING, c.clang, c.cuda);
      cc_free(&c);
      return 0;
    }
  }
  if (!parse_args(&c, argc, argv)) {
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
  int st = 0;
  for (size_t i = 0; i < sizeof stages / sizeof *stages && st == 0 && !drv_pending_signal(); i++)
    if (stages[i].applies(&c))
      st = stages[i].run(&c);
  cc_free(&c); /* removes the temporary directory */
  drv_reraise_pending_signal();
  return st;
}
