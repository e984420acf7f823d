/* report.c - ORION_REPORT output (report.h).  The table is for people, the
 * JSON for scripts (benchmarks/ reads it); both list every configuration
 * the program launched, in the order first seen.  The table names each
 * kernel as people wrote it (orion_demangle_base: "ns::k<int>"), whole; the
 * JSON keeps the symbol (the mangled name). */
#include "report.h"

#include <string.h>

#include "orion/demangle.h"
#include "orion/record.h"
#include "orion/strbuf.h"

static void json_str(FILE *f, const char *s) {
  orion_strbuf b;
  orion_sb_init(&b);
  orion_sb_json(&b, s);
  if (!b.oom)
    fputs(b.p, f);
  orion_sb_free(&b);
}

void orion_report_table(FILE *f, const orion_report_row *rows, int n) {
  fprintf(f, "orion: %d kernel configuration%s\n", n, n == 1 ? "" : "s");
  fprintf(f, "%-28s %-14s %-7s %-30s %-7s %5s %9s %-20s %5s %9s\n", "kernel", "block", "smem",
          "versions (warps/SM)", "chosen", "regs", "occupancy", "speedup", "iters", "source");
  for (int i = 0; i < n; i++) {
    const orion_report_row *r = &rows[i];
    char block[32], vers[256] = "", occ[16], sp[48];
    snprintf(block, sizeof block, "%ux%ux%u", r->bx, r->by, r->bz);
    size_t off = 0;
    for (int k = 0; k < r->n && off < sizeof vers; k++)
      off += (size_t)snprintf(vers + off, sizeof vers - off, "%s%s:%d%s", k ? "," : "",
                              r->c[k].tag, r->c[k].warps, r->c[k].failed ? "(failed)" : "");
    const orion_report_cand *c = &r->c[r->chosen];
    snprintf(occ, sizeof occ, "%d/%d", c->warps, r->max_warps);
    if (r->speedup > 0 && r->speedup_pairs >= 2)
      snprintf(sp, sizeof sp, "%.3f \u00b1%.3f n=%d", r->speedup, r->speedup_ci,
               r->speedup_pairs);
    else if (r->speedup > 0 && r->speedup_pairs == 1)
      snprintf(sp, sizeof sp, "%.3f n=1", r->speedup);
    else if (r->speedup > 0)
      snprintf(sp, sizeof sp, "%.3fx", r->speedup);
    else
      snprintf(sp, sizeof sp, "-");
    char name[ORION_RECORD_KERNEL_MAX]; /* readable, whole (a long one shifts the row) */
    orion_demangle_base(r->kernel, name, sizeof name);
    fprintf(f, "%-28s %-14s %-7llu %-30s %-7s %5d %9s %-20s %5d %9s\n",
            name, block, r->shmem, vers, c->tag,
            c->regs, occ, sp, r->iterations, r->source);
  }
}

void orion_report_json(FILE *f, const orion_report_row *rows, int n) {
  fprintf(f, "{\"orion_report\":1,\"configs\":[");
  for (int i = 0; i < n; i++) {
    const orion_report_row *r = &rows[i];
    fprintf(f, "%s\n {\"kernel\":", i ? "," : "");
    json_str(f, r->kernel);
    fprintf(f, ",\"block\":[%u,%u,%u],\"shmem\":%llu,\"mode\":", r->bx, r->by, r->bz, r->shmem);
    json_str(f, r->mode);
    fprintf(f, ",\"source\":");
    json_str(f, r->source);
    fprintf(f, ",\"original\":");
    json_str(f, r->c[r->orig].tag);
    fprintf(f, ",\"chosen\":");
    json_str(f, r->c[r->chosen].tag);
    fprintf(f,
            ",\"chosen_regs\":%d,\"chosen_warps\":%d,\"max_warps\":%d,\"speedup\":%.4f,"
            "\"speedup_ci95\":%.4f,\"speedup_pairs\":%d,\"rechecks\":%d,\"confirmed\":%s,"
            "\"iterations\":%d,\"launches\":%ld,\"split_launches\":%ld,\"settled_at\":%ld,"
            "\"timed_samples\":%ld,\"gap_samples\":%ld,\"sms\":%d,\"dir\":%d,\"versions\":[",
            r->c[r->chosen].regs, r->c[r->chosen].warps, r->max_warps, r->speedup,
            r->speedup_ci, r->speedup_pairs, r->rechecks, r->confirmed ? "true" : "false",
            r->iterations, r->launches, r->split_launches, r->settled_at, r->samples,
            r->gap_samples, r->sms, r->dir);
    for (int k = 0; k < r->n; k++) {
      const orion_report_cand *c = &r->c[k];
      fprintf(f, "%s{\"tag\":", k ? "," : "");
      json_str(f, c->tag);
      fprintf(f,
              ",\"warps\":%d,\"regs\":%d,\"pad\":%llu,\"ms_per_kblock\":%.6g,\"samples\":%d,"
              "\"failed\":%d,\"shares_orig\":%d,\"risk\":%.4g}",
              c->warps, c->regs, c->pad, c->median_ms_per_kblock, c->samples, c->failed,
              c->shares_orig, c->risk);
    }
    fprintf(f, "]}");
  }
  fprintf(f, "\n]}\n");
}
