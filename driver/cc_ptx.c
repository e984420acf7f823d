/* driver/cc_ptx.c - orion-cc's PTX-level path (a .ptx input, e.g. from
 * `nvcc -ptx`): ptxas -v on the original gives each entry's registers;
 * orion_select_versions picks the versions; each non-padding version
 * becomes a cloned entry K__orion_<tag> with .maxnreg, plus K's record,
 * one line of the file's record table (orion/record.h: one global
 * `__orion_records_<hash of the input's path>` after the last entry); the user's register limits (the entry's .maxnreg,
 * .maxntid/.reqntid with .minnctapersm, ptxas --maxrregcount) are a
 * ceiling for every version (orion_reg_ceiling); then orion-ptxas assembles it (-o k.cubin), or -S
 * writes the versioned PTX.  Report lines (--orion-report) are written in
 * OrionPass's pass.jsonl form with "source":"ptxas" and no features (the
 * pass's writer needs LLVM's headers; the driver links no LLVM).
 * Contracts in cc.h.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"
#include "json.h"
#include "orion/demangle.h"
#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion/select.h"
#include "ptx.h"
#include "ptxas_driver.h"

/* Version-selection limits from the environment (OrionPass's variables). */
typedef struct ptx_limits {
  int max_versions;  /* ORION_MAX_VERSIONS, 0 = the default */
  int cap_floor_pct; /* ORION_CAP_FLOOR, default ORION_CAP_FLOOR_PCT */
  int assumed_block; /* ORION_BLOCK, 0 = unknown */
} ptx_limits;

static char *ptx_output_path(const cc *c) {
  if (c->output)
    return drv_xstrdup(c->output);
  const char *in = c->ptx_inputs.v[0];
  const char *base = drv_basename(in);
  size_t n = strlen(base) - 4; /* ".ptx" */
  return drv_xasprintf("%.*s%s", (int)n, base, c->assemble_only ? ".orion.ptx" : ".cubin");
}

/* argv = tool -arch <arch> <the user's ptxas options> */
static void ptxas_argv(const cc *c, const char *tool, strvec *argv) {
  sv_init(argv);
  sv_push(argv, tool);
  sv_push(argv, "-arch");
  sv_push(argv, cc_first_arch(c));
  sv_extend(argv, &c->ptxas_user);
}

