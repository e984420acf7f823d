/* advise/block.c - block-size advice for one launch site (advise.h).
 *
 * The occupancy calculator (core/occupancy.c) at the original version's
 * registers and static shared memory (the build report's ptxas figures)
 * and the site's dynamic shared memory gives the warps per SM of every
 * block of 32, 64, ..., 1024 threads.  Two choices come from that curve:
 *   the calculator's: the largest block reaching the most warps per SM
 *     (the rule of cudaOccupancyMaxPotentialBlockSize);
 *   orion-advise's: the site's own block when it already reaches the most
 *     warps; else, of the blocks that reach them, the one nearest
 *     ADV_PREFERRED_BLOCK (256) threads, the smaller on a tie.  The CUDA
 *     C++ Best Practices Guide gives 128 to 256 threads as the starting
 *     range; at equal warps per SM a block of 1024 holds every warp of
 *     the block at each barrier and leaves fewer, larger blocks to fill
 *     the last wave, and one of 32 or 64 threads caps the warps per SM by
 *     the blocks-per-SM limit before anything else.  (The calculator's
 *     largest block was 5-50 % slower than the best size on 5 of the 6
 *     sites first measured in benchmarks/advise/; the rule was then
 *     checked on sites not used to choose it, as that README says.)
 * The text names the kernel's memory class from the build report's static
 * features (loads and stores per inferred address space, passes/addrspace.c):
 * the space with the most accesses ("shared-memory-heavy", ...), with the
 * counts.  This is occupancy plus one static rule, not a measurement;
 * benchmarks/advise/ measures it against the sizes a program can take.
 */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "orion/occupancy.h"

#define ADV_PREFERRED_BLOCK 256

static int warps_at(int sm, int regs, long threads, int smem, long dyn) {
  orion_occ_input in = {regs, (int)threads, (unsigned)smem, (unsigned)(dyn > 0 ? dyn : 0)};
  orion_occ_result o;
  return orion_occupancy(sm, &in, &o) == ORION_OK ? o.warps_per_sm : 0;
}

/* "shared-memory-heavy (12 loads/stores: 4 global, 8 shared; 2 barriers)". */
static void memory_class(orion_strbuf *s, const adv_features *f) {
  if (!f->known) {
    orion_sb_adds(s, "; no static features in the build report");
    return;
  }
  const char *name[] = {"global", "shared", "local", "constant", "generic"};
  long n[] = {f->global, f->shared, f->local, f->constant, f->generic}, all = 0;
  int top = 0;
  for (int i = 0; i < 5; i++) {
    all += n[i];
    if (n[i] > n[top])
      top = i;
  }
  if (!all) {
    orion_sb_addf(s, "; the kernel has no loads or stores, %ld barriers", f->barriers);
    return;
  }
  orion_sb_addf(s, "; the kernel is %s%s (%ld loads/stores:", name[top],
                top == 4 ? " (space unknown)" : "-memory-heavy", all);
  for (int i = 0, m = 0; i < 5; i++)
    if (n[i])
      orion_sb_addf(s, "%s %ld %s", m++ ? "," : "", n[i], name[i]);
  orion_sb_addf(s, "; %ld barriers)", f->barriers);
}

int adv_block_advice(const adv_site *s, const adv_build *b, int sm, adv_block *out) {
  const adv_version *orig = adv_build_version(b, "orig");
  memset(out, 0, sizeof *out);
  if (!orig || orig->registers <= 0 || !sm || s->threads < 0 || s->threads > 1024)
    return -1;
  int smem = orig->smem > 0 ? orig->smem : 0, regs = orig->registers, near = 0;
  for (int t = 32; t <= 1024; t += 32) {
    int w = warps_at(sm, regs, t, smem, s->dyn_smem);
    if (w >= out->calc_warps && w > 0)
      out->calc_warps = w, out->calc = t;
  }
  if (!out->calc)
    return -1;
  for (int t = 32; t <= 1024; t += 32) /* the nearest to the preferred block, smaller on a tie */
    if (warps_at(sm, regs, t, smem, s->dyn_smem) == out->calc_warps &&
        (!near || labs(t - ADV_PREFERRED_BLOCK) < labs(near - ADV_PREFERRED_BLOCK)))
      near = t;
  out->threads = s->threads;
  out->warps = s->threads ? warps_at(sm, regs, s->threads, smem, s->dyn_smem) : 0;
  int keep = s->threads && out->warps >= out->calc_warps;
  out->advised = keep ? (int)s->threads : near;

  orion_strbuf t;
  orion_sb_init(&t);
  orion_sb_adds(&t, "block-size advice (the block size is the program's choice; Orion never "
                    "changes it): ");
  if (keep)
    orion_sb_addf(&t, "%ld threads already reach the calculator's most, %d warps/SM", s->threads,
                  out->calc_warps);
  else {
    if (s->threads)
      orion_sb_addf(&t, "%ld threads reach %d warps/SM; ", s->threads, out->warps);
    else
      orion_sb_adds(&t, "the block size is not a constant; ");
    orion_sb_addf(&t, "advised: %d threads, %d warps/SM, the block nearest %d threads at the most "
                      "warps",
                  out->advised, out->calc_warps, ADV_PREFERRED_BLOCK);
    if (out->calc != out->advised)
      orion_sb_addf(&t, " (the occupancy calculator's choice, the largest such block, is %d)",
                    out->calc);
  }
  orion_sb_addf(&t, " (%d registers, %d B static shared memory, sm_%d; occupancy only, not "
                    "measured",
                regs, smem, sm);
  memory_class(&t, &b->f);
  orion_sb_addc(&t, ')');
  out->text = orion_sb_detach(&t);
  return 0;
}
