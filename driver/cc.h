/* driver/cc.h - orion-cc's state and the helpers its stages share.
 *
 * orion-cc is split by concern:
 *   orion_cc.c   main, usage, the stage table, validation, the clang stage
 *   cc_args.c    the option table (Orion's, clang's, nvcc's rows) and its walker
 *   cc_nvcc.c    nvcc's options translated for clang (cc_opt.h: the row type)
 *   cc_run.c     running (or, under -###, printing) commands; temp dir
 *   cc_ptx.c     the .ptx input path (probe, version, assemble)
 * Contracts: every function that can fail prints its own error
 * ("orion-cc: error: ...") and returns non-zero (stages) or 0 (parser);
 * nothing here exits.  A cc is zeroed, then its vectors sv_init'ed, before
 * use; cc_free (orion_cc.c) releases it and removes the temp directory.
 */
#ifndef ORION_DRIVER_CC_H
#define ORION_DRIVER_CC_H

#include <stdio.h>

#include "cc_codegen.h"
#include "proc.h"
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
  int split;         /* --orion-split: the split clones (ORION_SPLIT=1 at run time) */
  unsigned codegen;  /* --orion-codegen: the device code defaults on (cc_codegen.c) */
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
  const char *lang; /* the -x value in effect while parsing */
  /* nvcc's command line (cc_nvcc.c) */
  strvec nv_archs;  /* -arch values, until -code says which get code */
  strvec nv_codes;  /* -code values */
  strvec nv_gen;    /* architectures the -gencode clauses give code */
  strvec new_archs; /* well-formed architectures Orion's model lacks */
  strvec nv_cuda;   /* clang flags nvcc's options map to: any CUDA compile */
  strvec nv_device; /* ... a compile with a device side (not --cuda-host-only) */
  strvec nv_ptxas;  /* ... a compile that runs ptxas (-Xcuda-ptxas pairs) */
  strvec nv_codegen; /* nvcc's code-generation options given (by name) */
  int fast_math;    /* -use_fast_math */
  int prec_sqrt;    /* --prec-sqrt: -1 not given, 0 or 1 */
  int nv_output;    /* -ptx: 'p', -cubin: 'c', else 0 */
  int ccbin_noted;
  /* PTX path */
  strvec ptxas_user; /* -Xptxas / -Xcuda-ptxas / -O<n> / -v for ptxas */
  char *versioned_ptx;
  ptxas_info probe;
  int probe_done;
  /* scratch */
  char *tmpdir;
} cc;

/* ---- cc_args.c ---- */

/* Parse argv[1..argc-1] into c.  Returns 1, or 0 after printing an error. */
int cc_parse_args(cc *c, int argc, char **argv);
/* --help-nvcc: nvcc's options, one per line: spelling, tab, what it maps to. */
void cc_print_nvcc_options(FILE *f);

/* ---- cc_nvcc.c ---- */

/* requires the arguments parsed: whether clang gets nvcc's exact sqrtf. */
int cc_prec_sqrt(const cc *c);
/* Whether an input object carries -fgpu-rdc device code (a .llvm.offloading
 * section), so that a link of objects needs clang's device link. */
int cc_inputs_have_rdc(const cc *c);

/* ---- cc_run.c ---- */

/* Run (or under -### print) one command.  capture: collect its output in
 * *res (caller frees with drv_proc_result_free).  Returns its exit status,
 * 1 if it could not be started (error printed), 0 under -###. */
int cc_run_cmd(cc *c, strvec *argv, strvec *env, int capture, drv_proc_result *res);
/* Under -### or -v: "# orion-cc (in process): <what>" on stderr. */
void cc_note_inprocess(cc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Under -###: orion-ptxas's conditional extra ptxas runs, as a comment. */
void cc_note_spill_commands(cc *c, const char *how, int show_path);
/* Make c->tmpdir (a placeholder name under -###).  Returns 1, or 0 after an error. */
int cc_need_tmpdir(cc *c);
/* The first requested GPU architecture, or DEFAULT_ARCH. */
const char *cc_first_arch(const cc *c);

/* ---- cc_ptx.c: the .ptx input path ---- */

/* requires c->ptx_inputs.n == 1: reject options that mean nothing for PTX.
 * Returns 0, or 1 after an error naming the option. */
int cc_ptx_check_options(const cc *c);
/* ptxas -v on the input: each entry's registers into c->probe. */
int cc_stage_ptx_probe(cc *c);
/* Versioned PTX (clones with .maxnreg, records) into c->versioned_ptx. */
int cc_stage_ptx_version(cc *c);
/* orion-ptxas assembles c->versioned_ptx into the output cubin. */
int cc_stage_ptx_assemble(cc *c);

#endif /* ORION_DRIVER_CC_H */
