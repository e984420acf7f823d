/* advise/advise.h - orion-advise: where each kernel is, what Orion chose for
 * it, and the source attribute that gives a plain nvcc/clang build the same
 * register count.
 *
 * The algorithm, in three passes over plain data:
 *   1. scan (scan.c): every translation unit is parsed by libclang with its
 *      compile flags (a compile_commands.json, or the flags after `--`).
 *      A function with the CUDA global attribute is a kernel; a kernel
 *      template is one kernel however many times it is instantiated.  A
 *      call expression whose callee is a kernel (a `<<<...>>>` launch) or a
 *      cudaLaunchKernel / cudaLaunchCooperativeKernel call whose first
 *      argument names a kernel is a launch site.  Every place is the
 *      spelling location (file:line:col, byte offset).  Each kernel keeps
 *      the names a report may use for it: the C++ mangling of the
 *      declaration and of every instantiation a launch site names, and its
 *      plain spelling.  Kernels are merged across translation units by USR.
 *   2. load (reports.c): the build report (orion-cc --orion-report JSON or
 *      OrionPass's JSON lines: per kernel the architecture, direction,
 *      versions and ptxas's registers), a run report (ORION_REPORT JSON: per
 *      kernel and launch configuration the chosen version, its registers,
 *      warps, padding and the measured speedup with its 95 % half-width,
 *      paired samples, re-checks and source) and the decision cache (its
 *      confirmed entries are decisions; a tentative entry reads as a tuned
 *      choice short of its re-checks, an open one as unsettled tuning).
 *   3. decide (advice.c): a configuration's choice is advised only when it
 *      is confirmed: source "tuned" (or "tentative") with at least ADV_CONFIRM_RECHECKS
 *      re-check pairs (the runtime's own confirmation rule) or "cached"
 *      (a confirmed choice of an earlier run), and, where the speedup has a
 *      confidence interval, its lower 95 % bound above 1.  A kernel gets an
 *      attribute only when all its advised configurations agree and no
 *      confirmed configuration kept the original.  A register version rNN
 *      chosen at R registers gives `__maxnreg__(R)` (exact, nvcc) and, when
 *      the architecture is known and every configuration uses one block
 *      size T, `__launch_bounds__(T, B)` with B the blocks per SM that R
 *      registers allow; the occupancy calculator says whether ptxas's limit
 *      for (T, B) is exactly R.  The advice is a ceiling made for Orion's
 *      own build: when the build the fixes are for (--target-usage: its
 *      ptxas -v log) already uses R registers or fewer, the cap would only
 *      let that build take more, so nothing is advised.  A padding version pN (lower occupancy
 *      through dynamic shared memory) is advised as a launch-site change:
 *      N bytes of dynamic shared memory, opted in with cudaFuncSetAttribute.
 *   Block-size advice (block.c, labelled as advice: the block size is the
 *   program's choice): for every launch, the occupancy calculator at the
 *   original's registers and shared memory over blocks of 32..1024 threads;
 *   its choice is the largest block reaching the most warps per SM (as
 *   cudaOccupancyMaxPotentialBlockSize).  The advice keeps the launch's
 *   own block when it reaches them, else names the block nearest 256
 *   threads that does; the text names the kernel's memory class from the
 *   build report's loads and stores per inferred address space.
 *   Output (output.c): compiler-style notes, a Markdown or JSON summary,
 *   and clang-tidy's YAML replacements (--export-fixes), all computed
 *   before anything is written, files written atomically.
 */
#ifndef ORION_ADVISE_H
#define ORION_ADVISE_H

#include <stddef.h>

#include "json.h"
#include "util.h"

/* The runtime confirms a non-original choice after this many re-check
 * pairs without a revert (runtime/tune.h, step 6). */
#define ADV_CONFIRM_RECHECKS 3

typedef struct adv_loc {
  char *file;           /* absolute path, NULL if unknown */
  unsigned line, col, offset;
  int in_macro;         /* spelt inside a macro expansion */
} adv_loc;

typedef struct adv_kernel {
  char *name;           /* the spelling: heavy */
  char *usr;
  adv_loc loc;          /* the name at the definition (else first declaration) */
  int is_template;
  int has_limit;        /* already __launch_bounds__ or __maxnreg__ */
  strvec names;         /* manglings of the declaration and instantiations */
} adv_kernel;

typedef struct adv_site {
  size_t kernel;        /* index into adv_program.k */
  adv_loc loc;
  char *callee;         /* as written: heavy, tk<4> */
  char *mangled;        /* the instantiation launched, or NULL */
  char *config;         /* "<<<1, 256>>>" or the cudaLaunchKernel arguments */
  int api;              /* 1: cudaLaunchKernel */
  long threads;         /* the block's threads when constant, else 0 */
  long dyn_smem;        /* the dynamic shared memory when constant, else -1 */
} adv_site;

typedef struct adv_program {
  adv_kernel *k;
  size_t nk;
  adv_site *s;
  size_t ns;
} adv_program;

/* scan.c: parse one translation unit (argv[0] the compiler, the source
 * among the arguments; dir: its working directory or NULL) and add its
 * kernels and launch sites.  Returns 0, or -1 with *err (malloc'd) naming
 * the file and the first error. */
int adv_scan(adv_program *p, const char *const *argv, int argc, const char *dir, char **err);
void adv_program_free(adv_program *p);
/* The kernel a report names (a mangling or the plain name), or -1. */
long adv_find_kernel(const adv_program *p, const char *name);

