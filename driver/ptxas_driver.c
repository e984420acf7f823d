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
#include "ptxas_run.h"
#include "ptxas_spill.h"

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

void optx_cmd_init(optx_cmd *c) {
  memset(c, 0, sizeof *c);
  sv_init(&c->args);
  sv_init(&c->rest);
  c->merge = 1;
  c->jobs = 0;
  const char *j = getenv("ORION_PTXAS_JOBS");
  if (j && *j)
    c->jobs = atoi(j);
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
  strbuf b;
  sb_init(&b);
  for (const char *p = tmpl; *p; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      sb_addf(&b, "%ld", (long)getpid());
      p++;
    } else if (p[0] == '%' && p[1] == '%') {
      sb_addc(&b, '%');
      p++;
    } else {
      sb_addc(&b, *p);
    }
  }
  return sb_detach(&b);
}

int optx_parse_args(int argc, char **argv, optx_cmd *c, char **err) {
  const char *report = getenv("ORION_PTXAS_REPORT");
  char *report_opt = NULL;
  const char *spill_env = getenv("ORION_PTXAS_SPILL");
  if (spill_env && *spill_env) {
    int p = optx_spill_policy_parse(spill_env);
    if (p < 0) {
      *err = drv_xasprintf("invalid ORION_PTXAS_SPILL='%s' (expected auto, pragma, off or sass)",
                           spill_env);
      return -1;
    }
    c->spill = (optx_spill_policy)p;
    c->spill_given = 1;
  }
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (drv_has_prefix(a, "--orion-")) {
      if (drv_has_prefix(a, "--orion-report=") && a[15]) {
        free(report_opt);
        report_opt = drv_xstrdup(a + 15);
      } else if (strcmp(a, "--orion-no-merge") == 0) {
        c->merge = 0;
      } else if (drv_has_prefix(a, "--orion-jobs=") && a[13]) {
        char *end;
        long v = strtol(a + 13, &end, 10);
        if (*end || v < 0 || v > 4096) {
          *err = drv_xasprintf("invalid value in '%s' (expected a number of threads)", a);
          free(report_opt);
          return -1;
        }
        c->jobs = (int)v;
      } else if (drv_has_prefix(a, "--orion-keep-ptx=") && a[17]) {
        free(c->keep_ptx);
        c->keep_ptx = drv_xstrdup(a + 17);
      } else if (drv_has_prefix(a, "--orion-spill=")) {
        int p = optx_spill_policy_parse(a + 14);
        if (p < 0) {
          *err = drv_xasprintf("invalid value in '%s' (expected auto, pragma, off or sass)", a);
          free(report_opt);
          return -1;
        }
        c->spill = (optx_spill_policy)p;
        c->spill_given = 1;
      } else if (strcmp(a, "--orion-commands") == 0) {
        c->echo = 1;
      } else {
        *err = drv_xasprintf("unknown Orion option '%s' (known: --orion-report=FILE, "
                             "--orion-no-merge, --orion-jobs=N, --orion-keep-ptx=FILE, "
                             "--orion-spill=auto|pragma|off|sass, --orion-commands)", a);
        free(report_opt);
        return -1;
      }
      continue;
    }
    sv_push(&c->args, a);
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

static int same_figures(const ptxas_figures *a, const ptxas_figures *b) {
  return a->registers == b->registers && a->stack_frame == b->stack_frame &&
         a->spill_stores == b->spill_stores && a->spill_loads == b->spill_loads;
}

static void build_entries(const ptx_module *m, const ptxas_info *info, optx_result *res) {
  res->n = m->n_entries;
  res->e = drv_xmalloc((m->n_entries ? m->n_entries : 1) * sizeof *res->e);
  for (size_t i = 0; i < m->n_entries; i++) {
    const ptx_entry *pe = &m->entries[i];
    optx_entry *e = &res->e[i];
    memset(e, 0, sizeof *e);
    e->name = drv_xstrdup(pe->name);
    size_t klen;
    const char *tag;
    if (ptx_split_clone_name(pe->name, &klen, &tag)) {
      e->is_clone = 1;
      e->kernel = drv_xstrndup(pe->name, klen);
      e->tag = drv_xstrdup(tag);
    } else {
      e->kernel = drv_xstrdup(pe->name);
      e->tag = drv_xstrdup("orig");
    }
    e->maxnreg = pe->maxnreg;
    e->threads = ptx_entry_threads(pe);
    e->duplicate_of = -1;
    const ptxas_figures *f = ptxas_info_find(info, pe->name);
    if (f && f->has_used) {
      e->realised = 1;
      e->fig = *f;
      e->fig.name = e->name;
    }
  }
  /* Clones realised like their kernel or an earlier clone of it.  The
   * split entry (uncapped, hidden parameters: orion/rt.h) is never merged:
   * the runtime needs it whenever it splits a launch, identical or not.
   * Clones with hidden parameters merge like any other: a deleted version
   * is one the runtime does not try. */
  for (size_t i = 0; i < res->n; i++) {
    optx_entry *e = &res->e[i];
    if (!e->is_clone || !e->realised || strcmp(e->tag, ORION_SPLIT_SUFFIX) == 0)
      continue;
    int target = -1;
    for (size_t j = 0; j < res->n && target < 0; j++) {
      optx_entry *k = &res->e[j];
      if (j != i && !k->is_clone && k->realised && strcmp(k->name, e->kernel) == 0 &&
          same_figures(&k->fig, &e->fig))
        target = (int)j;
    }
    for (size_t j = 0; j < i && target < 0; j++) {
      optx_entry *k = &res->e[j];
      if (k->is_clone && k->realised && k->duplicate_of < 0 &&
          strcmp(k->kernel, e->kernel) == 0 && same_figures(&k->fig, &e->fig))
        target = (int)j;
    }
    e->duplicate_of = target;
  }
}

void optx_report_json(const optx_cmd *c, const optx_result *res, strbuf *b) {
  sb_adds(b, "{\"tool\":\"orion-ptxas\",\"version\":");
  json_str(b, ORION_VERSION_STRING);
  sb_adds(b, ",\"input\":");
  json_str(b, c->input);
  sb_adds(b, ",\"output\":");
  json_str(b, c->output);
  sb_adds(b, ",\"gpu\":");
  if (c->gpu)
    json_str(b, c->gpu);
  else
    sb_adds(b, "null");
  sb_addf(b, ",\"reassembled\":%s,\"entries\":[", res->reassembled ? "true" : "false");
  for (size_t i = 0; i < res->n; i++) {
    const optx_entry *e = &res->e[i];
    sb_adds(b, i ? ",\n  {" : "\n  {");
    sb_adds(b, "\"name\":");
    json_str(b, e->name);
    sb_adds(b, ",\"kernel\":");
    json_str(b, e->kernel);
    sb_adds(b, ",\"tag\":");
    json_str(b, e->tag);
    sb_addf(b, ",\"maxnreg\":%d,\"threads\":%d", e->maxnreg, e->threads);
    if (e->realised)
      sb_addf(b,
              ",\"registers\":%d,\"stack_frame\":%ld,\"spill_stores\":%ld,"
              "\"spill_loads\":%ld,\"smem\":%ld,\"barriers\":%ld",
              e->fig.registers, e->fig.stack_frame, e->fig.spill_stores, e->fig.spill_loads,
              e->fig.smem, e->fig.barriers);
    if (e->realised && e->fig.has_cmem)
      sb_addf(b, ",\"cmem\":%ld", e->fig.cmem);
    else if (e->realised)
      sb_adds(b, ",\"cmem\":null");
    else
      sb_adds(b, ",\"registers\":null");
    sb_adds(b, ",\"spill\":");
    if (e->spill_path) {
      sb_adds(b, "{\"path\":");
      json_str(b, e->spill_path);
      sb_adds(b, ",\"reason\":");
      json_str(b, e->spill_reason ? e->spill_reason : "");
      if (e->sass_note) {
        sb_adds(b, ",\"sass\":");
        json_str(b, e->sass_note);
      }
      if (e->spill_block)
        sb_addf(b, ",\"block\":%d,\"maxntid_added\":%s", e->spill_block,
                e->spill_maxntid ? "true" : "false");
      if (e->has_before)
        sb_addf(b,
                ",\"before\":{\"registers\":%d,\"stack_frame\":%ld,\"spill_stores\":%ld,"
                "\"spill_loads\":%ld,\"smem\":%ld}",
                e->before.registers, e->before.stack_frame, e->before.spill_stores,
                e->before.spill_loads, e->before.smem);
      sb_adds(b, "}");
    } else {
      sb_adds(b, "null");
    }
    const char *status = !e->realised          ? "not-compiled"
                         : e->merged           ? "merged"
                         : e->duplicate_of >= 0 ? "duplicate"
                                               : "kept";
    sb_adds(b, ",\"status\":");
    json_str(b, status);
    sb_adds(b, ",\"merged_into\":");
    if (e->duplicate_of >= 0)
      json_str(b, res->e[e->duplicate_of].name);
    else
      sb_adds(b, "null");
    sb_adds(b, "}");
  }
  sb_adds(b, res->n ? "\n]}" : "]}");
}

static void emit_output(const drv_proc_result *r, int verbose) {
  fflush(stdout);
  if (r->out.len)
    fwrite(r->out.p, 1, r->out.len, stdout);
  fflush(stdout);
  if (verbose) {
    fwrite(r->err.p, 1, r->err.len, stderr);
  } else {
    strbuf f;
    sb_init(&f);
    ptxas_filter_verbose(r->err.p, r->err.len, &f);
    fwrite(f.p, 1, f.len, stderr);
    sb_free(&f);
  }
  fflush(stderr);
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

  strbuf text;
  if (drv_read_file(c->input, &text) != 0)
    return run_plain(c, real); /* ptxas says why, in its words */
  ptx_module m;
  char *perr = NULL;
  if (ptx_scan(text.p, text.len, &m, &perr) != 0) {
    free(perr);
    sb_free(&text);
    return run_plain(c, real);
  }
  int clones = 0;
  for (size_t i = 0; i < m.n_entries; i++) {
    size_t kl;
    const char *tag;
    clones += ptx_split_clone_name(m.entries[i].name, &kl, &tag);
  }
  int forced = c->spill_given && (c->spill == OPTX_SPILL_PRAGMA || c->spill == OPTX_SPILL_SASS);
  if (!clones && !c->report && !res_out && !c->keep_ptx && !forced) {
    ptx_module_free(&m);
    sb_free(&text);
    return run_plain(c, real);
  }
  res->ran_orion = 1;

  int status = 1;
  char *tmp_out = drv_sibling_temp(c->output, ".cubin");
  char *tmp_out2 = NULL, *tmp_ptx = NULL;
  strvec argv;
  optx_build_argv(&argv, real, c, NULL, c->input, tmp_out);
  drv_proc_result r1;
  int st = optx_run_ptxas(c, &argv, &r1);
  sv_free(&argv);
  if (st != 0) {
    unlink(tmp_out);
    drv_proc_result_free(&r1);
    if (st < 0) {
      drv_error("%s: cannot run: %s", real, strerror(r1.spawn_errno));
      status = 1;
    } else if (drv_pending_signal()) {
      status = st; /* interrupted: clean up, do not run ptxas again */
    } else {
      status = run_plain(c, real);
    }
    goto done;
  }

  ptxas_info info;
  ptxas_info_parse(r1.err.p, r1.err.len, &info);
  build_entries(&m, &info, res);
  ptxas_info_free(&info);

  size_t n_dup = 0;
  ptx_edit *ed = drv_xmalloc((m.n_entries ? m.n_entries : 1) * sizeof *ed);
  memset(ed, 0, (m.n_entries ? m.n_entries : 1) * sizeof *ed);
  for (size_t i = 0; i < m.n_entries; i++) {
    ed[i].drop = c->merge && res->e[i].duplicate_of >= 0;
    n_dup += (size_t)ed[i].drop;
  }
  int n_pragma = drv_pending_signal() ? 0 : optx_spill_fallback(c, real, &m, tmp_out, res, ed);
  const strbuf *final_text = &text;
  strbuf edited;
  sb_init(&edited);
  if ((n_dup || n_pragma) && drv_pending_signal()) {
    status = 128 + drv_pending_signal();
    unlink(tmp_out);
    free(ed);
    drv_proc_result_free(&r1);
    sb_free(&edited);
    goto done;
  }
  /* At most two attempts: with the pragmas, then without them. */
  while (n_dup || n_pragma) {
    sb_free(&edited);
    sb_init(&edited);
    ptx_emit_edited(&m, ed, &edited);
    if (tmp_ptx) {
      unlink(tmp_ptx);
      free(tmp_ptx);
    }
    tmp_ptx = optx_write_temp_ptx(&edited);
    free(tmp_out2);
    tmp_out2 = drv_sibling_temp(c->output, ".cubin");
    drv_proc_result r2;
    int st2 = -1;
    memset(&r2, 0, sizeof r2);
    if (tmp_ptx) {
      optx_build_argv(&argv, real, c, NULL, tmp_ptx, tmp_out2);
      st2 = optx_run_ptxas(c, &argv, &r2);
      sv_free(&argv);
    }
    int ok = st2 == 0 && rename(tmp_out2, tmp_out) == 0;
    if (ok) {
      res->reassembled = 1;
      final_text = &edited;
      for (size_t i = 0; i < m.n_entries; i++)
        res->e[i].merged = ed[i].drop;
    } else {
      unlink(tmp_out2);
      if (n_pragma)
        drv_warning("%s: assembling with the shared-memory spill pragma in %d version(s) "
                    "failed; keeping those versions as they were",
                    c->input, n_pragma);
      else
        drv_warning("%s: assembling without the %zu duplicate version(s) failed; keeping "
                    "every version",
                    c->input, n_dup);
      if (r2.err.p && r2.err.len) {
        strbuf f;
        sb_init(&f);
        ptxas_filter_verbose(r2.err.p, r2.err.len, &f);
        fwrite(f.p, 1, f.len, stderr);
        sb_free(&f);
      }
    }
    drv_proc_result_free(&r2);
    if (ok || !n_pragma || drv_pending_signal())
      break;
    optx_spill_revert(res, "the final assembly with the pragma failed");
    for (size_t i = 0; i < m.n_entries; i++)
      ed[i].smem_pragma = ed[i].maxntid = 0;
    n_pragma = 0;
  }
  free(ed);
  if (!drv_pending_signal() && optx_spill_apply_sass(c, &m, tmp_out, res) != 0) {
    unlink(tmp_out);
    drv_proc_result_free(&r1);
    sb_free(&edited);
    status = 1;
    goto done;
  }

  emit_output(&r1, c->verbose);
  drv_proc_result_free(&r1);
  for (size_t i = 0; c->verbose && i < res->n; i++) {
    const optx_entry *e = &res->e[i];
    if (e->has_before)
      drv_note("%s: shared-memory spilling (.pragma \"enable_smem_spilling\", %d threads): "
               "%d registers, %ld bytes stack frame, %ld/%ld bytes spill stores/loads, "
               "%ld bytes smem (was %d, %ld, %ld/%ld, %ld)",
               e->name, e->spill_block, e->fig.registers, e->fig.stack_frame,
               e->fig.spill_stores, e->fig.spill_loads, e->fig.smem, e->before.registers,
               e->before.stack_frame, e->before.spill_stores, e->before.spill_loads,
               e->before.smem);
  }

  status = 0;
  if (c->keep_ptx && drv_write_file_atomic(c->keep_ptx, final_text->p, final_text->len) != 0) {
    drv_error("%s: cannot write PTX: %s", c->keep_ptx, strerror(errno));
    status = 1;
  }
  if (status == 0 && c->report) {
    strbuf js;
    sb_init(&js);
    optx_report_json(c, res, &js);
    sb_addc(&js, '\n');
    if (drv_write_file_atomic(c->report, js.p, js.len) != 0) {
      drv_error("%s: cannot write report: %s", c->report, strerror(errno));
      status = 1;
    }
    sb_free(&js);
  }
  if (status == 0 && drv_pending_signal())
    status = 128 + drv_pending_signal();
  if (status == 0 && rename(tmp_out, c->output) != 0) {
    drv_error("%s: cannot write output: %s", c->output, strerror(errno));
    status = 1;
  }
  if (status != 0)
    unlink(tmp_out);
  sb_free(&edited);

done:
  if (tmp_ptx) {
    unlink(tmp_ptx);
    free(tmp_ptx);
  }
  free(tmp_out2);
  free(tmp_out);
  ptx_module_free(&m);
  sb_free(&text);
  if (!res_out)
    optx_result_free(&local);
  return status;
}