int cc_stage_ptx_probe(cc *c) {
  strvec argv;
  ptxas_argv(c, c->real_ptxas, &argv);
  sv_push(&argv, "-v");
  sv_push(&argv, "--output-file");
  sv_push(&argv, "/dev/null");
  sv_push(&argv, c->ptx_inputs.v[0]);
  drv_proc_result r;
  int st = cc_run_cmd(c, &argv, NULL, 1, &r);
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
      orion_strbuf f;
      orion_sb_init(&f);
      ptxas_filter_verbose(r.err.p, r.err.len, &f);
      fwrite(f.p, 1, f.len, stderr);
      orion_sb_free(&f);
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
static void pass_record_json(orion_strbuf *b, const char *module, const char *kernel, int sm,
                             int max_live, const orion_selection *s, int clones,
                             const char *record, const char *note, int reg_limit,
                             const char *limit_note) {
  orion_sb_adds(b, "{\"module\":");
  orion_sb_json(b, module);
  orion_sb_adds(b, ",\"kernel\":");
  orion_sb_json(b, kernel);
  orion_sb_addf(b,
          ",\"sm\":%d,\"max_live\":%d,\"threshold\":%d,\"block\":%d,\"block_known\":%s,"
          "\"direction\":\"%s\",\"original_warps\":%d,\"max_warps\":%d,\"source\":\"ptxas\","
          "\"versions\":[",
          sm, max_live, s->threshold, s->block, s->block_known ? "true" : "false",
          orion_direction_name(s->direction), s->original_warps, s->max_warps);
  for (int i = 0; i < s->n_versions; i++) {
    const orion_version *v = &s->versions[i];
    orion_sb_addf(b, "%s{\"tag\":", i ? "," : "");
    orion_sb_json(b, v->tag);
    orion_sb_addf(b, ",\"role\":\"%s\",\"max_regs\":%d,\"target_warps\":%d,\"pad\":%s}",
            orion_role_name(v->role), v->max_regs, v->target_warps, v->is_pad ? "true" : "false");
  }
  orion_sb_addf(b, "],\"clones\":%d,\"record\":", clones);
  if (record)
    orion_sb_json(b, record);
  else
    orion_sb_adds(b, "null");
  orion_sb_adds(b, ",\"note\":");
  if (note)
    orion_sb_json(b, note);
  else
    orion_sb_adds(b, "null");
  if (reg_limit)
    orion_sb_addf(b, ",\"reg_limit\":%d,\"limit_note\":", reg_limit);
  else
    orion_sb_adds(b, ",\"reg_limit\":null,\"limit_note\":");
  if (limit_note)
    orion_sb_json(b, limit_note);
  else
    orion_sb_adds(b, "null");
  orion_sb_adds(b, "}\n");
}

/* Version one entry e of m (unless it is a clone or already has clones):
 * its clones go to *ptx, its record text to *recs, its report line to
 * *jsonl. */
static void version_entry(cc *c, const ptx_module *m, const ptx_entry *e, int sm,
                          const ptx_limits *lim, orion_strbuf *ptx, strvec *recs, orion_strbuf *jsonl) {
  const char *in = c->ptx_inputs.v[0];
  if (ptx_split_clone_name(e->name, NULL, NULL))
    return; /* already versioned */
  for (size_t j = 0; j < m->n_entries; j++) {
    char *of = NULL;
    int mine = ptx_split_clone_name(m->entries[j].name, &of, NULL) && strcmp(of, e->name) == 0;
    free(of);
    if (mine)
      return; /* has clones */
  }
  const ptxas_figures *f = ptxas_info_find(&c->probe, e->name);
  if (!f || !f->has_used) {
    drv_warning("%s: ptxas reported no figures for entry '%s'; not versioned", in, e->name);
    return;
  }
  /* The user's limits: ptxas held the probe to them; no version above. */
  orion_reg_limits ul = {e->maxnreg, ptx_entry_threads(e), e->minnctapersm,
                         ptxas_args_maxrregcount(&c->ptxas_user)};
  char why[96], limit_note[256];
  int ceiling = orion_reg_ceiling(sm, &ul, why, sizeof why);
  orion_select_input si;
  memset(&si, 0, sizeof si);
  si.sm = sm;
  si.max_live = ceiling && f->registers > ceiling ? ceiling : f->registers;
  si.threads_per_block = ptx_entry_threads(e);
  if (!si.threads_per_block && lim->assumed_block > 0)
    si.threads_per_block = lim->assumed_block;
  si.smem_static = (unsigned)f->smem;
  si.max_versions = lim->max_versions;
  si.cap_floor_pct = lim->cap_floor_pct;
  orion_selection sel;
  orion_status os = orion_select_versions(&si, &sel);
  if (os != ORION_OK) {
    drv_warning("%s: entry '%s': version selection failed (%s); not versioned", in, e->name,
                orion_strerror(os));
    return;
  }
  if (si.threads_per_block && ptx_entry_threads(e))
    sel.block_known = 1;
  if (ceiling)
    orion_select_apply_ceiling(&sel, ceiling, why, f->registers, limit_note, sizeof limit_note);
  int clones = 0;
  for (int v = 1; v < sel.n_versions; v++) {
    const orion_version *ver = &sel.versions[v];
    if (ver->is_pad || ver->max_regs <= 0)
      continue;
    size_t cn = strlen(e->name) + strlen(ORION_CLONE_INFIX) + sizeof ver->tag + 8;
    char *cname = drv_xmalloc(cn);
    if (orion_clone_name(e->name, ver->tag, cname, cn)) {
      orion_sb_addc(ptx, '\n');
      ptx_emit_clone(m, e, cname, ver->max_regs, ptx);
    }
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
      sv_push(recs, recbuf);
      have_rec = 1;
    } else {
      note = "record not emitted (formatting failed)";
    }
  } else {
    note = "record not emitted (kernel name too long)";
  }
  pass_record_json(jsonl, in, e->name, sm, f->registers, &sel, clones, have_rec ? recbuf : NULL,
                   note, ceiling, ceiling ? limit_note : NULL);
}

