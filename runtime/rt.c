/* rt.c - liborionrt: runs each kernel launch on the version tuning chose
 * (paper section 3.4, Fig. 9; DESIGN.md item 5).
 *
 * The rule: under every ORION_MODE a program sees what its plain build
 * sees, and adaptive mode leaves the original only on evidence (tune.h
 * states the theory and the decision rule).
 *
 * Flow of a launch (__orion_launch_kernel, called where the host stub called
 * cudaLaunchKernel):
 *   1. kernel: on the first launch of a host stub on a device, find its
 *      record and versions (discover.c); no record: it launches unchanged.
 *   2. configuration: per (kernel, block shape, dynamic shared memory,
 *      device) the candidates and how the choice is made (candidates.c).
 *   3. validity: a launch outside the limits the plain launch is held to
 *      (grid, block, threads, dynamic shared memory) goes to the plain
 *      cudaLaunchKernel unchanged (launch.c): the same error, never
 *      tuned, split or run on a clone.
 *   4. launch: settled configurations launch their choice with no timing
 *      (the original through cudaLaunchKernel itself, others through
 *      cuLaunchKernel with the hidden split parameters when the clone has
 *      them).  While tuning, CUDA events bracket each whole launch, the
 *      best version so far and the candidate under test alternating, with
 *      the grid as the comparability key; the time is read when the next
 *      launch of the configuration arrives, so the stream is never
 *      synchronised in steady state.  A trial launch waits (the best so
 *      far runs untimed) until the budget of ORION_BUDGET covers its stake
 *      (tune.h, step 5).  A candidate that would need more rounds of blocks
 *      than the original for a grid the original runs in one is not
 *      launched (plan.h: the round guard).  A choice other than the
 *      original is re-checked on plan.h's schedule (chosen, original,
 *      chosen, timed).  Launches are split into chunks only under
 *      ORION_SPLIT=1 (split_launch says why).
 * A version that fails to launch is dropped (never tried again, counted in
 * the report, traced under ORION_DEBUG) and the original launched in its
 * place; during stream capture the current choice launches untimed,
 * and the runtime's own waits (discovery, timing events) run in relaxed
 * capture mode, so they never invalidate a program's capture.
 * At exit: the report (ORION_REPORT) and the cache (ORION_CACHE), exit.c;
 * the environment: env.c; shared state and locking: state.h.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "state.h"

#define ORION_EXPORT __attribute__((visibility("default")))

/* A launch site outside any loop (a single launch, as far as the compiler
 * knows). */
static int outside_loops(const orion_site *site) {
  return !(site->flags & (ORION_SITE_IN_LOOP | ORION_SITE_LOOP_UNKNOWN));
}

/* A small per-thread cache in front of config_get for the steady state. */
#define TLS_SLOTS 16
static _Thread_local struct {
  const void *stub;
  int dev;
  unsigned bx, by, bz;
  size_t shmem;
  rt_config *c;
} tls[TLS_SLOTS];

/* The tuner settled (after tuning, or after a re-check): publish its
 * choice.  c->mu held. */
static void publish(rt_config *c) {
  if (!orion_tuner_settled(&c->tuner) || atomic_load(&c->final) >= 0)
    return;
  int f = orion_tuner_next(&c->tuner);
  atomic_store_explicit(&c->wait_ns, 0, memory_order_relaxed); /* no trial waits any more */
  if (!strcmp(c->source, "tuning")) {
    c->iterations = c->tuner.launches;
    c->settled_at = atomic_load(&c->launches);
    c->source = orion_rt.mode == MODE_EXHAUSTIVE ? "exhaustive" : "tuned";
    if (orion_rt.debug)
      fprintf(stderr, "orion: debug: tune %s: settled on %s after %d timed launches (launch %ld)\n",
              c->k->name, c->c[f].tag, c->iterations, c->settled_at);
  } else if (c->tuner.reverted && strcmp(c->source, "reverted")) {
    c->source = "reverted";
    if (orion_rt.debug)
      fprintf(stderr,
              "orion: debug: tune %s: re-check %d: the choice no longer wins, back to %s "
              "(launch %ld)\n",
              c->k->name, c->tuner.rechecks, c->c[f].tag, atomic_load(&c->launches));
  } else if (orion_rt.debug && c->tuner.rechecks > c->rechecks_seen) {
    double sp = 0, half = 0;
    int pairs = 0;
    orion_tuner_estimate(&c->tuner, f, &sp, &half, &pairs);
    fprintf(stderr,
            "orion: debug: tune %s: re-check %d keeps %s: pair ratio %.4f, in all %.4f +-%.4f "
            "over %d pairs (launch %ld)\n",
            c->k->name, c->tuner.rechecks, c->c[f].tag,
            exp(-c->tuner.window[(c->tuner.rechecks - 1) % ORION_TUNE_WINDOW]), sp, half, pairs,
            atomic_load(&c->launches));
  }
  c->rechecks_seen = c->tuner.rechecks;
  atomic_store(&c->next_check, atomic_load(&c->launches) +
                                   orion_plan_recheck_gap(c->tuner.rechecks, orion_rt.recheck));
  atomic_store(&c->final, f);
  c->pend_n = 0; /* times still in flight mean nothing to a settled tuner (tune.h, step 10) */
}

