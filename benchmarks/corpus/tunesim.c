/* tunesim.c - replays a program's launches through liborionrt's adaptive
 * selection, with the GPU times each version really took.
 *
 *   tunesim [-v] [--budget F] [--own F] [--recheck N] [--event-us F]
 *           [--gap P,US [--seed S] [--drop-gaps all|rechecks|fix [--gap-false Q]]]
 *           [--set field=value ...]
 *           < scenario
 *
 * The question it answers offline: what would adaptive mode have cost on a
 * program, launch by launch, under a given tuner?  A scenario (tunesim.py
 * writes it from the traces measure.py --traces keeps) lists each tuned
 * configuration's versions as the runtime's report gives them, then every
 * launch of those configurations in program order with the time each
 * version took for that very launch when the program ran on it alone
 * (ORION_MODE=fixed:<tag>).  Each launch runs the version the runtime would
 * pick and costs that version's time, so the replay includes the trials,
 * their waits for budget, the re-checks and the choice, exactly as
 * runtime/rt.c drives runtime/tune.c (linked here unchanged):
 *   - tuning starts at a configuration's first launch (tuner_init with the
 *     report's direction, shares and risks);
 *   - padding versions whose limit never binds are left out on the first
 *     tuning launch, and the round guard skips candidates before launching
 *     them (plan.h);
 *   - a trial launch waits, the best version so far running untimed,
 *     until ORION_BUDGET of the tuned configurations' GPU time less their
 *     tuning loss covers its stake and the smaller stakes other
 *     configurations wait with (rt.c: affordable, budget_ms);
 *   - a settled choice other than the original is re-checked on
 *     plan.h's schedule.
 * What-if, not in rt.c: --own F also requires F of the configuration's own
 * GPU time less its own tuning loss to cover the stake (a budget per
 * kernel beside the program's; --budget 1 leaves it alone).  --event-us F
 * adds F us to every time the tuner is fed: the fixed cost that timing a
 * launch with events has on the GPU, which CUPTI's times leave out.
 * --gap P,US adds US us to a fed time with probability P (a pseudo-random
 * sequence from --seed S and the scenario's first launch times, so each
 * replay is hit elsewhere): the GPU idling inside a sample while the host
 * submits the kernel (rt.c: timed, gap_samples), which the events read and
 * CUPTI does not; the runtime's budget reads it too.
 * --drop-gaps all: such a sample is not fed to the tuner (as if the runtime
 * knew it, rt.c's gap_samples; the launch counts as untimed), nor, with
 * --gap-false Q, a share Q of the others (the signal's false alarms);
 * --drop-gaps rechecks: only while a re-check runs; --drop-gaps fix feeds
 * them all, a hit sample without its gap and a false alarm less US (at
 * most half its time), as a runtime that subtracted the host's submission
 * from every marked sample would.
 * Not replayed: chunked launches (ORION_SPLIT=1), launch failures, several
 * host threads, and rt.c's launch chosen one ahead (tune.h, step 10: a
 * time is fed here before the next launch is chosen; the traces' CUPTI
 * times hold no host submission for that launch to avoid, and a verdict
 * costs no launch of the loser).  Timed launches are fed with their work (blocks) and the
 * grid's block count as the comparability key (shifted clear of its timing bit, tune.h).
 *
 * Scenario (whitespace separated, one record a line):
 *   config <id> <n> <orig> <dir> <threads per block> <sms> <name>
 *   cand <id> <k> <tag> <warps> <pad 0/1> <shares 0/1> <risk>
 *   launch <id> <blocks> <ms of version 0> ... <ms of version n-1>
 * Output, one line per configuration:
 *   result <id> <ms in all> <chosen tag> <tuning launches> <speedup> <ci95>
 *          <pairs> <rechecks> <reverted 0/1> <waits>
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/select.h"
#include "plan.h"
#include "tune.h"

#define MAXC 4096

typedef struct sim_cand {
  char tag[16];
  int warps, pad, shares;
  double risk;
} sim_cand;

typedef struct sim_config {
  int used, n, orig, dir, threads, sms;
  sim_cand c[ORION_TUNE_MAX_CANDS];
  orion_tuner t;
  int started, idle_checked, final, iterations, waits_seen;
  long launches, next_check;
  double timed_ms, total_ms, wait_ms;
  int timed_n;
} sim_config;

static sim_config cfgs[MAXC];
static double budget = 0.005;
static double own; /* --own: the what-if budget per configuration, 0 = none */
static long recheck = 64;
static double event_ms; /* --event-us: added to every fed time */
static double gap_p, gap_ms; /* --gap: added to a fed time with probability gap_p */
enum { MARK_NONE, MARK_DROP, MARK_DROP_RECHECKS, MARK_FIX };
static int drop_gaps; /* --drop-gaps: what happens to a marked sample (MARK_*) */
static double gap_false;     /* --gap-false: nor this share of the others */
static unsigned long long rng = 88172645463325252ULL; /* --seed */

