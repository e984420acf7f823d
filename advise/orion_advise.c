/* advise/orion_advise.c - orion-advise's command line (advise.h states the
 * algorithm).  Every input is read and checked before anything is written;
 * an error names the file and the problem and exits 1 with no output file
 * touched.  Outputs are written atomically.
 */
#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise.h"
#include "orion_build_config.h"
#include "toolpaths.h"

static const char usage[] =
    "usage: orion-advise [options] [source...] [-- compile flags]\n"
    "\n"
    "Finds every __global__ kernel and launch site (<<<>>>, cudaLaunchKernel) of the\n"
    "sources, parsed by libclang with their compile flags, and says what Orion chose\n"
    "for each kernel and the attribute that gives a plain nvcc/clang build the same\n"
    "registers: __launch_bounds__(threads, minBlocks) or __maxnreg__(n); for a\n"
    "padding choice, the launch-site change.  Only confirmed decisions are advised.\n"
    "Every launch also gets block-size advice from the occupancy calculator: where\n"
    "its block does not reach the most warps per SM, the block nearest 256 threads\n"
    "that does; the kernel's loads and stores per address space are named (advice\n"
    "only: the block size is the program's choice).\n"
    "\n"
    "  -p PATH               compile_commands.json, or the directory holding it\n"
    "                        (without sources: every file in it; a source it does not\n"
    "                        list gets the flags of the nearest one, as in clang-tidy)\n"
    "  --build-report=FILE   orion-cc --orion-report=FILE (or ORION_CC_REPORT) output\n"
    "                        (repeatable: one per compiled file)\n"
    "  --run-report=FILE     ORION_REPORT=FILE output of a run (repeatable)\n"
    "  --cache=FILE          a decision cache ($XDG_CACHE_HOME/orion/decisions)\n"
    "  --target-usage=FILE   the registers of the build the fixes are for (nvcc's\n"
    "                        -Xptxas -v output, or cuobjdump --dump-resource-usage):\n"
    "                        no cap is advised where that build already uses as\n"
    "                        few registers as Orion's choice\n"
    "  --sm=N                the architecture (default: the build report's)\n"
    "  --attr=maxnreg        export __maxnreg__(n) even where __launch_bounds__ is exact\n"
    "  --export-fixes=FILE   clang-tidy YAML replacements (clang-apply-replacements)\n"
    "  --summary=FILE        a summary: JSON if FILE ends in .json, else Markdown\n"
    "  --no-list             advice only (not every kernel and launch site)\n"
    "  -h, --help            this text\n"
    "Notes go to stdout as file:line:col: note: ...; errors to stderr, exit 1.\n";

typedef struct args {
  strvec sources, flags, runs, builds;
  strvec compat; /* nvcc_compat's flags, for every parse */
  const char *db, *cache, *fixes, *summary, *usage;
  adv_options opt;
  int list;
} args;

static int parse_args(args *a, int argc, char **argv) {
  a->list = 1;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "--")) {
      for (i++; i < argc; i++)
        sv_push(&a->flags, argv[i]);
    } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      fputs(usage, stdout);
      exit(0);
    } else if (!strcmp(s, "-p") && i + 1 < argc)
      a->db = argv[++i];
    else if (!strncmp(s, "--build-report=", 15))
      sv_push(&a->builds, s + 15);
    else if (!strncmp(s, "--run-report=", 13))
      sv_push(&a->runs, s + 13);
    else if (!strncmp(s, "--cache=", 8))
      a->cache = s + 8;
    else if (!strncmp(s, "--target-usage=", 15))
      a->usage = s + 15;
    else if (!strncmp(s, "--sm=", 5) && atoi(s + 5) > 0)
      a->opt.sm = atoi(s + 5);
    else if (!strcmp(s, "--attr=maxnreg") || !strcmp(s, "--attr=launch-bounds"))
      a->opt.maxnreg = !strcmp(s, "--attr=maxnreg");
    else if (!strncmp(s, "--export-fixes=", 15))
      a->fixes = s + 15;
    else if (!strncmp(s, "--summary=", 10))
      a->summary = s + 10;
    else if (!strcmp(s, "--no-list"))
      a->list = 0;
    else if (s[0] == '-') {
      drv_error("unknown option '%s' (orion-advise --help)", s);
      return -1;
    } else
      sv_push(&a->sources, s);
  }
  if (!a->sources.n && !a->db) {
    drv_error("no source files (give sources, or -p with a compile_commands.json)");
    return -1;
  }
  for (size_t i = 0; i < a->sources.n; i++)
    if (access(a->sources.v[i], R_OK) != 0) {
      drv_error("%s: %s", a->sources.v[i], strerror(errno));
      return -1;
    }
  return 0;
}