/* Candidate i failed to launch (the original ran in its place): it is never
 * tried again, and a settled choice of it becomes the original.  c->mu
 * held. */
static void drop(rt_config *c, int i) {
  orion_tuner_drop(&c->tuner, i);
  int f = i;
  atomic_compare_exchange_strong(&c->final, &f, c->orig);
  publish(c);
}

/* ORION_DEBUG's words for enum rt_gap (timed, below) */
static const char *const gap_text[] = {
    [RT_GAP_NONE] = "",
    [RT_GAP_BEFORE] = ", gap possible: drained before the launch",
    [RT_GAP_DURING] = ", gap possible: drained during the launch",
    [RT_GAP_AFTER] = ", gap possible: drained after the launch",
};

/* Read the times of the timed launches in flight into the tuner, oldest
 * first, until at most `keep` are left, and any later one whose launch has
 * ended (waiting for them: running the best so far instead while one is
 * outstanding would keep a program that queues many launches on a slower
 * version for much longer, as the times would arrive only at its own
 * synchronisations).  So with keep 1 a launch is chosen before the time
 * of the one before it is known only while that one still runs (tune.h,
 * step 10).  c->mu held. */
static void resolve(rt_config *c, int keep) {
  CUstreamCaptureMode cm = orion_rt_relax_capture(); /* the events are never captured */
  while (c->pend_n > 0) {
    struct rt_timing *p = &c->pend[c->pend_head];
    if (c->pend_n <= keep && orion_rt.api.cuEventQuery(p->ev[1]) != CUDA_SUCCESS)
      break;
    float ms = 0;
    int ok = orion_rt.api.cuEventSynchronize(p->ev[1]) == CUDA_SUCCESS &&
             orion_rt.api.cuEventElapsedTime(&ms, p->ev[0], p->ev[1]) == CUDA_SUCCESS;
    c->pend_head = (c->pend_head + 1) % RT_PENDING;
    c->pend_n--;
    if (!ok)
      continue;
    c->samples++, c->gap_samples += p->gap != RT_GAP_NONE;
    /* the submission the events bracketed on an idle stream (timed), at
     * most half the time: a thread preempted after its launch was on the
     * GPU must not make a version look faster than it is by more */
    double sub = p->sub_ms < ms / 2 ? p->sub_ms : ms / 2;
    ms -= (float)sub;
    if (orion_rt.debug)
      fprintf(stderr,
              "orion: debug: tune %s launch %ld: %s %.0f blocks %.4f ms (%.3f us per "
              "1000 blocks; host %.1f us%s%s%s)\n",
              c->k->name, p->launch, c->c[p->cand].tag, p->work, ms, ms * 1e6 / p->work, p->host_us,
              p->ahead ? ", chosen ahead" : "", p->probe ? ", split probe" : "", gap_text[p->gap]);
    if (orion_rt.debug && sub > 0)
      fprintf(stderr, "orion: debug: tune %s: idle stream, %.1f us of submission left out\n",
              c->k->name, sub * 1000);
    if (p->probe) {
      c->probe_ms = ms / p->work;
      continue;
    }
    orion_tuner_feed(&c->tuner, p->cand, ms, p->work, p->key);
    atomic_fetch_add_explicit(&c->timed_ns, (long long)(ms * 1e6), memory_order_relaxed);
    atomic_fetch_add_explicit(&c->timed_n, 1, memory_order_relaxed);
    atomic_store_explicit(&c->loss_ns, (long long)(orion_tuner_loss(&c->tuner) * 1e6),
                          memory_order_relaxed);
  }
  orion_rt_restore_capture(cm);
  publish(c);
}