/* reports.c */
typedef struct adv_version {
  char tag[16];
  int max_regs;         /* the cap, 0: none */
  int target_warps;     /* the model's */
  int registers;        /* ptxas's, -1 unknown */
  int warps;            /* ptxas's build at the report's block, -1 unknown */
  int smem;             /* ptxas's static shared memory, bytes, -1 unknown */
  char *status;         /* kept, merged, dropped, or NULL */
} adv_version;

typedef struct adv_features { /* the build report's static features */
  int known;            /* the report has loads/stores per address space */
  long instructions, barriers, atomics;
  long global, shared, local, constant, generic; /* loads + stores per inferred space */
} adv_features;

typedef struct adv_build {  /* one kernel on one architecture */
  char *kernel;
  adv_features f;
  int sm, block, block_known;
  char *direction;
  adv_version v[8];
  int nv;
  char *note;
} adv_build;

typedef struct adv_config { /* one launch configuration of a run */
  char *kernel;
  unsigned bx, by, bz;
  unsigned long long shmem;
  char *source;         /* tuned, cached, reverted, exhaustive, ... */
  char original[16], chosen[16];
  int chosen_regs, chosen_warps, orig_regs, orig_warps, max_warps;
  unsigned long long chosen_pad;
  double speedup, ci95; /* 0: unknown */
  int pairs, rechecks;
  int confirmed;        /* the report's own flag, -1 when it has none */
  char *origin;         /* the file it came from */
} adv_config;

typedef struct adv_usage { /* one kernel of the target build (--target-usage) */
  char *kernel;
  int sm;               /* 0: not named */
  int registers;
} adv_usage;

typedef struct adv_reports {
  adv_build *b;
  size_t nb;
  adv_config *c;
  size_t nc;
  adv_usage *u;
  size_t nu;
  const char *usage_path; /* the --target-usage file, or NULL */
} adv_reports;

/* Each returns 0, or -1 with *err (malloc'd) naming path and the problem. */
int adv_load_build(adv_reports *r, const char *path, char **err);
int adv_load_run(adv_reports *r, const char *path, char **err);
int adv_load_cache(adv_reports *r, const char *path, char **err);
void adv_reports_free(adv_reports *r);
/* usage.c: the target build's registers per kernel from a ptxas -v log or
 * cuobjdump --dump-resource-usage output. */
int adv_load_usage(adv_reports *r, const char *path, char **err);
/* The target build's registers for kernel k (any of its names) on sm (0:
 * any), or -1 when the usage does not name it. */
int adv_target_registers(const adv_reports *r, const adv_kernel *k, int sm);
const adv_build *adv_build_for(const adv_reports *r, const char *kernel, int sm);
/* The version of b (may be NULL) with this tag, or NULL. */
const adv_version *adv_build_version(const adv_build *b, const char *tag);

/* advice.c */
typedef enum adv_verdict { ADV_CHANGE, ADV_KEEP, ADV_NONE } adv_verdict;

typedef struct adv_decision {
  const adv_config *c;
  adv_verdict verdict;
  char *why;            /* the evidence, or why nothing is advised */
} adv_decision;

typedef struct adv_advice {  /* one per kernel with report data */
  size_t kernel;
  const adv_build *build;
  adv_decision *d;
  size_t nd;
  char *attr;           /* the attribute to write, or NULL */
  char *alt;            /* the other spelling (__maxnreg__ / __launch_bounds__), or NULL */
  char *text;           /* the advice as one sentence */
  int fixable;          /* attr can be inserted at the kernel's name */
  int pad;              /* a padding choice: launch-site advice */
} adv_advice;

typedef struct adv_options {
  int sm;               /* --sm, 0: from the build report */
  int maxnreg;          /* --attr=maxnreg: export __maxnreg__ */
} adv_options;

/* Advice for every kernel some report names.  Returns the number of
 * entries in *out. */
size_t adv_decide(const adv_program *p, const adv_reports *r, const adv_options *o,
                  adv_advice **out);
void adv_advice_free(adv_advice *a, size_t n);

/* block.c: block-size advice for launch site s from the original's ptxas
 * figures and the static features in b (the occupancy calculator over
 * blocks of 32..1024 threads).  Returns 0 with *out filled, or -1 when the
 * figures or the architecture are unknown or the site's constant block is
 * over 1024 threads. */
typedef struct adv_block {
  long threads;         /* the site's block, 0: not a constant */
  int warps;            /* warps/SM at the site's block, 0: unknown */
  int calc, calc_warps; /* the occupancy calculator's choice, its warps/SM */
  int advised;          /* orion-advise's choice */
  char *text;           /* the advice as one sentence */
} adv_block;
int adv_block_advice(const adv_site *s, const adv_build *b, int sm, adv_block *out);

/* output.c */
/* sm: --sm, or 0 for each kernel's build report's. */
void adv_print_notes(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n, int list,
                     int sm);
void adv_summary_md(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n);
/* sm: as for adv_print_notes (the launches' block-size advice). */
void adv_summary_json(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n, int sm);
/* clang-tidy's export-fixes YAML; main_file: the first source. */
void adv_fixes_yaml(orion_strbuf *b, const adv_program *p, const adv_advice *a, size_t n,
                    const char *main_file);

#endif /* ORION_ADVISE_H */
