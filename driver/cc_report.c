/* driver/cc_report.c - see cc_report.h. */
#include "cc_report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "orion/demangle.h"
#include "orion_build_config.h"
#include "util.h"

static json_value *load_json(const char *path, int lines) {
  orion_strbuf b;
  if (drv_read_file(path, &b) != 0)
    return NULL;
  char *err = NULL;
  json_value *v = lines ? json_parse_lines(b.p, b.len, &err) : json_parse(b.p, b.len, &err);
  if (!v) {
    drv_warning("%s: malformed report (%s); ignored", path, err ? err : "?");
    free(err);
  }
  orion_sb_free(&b);
  return v;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* orion-ptxas reports in dir, in name order. */
static json_value *load_builds(const char *dir) {
  json_value *arr = json_parse("[]", 2, NULL);
  DIR *d = opendir(dir);
  if (!d)
    return arr;
  strvec names;
  sv_init(&names);
  struct dirent *e;
  while ((e = readdir(d)))
    if (drv_has_prefix(e->d_name, "ptxas-") && drv_has_suffix(e->d_name, ".json"))
      sv_push(&names, e->d_name);
  closedir(d);
  qsort(names.v, names.n, sizeof *names.v, cmp_str);
  for (size_t i = 0; i < names.n; i++) {
    char *p = drv_path_join(dir, names.v[i]);
    json_value *v = load_json(p, 0);
    free(p);
    if (!v)
      continue;
    arr->items = drv_xrealloc(arr->items, (arr->n + 1) * sizeof *arr->items);
    arr->items[arr->n++] = v;
  }
  sv_free(&names);
  return arr;
}

static int gpu_sm(const json_value *build) {
  const char *g = json_get_str(build, "gpu");
  if (!g)
    return -1;
  while (*g && (*g < '0' || *g > '9'))
    g++;
  return atoi(g);
}

/* The ptxas entry for (kernel, tag) on sm, or NULL. */
static const json_value *find_entry(const json_value *builds, int sm, const char *kernel,
                                    const char *tag) {
  for (size_t i = 0; i < builds->n; i++) {
    const json_value *b = builds->items[i];
    int bsm = gpu_sm(b);
    if (sm > 0 && bsm > 0 && bsm != sm)
      continue;
    const json_value *es = json_get(b, "entries");
    for (size_t j = 0; es && es->kind == JSON_ARR && j < es->n; j++) {
      const json_value *e = es->items[j];
      const char *k = json_get_str(e, "kernel"), *t = json_get_str(e, "tag");
      if (k && t && strcmp(k, kernel) == 0 && strcmp(t, tag) == 0)
        return e;
    }
  }
  return NULL;
}

static void fmt_int(orion_strbuf *b, const json_value *obj, const char *key, int width) {
  const json_value *v = json_get(obj, key);
  if (v && v->kind == JSON_NUM)
    orion_sb_addf(b, "%-*.0f", width, v->num);
  else
    orion_sb_addf(b, "%-*s", width, "-");
}

static void print_build_figures(orion_strbuf *b, const json_value *e) {
  if (!e) {
    orion_sb_adds(b, "-      -     -      -            not built");
    return;
  }
  const char *st = json_get_str(e, "status");
  const char *reason = json_get_str(e, "reason");
  if (json_get_num(e, "registers", -1) < 0) {
    orion_sb_addf(b, "-      -     -      -            %s", st ? st : "not compiled");
    if (reason)
      orion_sb_addf(b, " (%s)", reason);
    return;
  }
  fmt_int(b, e, "warps", 7); /* from the registers and smem ptxas gave it */
  fmt_int(b, e, "registers", 6);
  fmt_int(b, e, "stack_frame", 7);
  char sp[48];
  snprintf(sp, sizeof sp, "%.0f/%.0f", json_get_num(e, "spill_stores", 0),
           json_get_num(e, "spill_loads", 0));
  orion_sb_addf(b, "%-13s", sp);
  const char *into = json_get_str(e, "merged_into");
  if (st && into) {
    char kernel[1024], tag[64];
    int clone = orion_clone_split(into, kernel, sizeof kernel, tag, sizeof tag);
    orion_sb_addf(b, "%s into %s", st, clone ? tag : "orig");
  } else {
    orion_sb_adds(b, st ? st : "?");
    if (reason)
      orion_sb_addf(b, " (%s)", reason);
  }
  /* The spill path (orion-ptxas, ptxas_spill.c), unless nothing spilled. */
  const json_value *spo = json_get(e, "spill");
  const char *path = spo ? json_get_str(spo, "path") : NULL;
  const char *why = spo ? json_get_str(spo, "reason") : NULL;
  if (path && !(strcmp(path, "kept") == 0 && why && strcmp(why, "no spills") == 0)) {
    orion_sb_addf(b, "; spill: %s", path);
    if (why && *why)
      orion_sb_addf(b, " (%s)", why);
  }
}

static void print_table(const json_value *kernels, const json_value *builds) {
  orion_strbuf b;
  orion_sb_init(&b);
  size_t nk = kernels ? kernels->n : 0;
  orion_sb_addf(&b, "orion-cc: report: %zu kernel decision(s), %zu ptxas run(s)\n", nk, builds->n);
  for (size_t i = 0; i < nk; i++) {
    const json_value *k = kernels->items[i];
    const char *name = json_get_str(k, "kernel");
    int sm = (int)json_get_num(k, "sm", 0);
    char shown[1024];
    if (name && orion_demangle(name, shown, sizeof shown))
      orion_sb_addf(&b, "\nkernel %s  [sm_%d, %s]\n", shown, sm, name);
    else
      orion_sb_addf(&b, "\nkernel %s  [sm_%d]\n", name ? name : "?", sm);
    orion_sb_addf(&b, "  max-live %.0f, block %.0f%s, threshold %.0f, direction %s, warps/SM %.0f of %.0f\n",
            json_get_num(k, "max_live", -1), json_get_num(k, "block", 0),
            json_get_bool(k, "block_known", 0) ? "" : " (assumed)",
            json_get_num(k, "threshold", 0),
            json_get_str(k, "direction") ? json_get_str(k, "direction") : "?",
            json_get_num(k, "original_warps", 0), json_get_num(k, "max_warps", 0));
    const char *note = json_get_str(k, "note");
    if (note)
      orion_sb_addf(&b, "  note: %s\n", note);
    /* model: warps/SM the pass predicted; warps: what ptxas's build holds */
    orion_sb_adds(&b, "  version  role          cap   model  warps  regs  stack  spill st/ld  status\n");
    const json_value *vs = json_get(k, "versions");
    for (size_t j = 0; vs && vs->kind == JSON_ARR && j < vs->n; j++) {
      const json_value *v = vs->items[j];
      const char *tag = json_get_str(v, "tag");
      const char *role = json_get_str(v, "role");
      orion_sb_addf(&b, "  %-8s %-13s ", tag ? tag : "?", role ? role : "?");
      int cap = (int)json_get_num(v, "max_regs", 0);
      if (cap > 0)
        orion_sb_addf(&b, "%-5d ", cap);
      else
        orion_sb_adds(&b, "-     ");
      fmt_int(&b, v, "target_warps", 7);
      if (json_get_bool(v, "pad", 0)) {
        orion_sb_adds(&b, "(run time: padded dynamic shared memory)");
      } else if (name && tag) {
        print_build_figures(&b, find_entry(builds, sm, name, tag));
      }
      orion_sb_addc(&b, '\n');
    }
    /* The split entry (uncapped, hidden parameters) when the pass made one. */
    if (json_get_num(k, "hidden_params", 0) > 0 && name) {
      orion_sb_adds(&b, "  split    (split)       -     -      ");
      print_build_figures(&b, find_entry(builds, sm, name, "split"));
      orion_sb_addc(&b, '\n');
    } else if (json_get_str(k, "split_note")) {
      orion_sb_addf(&b, "  no split entry: %s\n", json_get_str(k, "split_note"));
    }
  }
  /* Entries ptxas saw that no decision explains (e.g. no plugin run). */
  int header = 0;
  for (size_t i = 0; i < builds->n; i++) {
    const json_value *bd = builds->items[i];
    const json_value *es = json_get(bd, "entries");
    for (size_t j = 0; es && es->kind == JSON_ARR && j < es->n; j++) {
      const json_value *e = es->items[j];
      const char *kname = json_get_str(e, "kernel");
      int known = 0;
      for (size_t x = 0; x < nk && kname; x++) {
        const char *kn = json_get_str(kernels->items[x], "kernel");
        int ksm = (int)json_get_num(kernels->items[x], "sm", 0);
        if (kn && strcmp(kn, kname) == 0 && (gpu_sm(bd) < 0 || gpu_sm(bd) == ksm))
          known = 1;
      }
      if (known)
        continue;
      if (!header) {
        orion_sb_adds(&b, "\nentries without an Orion decision:\n"
                    "  entry                                    gpu     warps  regs  stack  spill st/ld  status\n");
        header = 1;
      }
      const char *g = json_get_str(bd, "gpu"), *en = json_get_str(e, "name");
      char shown[1024];
      orion_demangle(en ? en : "?", shown, sizeof shown);
      orion_sb_addf(&b, "  %-40s %-7s ", shown, g ? g : "-");
      print_build_figures(&b, e);
      orion_sb_addc(&b, '\n');
    }
  }
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  orion_sb_free(&b);
}

int cc_report_emit(const char *dir, const char *json_file) {
  char *pass_path = drv_path_join(dir, "pass.jsonl");
  json_value *kernels = drv_file_exists(pass_path) ? load_json(pass_path, 1) : NULL;
  free(pass_path);
  json_value *builds = load_builds(dir);
  int rc = 0;
  if (json_file) {
    orion_strbuf b;
    orion_sb_init(&b);
    orion_sb_adds(&b, "{\"tool\":\"orion-cc\",\"version\":");
    orion_sb_json(&b, ORION_VERSION_STRING);
    orion_sb_adds(&b, ",\"kernels\":");
    if (kernels)
      json_write(&b, kernels);
    else
      orion_sb_adds(&b, "[]");
    orion_sb_adds(&b, ",\"builds\":");
    json_write(&b, builds);
    orion_sb_adds(&b, "}\n");
    if (orion_write_file_atomic(json_file, b.p, b.len, 0) != 0) {
      drv_error("%s: cannot write report: %s", json_file, strerror(errno));
      rc = 1;
    }
    orion_sb_free(&b);
  } else {
    if (!kernels)
      drv_note("no Orion decisions were recorded (was the pass plugin loaded, and "
               "were there kernels?)");
    print_table(kernels, builds);
  }
  json_free(kernels);
  json_free(builds);
  return rc;
}