/* Blocks per SM of candidate i. */
static int per_sm(const rt_config *c, int i) {
  int wpb = (int)((c->bx * c->by * c->bz + 31) / 32);
  return c->c[i].warps / wpb;
}

/* Candidate i needs more rounds than the original for a grid of `blocks`
 * blocks the original runs in one (plan.h's round guard). */
static int round_guarded(const rt_config *c, unsigned long long blocks, int i) {
  const rt_device *d = &orion_rt.dev[c->k->dev];
  return i != c->orig && d->known &&
         orion_plan_round_guard(blocks, d->sms, per_sm(c, c->orig), per_sm(c, i));
}

/* The tuner's candidate for a launch of `blocks` blocks, after letting the
 * walk pass over candidates the round guard predicts much slower (plan.h).
 * c->mu held. */
static int next_cand(rt_config *c, unsigned long long blocks) {
  rt_device *d = &orion_rt.dev[c->k->dev];
  if (orion_rt.mode == MODE_ADAPTIVE && d->known && !c->idle_checked &&
      !orion_tuner_settled(&c->tuner)) {
    /* Idle padding (plan.h), on the configuration's first tuning launch. */
    c->idle_checked = 1;
    for (int i = 0; i < c->n; i++)
      if (i != c->orig && c->c[i].bin == 0 && c->c[i].pad &&
          orion_plan_pad_idle(blocks, d->sms, per_sm(c, i)) && orion_tuner_same(&c->tuner, i) &&
          orion_rt.debug)
        fprintf(stderr,
                "orion: debug: tune %s: %s left out: %llu blocks never put %d on an SM, "
                "it runs as the original\n",
                c->k->name, c->c[i].tag, blocks, per_sm(c, i));
    publish(c);
  }
  for (;;) {
    int i = orion_tuner_next(&c->tuner);
    if (orion_rt.mode != MODE_ADAPTIVE || orion_tuner_settled(&c->tuner) ||
        !round_guarded(c, blocks, i) || !orion_tuner_skip(&c->tuner, i))
      return i;
    if (orion_rt.debug)
      fprintf(stderr,
              "orion: debug: tune %s: %s skipped: %llu blocks fit one round of the "
              "original (%d per SM) but not of %s (%d per SM)\n",
              c->k->name, c->c[i].tag, blocks, per_sm(c, c->orig), c->c[i].tag, per_sm(c, i));
    publish(c);
  }
}

/* 1 when the GPU has passed event e; relaxed, as a query during another
 * thread's global-mode capture would invalidate that capture. */
static int passed(CUevent e) {
  CUstreamCaptureMode cm = orion_rt_relax_capture();
  int r = orion_rt.api.cuEventQuery(e) == CUDA_SUCCESS;
  orion_rt_restore_capture(cm);
  return r;
}

/* The key a sample is compared under (tune.h, step 2): the launch's key,
 * made the sample's own when the GPU idled inside it (the stream drained
 * before or while the kernel was submitted: on an H200, 29 of 30 such
 * samples read 1-24 us more than CUPTI's time beyond the events' own
 * 2.4 +-0.2 us), and with the timing bit set for an idle stream.  A busy
 * stream's sample reads the kernel plus the events' cost; an idle one,
 * its submission subtracted, 1.6 us less (and +-1 us noisier) on an H200:
 * a busy, idle, busy triple read its middle sample 6 % fast (median of
 * 11), and a re-check of a 40 us kernel whose original alone ran on a
 * drained stream read 1.00-1.03 for a version CUPTI timed 1.05 faster,
 * and reverted it.  Re-checks' samples are chosen ahead (rt.c: ahead) and
 * so run on a busy stream unless the program drains it. */
static unsigned long long sample_key(unsigned long long key, int idle, int gap, long launch) {
  if (gap == RT_GAP_BEFORE || gap == RT_GAP_DURING)
    return key ^ (0x9e3779b97f4a7c15ULL * (unsigned long long)(launch + 1));
  if (idle)
    return key | ORION_TUNE_KEY_TIMING;
  return key;
}

