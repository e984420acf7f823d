/* driver/ptxas_driver.c - see ptxas_driver.h. */
#define _GNU_SOURCE 1
#include "ptxas_driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "orion/rt.h"
#include "orion_build_config.h"
#include "proc.h"
#include "ptx.h"
#include "ptxas_figures.h"
#include "ptxas_hide.h"
#include "ptxas_run.h"
#include "ptxas_spill.h"
#include "ptxas_versions.h"

/* ptxas options that take a separate value (long and short spellings), from
 * `ptxas --help` (CUDA 13.0).  "-O" is not here: it only takes -O<N>. */
static const char *const value_opts[] = {
    "--Ofast-compile", "-Ofc",
    "--allow-expensive-optimizations", "-allow-expensive-optimizations",
    "--def-load-cache", "-dlcm",
    "--def-store-cache", "-dscm",
    "--device-function-maxrregcount", "-func-maxrregcount",
    "--device-stack-protector", "-device-stack-protector",
    "--entry", "-e",
    "--fmad", "-fmad",
    "--force-load-cache", "-flcm",
    "--force-store-cache", "-fscm",
    "--gpu-name", "-arch",
    "--input-as-string", "-ias",
    "--machine", "-m",
    "--maxntid", "-maxntid",
    "--maxrregcount", "-maxrregcount",
    "--minnctapersm", "-minnctapersm",
    "--opt-level",
    "--options-file", "-optf",
    "--output-file", "-o",
    "--position-independent-code", "-pic",
    "--register-usage-level", "-regUsageLevel",
    "--sanitize", "-sanitize",
    "--split-compile", "-split-compile",
    NULL,
};

static int is_value_opt(const char *a) {
  for (const char *const *o = value_opts; *o; o++)
    if (strcmp(a, *o) == 0)
      return 1;
  return 0;
}

/* If a is "NAME=value" or "NAME" for one of the two spellings, return 1. */
static int opt_is(const char *a, const char *lng, const char *shrt) {
  size_t n = strcspn(a, "=");
  return (strlen(lng) == n && strncmp(a, lng, n) == 0) ||
         (shrt && strlen(shrt) == n && strncmp(a, shrt, n) == 0);
}

/* A --maxrregcount value: N, or 0 (archmax/archmin: no limit of the user's). */
static int regcount_value(const char *val) {
  char *end;
  long v = strtol(val, &end, 10);
  return !*end && v > 0 && v < 1 << 16 ? (int)v : 0;
}

int ptxas_args_maxrregcount(const strvec *args) {
  int n = 0;
  for (size_t i = 0; i < args->n; i++) {
    const char *a = args->v[i], *eq = strchr(a, '=');
    if (!opt_is(a, "--maxrregcount", "-maxrregcount"))
      continue;
    if (eq)
      n = regcount_value(eq + 1);
    else if (i + 1 < args->n)
      n = regcount_value(args->v[++i]);
  }
  return n;
}

void optx_cmd_init(optx_cmd *c) {
  memset(c, 0, sizeof *c);
  sv_init(&c->args);
  sv_init(&c->rest);
  c->merge = 1;
  c->jobs = 0;
  c->spill = OPTX_SPILL_AUTO;
  const char *cm = getenv("ORION_PTXAS_COMMANDS");
  c->echo = cm && *cm && strcmp(cm, "0") != 0;
}

void optx_cmd_free(optx_cmd *c) {
  sv_free(&c->args);
  sv_free(&c->rest);
  free(c->input);
  free(c->output);
  free(c->gpu);
  free(c->report);
  free(c->keep_ptx);
  memset(c, 0, sizeof *c);
}

char *optx_expand_path(const char *tmpl) {
  orion_strbuf b;
  orion_sb_init(&b);
  for (const char *p = tmpl; *p; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      orion_sb_addf(&b, "%ld", (long)getpid());
      p++;
    } else if (p[0] == '%' && p[1] == '%') {
      orion_sb_addc(&b, '%');
      p++;
    } else {
      orion_sb_addc(&b, *p);
    }
  }
  return orion_sb_detach(&b);
}