/* Append the record table of recs (none when empty) to *ptx, named after
 * the input's path.  Returns 0, or 1 after an error (the name is taken). */
static int emit_table(const char *in, const ptx_module *m, const strvec *recs, orion_strbuf *ptx) {
  if (recs->n == 0)
    return 0;
  char name[ORION_RECORD_TABLE_NAME_MAX];
  orion_record_table_name(in, name, sizeof name);
  char *old = ptx_global_string(m, name);
  if (old || ptx_find_entry(m, name) >= 0) {
    free(old);
    drv_error("%s: the symbol %s, the name of its decision-record table, is taken", in, name);
    return 1;
  }
  char *table = orion_record_table_build((const char *const *)recs->v, recs->n);
  if (!table) {
    drv_error("%s: cannot build the decision-record table", in);
    return 1;
  }
  orion_sb_adds(ptx, "\n// Orion decision records (orion/record.h)\n");
  ptx_emit_string_global(name, table, ptx);
  free(table);
  return 0;
}

/* Read and scan the input PTX.  Returns 0, or 1 after an error. */
static int read_module(const char *in, orion_strbuf *text, ptx_module *m) {
  if (drv_read_file(in, text) != 0) {
    drv_error("%s: %s", in, strerror(errno));
    return 1;
  }
  char *err = NULL;
  if (ptx_scan(text->p, text->len, m, &err) != 0) {
    drv_error("%s: malformed PTX: %s", in, err);
    free(err);
    orion_sb_free(text);
    return 1;
  }
  if (m->n_entries == 0) {
    drv_error("%s: no kernel entry (.entry) in this PTX; nothing to tune", in);
    ptx_module_free(m);
    orion_sb_free(text);
    return 1;
  }
  return 0;
}

/* Write the versioned PTX (and the report lines).  Returns 0, or 1 after an error. */
static int write_outputs(cc *c, const orion_strbuf *ptx, const orion_strbuf *jsonl) {
  if (orion_write_file_atomic(c->versioned_ptx, ptx->p, ptx->len, 0) != 0) {
    drv_error("%s: cannot write output: %s", c->versioned_ptx, strerror(errno));
    return 1;
  }
  if (c->report && jsonl->len && cc_need_tmpdir(c)) {
    char *p = drv_path_join(c->tmpdir, "pass.jsonl");
    if (orion_write_file_atomic(p, jsonl->p, jsonl->len, 0) != 0)
      drv_warning("%s: cannot write: %s", p, strerror(errno));
    free(p);
  }
  if (c->keep && !c->assemble_only)
    drv_note("kept the versioned PTX as %s", c->versioned_ptx);
  return 0;
}

/* Where the versioned PTX goes: the output (-S), next to it (--keep), or
 * the temp dir.  Returns 0, or 1 after an error. */
static int choose_versioned_path(cc *c) {
  char *out = ptx_output_path(c);
  int rc = 0;
  if (c->assemble_only) {
    c->versioned_ptx = drv_xstrdup(out);
  } else if (c->keep) {
    size_t n = strlen(out);
    const char *dot = strrchr(drv_basename(out), '.');
    c->versioned_ptx = drv_xasprintf("%.*s.orion.ptx", (int)(dot ? (size_t)(dot - out) : n), out);
  } else if (cc_need_tmpdir(c)) {
    c->versioned_ptx = drv_xasprintf("%s/%s", c->tmpdir, drv_basename(c->ptx_inputs.v[0]));
  } else {
    rc = 1;
  }
  free(out);
  return rc;
}