/* One timed launch of candidate i (count 0: the whole grid; else blocks
 * [off, off + count) of dimension dim, `work` blocks in all), with the
 * tuner's comparability key.  c->mu held.
 * On a stream with nothing queued the GPU passes the first event at once
 * and the kernel starts only once the host has submitted it: the events
 * also time that submission (2-8 us; 13-35 us for a binary's first launch
 * on an H200, which the tuner's warm-up leaves out, tune.h step 1).  So
 * on an idle stream the host's time from the first event's return to the
 * launch's return (the launch is on the GPU by then) is subtracted
 * (sub_ms): a 41 us kernel's second launch read 60 us without it.  Not
 * subtracted: the events' own cost on the GPU, 3.4 us a sample on an H200
 * for kernels of 1 to 87 us alike (benchmarks/runtime/event_cost.cu); a
 * bound the runtime could measure needs empty kernels of its own on the
 * program's stream, more GPU time than 1 % of a small program.  Making the
 * stream wait for the host instead (cuStreamWaitValue32 on a word the host
 * sets after queuing the launch) removed the gap but deadlocked 8 host
 * threads in exhaustive mode (test/gpu/rt_robust): a thread's launch can
 * block on a hardware queue that another stream's wait holds.  Instead,
 * a sample whose stream was busy at the first event but had drained by the
 * second's record may hold the GPU idling while the host submitted the
 * kernel (the report's gap_samples; on an H200 such re-check samples of a
 * 40 us kernel read 56-58 us).  When the first event had passed is asked
 * three times (enum rt_gap): right after its record, before the launch
 * (the GPU waited for the whole submission); after the launch returned;
 * after the second record (the kernel was likely queued in time: the least
 * likely gap, counted only).  The first two make the sample pair with
 * nothing (sample_key). */
static int timed(rt_config *c, int i, const launch *L, int dim, unsigned off, unsigned count,
                 double work, unsigned long long key) {
  int failed = 0;
  CUstream s = orion_rt_cu_stream(L->stream, L->site);
  if (c->pend_n == RT_PENDING)
    resolve(c, RT_PENDING - 1);
  struct rt_timing *p = &c->pend[(c->pend_head + c->pend_n) % RT_PENDING];
  CUstreamCaptureMode cm = orion_rt_relax_capture(); /* a query is no capture's business */
  int idle = orion_rt.api.cuStreamQuery && orion_rt.api.cuStreamQuery(s) == CUDA_SUCCESS;
  orion_rt_restore_capture(cm);
  double h0 = orion_rt_now_us();
  int t0 = orion_rt.api.cuEventRecord(p->ev[0], s) == CUDA_SUCCESS;
  double h1 = orion_rt_now_us();
  int watch = t0 && !idle; /* a busy stream: did it drain under the sample? */
  int gap = watch && passed(p->ev[0]) ? RT_GAP_BEFORE : RT_GAP_NONE;
  int rc = orion_rt_launch_cand(c, i, L, dim, off, count, 1, &failed);
  double h2 = orion_rt_now_us();
  if (watch && !gap && passed(p->ev[0]))
    gap = RT_GAP_DURING;
  int t1 = t0 && orion_rt.api.cuEventRecord(p->ev[1], s) == CUDA_SUCCESS;
  p->host_us = orion_rt_now_us() - h0;
  p->sub_ms = idle ? (h2 - h1) / 1000 : 0;
  if (t1 && watch && !gap && passed(p->ev[0]))
    gap = RT_GAP_AFTER;
  p->gap = t1 ? gap : RT_GAP_NONE;
  p->ahead = c->pend_n > 0;
  p->probe = 0;
  p->launch = atomic_load_explicit(&c->launches, memory_order_relaxed);
  if (failed) {
    drop(c, i);
  } else if (rc == 0 && t1) {
    p->cand = i;
    p->key = sample_key(key, idle, p->gap, p->launch);
    p->work = work;
    c->pend_n++;
  }
  return rc;
}

/* An untimed launch of candidate i (a chunk as in timed); a version that
 * fails is dropped (the original ran its blocks).  c->mu held. */
static int untimed(rt_config *c, int i, const launch *L, int dim, unsigned off, unsigned count) {
  int failed = 0;
  int rc = orion_rt_launch_cand(c, i, L, dim, off, count, 0, &failed);
  if (failed)
    drop(c, i);
  return rc;
}

/* The comparability key of a launch (tune.h, step 2): its grid.  Launches
 * of one configuration with different grids are never compared. */