/* A number of ptxas jobs, 0 (one per core) to 4096, into *jobs; -1 if s is
 * not one. */
static int parse_jobs(const char *s, int *jobs) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 0 || v > 4096)
    return -1;
  *jobs = (int)v;
  return 0;
}

/* One --orion- option a into c (*report_opt: --orion-report's value).
 * Returns 0, or -1 with a malloc'd message in *err. */
static int parse_orion_opt(const char *a, optx_cmd *c, char **report_opt, char **err) {
  if (drv_has_prefix(a, "--orion-report=") && a[15]) {
    free(*report_opt);
    *report_opt = drv_xstrdup(a + 15);
  } else if (strcmp(a, "--orion-no-merge") == 0) {
    c->merge = 0;
  } else if (drv_has_prefix(a, "--orion-jobs=") && a[13]) {
    if (parse_jobs(a + 13, &c->jobs) != 0) {
      *err = drv_xasprintf("invalid value in '%s' (expected a number of threads)", a);
      return -1;
    }
  } else if (drv_has_prefix(a, "--orion-keep-ptx=") && a[17]) {
    free(c->keep_ptx);
    c->keep_ptx = drv_xstrdup(a + 17);
  } else if (drv_has_prefix(a, "--orion-spill=")) {
    int p = optx_spill_policy_parse(a + 14);
    if (p < 0) {
      *err = drv_xasprintf("invalid value in '%s' (expected " OPTX_SPILL_POLICIES ")", a);
      return -1;
    }
    c->spill = (optx_spill_policy)p;
    c->spill_given = 1;
  } else if (strcmp(a, "--orion-commands") == 0) {
    c->echo = 1;
  } else if (strcmp(a, "--orion-colour") == 0) {
    c->colour = 1;
  } else {
    *err = drv_xasprintf("unknown Orion option '%s' (known: --orion-report=FILE, "
                         "--orion-no-merge, --orion-jobs=N, --orion-keep-ptx=FILE, "
                         "--orion-spill=auto|smem|pragma|off|sass|partial|dynamic, --orion-colour, --orion-commands)", a);
    return -1;
  }
  return 0;
}

