/* plan.h - pure helpers that decide how the runtime tunes a launch (no
 * CUDA, no clock, no allocation; unit-tested in test/unit/rt/test_plan.c).
 *
 * Pareto pruning (adaptive mode): a capped clone is worth trying only if no
 * other candidate has at least its registers (so spills no more) and at
 * least its resident warps.  Clones that spill into shared memory can end up
 * with fewer warps than a clone with a higher cap, or than the original
 * itself; Fig. 9's walk would then meet a version that is worse on both
 * counts before the one that may be faster (particles: r32 at 44 warps
 * before r40 at 48).  Padding versions and the original are never pruned.
 *
 * Round guard: a launch of B blocks runs in rounds of S * b blocks (S SMs,
 * b blocks per SM).  When the original holds the whole grid at once (one
 * round) and a candidate with fewer blocks per SM cannot, that candidate
 * serialises the grid into two or more rounds: predicted much slower (the
 * extra round costs a whole block latency), so the walk treats it as a
 * measured stop without launching it (recursive_gauss: 2048 blocks, 18 per
 * SM for the original, 12 for p24).
 *
 * Chunks: a split launch is cut along one grid dimension into slices of
 * `other` blocks (the product of the other dimensions).  A chunk meant to be
 * `waves` full waves of a candidate generally is not a whole number of
 * rounds; its last round runs part-empty, which inflates its time per block
 * by up to the empty fraction and differs between candidates (on
 * nlm_denoise, 1 block per SM and 68-block slices, it misled the choice).
 * orion_plan_chunk picks, in [qmin, 3 qmin] slices, the smallest count whose
 * inflation (empty slots of the last round over the blocks) is within tol,
 * else the one with the least.
 *
 * What a split costs: every chunk boundary adds the fill and drain of a
 * kernel to the GPU time (measured on an H100 against the same grid
 * unsplit: a 2-wave chunk 3.4 us more on knn's distance kernel, 6.6 us
 * more on jenkins-hash's, 40 us on rsbench's 0.85 ms chunk, host
 * submission included), so a single launch of 0.4-0.5 ms split into
 * 16 chunks ran 8-24 % slower.  So a launch is split only when its grid
 * holds at least split_min_rounds (128) rounds of the original, which
 * keeps the first, probing boundaries within about 1 %, and once the
 * original's time for the whole grid is known (est_ms), tuning may spend
 * at most split_share (0.5 %) of it on boundaries, at chunk_cost_ms
 * (0.008) each: orion_plan_split_chunks chunks, none below
 * split_min_chunks (12: a warm-up, then four pairs of one candidate).
 *
 * Idle padding: a padding version runs the original's binary and only
 * limits how many of its blocks an SM holds.  The block scheduler spreads
 * a grid over the SMs, so a launch of B blocks puts ceil(B / S) on an SM;
 * when that is within the padding version's limit, the limit never binds
 * and the version runs exactly as the original (srad's roi_stats: 1 block;
 * gaussian's fan1: 12 blocks on 132 SMs).  Timing it would only measure
 * noise.
 *
 * Direction: the compiler predicts the direction from max-live and emits
 * its conservative version as the first step that way (Fig. 8), assuming
 * the original's registers from max-live.  ptxas decides the real counts:
 * on fdtd3d the original takes 48 registers (40 warps per SM) against a
 * max-live of 127, while the version capped at 80 takes 75 (24 warps), so
 * the conservative version lands below the original.  The walk then starts
 * toward it, where the compiler's first step really is.
 *
 * Risk: the stake of a candidate's first trial (tune.h, step 5), a prior
 * from what the compiler and ptxas left.  A clone capped to more warps
 * without more local memory than the original rarely loses more than a few
 * percent (H200, third-party programs: at most 5 %); one that spills more
 * can lose several times over (a hydrodynamics kernel capped to 32
 * registers: 1.5 KB of spills, 6x slower); a padding version loses at
 * most about half the warps it takes away, measured (of 64 warps: at 48
 * up to 17 % slower, at 32 up to 25 %, at 16 up to 70 %, a transpose at 8
 * 3x).  So: a clone 0.03 without extra local memory, 0.15 up to 32 bytes
 * a thread, 0.5 up to 256, else 1; a padding version half of the
 * original's warps over its own minus one, within 0.05..1.
 *
 * Re-checks: a choice is re-checked 32 launches after it settles, then
 * after 64, 128, ... up to every `every` launches (ORION_RECHECK); odd
 * re-checks start one launch later, so the original's sample of a re-check
 * falls on both parities of the launch count.  Each re-check runs the
 * original once: replayed on the corpus's traces, a first re-check at 8
 * launches kept 10 of 32 wins of >= 3 % to 80 %, at 32 launches 11, with
 * the do-no-harm bound unchanged; the price is that a wrong choice runs
 * longer before the re-checks' median can revert it (160 launches after
 * settling instead of 56).
 */
