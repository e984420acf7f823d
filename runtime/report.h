/* report.h - the runtime's report at exit (ORION_REPORT): one row per
 * (kernel, launch configuration), as a table or as JSON.  Pure formatting
 * on plain structs; no CUDA. */
#ifndef ORION_RT_REPORT_H
#define ORION_RT_REPORT_H

#include <stdio.h>

#define ORION_REPORT_MAX_CANDS 8

typedef struct orion_report_cand {
  char tag[16];
  int warps;       /* resident warps per SM at this configuration */
  int regs;        /* registers per thread of the binary */
  unsigned long long pad; /* dynamic shared memory padding, bytes */
  double median_ms_per_kblock; /* measured, 0 if never timed */
  int samples;
  int failed;      /* launches that failed (the original ran; the version was dropped) */
  int shares_orig; /* runs the original's binary (a padding version) */
  double risk;     /* its stake before its first pair (tune.h, step 5) */
} orion_report_cand;

typedef struct orion_report_row {
  const char *kernel;
  unsigned bx, by, bz;
  unsigned long long shmem;
  const char *mode;      /* adaptive, exhaustive, static, fixed */
  const char *source;    /* tuned, tuning, cached, tentative (a cached choice not yet
                            confirmed), reverted, static, fixed, single, invalid, untimed */
  int n;
  orion_report_cand c[ORION_REPORT_MAX_CANDS];
  int orig, chosen;      /* indices into c */
  int max_warps;         /* the SM's warp limit */
  int sms;               /* the device's SMs */
  int dir;               /* the walk's first direction (+1 / -1), 0 if not tuned */
  double speedup;        /* original / chosen as measured, 0 if unknown */
  double speedup_ci;     /* its 95 % confidence half-width, 0 if none */
  int speedup_pairs;     /* the paired samples it rests on, 0 if none */
  int rechecks;          /* re-checks of the choice (paired original launches) */
  int confirmed;         /* the choice is settled and confirmed (tune.h, step 7) */
  long samples;          /* timed launches whose time was read */
  long gap_samples;      /* of them, those the GPU may have idled inside (rt.c: timed) */
  int iterations;        /* tuning launches */
  long launches;         /* all launches of this configuration */
  long split_launches;   /* launches split for tuning */
  long settled_at;       /* launch of the configuration tuning settled in, 0 = not tuned here */
} orion_report_row;

void orion_report_table(FILE *f, const orion_report_row *rows, int n);
void orion_report_json(FILE *f, const orion_report_row *rows, int n);

#endif /* ORION_RT_REPORT_H */