/* A uniform number in [0, 1) (xorshift64). */
static double uniform(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}
static int verbose;
static orion_tune_cfg tcfg;

static int per_sm(const sim_config *c, int i) {
  int wpb = (c->threads + 31) / 32;
  return wpb > 0 ? c->c[i].warps / wpb : 0;
}

/* rt.c: budget_ms, in ms; *ahead the smaller stakes others wait with. */
static double budget_ms(const sim_config *self, double need, double *ahead) {
  double credit = 0, loss = 0;
  *ahead = 0;
  for (int i = 0; i < MAXC; i++) {
    const sim_config *x = &cfgs[i];
    if (!x->used || !x->started)
      continue;
    if (x->timed_n > 0)
      credit += (double)x->launches * x->timed_ms / x->timed_n;
    loss += orion_tuner_loss(&x->t);
    if (x != self && x->wait_ms > 0 && x->wait_ms < need)
      *ahead += x->wait_ms;
  }
  return budget * credit - loss;
}

/* rt.c: affordable. */
static int affordable(sim_config *c, unsigned long long blocks) {
  double stake = orion_tuner_stake(&c->t), o = orion_tuner_median(&c->t, c->orig);
  if (stake <= 0 || o <= 0) {
    c->wait_ms = 0;
    return 1;
  }
  double need = stake * o * (double)blocks, ahead, have = budget_ms(c, need, &ahead);
  int ok = have >= need + ahead;
  if (own > 0 && c->timed_n > 0 &&
      own * (double)c->launches * c->timed_ms / c->timed_n - orion_tuner_loss(&c->t) < need)
    ok = 0;
  c->wait_ms = ok ? 0 : need;
  if (verbose)
    printf("  stake %.4f ms (%.3f), budget %.4f ms, %.4f ms ahead: %s\n", need, stake, have, ahead,
           ok ? "trial" : "waits");
  return ok;
}

/* rt.c: publish, once the tuner has settled. */
static void publish(sim_config *c) {
  if (!orion_tuner_settled(&c->t) || c->final >= 0)
    return;
  if (c->iterations < 0)
    c->iterations = c->t.launches;
  c->wait_ms = 0;
  c->final = orion_tuner_next(&c->t);
  c->next_check = c->launches + orion_plan_recheck_gap(c->t.rechecks, recheck);
}

/* rt.c: next_cand, with the idle-padding check of the first tuning launch. */
static int next_cand(sim_config *c, unsigned long long blocks) {
  if (!c->idle_checked && !orion_tuner_settled(&c->t)) {
    c->idle_checked = 1;
    for (int i = 0; i < c->n; i++)
      if (i != c->orig && c->c[i].shares && c->c[i].pad &&
          orion_plan_pad_idle(blocks, c->sms, per_sm(c, i)))
        orion_tuner_same(&c->t, i);
    publish(c);
  }
  for (;;) {
    int i = orion_tuner_next(&c->t);
    if (orion_tuner_settled(&c->t) || i == c->orig ||
        !orion_plan_round_guard(blocks, c->sms, per_sm(c, c->orig), per_sm(c, i)) ||
        !orion_tuner_skip(&c->t, i))
      return i;
    publish(c);
  }
}