static char *clang_path(void) {
  return drv_xstrdup(ORION_DEFAULT_CLANG);
}

/* orion-cc's nvcc-compatibility flags (drv_nvcc_compat_args), so that a
 * source orion-cc builds parses here too; the compat header only where it
 * is installed. */
static void nvcc_compat(strvec *out, const char *self) {
  char *cuda = drv_cuda_path(), *bin = drv_self_dir(self), *compat = drv_compat_header_path(bin);
  drv_nvcc_compat_args(out, cuda, compat && access(compat, R_OK) == 0 ? compat : NULL);
  free(cuda), free(bin), free(compat);
}

/* Scan the units of the compile database at path (for the given sources,
 * or all of them). */
static int scan_db(adv_program *p, const args *a, char **err) {
  struct stat st;
  char *dir = stat(a->db, &st) == 0 && S_ISDIR(st.st_mode) ? drv_xstrdup(a->db) : drv_dirname(a->db);
  CXCompilationDatabase_Error e;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &e);
  int rc = 0;
  if (e != CXCompilationDatabase_NoError || !db) {
    *err = drv_xasprintf("%s: no readable compile_commands.json", a->db);
    free(dir);
    return -1;
  }
  for (size_t f = 0; rc == 0 && f < (a->sources.n ? a->sources.n : 1); f++) {
    char *abs = a->sources.n ? drv_canonical(a->sources.v[f]) : NULL;
    CXCompileCommands cmds = a->sources.n ? clang_CompilationDatabase_getCompileCommands(db, abs)
                                          : clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
    if (!n) {
      *err = a->sources.n ? drv_xasprintf("%s: not in the compile database %s", a->sources.v[f], a->db)
                          : drv_xasprintf("%s: the compile database has no commands", a->db);
      rc = -1;
    }
    for (unsigned i = 0; rc == 0 && i < n; i++) {
      CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
      strvec av;
      sv_init(&av);
      sv_push_owned(&av, clang_path());
      for (unsigned j = 1, m = clang_CompileCommand_getNumArgs(c); j < m; j++) {
        CXString s = clang_CompileCommand_getArg(c, j);
        sv_push(&av, clang_getCString(s));
        clang_disposeString(s);
      }
      sv_extend(&av, &a->compat);
      CXString d = clang_CompileCommand_getDirectory(c);
      rc = adv_scan(p, (const char *const *)av.v, (int)av.n, clang_getCString(d), err);
      clang_disposeString(d);
      sv_free(&av);
    }
    if (cmds)
      clang_CompileCommands_dispose(cmds);
    free(abs);
  }
  clang_CompilationDatabase_dispose(db);
  free(dir);
  return rc;
}

static int scan_sources(adv_program *p, const args *a, char **err) {
  if (a->db)
    return scan_db(p, a, err);
  for (size_t i = 0; i < a->sources.n; i++) {
    strvec av;
    sv_init(&av);
    sv_push_owned(&av, clang_path());
    sv_extend(&av, &a->flags);
    sv_extend(&av, &a->compat);
    sv_push(&av, a->sources.v[i]);
    int rc = adv_scan(p, (const char *const *)av.v, (int)av.n, NULL, err);
    sv_free(&av);
    if (rc)
      return -1;
  }
  return 0;
}

/* A report none of whose kernels is in the sources belongs to another
 * build: an error.  Some unknown kernels: a warning. */
static int check_names(const adv_program *p, const adv_reports *r, const char *origin,
                       size_t from_b, size_t from_c) {
  size_t total = 0, unknown = 0;
  const char *first = NULL;
  for (size_t i = from_b; i < r->nb; i++, total++)
    if (adv_find_kernel(p, r->b[i].kernel) < 0 && unknown++ == 0)
      first = r->b[i].kernel;
  for (size_t i = from_c; i < r->nc; i++, total++)
    if (adv_find_kernel(p, r->c[i].kernel) < 0 && unknown++ == 0)
      first = r->c[i].kernel;
  if (total && unknown == total) {
    drv_error("%s: none of its %zu kernels (such as '%s') is in the sources: a report of another "
              "build?",
              origin, total, first);
    return -1;
  }
  if (unknown)
    drv_warning("%s: %zu of %zu kernels are not in the sources (such as '%s'); ignored", origin,
                unknown, total, first);
  return 0;
}