int optx_parse_args(int argc, char **argv, optx_cmd *c, char **err) {
  const char *report = getenv("ORION_PTXAS_REPORT");
  char *report_opt = NULL;
  const char *spill_env = getenv("ORION_PTXAS_SPILL");
  if (spill_env && *spill_env) {
    int p = optx_spill_policy_parse(spill_env);
    if (p < 0) {
      *err = drv_xasprintf("invalid ORION_PTXAS_SPILL='%s' (expected " OPTX_SPILL_POLICIES ")",
                           spill_env);
      return -1;
    }
    c->spill = (optx_spill_policy)p;
    c->spill_given = 1;
  }
  const char *colour_env = getenv("ORION_PTXAS_COLOUR");
  if (colour_env && *colour_env) {
    if (strcmp(colour_env, "0") && strcmp(colour_env, "1")) {
      *err = drv_xasprintf("invalid ORION_PTXAS_COLOUR='%s' (expected 0 or 1)", colour_env);
      return -1;
    }
    c->colour = colour_env[0] == '1';
  }
  const char *jobs_env = getenv("ORION_PTXAS_JOBS");
  if (jobs_env && *jobs_env && parse_jobs(jobs_env, &c->jobs) != 0) {
    *err = drv_xasprintf("invalid ORION_PTXAS_JOBS='%s' (expected a number of threads, "
                         "0 for one per core)", jobs_env);
    return -1;
  }
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!drv_has_prefix(a, "--orion-")) {
      sv_push(&c->args, a);
    } else if (parse_orion_opt(a, c, &report_opt, err) != 0) {
      free(report_opt);
      return -1;
    }
  }
  if (report_opt)
    c->report = optx_expand_path(report_opt);
  else if (report && *report)
    c->report = optx_expand_path(report);
  free(report_opt);

  const char *output = NULL;
  for (size_t i = 0; i < c->args.n; i++) {
    const char *a = c->args.v[i];
    const char *val = NULL;
    int takes_next = a[0] == '-' && !strchr(a, '=') && is_value_opt(a);
    if (takes_next && i + 1 < c->args.n)
      val = c->args.v[i + 1];
    else if (takes_next)
      c->passthrough = 1; /* no value: ptxas's own error (exit 255) */
    else if (a[0] == '-' && strchr(a, '='))
      val = strchr(a, '=') + 1;
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      c->n_inputs++;
      if (!c->input)
        c->input = drv_xstrdup(a);
      continue;
    }
    if (opt_is(a, "--output-file", "-o")) {
      if (val)
        output = val;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      c->verbose = 1;
      continue;
    } else {
      if (opt_is(a, "--gpu-name", "-arch") && val) {
        free(c->gpu);
        c->gpu = drv_xstrdup(val);
      } else if (opt_is(a, "--split-compile", "-split-compile")) {
        c->user_split = 1;
      } else if (opt_is(a, "--maxrregcount", "-maxrregcount") && val) {
        c->maxrregcount = regcount_value(val);
      } else if (opt_is(a, "--override-directive-values", "-override-directive-values")) {
        c->override_directives = 1;
      } else if (strcmp(a, "-c") == 0 || strcmp(a, "--compile-only") == 0) {
        c->rdc = 1;
      } else if (opt_is(a, "--help", "-h") || opt_is(a, "--version", "-V") ||
                 opt_is(a, "--list-version", "-version-ls") ||
                 opt_is(a, "--options-file", "-optf") ||
                 opt_is(a, "--input-as-string", "-ias")) {
        c->passthrough = 1;
      }
      sv_push(&c->rest, a);
      if (takes_next && val)
        sv_push(&c->rest, val);
    }
    if (takes_next && val)
      i++;
  }
  c->output = drv_xstrdup(output ? output : "elf.o");
  if (c->n_inputs != 1)
    c->passthrough = 1;
  optx_resolve_jobs(c, c->input);
  return 0;
}

/* ---- running ---- */

static int run_plain(const optx_cmd *c, const char *real) {
  strvec v;
  sv_init(&v);
  sv_push(&v, real);
  sv_extend(&v, &c->args);
  optx_echo_command(c, v.v);
  int st;
  if (c->exec_passthrough) {
    drv_exec(v.v, NULL);
    drv_error("%s: cannot run: %s", real, strerror(errno));
    st = 1;
  } else {
    drv_proc_result r;
    st = drv_run(v.v, NULL, 0, &r);
    if (st < 0) {
      drv_error("%s: cannot run: %s", real, strerror(r.spawn_errno));
      st = 1;
    }
    drv_proc_result_free(&r);
  }
  sv_free(&v);
  return st;
}