/* One launch of configuration c: returns the version that ran. */
static int launch(sim_config *c, unsigned long long blocks, const double *ms) {
  if (!c->started) {
    int shares[ORION_TUNE_MAX_CANDS];
    for (int i = 0; i < c->n; i++)
      shares[i] = c->c[i].shares;
    orion_tuner_init(&c->t, ORION_TUNE_ADAPTIVE, c->n, c->orig, c->dir, shares, &tcfg);
    for (int i = 0; i < c->n; i++) {
      orion_tuner_set_risk(&c->t, i, c->c[i].risk);
      if (orion_unroll_factor(c->c[i].tag)) /* candidates.c: an unroll version */
        orion_tuner_side(&c->t, i);
    }
    c->started = 1;
  }
  c->launches++;
  if (c->final >= 0 && c->final != c->orig && recheck > 0 && c->launches >= c->next_check &&
      orion_tuner_recheck(&c->t))
    c->final = -1;
  if (c->final >= 0)
    return c->final;
  int i = next_cand(c, blocks);
  if (c->final >= 0)
    return c->final;
  if (!affordable(c, blocks)) {
    orion_tuner_wait(&c->t);
    return c->t.best;
  }
  int gap = gap_p > 0 && uniform() < gap_p;
  int scope = drop_gaps == MARK_DROP || drop_gaps == MARK_FIX ||
              (drop_gaps == MARK_DROP_RECHECKS && c->iterations >= 0); /* settled before */
  int marked = scope && (gap || (gap_false > 0 && uniform() < gap_false));
  double read = ms[i] + event_ms + (gap ? gap_ms : 0);
  if (marked && drop_gaps == MARK_FIX) /* corrected: a false alarm loses as much, up to half */
    read -= gap ? gap_ms : (gap_ms < read / 2 ? gap_ms : read / 2);
  if (!marked || drop_gaps == MARK_FIX)
    orion_tuner_feed(&c->t, i, read, (double)blocks, (unsigned long long)blocks << 1);
  c->timed_ms += read;
  c->timed_n++;
  publish(c);
  return i;
}

