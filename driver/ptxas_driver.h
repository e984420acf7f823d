/* driver/ptxas_driver.h - the orion-ptxas logic, shared with orion-cc.
 *
 * Contract (what `orion-ptxas ARGS` does; ARGS as for ptxas):
 *  1. Options starting with --orion- are Orion's and are removed:
 *       --orion-report=FILE   write the build report (JSON) to FILE; env
 *                             ORION_PTXAS_REPORT is the default.  In FILE,
 *                             "%p" becomes the process id and "%%" a '%'.
 *       --orion-no-merge      keep versions even when ptxas realised them
 *                             identically (they are reported as duplicates)
 *       --orion-jobs=N        ptxas --split-compile N (0, the default: one
 *                             thread per CPU, fewer where the extra threads'
 *                             memory would pass a quarter of the available
 *                             memory or 1 GiB; env ORION_PTXAS_JOBS); only
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
 *  3. Otherwise the real ptxas runs once (with --split-compile; with -v
 *     when the user asked for it or the PTX has at most
 *     OPTX_VERBOSE_MAX_ENTRIES entries) into a temporary file next to the
 *     output, without the clones the user's --maxrregcount rules out
 *     (ptxas_versions.h).  If it fails, it is run again exactly as in 2, so
 *     the user sees ptxas's own diagnostics and exit code.  Each version's
 *     figures are -v's: read from that run's output when it had -v, else
 *     from the cubin, with ptxas -v --entry on just the entries with local
 *     memory (ptxas_figures.h: -v's time grows faster than the number of
 *     entries: 30 s of the 2,000-kernel file's 45, while a second run of
 *     the spilling versions made secp256k1's whole build 1.6x slower).
 *  4. From those figures, a clone K__orion_T whose registers, stack frame,
 *     spill stores and spill loads equal those of K or of an earlier clone of
 *     K (text order) is merged into it, and a capped clone that holds no
 *     more warps/SM than K or a kept clone with a higher cap is dropped
 *     (ptxas_versions.h): their .entry is deleted from the PTX and the rest
 *     is assembled again (only if something went; if that second run fails,
 *     every version is kept and a warning says so).  Parameter lists do not
 *     matter (clones may carry hidden split parameters), except that
 *     K__orion_split is never merged or dropped.  The report gives every
 *     entry's block, warps/SM (from ptxas's registers and shared memory),
 *     status (kept, merged, dropped, duplicate, no-gain, not-compiled) and
 *     the reason.
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

#include "ptxas_run.h"
#include "ptxas_spill.h" /* optx_spill_policy_parse, for orion-cc's --orion-spill check */

/* Entries up to which the first ptxas run has -v (step 3). */
#define OPTX_VERBOSE_MAX_ENTRIES 256

void optx_cmd_init(optx_cmd *c);
void optx_cmd_free(optx_cmd *c);
/* Parse ptxas arguments (argv[0] is the first argument, not the program).
 * Returns 0, or -1 with a malloc'd message in *err. */
int optx_parse_args(int argc, char **argv, optx_cmd *c, char **err);

/* Run as described above.  res may be NULL.  Returns the exit status. */
int optx_run(const optx_cmd *c, const char *real_ptxas, optx_result *res);

/* The build report as JSON text (no trailing newline). */
void optx_report_json(const optx_cmd *c, const optx_result *res, orion_strbuf *out);

/* The last valid --maxrregcount (-maxrregcount, "=N" or a separate N) in
 * a ptxas argument list, 0 if none. */
int ptxas_args_maxrregcount(const strvec *args);

/* Expand %p and %% in a report path template. */
char *optx_expand_path(const char *tmpl);

#endif /* ORION_DRIVER_PTXAS_DRIVER_H */