void optx_report_json(const optx_cmd *c, const optx_result *res, orion_strbuf *b) {
  orion_sb_adds(b, "{\"tool\":\"orion-ptxas\",\"version\":");
  orion_sb_json(b, ORION_VERSION_STRING);
  orion_sb_adds(b, ",\"input\":");
  orion_sb_json(b, c->input);
  orion_sb_adds(b, ",\"output\":");
  orion_sb_json(b, c->output);
  orion_sb_adds(b, ",\"gpu\":");
  if (c->gpu)
    orion_sb_json(b, c->gpu);
  else
    orion_sb_adds(b, "null");
  orion_sb_addf(b, ",\"reassembled\":%s,\"entries\":[", res->reassembled ? "true" : "false");
  for (size_t i = 0; i < res->n; i++) {
    const optx_entry *e = &res->e[i];
    orion_sb_adds(b, i ? ",\n  {" : "\n  {");
    orion_sb_adds(b, "\"name\":");
    orion_sb_json(b, e->name);
    orion_sb_adds(b, ",\"kernel\":");
    orion_sb_json(b, e->kernel);
    orion_sb_adds(b, ",\"tag\":");
    orion_sb_json(b, e->tag);
    orion_sb_addf(b, ",\"maxnreg\":%d,\"threads\":%d", e->maxnreg, e->threads);
    if (e->realised)
      orion_sb_addf(b,
              ",\"registers\":%d,\"stack_frame\":%ld,\"spill_stores\":%ld,"
              "\"spill_loads\":%ld,\"smem\":%ld,\"barriers\":%ld",
              e->fig.registers, e->fig.stack_frame, e->fig.spill_stores, e->fig.spill_loads,
              e->fig.smem, e->fig.barriers);
    if (e->realised && e->fig.has_cmem)
      orion_sb_addf(b, ",\"cmem\":%ld", e->fig.cmem);
    else if (e->realised)
      orion_sb_adds(b, ",\"cmem\":null");
    else
      orion_sb_adds(b, ",\"registers\":null");
    orion_sb_addf(b, ",\"block\":%d,\"warps\":", e->block);
    if (e->warps >= 0)
      orion_sb_addf(b, "%d", e->warps);
    else
      orion_sb_adds(b, "null");
    orion_sb_adds(b, ",\"reason\":");
    if (e->reason)
      orion_sb_json(b, e->reason);
    else
      orion_sb_adds(b, "null");
    orion_sb_adds(b, ",\"spill\":");
    if (e->spill_path) {
      orion_sb_adds(b, "{\"path\":");
      orion_sb_json(b, e->spill_path);
      orion_sb_adds(b, ",\"reason\":");
      orion_sb_json(b, e->spill_reason ? e->spill_reason : "");
      if (e->sass_note) {
        orion_sb_adds(b, ",\"sass\":");
        orion_sb_json(b, e->sass_note);
      }
      if (e->spill_block)
        orion_sb_addf(b, ",\"block\":%d,\"maxntid_added\":%s", e->spill_block,
                e->spill_maxntid ? "true" : "false");
      if (e->has_before)
        orion_sb_addf(b,
                ",\"before\":{\"registers\":%d,\"stack_frame\":%ld,\"spill_stores\":%ld,"
                "\"spill_loads\":%ld,\"smem\":%ld}",
                e->before.registers, e->before.stack_frame, e->before.spill_stores,
                e->before.spill_loads, e->before.smem);
      if (!strcmp(e->spill_path, "sass"))
        orion_sb_addf(b,
                ",\"placement\":{\"partial\":%s,\"slots_on_chip\":%u,\"bytes_on_chip\":%u,"
                "\"slots_local\":%u,\"bytes_local\":%u,\"dynamic_bytes_per_warp\":%u}",
                e->sass_partial ? "true" : "false", e->sass_slots[0], e->sass_bytes[0], e->sass_slots[1],
                e->sass_bytes[1], e->sass_warp_bytes);
      orion_sb_adds(b, "}");
    } else {
      orion_sb_adds(b, "null");
    }
    orion_sb_adds(b, ",\"status\":");
    orion_sb_json(b, optx_entry_status(e));
    orion_sb_adds(b, ",\"merged_into\":");
    if (e->duplicate_of >= 0)
      orion_sb_json(b, res->e[e->duplicate_of].name);
    else
      orion_sb_adds(b, "null");
    orion_sb_adds(b, "}");
  }
  orion_sb_adds(b, res->n ? "\n]}" : "]}");
}

static void emit_output(const drv_proc_result *r, int verbose) {
  fflush(stdout);
  if (r->out.len)
    fwrite(r->out.p, 1, r->out.len, stdout);
  fflush(stdout);
  if (verbose) {
    fwrite(r->err.p, 1, r->err.len, stderr);
  } else {
    orion_strbuf f;
    orion_sb_init(&f);
    ptxas_filter_verbose(r->err.p, r->err.len, &f);
    fwrite(f.p, 1, f.len, stderr);
    orion_sb_free(&f);
  }
  fflush(stderr);
}