static unsigned long long grid_key(orion_dim3 g) {
  unsigned long long h = 0xcbf29ce484222325ULL;
  unsigned v[3] = {g.x, g.y, g.z};
  for (int i = 0; i < 3; i++)
    h = (h ^ v[i]) * 0x100000001b3ULL;
  return h & ~ORION_TUNE_KEY_TIMING; /* the bit sample_key sets */
}

/* Largest tolerated inflation of a chunk (plan.h): chunks of different
 * candidates then compare within this much. */
#define CHUNK_TOL 0.03

/* The timed chunks a split launch of `blocks` blocks may take after the
 * `used` ones (plan.h), from the original's time per block: its samples,
 * else the probe's; -1 while neither is known.  c->mu held. */
static int chunks_left(const rt_config *c, unsigned long long blocks, int used) {
  double t = orion_tuner_median(&c->tuner, c->orig);
  t = t > 0 ? t : c->probe_ms;
  if (!(t > 0))
    return -1;
  int a = orion_plan_split_chunks(t * (double)blocks) - used;
  return a > 0 ? a : 0;
}

/* The candidate of a split launch's next chunk: chosen while the chunk
 * before it still runs where the tuner's pattern allows it (tune.h, step
 * 10) or that chunk is the probe, which the tuner never sees; else once
 * its time is in.  -1 when the tuner settled.  c->mu held. */
static int chunk_cand(rt_config *c, unsigned long long blocks) {
  if (c->pend_n == 1) {
    const struct rt_timing *p = &c->pend[c->pend_head];
    int i = p->probe ? next_cand(c, blocks) : orion_tuner_next_ahead(&c->tuner, p->cand, p->key);
    if (i >= 0 && (p->probe || !round_guarded(c, blocks, i)))
      return atomic_load(&c->final) >= 0 ? -1 : i;
  }
  resolve(c, 0);
  return atomic_load(&c->final) >= 0 ? -1 : next_cand(c, blocks);
}

/* The dimension to split a grid along: the one whose chunks of `waves`
 * waves come closest to whole rounds for every candidate (plan.h), the
 * longest among equals; -1 when no dimension has two slices. */
static int split_dim(const rt_config *c, const unsigned g3[3], int waves) {
  const rt_device *d = &orion_rt.dev[c->k->dev];
  unsigned long long blocks = (unsigned long long)g3[0] * g3[1] * g3[2];
  int dim = -1;
  double score = 0;
  for (int e = 0; e < 3; e++) {
    if (g3[e] < 2)
      continue;
    double worst = 0, f = 0;
    for (int i = 0; i < c->n; i++) {
      orion_plan_chunk(waves, d->sms, per_sm(c, i), blocks / g3[e], CHUNK_TOL, &f);
      worst = f > worst ? f : worst;
    }
    if (dim < 0 || worst < score - 1e-9 || (worst <= score + 1e-9 && g3[e] > g3[dim]))
      dim = e, score = worst;
  }
  return dim;
}

/* ORION_SPLIT=1 only.  Split a launch into chunks along one grid dimension
 * and tune on them: the tuner's next candidate runs `waves` waves at its
 * own occupancy, chunk after chunk (the original and the candidate
 * alternate, as on whole launches), and the rest of the grid runs the
 * choice, or the best so far.  Chunks compare per block (the key is the
 * grid and the dimension); where the work differs across the grid they
 * are not comparable samples, and every chunk boundary costs GPU time
 * (plan.h), hence the opt-in, and the bounds: a grid of fewer than
 * ORION_PLAN_SPLIT_MIN_ROUNDS rounds of the original is never split, and
 * the timed chunks stop at orion_plan_split_chunks of the original's time
 * for the grid, known from its samples or, until it has one, from a probe,
 * its first chunk timed apart (which may run cold: on an H200 a probe of
 * a 60 us-per-1000-blocks kernel measured 146).  The next chunk is queued
 * before the time of the one running is read wherever the tuner allows
 * (chunk_cand), so the GPU does not wait for the host between chunks.  Returns -1 when nothing was
 * launched: the grid is too small or too short to split, or the tuner's
 * candidate's chunk is larger than the grid.  ORION_SPLIT=always drops
 * both bounds (tests of the split path).  c->mu held. */
