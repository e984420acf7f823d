/* driver/ptxas_driver.h - the orion-ptxas logic, shared with orion-cc.
 *
 * Contract (what `orion-ptxas ARGS` does; ARGS as for ptxas):
 *  1. Options starting with --orion- are Orion's and are removed:
 *       --orion-report=FILE   write the build report (JSON) to FILE; env
 *                             ORION_PTXAS_REPORT is the default.  In FILE,
 *                             "%p" becomes the process id and "%%" a '%'.
 *       --orion-no-merge      keep versions even when ptxas realised them
 *                             identically (they are reported as duplicates)
 *       --orion-jobs=N        ptxas --split-compile N (0 = one thread per
 *                             CPU, the default; env ORION_PTXAS_JOBS); only
 *                             when the user gave no --split-compile
 *       --orion-keep-ptx=FILE also write the PTX that was finally assembled
 *     Any other --orion- option is an error (exit 1).
 *  2. Without exactly one PTX input file, or with --help, --version,
 *     --list-version, --options-file or --input-as-string, or when the input
 *     has no Orion clones and no report is asked for, the real ptxas runs
 *     with the remaining arguments unchanged: same output, same exit code.
 *  3. Otherwise the real ptxas runs once with -v (and --split-compile) into a
 *     temporary file next to the output.  If it fails, it is run again exactly
 *     as in 2, so the user sees ptxas's own diagnostics and exit code.
 *  4. From the -v figures, a clone K__orion_T whose registers, stack frame,
 *     spill stores and spill loads equal those of K or of an earlier clone of
 *     K (text order) is merged into it: its .entry is deleted from the PTX and
 *     the rest is assembled again (only if something merged; if that second
 *     run fails, every version is kept and a warning says so).  Parameter
 *     lists do not matter (clones may carry hidden split parameters), except
 *     that K__orion_split is never merged.
 *  5. The report is written (atomically), then the cubin is renamed into
 *     place: the output either appears complete or not at all.
 *  6. ptxas's stdout and stderr of the first run are passed through; the
 *     lines -v adds are dropped unless the user asked for -v.
 */
#ifndef ORION_DRIVER_PTXAS_DRIVER_H
#define ORION_DRIVER_PTXAS_DRIVER_H

#include "ptxas_info.h"
#include "util.h"

typedef struct optx_cmd {
  strvec args;        /* ptxas arguments without Orion's options */
  strvec rest;        /* args without the input, output options and -v */
  char *input;        /* the single PTX input, or NULL */
  int n_inputs;
  char *output;       /* final output path ("elf.o" if none given) */
  char *gpu;          /* --gpu-name value, or NULL */
  int verbose;        /* -v / --verbose given */
  int user_split;     /* --split-compile given */
  int passthrough;    /* run ptxas unchanged (see 2.) */
  int exec_passthrough; /* pass-through by execve (orion-ptxas) vs. wait */
  char *report;       /* report path (template expanded), or NULL */
  char *keep_ptx;     /* --orion-keep-ptx path, or NULL */
  int merge;          /* 1 unless --orion-no-merge */
  int jobs;           /* split-compile threads */
} optx_cmd;

typedef struct optx_entry {
  char *name;
  char *kernel;       /* name without the clone suffix */
  char *tag;          /* "orig" for the kernel itself */
  int is_clone;
  int maxnreg;        /* .maxnreg in the PTX, 0 if none */
  int threads;        /* .reqntid/.maxntid product, 0 if none */
  int realised;       /* ptxas reported figures for it */
  ptxas_figures fig;  /* fig.name not owned */
  int duplicate_of;   /* index of the entry realised identically, or -1 */
  int merged;         /* deleted from the final cubin */
} optx_entry;

typedef struct optx_result {
  optx_entry *e;
  size_t n;
  int reassembled;
  int ran_orion;      /* 0: plain pass-through happened */
} optx_result;

void optx_cmd_init(optx_cmd *c);
void optx_cmd_free(optx_cmd *c);
/* Parse ptxas arguments (argv[0] is the first argument, not the program).
 * Returns 0, or -1 with a malloc'd message in *err. */
int optx_parse_args(int argc, char **argv, optx_cmd *c, char **err);

/* Run as described above.  res may be NULL.  Returns the exit status. */
int optx_run(const optx_cmd *c, const char *real_ptxas, optx_result *res);
void optx_result_free(optx_result *res);

/* The build report as JSON text (no trailing newline). */
void optx_report_json(const optx_cmd *c, const optx_result *res, strbuf *out);

/* Expand %p and %% in a report path template. */
char *optx_expand_path(const char *tmpl);

#endif /* ORION_DRIVER_PTXAS_DRIVER_H */