/* The state of one orion-ptxas run past the pass-through checks. */
typedef struct run_state {
  const optx_cmd *c;
  const char *real;
  optx_result *res;
  orion_strbuf text;          /* the input PTX */
  ptx_module m;         /* scanned from text */
  ptx_edit *ed;         /* per entry of m: drops, pragma edits */
  orion_strbuf first;         /* the first run's PTX when it is not text (limit drops) */
  orion_strbuf edited;        /* the last reassembled PTX */
  const orion_strbuf *final_text;
  char *tmp_out, *tmp_out2, *tmp_ptx, *tmp_first;
  drv_proc_result r1;   /* the first run */
} run_state;

static void run_state_free(run_state *st) {
  if (st->tmp_ptx)
    unlink(st->tmp_ptx);
  if (st->tmp_first)
    unlink(st->tmp_first);
  free(st->tmp_ptx);
  free(st->tmp_first);
  free(st->tmp_out2);
  free(st->tmp_out);
  free(st->ed);
  orion_sb_free(&st->first);
  orion_sb_free(&st->edited);
  drv_proc_result_free(&st->r1);
  ptx_module_free(&st->m);
  orion_sb_free(&st->text);
}

/* Step 3: the user's limit, then the first ptxas run and the figures.  1 when it
 * succeeded; else 0 with *status the exit status to return (ptxas's own
 * diagnostics already given). */
static int first_run(run_state *st, int *status) {
  const optx_cmd *c = st->c;
  st->tmp_out = orion_temp_beside(c->output, ".cubin");
  if (!st->tmp_out) {
    drv_error("%s: cannot write output: %s", c->output, strerror(errno));
    *status = 1;
    return 0;
  }
  size_t ne = st->m.n_entries ? st->m.n_entries : 1;
  char **why = drv_xmalloc(ne * sizeof *why);
  memset(why, 0, ne * sizeof *why);
  const char *input = c->input;
  if (optx_limit_drops(c, &st->m, st->ed, why)) {
    ptx_emit_edited(&st->m, st->ed, &st->first);
    st->tmp_first = optx_write_temp_ptx(&st->first);
    if (st->tmp_first) {
      input = st->tmp_first;
      st->final_text = &st->first;
    } else { /* assemble everything rather than fail */
      drv_warning("%s: cannot write a temporary file (%s); versions above --maxrregcount kept",
                  c->input, strerror(errno));
      for (size_t i = 0; i < st->m.n_entries; i++) {
        st->ed[i].drop = 0;
        free(why[i]);
        why[i] = NULL;
      }
    }
  }
  /* -v in the first run where it costs little (few entries): its figures
   * then need no second run for the versions with local memory */
  int with_v = c->verbose || st->m.n_entries <= OPTX_VERBOSE_MAX_ENTRIES;
  strvec argv;
  optx_build_argv(&argv, st->real, c, NULL, input, st->tmp_out, with_v);
  int rc = optx_run_ptxas(c, &argv, &st->r1);
  sv_free(&argv);
  if (rc != 0) {
    unlink(st->tmp_out);
    if (rc < 0) {
      drv_error("%s: cannot run: %s", st->real, strerror(st->r1.spawn_errno));
      rc = 1;
    } else if (!drv_pending_signal()) {
      rc = run_plain(c, st->real);
    } /* else interrupted: clean up, do not run ptxas again */
    for (size_t i = 0; i < st->m.n_entries; i++)
      free(why[i]);
    free(why);
    *status = rc;
    return 0;
  }
  ptxas_info info; /* -v's figures: that run's output when it had -v */
  if (with_v)
    ptxas_info_parse(st->r1.err.p, st->r1.err.len, &info);
  else
    optx_figures(c, st->real, input, st->tmp_out, &info);
  optx_build_entries(&st->m, &info, why, st->res);
  ptxas_info_free(&info);
  free(why);
  return 1;
}

/* Step 4: assemble again without the dropped versions, with the pragma
 * edits; at most two attempts (with the pragmas, then without them). */
