/* driver/ptxas_run.h - running the real ptxas for orion-ptxas: the command
 * and result types shared by the driver (ptxas_driver.c) and the spill
 * fallback (ptxas_spill.c), and the helpers both use to build a ptxas
 * command line, run it and write temporary PTX.  Depends on neither. */
#ifndef ORION_DRIVER_PTXAS_RUN_H
#define ORION_DRIVER_PTXAS_RUN_H

#include "proc.h"
#include "ptx.h"
#include "ptxas_info.h"
#include "util.h"

typedef enum optx_spill_policy {
  OPTX_SPILL_AUTO,
  OPTX_SPILL_PRAGMA,
  OPTX_SPILL_OFF,
  OPTX_SPILL_SASS,
  OPTX_SPILL_PARTIAL, /* sass, and where the frame does not fit, its hottest slots */
  OPTX_SPILL_SMEM,    /* auto, else the pragma where it lowers local traffic */
  OPTX_SPILL_DYNAMIC, /* partial, the region in the launch's dynamic shared memory */
} optx_spill_policy;
/* The policies' names, for messages. */
#define OPTX_SPILL_POLICIES "auto, smem, pragma, off, sass, partial or dynamic"

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
  int jobs;           /* split-compile threads (the default resolved by optx_parse_args) */
  optx_spill_policy spill; /* --orion-spill */
  int spill_given;    /* --orion-spill / ORION_PTXAS_SPILL was given */
  int colour;         /* --orion-colour / ORION_PTXAS_COLOUR=1: the SASS rewrite colours slots */
  int rdc;            /* -c / --compile-only (relocatable) */
  int echo;           /* --orion-commands */
  int maxrregcount;   /* the user's --maxrregcount N, 0 if none */
  int override_directives; /* --override-directive-values given */
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
  unsigned sass_limit; /* the SASS path: end of static shared memory allowed (0: 48 KB) */
  /* The SASS path's placement: slots and bytes per thread on chip and
   * left in local memory (partial: some local). */
  int sass_partial;
  unsigned sass_slots[2], sass_bytes[2];
  unsigned sass_warp_bytes; /* dynamic: the region's bytes per warp (record's dsm) */
  char *spill_reason;
  char *sass_note;    /* why the SASS rewriter did not apply, or NULL */
  int spill_block;    /* threads/block the shared spill area is sized for */
  int spill_maxntid;  /* .maxntid added (0: the entry's own bounds) */
  int has_before;     /* fig is the pragma build's; before the original's */
  ptxas_figures before;
  /* Which versions stay (ptxas_versions.h). */
  int block;          /* threads/block its occupancy is computed at */
  int warps;          /* warps/SM from fig at block, -1 if unknown */
  int limit_dropped;  /* not assembled: above the user's --maxrregcount */
  int no_gain_of;     /* index of a kept version holding as many warps, or -1 */
  char *reason;       /* why it is dropped, merged or gains nothing, or NULL */
} optx_entry;

typedef struct optx_result {
  optx_entry *e;
  size_t n;
  int reassembled;
  int ran_orion;      /* 0: plain pass-through happened */
} optx_result;

/* Free what res owns; requires res from optx_run (or zeroed); res may be NULL. */
void optx_result_free(optx_result *res);

/* The default number of ptxas --split-compile threads for a module of
 * ptx_bytes holding entries entry functions: one per core (cores), fewer
 * where the threads beyond the first would need more than a quarter of the
 * available memory (avail bytes, -1: unknown) or more than 1 GiB (each: the
 * larger of 64 bytes a byte and 640 KB an entry); at least 1. */
int optx_auto_jobs(size_t ptx_bytes, size_t entries, long cores, double avail);
/* requires c->jobs as given (0: the default); sets the default for the
 * module at ptx_path (NULL or unreadable: as for an empty module). */
void optx_resolve_jobs(optx_cmd *c, const char *ptx_path);
/* real ptxas + the user's options [+ -v when verbose] [+ --split-compile] +
 * extra + --output-file output + input.  Requires c parsed; v is
 * initialised here. */
void optx_build_argv(strvec *v, const char *real, const optx_cmd *c, const strvec *extra,
                     const char *input, const char *output, int verbose);
/* Print argv to stderr when c asks for --orion-commands; requires argv NULL-terminated. */
void optx_echo_command(const optx_cmd *c, char *const argv[]);
/* Run argv capturing its output (echoing it first under --orion-commands);
 * drv_run's result.  Requires argv NULL-terminated. */
int optx_run_ptxas(const optx_cmd *c, strvec *argv, drv_proc_result *r);
/* Write text to a private temporary .ptx file; its path (caller frees and
 * unlinks), or NULL. */
char *optx_write_temp_ptx(const orion_strbuf *text);

#endif /* ORION_DRIVER_PTXAS_RUN_H */
