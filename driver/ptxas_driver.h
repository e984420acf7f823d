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
 *       --orion-spill=POLICY  what to do with versions that spill or keep a
 *                             stack frame (ptxas_spill.c; env ORION_PTXAS_SPILL):
 *                             auto (default): the SASS rewriter where it
 *                             applies, else the smem pragma where ptxas allows
 *                             it and it reduces local-memory traffic without
 *                             costing occupancy; pragma: the smem pragma
 *                             wherever ptxas accepts it (the "ptxas
 *                             enable_smem_spilling" baseline); off: nothing;
 *                             sass: the SASS rewriter (sm_90, no dynamic
 *                             shared memory, not -rdc) where it applies,
 *                             else the pragma path as under auto
 *       --orion-commands      print each ptxas command before running it
 *                             (env ORION_PTXAS_COMMANDS=1)
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
 *  4b. Versions that spill or keep a stack frame go through the spill
 *     fallback (ptxas_spill.c); if the final assembly with its pragmas fails,
 *     it is done again without them (warning), then as in 4.
 *  5. The report is written (atomically), then the cubin is renamed into
 *     place: the output either appears complete or not at all.
 *  6. ptxas's stdout and stderr of the first run are passed through; the
 *     lines -v adds are dropped unless the user asked for -v.
 */
#ifndef ORION_DRIVER_PTXAS_DRIVER_H
#define ORION_DRIVER_PTXAS_DRIVER_H

#include "proc.h"
#include "ptx.h"
#include "ptxas_info.h"
#include "util.h"

typedef enum optx_spill_policy {
  OPTX_SPILL_AUTO,
  OPTX_SPILL_PRAGMA,
  OPTX_SPILL_OFF,
  OPTX_SPILL_SASS,
} optx_spill_policy;

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
  optx_spill_policy spill; /* --orion-spill */
  int spill_given;    /* --orion-spill / ORION_PTXAS_SPILL was given */
  int rdc;            /* -c / --compile-only (relocatable) */
  int echo;           /* --orion-commands */
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
  /* The spill fallback (ptxas_spill.c); spill_path NULL: not considered
   * (merged or not compiled). */
  const char *spill_path; /* "sass", "smem-pragma" or "kept" */
  int sass_block;     /* the SASS path: threads to size for (0: the kernel's own bounds) */
  char *spill_reason;
  char *sass_note;    /* why the SASS rewriter did not apply, or NULL */
  int spill_block;    /* threads/block the shared spill area is sized for */
  int spill_maxntid;  /* .maxntid added (0: the entry's own bounds) */
  int has_before;     /* fig is the pragma build's; before the original's */
  ptxas_figures before;
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

/* ---- shared with ptxas_spill.c ---- */
/* real ptxas + the user's options + -v [+ --split-compile] + extra +
 * --output-file output + input. */
void optx_build_argv(strvec *v, const char *real, const optx_cmd *c, const strvec *extra,
                     const char *input, const char *output);
/* Run argv capturing its output (echoing it first under --orion-commands);
 * drv_run's result. */
int optx_run_ptxas(const optx_cmd *c, strvec *argv, drv_proc_result *r);
/* Write text to a private temporary .ptx file; its path, or NULL. */
char *optx_write_temp_ptx(const strbuf *text);

/* ptxas_spill.c */
int optx_spill_policy_parse(const char *s); /* -1 if unknown */
const char *optx_spill_policy_name(optx_spill_policy p);
/* Decide the spill path of every kept, realised entry of res (m: the input
 * module) and fill edits (m->n_entries, zeroed by the caller) with the
 * pragma and .maxntid of the versions that take the smem-pragma path; those
 * entries' figures become the pragma build's (the originals go to
 * `before`).  Runs ptxas -v --entry ... on the candidates.  Returns the
 * number of versions that take the pragma path. */
int optx_spill_fallback(const optx_cmd *c, const char *real, const ptx_module *m,
                        const char *cubin, optx_result *res, ptx_edit *edits);
/* The SASS path on the final cubin (path cubin, rewritten in place,
 * atomically): every entry whose spill_path is "sass" is rewritten; one
 * the rewrite now refuses becomes "kept" with the reason.  Returns 0, or
 * -1 with an error printed when the cubin cannot be read or written. */
int optx_spill_apply_sass(const optx_cmd *c, const ptx_module *m, const char *cubin,
                          optx_result *res);
/* Undo the pragma path of every entry (the final assembly failed). */
void optx_spill_revert(optx_result *res, const char *why);

#endif /* ORION_DRIVER_PTXAS_DRIVER_H */