static void reassemble(run_state *st, size_t n_drop, int n_pragma) {
  const optx_cmd *c = st->c;
  while (n_drop || n_pragma) {
    orion_sb_free(&st->edited);
    orion_sb_init(&st->edited);
    ptx_emit_edited(&st->m, st->ed, &st->edited);
    if (st->tmp_ptx) {
      unlink(st->tmp_ptx);
      free(st->tmp_ptx);
    }
    st->tmp_ptx = optx_write_temp_ptx(&st->edited);
    free(st->tmp_out2);
    st->tmp_out2 = orion_temp_beside(c->output, ".cubin");
    drv_proc_result r2;
    int st2 = -1;
    memset(&r2, 0, sizeof r2);
    if (st->tmp_ptx && st->tmp_out2) {
      strvec argv;
      optx_build_argv(&argv, st->real, c, NULL, st->tmp_ptx, st->tmp_out2, c->verbose);
      st2 = optx_run_ptxas(c, &argv, &r2);
      sv_free(&argv);
    }
    int ok = st2 == 0 && rename(st->tmp_out2, st->tmp_out) == 0;
    if (ok) {
      st->res->reassembled = 1;
      st->final_text = &st->edited;
      for (size_t i = 0; i < st->m.n_entries; i++)
        st->res->e[i].merged = st->ed[i].drop && !st->res->e[i].limit_dropped;
    } else {
      unlink(st->tmp_out2);
      if (n_pragma)
        drv_warning("%s: assembling with the spill edits (the shared-memory spill pragma, or one register "
                    "lower for partial placement) in %d version(s) "
                    "failed; keeping those versions as they were",
                    c->input, n_pragma);
      else
        drv_warning("%s: assembling without the %zu duplicate or no-gain version(s) failed; "
                    "keeping every version",
                    c->input, n_drop);
      if (r2.err.p && r2.err.len) {
        orion_strbuf f;
        orion_sb_init(&f);
        ptxas_filter_verbose(r2.err.p, r2.err.len, &f);
        fwrite(f.p, 1, f.len, stderr);
        orion_sb_free(&f);
      }
    }
    drv_proc_result_free(&r2);
    if (ok || !n_pragma || drv_pending_signal())
      break;
    optx_spill_revert(st->res, "the final assembly with the spill edits failed");
    for (size_t i = 0; i < st->m.n_entries; i++)
      st->ed[i].smem_pragma = st->ed[i].maxntid = st->ed[i].maxnreg = 0;
    n_pragma = 0;
  }
}

/* Step 5-6: ptxas's output, the kept PTX, the report, then the cubin into
 * place.  Returns the exit status. */
static int finish(run_state *st) {
  const optx_cmd *c = st->c;
  optx_result *res = st->res;
  emit_output(&st->r1, c->verbose);
  for (size_t i = 0; c->verbose && i < res->n; i++) {
    const optx_entry *e = &res->e[i];
    if (e->has_before && e->spill_path && !strcmp(e->spill_path, "smem-pragma"))
      drv_note("%s: shared-memory spilling (.pragma \"enable_smem_spilling\", %d threads): "
               "%d registers, %ld bytes stack frame, %ld/%ld bytes spill stores/loads, "
               "%ld bytes smem (was %d, %ld, %ld/%ld, %ld)",
               e->name, e->spill_block, e->fig.registers, e->fig.stack_frame,
               e->fig.spill_stores, e->fig.spill_loads, e->fig.smem, e->before.registers,
               e->before.stack_frame, e->before.spill_stores, e->before.spill_loads,
               e->before.smem);
  }
  /* The occupancy each version holds with what the spill path made of it. */
  int sm = optx_cmd_sm(c);
  for (size_t i = 0; i < res->n; i++)
    if (res->e[i].realised)
      res->e[i].warps = optx_warps_at(sm, &res->e[i].fig, res->e[i].block);
  int status = 0;
  const orion_strbuf *ft = st->final_text;
  if (c->keep_ptx && orion_write_file_atomic(c->keep_ptx, ft->p, ft->len, 0) != 0) {
    drv_error("%s: cannot write PTX: %s", c->keep_ptx, strerror(errno));
    status = 1;
  }
  if (status == 0 && c->report) {
    orion_strbuf js;
    orion_sb_init(&js);
    optx_report_json(c, res, &js);
    orion_sb_addc(&js, '\n');
    if (orion_write_file_atomic(c->report, js.p, js.len, 0) != 0) {
      drv_error("%s: cannot write report: %s", c->report, strerror(errno));
      status = 1;
    }
    orion_sb_free(&js);
  }
  if (status == 0 && drv_pending_signal())
    status = 128 + drv_pending_signal();
  if (status == 0 && orion_replace_file(st->tmp_out, c->output) != 0) {
    drv_error("%s: cannot write output: %s", c->output, strerror(errno));
    status = 1;
  }
  if (status != 0)
    unlink(st->tmp_out);
  return status;
}

