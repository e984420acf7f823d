/* plan.c - Pareto pruning of clones, the round guard, chunk sizes, idle
 * padding and the walk's direction; see plan.h for the reasoning.  Contract: pure functions, no allocation. */
#include "plan.h"

#include "cache.h"

void orion_plan_pareto(int n, const int *regs, const int *warps, const int *is_clone, int *keep) {
  for (int i = 0; i < n; i++) {
    keep[i] = 1;
    if (!is_clone[i])
      continue;
    for (int j = 0; j < n && keep[i]; j++) {
      if (j == i || regs[j] < regs[i] || warps[j] < warps[i])
        continue;
      int same = regs[j] == regs[i] && warps[j] == warps[i];
      /* Equal on both counts: keep one, the non-clone or the first. */
      if (!same || !is_clone[j] || j < i)
        keep[i] = 0;
    }
  }
}

unsigned long long orion_plan_rounds(unsigned long long blocks, int sms, int per_sm) {
  if (sms <= 0 || per_sm <= 0)
    return 0;
  unsigned long long r = (unsigned long long)sms * (unsigned long long)per_sm;
  return (blocks + r - 1) / r;
}

int orion_plan_round_guard(unsigned long long blocks, int sms, int orig_per_sm, int cand_per_sm) {
  return cand_per_sm > 0 && cand_per_sm < orig_per_sm &&
         orion_plan_rounds(blocks, sms, orig_per_sm) == 1 &&
         orion_plan_rounds(blocks, sms, cand_per_sm) > 1;
}

/* Empty slots of the last round relative to the blocks of q slices. */
static double inflation_of(unsigned long long q, unsigned long long other, unsigned long long round) {
  unsigned long long b = q * other;
  unsigned long long slots = (b + round - 1) / round * round;
  return (double)(slots - b) / (double)b;
}

unsigned long long orion_plan_chunk(double waves, int sms, int per_sm, unsigned long long other,
                                    double tol, double *inflation) {
  if (!(waves > 0) || sms <= 0 || per_sm <= 0 || other == 0)
    return 0;
  unsigned long long round = (unsigned long long)sms * (unsigned long long)per_sm;
  double want = waves * (double)round / (double)other;
  unsigned long long qmin = (unsigned long long)want;
  if ((double)qmin < want)
    qmin++;
  if (qmin == 0)
    qmin = 1;
  unsigned long long best = qmin;
  double best_inf = inflation_of(qmin, other, round);
  for (unsigned long long q = qmin; q <= 3 * qmin && q < qmin + 4096; q++) {
    double f = inflation_of(q, other, round);
    if (f <= tol) {
      best = q, best_inf = f;
      break;
    }
    if (f < best_inf)
      best = q, best_inf = f;
  }
  if (inflation)
    *inflation = best_inf;
  return best;
}

int orion_plan_split_chunks(double est_ms) {
  if (!(est_ms > 0))
    return 0;
  double n = ORION_PLAN_SPLIT_SHARE * est_ms / ORION_PLAN_CHUNK_COST_MS;
  if (n < ORION_PLAN_SPLIT_MIN_CHUNKS)
    return 0;
  return n > 1e6 ? 1000000 : (int)n;
}

int orion_plan_pad_idle(unsigned long long blocks, int sms, int pad_per_sm) {
  return blocks > 0 && orion_plan_rounds(blocks, sms, pad_per_sm) == 1;
}

int orion_plan_direction(int orig, int cons, int dir) {
  if (cons >= 0 && cons != orig)
    return cons > orig ? 1 : -1;
  return dir < 0 ? -1 : 1;
}

double orion_plan_risk(int pad, int orig_warps, int cand_warps, int orig_local, int cand_local) {
  if (pad) {
    double r = orig_warps > 0 && cand_warps > 0 ? 0.5 * ((double)orig_warps / cand_warps - 1) : 1;
    return r < 0.05 ? 0.05 : r > 1 ? 1 : r;
  }
  int extra = cand_local - orig_local;
  return extra <= 0 ? 0.03 : extra <= 32 ? 0.15 : extra <= 256 ? 0.5 : 1;
}

long orion_plan_recheck_gap(int k, long every) {
  if (every <= 0)
    return 1L << 62;
  long g = k < 20 ? 32L << k : every;
  return (g < every ? g : every) + (k & 1);
}

int orion_plan_carry(int settled, int chose_orig, int confirmed, int prev_open, int *open_runs) {
  *open_runs = 0;
  if (settled)
    return chose_orig || confirmed ? ORION_CACHE_CONFIRMED : ORION_CACHE_TENTATIVE;
  if (prev_open + 1 >= ORION_CACHE_OPEN_RUNS)
    return ORION_CACHE_CONFIRMED; /* too few launches to settle: the original */
  *open_runs = prev_open + 1;
  return ORION_CACHE_OPEN;
}
