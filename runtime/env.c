/* env.c - liborionrt's configuration from the environment (orion/rt.h
 * lists the variables) and its start-up: a malformed value is warned about
 * once and the default used. */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"

/* ---- environment -------------------------------------------------------- */
static void parse_env(void) {
  const char *m = getenv("ORION_MODE");
  orion_rt.mode = MODE_ADAPTIVE;
  if (m && *m) {
    if (!strcmp(m, "off"))
      orion_rt.mode = MODE_OFF;
    else if (!strcmp(m, "static"))
      orion_rt.mode = MODE_STATIC;
    else if (!strcmp(m, "adaptive"))
      orion_rt.mode = MODE_ADAPTIVE;
    else if (!strcmp(m, "exhaustive"))
      orion_rt.mode = MODE_EXHAUSTIVE;
    else if (!strncmp(m, "fixed:", 6) && m[6] && strlen(m + 6) < sizeof orion_rt.fixed &&
             !strpbrk(m + 6, " \t;")) {
      orion_rt.mode = MODE_FIXED;
      strcpy(orion_rt.fixed, m + 6);
    } else
      orion_rt_warn(W_MODE,
                    "ORION_MODE='%s' is not off, static, adaptive, exhaustive, fixed:<tag> or "
                    "fixed:<kernel>=<tag>,...; using adaptive",
                    m);
  }
  const char *dbg = getenv("ORION_DEBUG");
  orion_rt.debug = dbg && *dbg && strcmp(dbg, "0");
  const char *r = getenv("ORION_REPORT");
  if (r && *r && strcmp(r, "0")) {
    if (!strcmp(r, "1") || !strcmp(r, "table"))
      orion_rt.report = 1;
    else if (!strcmp(r, "json"))
      orion_rt.report = 2;
    else if (strlen(r) < sizeof orion_rt.report_path) {
      orion_rt.report = 3;
      strcpy(orion_rt.report_path, r);
    } else
      orion_rt_warn(W_REPORT, "ORION_REPORT path too long; no report");
  }
  const char *c = getenv("ORION_CACHE");
  if (c && (!strcmp(c, "off") || !strcmp(c, "0") || !*c))
    orion_rt.cache_path[0] = '\0';
  else if (c) {
    if (snprintf(orion_rt.cache_path, sizeof orion_rt.cache_path, "%s", c) >=
        (int)sizeof orion_rt.cache_path) {
      orion_rt_warn(W_CACHE_READ, "ORION_CACHE path too long; cache off");
      orion_rt.cache_path[0] = '\0';
    }
  } else {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x == '/')
      snprintf(orion_rt.cache_path, sizeof orion_rt.cache_path, "%s/orion/decisions", x);
    else if (h && *h == '/')
      snprintf(orion_rt.cache_path, sizeof orion_rt.cache_path, "%s/.cache/orion/decisions", h);
  }
}

/* ORION_SPLIT (0 default; 1: tune single launches on chunks where the
 * chunks' cost is bounded, rt.c: split_launch; always: wherever chunks fit,
 * whatever they cost, to test the split path),
 * ORION_RECHECK (launches between re-checks of a choice other than the
 * original; default 64, 0 = none) and ORION_BUDGET (the fraction of the
 * GPU time run so far that trials may lose: tune.h, step 5; default 0.005,
 * 0 = no trials). */
static void parse_tuning(void) {
  const char *sp = getenv("ORION_SPLIT");
  orion_rt.split = 0;
  if (sp && *sp && strcmp(sp, "0")) {
    if (!strcmp(sp, "1") || !strcmp(sp, "always"))
      orion_rt.split = sp[0] == '1' ? 1 : 2;
    else
      orion_rt_warn(W_SPLIT, "ORION_SPLIT='%s' is not 0, 1 or always; using 0", sp);
  }
  const char *rc = getenv("ORION_RECHECK");
  orion_rt.recheck = ORION_RT_RECHECK;
  if (rc && *rc) {
    char *end;
    long v = strtol(rc, &end, 10);
    if (*end || v < 0 || v > 1000000000L)
      orion_rt_warn(W_RECHECK, "ORION_RECHECK='%s' is not a number of launches in 0..10^9; "
                               "using %d",
                    rc, ORION_RT_RECHECK);
    else
      orion_rt.recheck = v < 3 && v ? 3 : v; /* a re-check takes three launches */
  }
  const char *b = getenv("ORION_BUDGET");
  orion_rt.budget = ORION_RT_BUDGET;
  if (b && *b) {
    char *end;
    double v = strtod(b, &end);
    if (*end || !(v >= 0 && v <= 0.5))
      orion_rt_warn(W_BUDGET, "ORION_BUDGET='%s' is not a fraction in 0..0.5; using %g", b,
                    ORION_RT_BUDGET);
    else
      orion_rt.budget = v;
  }
}

void orion_rt_init(void) {
  parse_env();
  parse_tuning();
  if (orion_rt.mode == MODE_OFF)
    return;
  const char *missing = orion_driver_api_load(&orion_rt.api);
  if (missing) {
    orion_rt_warn(W_DRIVER,
                  "CUDA driver entry point %s unavailable (no GPU or driver?); kernels "
                  "launch unchanged",
                  missing);
    return;
  }
  if (orion_rt.api.cuDriverGetVersion(&orion_rt.driver_version) != CUDA_SUCCESS)
    orion_rt.driver_version = 0;
  orion_rt.usable = 1;
  atexit(orion_rt_at_exit);
}

/* The tag ORION_MODE=fixed:... names for kernel: the one tag, or the
 * kernel's entry of a <kernel>=<tag>,... list ("orig" when not listed; the
 * last entry that names it wins; <kernel> as orion_names_kernel reads it). */
void orion_rt_fixed_tag(const char *kernel, char *tag, size_t n) {
  if (!strchr(orion_rt.fixed, '=')) {
    size_t l = strlen(orion_rt.fixed);
    if (l < n)
      memcpy(tag, orion_rt.fixed, l + 1);
    else
      tag[0] = '\0';
    return;
  }
  snprintf(tag, n, "orig");
  for (const char *p = orion_rt.fixed; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    if (eq && orion_names_kernel(p, (size_t)(eq - p), kernel)) {
      size_t tl = len - (size_t)(eq - p) - 1;
      if (tl < n) {
        memcpy(tag, eq + 1, tl);
        tag[tl] = '\0';
      }
    }
    p = end ? end + 1 : p + len;
  }
}