/* Steps 3-6 on the scanned input. */
static int run_versions(run_state *st) {
  const optx_cmd *c = st->c;
  optx_result *res = st->res;
  size_t ne = st->m.n_entries ? st->m.n_entries : 1;
  st->ed = drv_xmalloc(ne * sizeof *st->ed);
  memset(st->ed, 0, ne * sizeof *st->ed);
  st->final_text = &st->text;
  int status = 1;
  if (!first_run(st, &status))
    return status;
  optx_mark_no_gain(optx_cmd_sm(c), res);
  size_t n_rdc = optx_rdc_drops(c, &st->m, st->tmp_out, res, st->ed), n_drop = n_rdc;
  for (size_t i = 0; i < st->m.n_entries; i++) {
    const optx_entry *e = &res->e[i];
    int drop = c->merge && (e->duplicate_of >= 0 || e->no_gain_of >= 0);
    n_drop += (size_t)(drop && !st->ed[i].drop);
    st->ed[i].drop |= drop;
  }
  int n_pragma =
      drv_pending_signal() ? 0 : optx_spill_fallback(c, st->real, &st->m, st->tmp_out, res, st->ed);
  if ((n_drop || n_pragma) && drv_pending_signal()) {
    unlink(st->tmp_out);
    return 128 + drv_pending_signal();
  }
  /* merged versions alone: hidden in the cubin rather than assembled away */
  if (n_drop && !n_rdc && !n_pragma && st->final_text == &st->text &&
      optx_hide_left_out(c, &st->m, st->ed, st->tmp_out, res, &st->edited)) {
    st->final_text = &st->edited;
    n_drop = 0;
  }
  reassemble(st, n_drop, n_pragma);
  if (!drv_pending_signal() && optx_spill_apply_sass(c, &st->m, st->tmp_out, res) != 0) {
    unlink(st->tmp_out);
    return 1;
  }
  return finish(st);
}

int optx_run(const optx_cmd *c, const char *real, optx_result *res_out) {
  optx_result local, *res = res_out ? res_out : &local;
  memset(res, 0, sizeof *res);
  if (!drv_is_executable(real)) {
    drv_error("%s: ptxas not found or not executable (set ORION_REAL_PTXAS, or "
              "ORION_CUDA_PATH to a CUDA toolkit)",
              real);
    return 1;
  }
  if (c->passthrough)
    return run_plain(c, real);
  run_state st;
  memset(&st, 0, sizeof st);
  st.c = c;
  st.real = real;
  st.res = res;
  if (drv_read_file(c->input, &st.text) != 0)
    return run_plain(c, real); /* ptxas says why, in its words */
  char *perr = NULL;
  if (ptx_scan(st.text.p, st.text.len, &st.m, &perr) != 0) {
    free(perr);
    orion_sb_free(&st.text);
    return run_plain(c, real);
  }
  orion_sb_init(&st.first);
  orion_sb_init(&st.edited);
  int clones = 0;
  for (size_t i = 0; i < st.m.n_entries; i++)
    clones += ptx_split_clone_name(st.m.entries[i].name, NULL, NULL);
  int forced = c->spill_given && (c->spill == OPTX_SPILL_PRAGMA || c->spill == OPTX_SPILL_SASS);
  int status;
  if (!clones && !c->report && !res_out && !c->keep_ptx && !forced) {
    status = run_plain(c, real);
  } else {
    res->ran_orion = 1;
    status = run_versions(&st);
  }
  run_state_free(&st);
  if (!res_out)
    optx_result_free(&local);
  return status;
}