#ifndef ORION_RT_PLAN_H
#define ORION_RT_PLAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* keep[i] = 0 for the clones (is_clone[i] != 0) some other candidate
 * dominates (regs and warps both >= and not both equal, or both equal and
 * the other is not a clone or comes first), else 1.  n >= 0. */
void orion_plan_pareto(int n, const int *regs, const int *warps, const int *is_clone, int *keep);

#define ORION_PLAN_SPLIT_MIN_ROUNDS 128
#define ORION_PLAN_SPLIT_MIN_CHUNKS 12
#define ORION_PLAN_SPLIT_SHARE 0.005
#define ORION_PLAN_CHUNK_COST_MS 0.008

/* The timed chunks a split launch may spend when the original takes est_ms
 * for its whole grid (see above); 0 when fewer than
 * ORION_PLAN_SPLIT_MIN_CHUNKS would be allowed, or est_ms is not positive. */
int orion_plan_split_chunks(double est_ms);

/* ceil(blocks / (sms * per_sm)); 0 when sms or per_sm is not positive. */
unsigned long long orion_plan_rounds(unsigned long long blocks, int sms, int per_sm);

/* 1 when the original (orig_per_sm blocks per SM) runs `blocks` in one
 * round and the candidate (cand_per_sm) needs more than one. */
int orion_plan_round_guard(unsigned long long blocks, int sms, int orig_per_sm, int cand_per_sm);

/* Slices for a chunk of about `waves` waves (> 0) of a candidate with
 * per_sm blocks per SM on sms SMs, slices of `other` blocks; see above.
 * *inflation (may be NULL) gets the chosen count's inflation.  0 on bad
 * arguments. */
unsigned long long orion_plan_chunk(double waves, int sms, int per_sm, unsigned long long other,
                                    double tol, double *inflation);

/* 1 when a launch of `blocks` blocks on sms SMs never puts more than
 * pad_per_sm blocks on one SM (the padding version's limit does not bind). */
int orion_plan_pad_idle(unsigned long long blocks, int sms, int pad_per_sm);

/* The walk's first direction (+1 toward more warps, -1 fewer) over
 * candidates sorted by warps: toward the conservative version `cons` when
 * there is one other than the original `orig`, else the compiler's
 * `dir`. */
int orion_plan_direction(int orig, int cons, int dir);

/* The prior stake (see above) of a candidate: pad != 0 for a padding
 * version; warps per SM of the original and the candidate; local memory
 * bytes per thread of each. */
double orion_plan_risk(int pad, int orig_warps, int cand_warps, int orig_local, int cand_local);

/* Launches from a choice's settling (k = 0) or its k-th re-check to the
 * next re-check; `every` <= 0: none (a very large gap). */
long orion_plan_recheck_gap(int k, long every);

/* What a tuned configuration leaves in the decision cache (cache.h), as
 * its ORION_CACHE_* state: a decision when it settled on the original or
 * on a confirmed choice, tentative when it settled on another choice, open
 * while tuning had not settled, and the original's decision once tuning
 * stayed open in ORION_CACHE_OPEN_RUNS runs (prev_open: the earlier ones).
 * *open_runs: the count an open entry keeps (else 0). */
int orion_plan_carry(int settled, int chose_orig, int confirmed, int prev_open, int *open_runs);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RT_PLAN_H */