int cc_stage_ptx_version(cc *c) {
  const char *in = c->ptx_inputs.v[0];
  if (choose_versioned_path(c) != 0)
    return 1;
  cc_note_inprocess(c, "select versions for the entries of %s (ptxas registers as max-live) -> %s",
                    in, c->versioned_ptx);
  if (c->dry_run)
    return 0;
  int sm;
  if (orion_arch_from_name(cc_first_arch(c), &sm) != ORION_OK)
    return 1;
  orion_strbuf text;
  ptx_module m;
  if (read_module(in, &text, &m) != 0)
    return 1;
  ptx_limits lim;
  lim.max_versions = env_int("ORION_MAX_VERSIONS", 0);
  if (lim.max_versions < 0 || lim.max_versions > ORION_MAX_VERSIONS)
    lim.max_versions = 0;
  lim.assumed_block = env_int("ORION_BLOCK", 0);
  lim.cap_floor_pct = env_int("ORION_CAP_FLOOR", ORION_CAP_FLOOR_PCT);
  if (lim.cap_floor_pct < 0 || lim.cap_floor_pct > 100)
    lim.cap_floor_pct = ORION_CAP_FLOOR_PCT;
  orion_strbuf ptx, jsonl;
  strvec recs;
  orion_sb_init(&ptx);
  sv_init(&recs);
  orion_sb_init(&jsonl);
  size_t pos = 0;
  for (size_t i = 0; i < m.n_entries; i++) {
    const ptx_entry *e = &m.entries[i];
    orion_sb_add(&ptx, m.text + pos, e->end - pos);
    pos = e->end;
    version_entry(c, &m, e, sm, &lim, &ptx, &recs, &jsonl);
  }
  orion_sb_add(&ptx, m.text + pos, m.len - pos);
  int rc = emit_table(in, &m, &recs, &ptx) || write_outputs(c, &ptx, &jsonl);
  orion_sb_free(&ptx);
  sv_free(&recs);
  orion_sb_free(&jsonl);
  ptx_module_free(&m);
  orion_sb_free(&text);
  return rc;
}

int cc_stage_ptx_assemble(cc *c) {
  char *out = ptx_output_path(c);
  strvec argv;
  ptxas_argv(c, c->orion_ptxas, &argv);
  if (c->report) {
    if (!cc_need_tmpdir(c)) {
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
  int st = cc_run_cmd(c, &argv, &env, 0, NULL);
  cc_note_spill_commands(c, "runs", 1);
  sv_free(&env);
  sv_free(&argv);
  free(out);
  return st;
}

int cc_ptx_check_options(const cc *c) {
  const char *in = c->ptx_inputs.v[0];
  if (c->inputs.n != 1) {
    drv_error("a .ptx input must be the only input (got %zu inputs)", c->inputs.n);
    return 1;
  }
  if (c->archs.n > 1) {
    drv_error("%s: give exactly one --cuda-gpu-arch for a .ptx input", in);
    return 1;
  }
  int sm;
  if (orion_arch_from_name(cc_first_arch(c), &sm) != ORION_OK) {
    drv_error("%s: the PTX-level path needs an architecture in Orion's occupancy model (%s), "
              "not %s", in, orion_arch_supported_list(), cc_first_arch(c));
    return 1;
  }
  /* Only options that mean something for PTX are accepted. */
  for (size_t i = 0; i < c->user_args.n; i++) {
    const char *a = c->user_args.v[i];
    if (strcmp(a, "-Xcuda-ptxas") == 0 || strcmp(a, "-o") == 0) {
      i++;
      continue;
    }
    if (a[0] != '-' || strcmp(a, "-S") == 0 || strcmp(a, "-c") == 0 || strcmp(a, "-v") == 0 ||
        drv_has_prefix(a, "--cuda-gpu-arch=") || drv_has_prefix(a, "--offload-arch=") ||
        drv_has_prefix(a, "--cuda-path=") || (a[1] == 'O' && a[2] >= '0' && a[2] <= '9' && !a[3]) ||
        (a[1] == 'o' && a[2]))
      continue;
    drv_error("%s: option '%s' is not supported with a .ptx input", in, a);
    return 1;
  }
  /* nvcc's code-generation options mean nothing for PTX (ptxas's do) */
  if (c->nv_codegen.n) {
    drv_error("%s: option '%s' is not supported with a .ptx input", in, c->nv_codegen.v[0]);
    return 1;
  }
  return 0;
}