static int split_launch(rt_config *c, const launch *L, int waves) {
  unsigned g3[3] = {L->grid.x, L->grid.y, L->grid.z};
  unsigned long long blocks = (unsigned long long)g3[0] * g3[1] * g3[2];
  rt_device *d = &orion_rt.dev[c->k->dev];
  int always = orion_rt.split == 2; /* ORION_SPLIT=always: no bound on the cost */
  if (!d->known || blocks == 0 ||
      (!always &&
       orion_plan_rounds(blocks, d->sms, per_sm(c, c->orig)) < ORION_PLAN_SPLIT_MIN_ROUNDS))
    return -1;
  int dim = split_dim(c, g3, waves);
  if (dim < 0)
    return -1;
  unsigned long long other = blocks / g3[dim];
  unsigned long long key = grid_key(L->grid) ^ ((unsigned long long)(dim + 1) << 1);
#define CHUNK(w, i) orion_plan_chunk((w), d->sms, per_sm(c, (i)), other, CHUNK_TOL, NULL)
  unsigned long long q0 = CHUNK(waves, c->orig);
  if (q0 == 0 || g3[dim] < 3 * q0)
    return -1;
  int allow = always ? INT_MAX : chunks_left(c, blocks, 0); /* -1: the probe tells */
  int f = atomic_load(&c->final);
  int i = f >= 0 ? f : next_cand(c, blocks);
  f = atomic_load(&c->final);
  if (allow == 0 || (f < 0 && CHUNK(waves, i) > g3[dim]))
    return -1; /* too short to split; or a chunk of i could never be timed on part of the grid */
  c->split_launches++;
  unsigned off = 0;
  int rc = 0, used = 0;
  if (allow < 0) { /* the probe: the original's first chunk, timed apart */
    c->probe_ms = 0;
    int n = c->pend_n;
    rc = timed(c, c->orig, L, dim, 0, (unsigned)q0, (double)(q0 * other), key);
    if (c->pend_n > n)
      c->pend[(c->pend_head + c->pend_n - 1) % RT_PENDING].probe = 1;
    off = (unsigned)q0;
  }
  while (off < g3[dim] && rc == 0) {
    resolve(c, 1);
    int probing = 0;
    for (int j = 0; j < c->pend_n; j++)
      probing |= c->pend[(c->pend_head + j) % RT_PENDING].probe;
    if (!always && !probing) {
      allow = chunks_left(c, blocks, used);
      allow = allow > 0 ? allow : 0; /* -1 now: the probe failed, no split */
    }
    unsigned left = g3[dim] - off;
    i = allow != 0 ? chunk_cand(c, blocks) : -1;
    unsigned long long q = i >= 0 ? CHUNK(waves, i) : 0;
    if (q == 0 || left < q) {
      f = atomic_load(&c->final);
      rc = untimed(c, f >= 0 ? f : c->tuner.best, L, dim, off, left);
      break;
    }
    rc = timed(c, i, L, dim, off, (unsigned)q, (double)(q * other), key);
    off += (unsigned)q;
    used++;
  }
#undef CHUNK
  return rc;
}

/* The budget of tune.h, step 5, in ms: ORION_BUDGET of the GPU time the
 * program's tuned configurations have run (each one's launches times its
 * mean timed launch, plus what earlier runs carried in the cache) less
 * what tuning lost in all of them, in this run and those.  *ahead: the
 * stakes of the trials other configurations wait with that are smaller
 * than `need` (ms).  Lock-free: configurations are never freed and only
 * appended. */
static double budget_ms(const rt_config *self, double need, double *ahead) {
  double credit = 0, loss = 0;
  *ahead = 0;
  for (rt_config *x = orion_rt.configs; x; x = x->list_next) {
    int n = atomic_load_explicit(&x->timed_n, memory_order_relaxed);
    if (n > 0)
      credit += (double)atomic_load_explicit(&x->launches, memory_order_relaxed) *
                (double)atomic_load_explicit(&x->timed_ns, memory_order_relaxed) / n;
    loss += (double)atomic_load_explicit(&x->loss_ns, memory_order_relaxed);
    credit += x->prev_credit_ms * 1e6; /* set before x was listed */
    loss += x->prev_loss_ms * 1e6;
    double w = 1e-6 * (double)atomic_load_explicit(&x->wait_ns, memory_order_relaxed);
    if (x != self && w > 0 && w < need)
      *ahead += w;
  }
  return (orion_rt.budget * credit - loss) * 1e-6;
}

