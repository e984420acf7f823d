/* test_report.c - the runtime's report (runtime/report.c): a configuration
 * whose padding version failed to launch shows it in both forms (JSON
 * "failed" count per version, "(failed)" after it in the table), the
 * chosen version and the numbers; a version that never failed says 0;
 * a measured speedup carries its interval and pairs. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report.h"

/* The whole output of fn on rows, as a string (caller frees). */
static char *render(void (*fn)(FILE *, const orion_report_row *, int),
                    const orion_report_row *rows, int n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  fn(f, rows, n);
  fclose(f);
  return buf;
}

int main(void) {
  orion_report_row r;
  memset(&r, 0, sizeof r);
  r.kernel = "_Z4tileP6float4";
  r.bx = 256, r.by = 1, r.bz = 1;
  r.shmem = 51200;
  r.mode = "exhaustive";
  r.source = "exhaustive";
  r.n = 3;
  static const char *tags[] = {"p8", "orig", "r64"};
  for (int i = 0; i < 3; i++) {
    strcpy(r.c[i].tag, tags[i]);
    r.c[i].warps = 8 << i;
    r.c[i].regs = i == 2 ? 64 : 128;
    r.c[i].samples = i ? 3 : 0;
  }
  r.c[0].pad = 114816;
  r.c[0].failed = 1;
  r.c[0].shares_orig = r.c[1].shares_orig = 1;
  r.c[0].risk = 0.25, r.c[2].risk = 0.03;
  r.sms = 132, r.dir = -1;
  r.orig = 1, r.chosen = 2;
  r.max_warps = 64;
  r.speedup = 1.25;
  r.iterations = 8, r.launches = 90, r.settled_at = 9;

  char *js = render(orion_report_json, &r, 1);
  CHECK(js && strstr(js, "{\"tag\":\"p8\",\"warps\":8,\"regs\":128,\"pad\":114816,"
                         "\"ms_per_kblock\":0,\"samples\":0,\"failed\":1,\"shares_orig\":1,"
                         "\"risk\":0.25}"),
        "JSON p8 entry: %s", js ? js : "(null)");
  CHECK(js && strstr(js, "\"tag\":\"r64\",\"warps\":32,\"regs\":64,\"pad\":0,"
                         "\"ms_per_kblock\":0,\"samples\":3,\"failed\":0,\"shares_orig\":0,"
                         "\"risk\":0.03}"),
        "JSON r64 entry: %s", js ? js : "(null)");
  CHECK(js && strstr(js, "\"original\":\"orig\",\"chosen\":\"r64\"") &&
            strstr(js, "\"launches\":90,\"split_launches\":0,\"settled_at\":9,\"timed_samples\":0,"
                         "\"gap_samples\":0,\"sms\":132,\"dir\":-1,"),
        "JSON row: %s", js ? js : "(null)");
  free(js);

  char *tb = render(orion_report_table, &r, 1);
  CHECK(tb && strstr(tb, "p8:8(failed),orig:16,r64:32 "), "table versions: %s",
        tb ? tb : "(null)");
  CHECK(tb && strstr(tb, " 1.250x ") && strstr(tb, "32/64"), "table chosen: %s",
        tb ? tb : "(null)");
  CHECK(tb && strstr(tb, "\ntile ") && !strstr(tb, "_Z4tile"), "table name: %s",
        tb ? tb : "(null)");
  free(tb);
  /* a long name is shown whole, never cut from the left */
  r.kernel = "_ZN9transform6detail22stencil_kernel_tiled_3IfLi8EEEvPKT_PS2_i";
  tb = render(orion_report_table, &r, 1);
  CHECK(tb && strstr(tb, "\ntransform::detail::stencil_kernel_tiled_3<float, 8> 256x1x1"),
        "table long name: %s", tb ? tb : "(null)");
  free(tb);
  js = render(orion_report_json, &r, 1);
  CHECK(js && strstr(js, "\"kernel\":\"_ZN9transform6detail22stencil_kernel_tiled_3IfLi8EEEvPKT_PS2_i\""),
        "JSON keeps the symbol: %s", js ? js : "(null)");
  free(js);
  r.kernel = "_Z4tileP6float4";

  r.c[0].failed = 0; /* nothing failed: no mark */
  tb = render(orion_report_table, &r, 1);
  CHECK(tb && strstr(tb, "p8:8,orig:16,r64:32 ") && !strstr(tb, "failed"), "table clean: %s",
        tb ? tb : "(null)");
  free(tb);

  /* Adaptive mode's measured speedup: the paired estimate, its 95 %
   * half-width and the pairs, in both forms. */
  r.mode = "adaptive", r.source = "tuned";
  r.speedup = 1.0431, r.speedup_ci = 0.0062, r.speedup_pairs = 12, r.rechecks = 6, r.confirmed = 1;
  tb = render(orion_report_table, &r, 1);
  CHECK(tb && strstr(tb, " 1.043 \u00b10.006 n=12 "), "table estimate: %s", tb ? tb : "(null)");
  free(tb);
  js = render(orion_report_json, &r, 1);
  CHECK(js && strstr(js, "\"speedup\":1.0431,\"speedup_ci95\":0.0062,\"speedup_pairs\":12,"
                         "\"rechecks\":6,\"confirmed\":true,"),
        "JSON estimate: %s", js ? js : "(null)");
  free(js);
  /* The timed samples and those the GPU may have idled inside. */
  r.samples = 40, r.gap_samples = 3;
  js = render(orion_report_json, &r, 1);
  CHECK(js && strstr(js, "\"timed_samples\":40,\"gap_samples\":3,\"sms\":"), "JSON samples: %s",
        js ? js : "(null)");
  free(js);
  return CHECK_DONE();
}