static int set_field(const char *arg) {
  char name[32];
  double v;
  if (sscanf(arg, "%31[a-z_]=%lf", name, &v) != 2)
    return -1;
#define F(field, conv)                                                                             \
  if (!strcmp(name, #field)) {                                                                     \
    tcfg.field = conv;                                                                             \
    return 0;                                                                                      \
  }
  F(margin, v) F(reject, v) F(min_pairs, (int)v) F(max_pairs, (int)v) F(max_launches, (int)v)
  F(max_unpaired, (int)v) F(confirm_pairs, (int)v) F(risk, v) F(risk_floor, v) F(cold_ms, v)
  F(side_last, (int)v)
#undef F
  return -1;
}

static int usage(void) {
  fputs("usage: tunesim [-v] [--budget F] [--own F] [--recheck N] [--event-us F] "
        "[--gap P,US [--seed S] [--drop-gaps all|rechecks|fix [--gap-false Q]]]\n"
        "               [--set field=value ...] "
        "< scenario\n"
        "  -v: every launch and every trial's stake against the budget\n"
        "  replays a scenario (tunesim.py) through the runtime's adaptive selection\n",
        stderr);
  return 2;
}

int main(int argc, char **argv) {
  orion_tune_cfg_default(&tcfg);
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--budget") && a + 1 < argc)
      budget = atof(argv[++a]);
    else if (!strcmp(argv[a], "--own") && a + 1 < argc)
      own = atof(argv[++a]);
    else if (!strcmp(argv[a], "--recheck") && a + 1 < argc)
      recheck = atol(argv[++a]);
    else if (!strcmp(argv[a], "--event-us") && a + 1 < argc)
      event_ms = atof(argv[++a]) / 1000;
    else if (!strcmp(argv[a], "--gap") && a + 1 < argc &&
             sscanf(argv[a + 1], "%lf,%lf", &gap_p, &gap_ms) == 2 && gap_p >= 0 && gap_p <= 1 &&
             gap_ms >= 0)
      a++, gap_ms /= 1000;
    else if (!strcmp(argv[a], "--seed") && a + 1 < argc && (rng = strtoull(argv[a + 1], NULL, 0)))
      a++;
    else if (!strcmp(argv[a], "--drop-gaps") && a + 1 < argc &&
             (drop_gaps = !strcmp(argv[a + 1], "all")        ? MARK_DROP
                          : !strcmp(argv[a + 1], "rechecks") ? MARK_DROP_RECHECKS
                          : !strcmp(argv[a + 1], "fix")      ? MARK_FIX
                                                             : MARK_NONE))
      a++;
    else if (!strcmp(argv[a], "--gap-false") && a + 1 < argc &&
             sscanf(argv[a + 1], "%lf", &gap_false) == 1 && gap_false >= 0 && gap_false < 1)
      a++;
    else if (!strcmp(argv[a], "--set") && a + 1 < argc && set_field(argv[a + 1]) == 0)
      a++;
    else if (!strcmp(argv[a], "-v"))
      verbose = 1;
    else
      return usage();
  }
  char word[16];
  int line = 0, seeded = 0;
  while (scanf("%15s", word) == 1) {
    line++;
    int id;
    if (scanf("%d", &id) != 1 || id < 0 || id >= MAXC) {
      fprintf(stderr, "tunesim: record %d (%s): bad configuration id\n", line, word);
      return 1;
    }
    sim_config *c = &cfgs[id];
    if (!strcmp(word, "config")) {
      char name[4096];
      memset(c, 0, sizeof *c);
      if (scanf("%d %d %d %d %d %4095s", &c->n, &c->orig, &c->dir, &c->threads, &c->sms, name) !=
              6 ||
          c->n < 1 || c->n > ORION_TUNE_MAX_CANDS || c->orig < 0 || c->orig >= c->n) {
        fprintf(stderr, "tunesim: record %d: bad config\n", line);
        return 1;
      }
      c->used = 1, c->final = -1, c->iterations = -1;
    } else if (!strcmp(word, "cand")) {
      int k;
      sim_cand x;
      if (!c->used || scanf("%d %15s %d %d %d %lf", &k, x.tag, &x.warps, &x.pad, &x.shares,
                            &x.risk) != 6 || k < 0 || k >= c->n) {
        fprintf(stderr, "tunesim: record %d: bad cand\n", line);
        return 1;
      }
      c->c[k] = x;
    } else if (!strcmp(word, "launch")) {
      unsigned long long blocks;
      double ms[ORION_TUNE_MAX_CANDS];
      if (!c->used || scanf("%llu", &blocks) != 1 || blocks == 0) {
        fprintf(stderr, "tunesim: record %d: bad launch\n", line);
        return 1;
      }
      for (int i = 0; i < c->n; i++)
        if (scanf("%lf", &ms[i]) != 1 || !(ms[i] > 0)) {
          fprintf(stderr, "tunesim: record %d: bad time\n", line);
          return 1;
        }
      if (!seeded) { /* the first launch's times pick this replay's sequence */
        seeded = 1;
        for (int i = 0; i < c->n; i++)
          rng ^= (unsigned long long)(ms[i] * 1e9) * 0x9e3779b97f4a7c15ULL;
        rng += !rng;
      }
      int v = launch(c, blocks, ms);
      c->total_ms += ms[v];
      if (verbose)
        printf("launch %d.%ld %llu blocks: %s %.4f ms (orig %.4f)%s\n", id, c->launches, blocks,
               c->c[v].tag, ms[v], ms[c->orig], c->final >= 0 ? " settled" : "");
    } else {
      fprintf(stderr, "tunesim: record %d: unknown record '%s'\n", line, word);
      return 1;
    }
  }
  for (int id = 0; id < MAXC; id++) {
    sim_config *c = &cfgs[id];
    if (!c->used)
      continue;
    int ch = c->final >= 0 ? c->final : c->t.best;
    double sp = 1, half = 0;
    int pairs = 0;
    if (c->started && ch != c->orig)
      orion_tuner_estimate(&c->t, ch, &sp, &half, &pairs);
    printf("result %d %.6f %s %d %.4f %.4f %d %d %d %d\n", id, c->total_ms, c->c[ch].tag,
           c->iterations >= 0 ? c->iterations : c->t.launches, sp, half, pairs, c->t.rechecks,
           c->t.reverted, c->t.waits);
  }
  return 0;
}