/* 1 when the budget covers the stake of the tuner's next launch of
 * `blocks` blocks (tune.h, step 5) and the smaller stakes other
 * configurations wait with: the cheapest trials go first, so a few
 * expensive losers cannot spend the budget that many small kernels wait
 * for.  A configuration that waits publishes its stake (wait_ns).
 * c->mu held. */
static int affordable(rt_config *c, unsigned long long blocks) {
  double stake = orion_tuner_stake(&c->tuner), o = orion_tuner_median(&c->tuner, c->orig);
  if (stake <= 0 || o <= 0) {
    atomic_store_explicit(&c->wait_ns, 0, memory_order_relaxed);
    return 1;
  }
  double need = stake * o * (double)blocks, ahead, have = budget_ms(c, need, &ahead);
  int ok = have >= need + ahead;
  atomic_store_explicit(&c->wait_ns, ok ? 0 : (long long)(need * 1e6), memory_order_relaxed);
  if (!ok && orion_rt.debug && c->tuner.waits % 64 == 0)
    fprintf(stderr,
            "orion: debug: tune %s: %s waits: stake %.4f ms, budget %.4f ms, %.4f ms of "
            "smaller stakes ahead (launch %ld)\n",
            c->k->name, c->c[c->tuner.cur].tag, need, have, ahead, atomic_load(&c->launches));
  return ok;
}

/* A re-check starts at the launch plan.h's schedule names, for a
 * configuration settled on a version other than the original (tune.h,
 * step 7): its three launches go through tune_launch.  Returns the configuration's choice
 * now: -1 while the re-check runs. */
static int start_recheck(rt_config *c) {
  pthread_mutex_lock(&c->mu);
  if (atomic_load(&c->final) >= 0 && orion_tuner_recheck(&c->tuner))
    atomic_store(&c->final, -1);
  int f = atomic_load(&c->final);
  pthread_mutex_unlock(&c->mu);
  return f;
}

/* The candidate for a whole launch of `blocks` blocks chosen one launch
 * ahead (tune.h, step 10): adaptive mode, one timed launch still running,
 * the original timed already (the budget's stake is priced in its time:
 * without it affordable() lets any trial through), the tuner's pattern
 * certain, no round guard in the way (next_cand) and the budget covering
 * the trial; else -1, and the caller waits for that time and chooses as
 * usual.  A re-check's launches need neither the warm-up's check nor the
 * original's time (their order is fixed): chosen ahead, its three samples
 * share a busy stream's timing (sample_key).  c->mu held. */
static int ahead(rt_config *c, unsigned long long blocks) {
  int recheck = orion_tuner_rechecking(&c->tuner); /* its order is fixed, no stake */
  if (c->pend_n != 1 || orion_rt.mode != MODE_ADAPTIVE || !orion_rt.dev[c->k->dev].known ||
      atomic_load(&c->final) >= 0 ||
      (!recheck && (!c->idle_checked || !(orion_tuner_median(&c->tuner, c->orig) > 0))))
    return -1;
  const struct rt_timing *p = &c->pend[c->pend_head];
  int i = orion_tuner_next_ahead(&c->tuner, p->cand, p->key);
  return i >= 0 && !round_guarded(c, blocks, i) && affordable(c, blocks) ? i : -1;
}

/* A tuning launch chosen with every time in (the caller could not choose
 * one ahead).  c->mu held. */
static int tune_now(rt_config *c, const launch *L, unsigned long long blocks) {
  resolve(c, 0);
  int f = atomic_load(&c->final);
  if (f >= 0)
    return untimed(c, f, L, 0, 0, 0); /* the last time settled it */
  /* By default every sample is a whole launch.  Under ORION_SPLIT=1 a
   * launch outside any loop is split (chunks of two waves) so it can be
   * tuned at all, and one in a loop in chunks of four waves, each where
   * split_launch's bounds on the cost allow it (and says why not by
   * default); never during a re-check, whose samples are whole launches. */
  if (orion_rt.split && !strcmp(c->source, "tuning") && c->k->split_fn && L->site) {
    int rc = split_launch(c, L, outside_loops(L->site) ? 2 : 4);
    if (rc != -1)
      return rc;
  }
  int i = next_cand(c, blocks);
  f = atomic_load(&c->final);
  if (f < 0 && !affordable(c, blocks)) { /* the trial waits: the best so far runs */
    orion_tuner_wait(&c->tuner);
    f = c->tuner.best;
  }
  return f >= 0 ? untimed(c, f, L, 0, 0, 0)
                : timed(c, i, L, 0, 0, 0, (double)blocks, grid_key(L->grid));
}