typedef int (*loader)(adv_reports *, const char *, char **);

/* The target build's usage: an error when it names none of the kernels
 * (a log of another program); kernels of other files are normal. */
static int check_usage(const adv_program *p, adv_reports *r, const char *path) {
  r->usage_path = path;
  for (size_t i = 0; i < r->nu; i++)
    if (adv_find_kernel(p, r->u[i].kernel) >= 0)
      return 0;
  drv_error("%s: none of its %zu kernels (such as '%s') is in the sources: the usage of another "
            "build?",
            path, r->nu, r->u[0].kernel);
  return -1;
}

static int load(adv_reports *r, const adv_program *p, loader fn, const char *path) {
  char *err = NULL;
  size_t nb = r->nb, nc = r->nc;
  if (access(path, R_OK) != 0) {
    drv_error("%s: %s", path, strerror(errno));
    return -1;
  }
  if (fn(r, path, &err) != 0) {
    drv_error("%s", err);
    free(err);
    return -1;
  }
  return fn == adv_load_usage ? check_usage(p, r, path) : check_names(p, r, path, nb, nc);
}

static int write_out(const char *path, const orion_strbuf *b) {
  if (orion_write_file_atomic(path, b->p ? b->p : "", b->len, 0) != 0) {
    drv_error("%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static int run(args *a) {
  adv_program p = {0};
  adv_reports r = {0};
  char *err = NULL;
  int rc = 1;
  if (scan_sources(&p, a, &err) != 0) {
    drv_error("%s", err);
    free(err);
    goto out;
  }
  for (size_t i = 0; i < a->builds.n; i++)
    if (load(&r, &p, adv_load_build, a->builds.v[i]))
      goto out;
  for (size_t i = 0; i < a->runs.n; i++)
    if (load(&r, &p, adv_load_run, a->runs.v[i]))
      goto out;
  if (a->cache && load(&r, &p, adv_load_cache, a->cache))
    goto out;
  if (a->usage && load(&r, &p, adv_load_usage, a->usage))
    goto out;
  adv_advice *adv = NULL;
  size_t n = adv_decide(&p, &r, &a->opt, &adv);
  orion_strbuf notes, summary, fixes;
  orion_sb_init(&notes), orion_sb_init(&summary), orion_sb_init(&fixes);
  adv_print_notes(&notes, &p, adv, n, a->list, a->opt.sm);
  if (a->summary && drv_has_suffix(a->summary, ".json"))
    adv_summary_json(&summary, &p, adv, n, a->opt.sm);
  else if (a->summary)
    adv_summary_md(&summary, &p, adv, n);
  if (a->fixes) {
    char *main_file = a->sources.n ? drv_canonical(a->sources.v[0]) : NULL;
    adv_fixes_yaml(&fixes, &p, adv, n, main_file ? main_file : p.nk ? p.k[0].loc.file : "");
    free(main_file);
  }
  rc = 0;
  if ((a->summary && write_out(a->summary, &summary)) || (a->fixes && write_out(a->fixes, &fixes)))
    rc = 1;
  else if (notes.len)
    fwrite(notes.p, 1, notes.len, stdout);
  orion_sb_free(&notes), orion_sb_free(&summary), orion_sb_free(&fixes);
  adv_advice_free(adv, n);
out:
  adv_reports_free(&r);
  adv_program_free(&p);
  return rc;
}

int main(int argc, char **argv) {
  drv_prog = "orion-advise";
  args a;
  memset(&a, 0, sizeof a);
  sv_init(&a.sources), sv_init(&a.flags), sv_init(&a.runs), sv_init(&a.builds);
  sv_init(&a.compat);
  nvcc_compat(&a.compat, argv[0]);
  int rc = parse_args(&a, argc, argv) ? 1 : run(&a);
  sv_free(&a.sources), sv_free(&a.flags), sv_free(&a.runs), sv_free(&a.builds);
  sv_free(&a.compat);
  return rc;
}