/* A launch while tuning (or re-checking).  c->mu taken here. */
static int tune_launch(rt_config *c, const launch *L) {
  pthread_mutex_lock(&c->mu);
  resolve(c, 1);
  unsigned long long blocks = (unsigned long long)L->grid.x * L->grid.y * L->grid.z;
  int f = atomic_load(&c->final), rc, i;
  CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
  if (f >= 0)
    rc = untimed(c, f, L, 0, 0, 0);
  else if (orion_rt.api.cuStreamIsCapturing(orion_rt_cu_stream(L->stream, L->site), &cs) !=
               CUDA_SUCCESS ||
           cs != CU_STREAM_CAPTURE_STATUS_NONE)
    rc = untimed(c, c->tuner.best, L, 0, 0, 0); /* in a graph */
  else if ((i = ahead(c, blocks)) >= 0)
    rc = timed(c, i, L, 0, 0, 0, (double)blocks, grid_key(L->grid));
  else
    rc = tune_now(c, L, blocks);
  pthread_mutex_unlock(&c->mu);
  return rc;
}

ORION_EXPORT int __orion_launch_kernel(const void *func, orion_dim3 grid, orion_dim3 block,
                                       void **args, size_t shmem, void *stream,
                                       const orion_site *site) {
  pthread_once(&orion_rt.once, orion_rt_init);
  if (!orion_rt.usable)
    return orion_rt_plain(func, grid, block, args, shmem, stream, site);
  if (!site || site->abi != ORION_SITE_ABI) {
    orion_rt_warn(W_SITE, "launch site from an incompatible OrionPass; launching unchanged");
    return orion_rt_plain(func, grid, block, args, shmem, stream, NULL);
  }
  CUdevice dev;
  if (orion_rt.api.cuCtxGetDevice(&dev) != CUDA_SUCCESS || dev < 0 || dev >= MAX_DEVICES)
    return orion_rt_plain(func, grid, block, args, shmem, stream, site); /* no context yet */
  unsigned slot = (unsigned)(((size_t)func >> 4) ^ block.x ^ (shmem >> 4)) % TLS_SLOTS;
  rt_config *c = NULL;
  if (tls[slot].c && tls[slot].stub == func && tls[slot].dev == dev && tls[slot].bx == block.x &&
      tls[slot].by == block.y && tls[slot].bz == block.z && tls[slot].shmem == shmem) {
    c = tls[slot].c;
  } else {
    rt_kernel *k = orion_rt_kernel(func, dev, site, orion_rt_cu_stream(stream, site));
    if (!k)
      return orion_rt_plain(func, grid, block, args, shmem, stream, site);
    c = orion_rt_config(k, block, shmem, outside_loops(site));
    if (!c)
      return orion_rt_plain(func, grid, block, args, shmem, stream, site);
    tls[slot].stub = func, tls[slot].dev = dev, tls[slot].bx = block.x, tls[slot].by = block.y,
    tls[slot].bz = block.z, tls[slot].shmem = shmem, tls[slot].c = c;
  }
  if (!c->valid || !orion_rt_grid_ok(&orion_rt.dev[dev], grid))
    return orion_rt_plain_exact(c, func, grid, block, args, shmem, stream, site);
  long n = atomic_fetch_add_explicit(&c->launches, 1, memory_order_relaxed) + 1;
  launch L = {func, grid, block, args, shmem, stream, site};
  int f = atomic_load_explicit(&c->final, memory_order_acquire);
  if (f >= 0 && f != c->orig && c->checked &&
      n >= atomic_load_explicit(&c->next_check, memory_order_relaxed))
    f = start_recheck(c);
  if (f >= 0) {
    int failed = 0;
    int rc = orion_rt_launch_cand(c, f, &L, 0, 0, 0, 0, &failed);
    if (failed) {
      pthread_mutex_lock(&c->mu);
      drop(c, f);
      pthread_mutex_unlock(&c->mu);
    }
    return rc;
  }
  return tune_launch(c, &L);
}
