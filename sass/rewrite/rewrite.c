/* rewrite.c - move a kernel's stack frame, and its callees', from local to
 * shared memory (include/orion/sassrw.h has the layout and the contract).
 *
 * Algorithm:
 *   1. check every refusal condition before touching the cubin;
 *   2. lay the frame out (sass/rewrite/stack.c: PTXAS, SUM or the compressible
 *      stack) and size the region;
 *   3. build the new text section: the old one with, in every function of
 *      the call tree, LDL/STL [R1+off] -> LDS/STS [R1+off'] (with a split
 *      granule, an access wider than 4 bytes -> BRA to a stub of 4-byte
 *      pieces appended after the prologue, which branches back), the kernel's
 *      R1 moves -> NOP (keeping stall, yield and wait mask; the scoreboards
 *      they set are dropped, and waiting on an idle scoreboard is a no-op),
 *      the kernel's first instruction (its load of R1) -> BRA to the
 *      prologue, and the prologue appended (11 instructions on sm_90, 9 on
 *      sm_80-89: sass/rewrite/prologue.c) and padded with NOPs to the
 *      section's alignment;
 *   4. apply: replace the text, grow the last function's symbol (and its
 *      .debug_frame FDE range) over the prologue, grow or add
 *      .nv.shared.<k>, zero the tree's frame and stack sizes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/occupancy.h"
#include "orion/sass.h"
#include "orion/sassrw.h"
#include "sassrw_internal.h"

#define STATIC_SMEM_MAX 0xc000u /* 48 KB of static shared memory per block */
/* sm_90, ptxas 13: static shared data starts after a 1 KB reserved area
 * (.nv.shared.reserved.0; the code forms addresses from 0x400) and the
 * .nv.shared.<k> size counts that area (0x600 for 512 bytes of data). */
#define SM90_RESERVED_SMEM 0x400u
#define SHF_WAI 0x43u /* SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, as ptxas */

static const char *const layout_names[] = {"auto", "ptxas", "sum", "cstack", "moves"};
static const char *const granule_names[] = {"auto", "split", "wide"};

const char *orion_sassrw_layout_name(orion_sassrw_layout l) {
  return (unsigned)l < 5 ? layout_names[l] : NULL;
}

const char *orion_sassrw_granule_name(orion_sassrw_granule g) {
  return (unsigned)g < 3 ? granule_names[g] : NULL;
}

/* Add .nv.shared.<k> for kernel f, size bytes. */
static orion_status add_shared(orion_cubin *c, const orion_cubin_func *f, uint64_t size,
                                     unsigned align) {
  char name[512];
  if ((size_t)snprintf(name, sizeof name, ".nv.shared.%s", f->name) >= sizeof name)
    return ORION_ERR_RANGE;
  size_t idx;
  return orion_cubin_add_nobits_section(c, name, SHF_WAI, (uint32_t)f->text, align < 4 ? 4 : align,
                                        size, &idx);
}

static orion_sass_insn nop_like(const orion_sass_insn *orig) {
  orion_sass_insn x;
  orion_sass_decode_arch(sassrw_w_nop, orig->sm, &x);
  x.ctrl = orig->ctrl;
  x.ctrl.wbar = 7;
  x.ctrl.rbar = 7;
  x.ctrl.reuse = 0;
  return x;
}

static int is_r1_move(const orion_sass_insn *x) {
  if (x->op != ORION_SASS_OP_IADD3 && x->op != ORION_SASS_OP_VIADD)
    return 0;
  for (unsigned k = 0; k < x->nregs; k++)
    if (x->regs[k].def && x->regs[k].file == ORION_SASS_R && x->regs[k].num == ORION_SASS_SP)
      return 1; /* the analysis allows no other writer of R1 */
  return 0;
}

/* 4-byte and wider frame accesses of function record gr (its slots count
 * every LDL/STL), and the stub instructions splitting the wider ones takes. */
static void count_widths(const orion_sassrw_func *gr, size_t *n4, size_t *nwide, size_t *stub_insns) {
  for (size_t i = 0; i < gr->n_slots; i++) {
    const orion_sassrw_slot *sl = &gr->slots[i];
    size_t n = sl->loads + sl->stores;
    if (sl->bytes > 4) {
      *nwide += n;
      *stub_insns += n * (sl->bytes / 4 + 1);
    } else {
      *n4 += n;
    }
  }
}

/* Rewrite the frame accesses (sass/rewrite/access.c) and, for the kernel
 * when the region's base is R1, R1's set-up of tree function func in the
 * section copy `code`, its own code only (a kernel's symbol spans its
 * callees'); stubs go from *stub on.  Returns the accesses rewritten, or -1 with *bad the
 * offset of an instruction that did not encode. */
static long rewrite_fn(const orion_cubin *c, size_t func, int is_kernel, sassrw_placing *pl, uint64_t *stub,
                       unsigned char *code, orion_status *err, uint64_t *bad) {
  orion_cubin_func f;
  const unsigned char *text;
  size_t size;
  if (orion_cubin_get_func(c, func, &f) || orion_cubin_func_own_text(c, func, &text, &size)) {
    *err = ORION_ERR_INTERNAL;
    return -1;
  }
  long moved = 0;
  for (size_t at = 0; at < size; at += 16) {
    unsigned char *dst = code + f.value + at;
    orion_sass_insn x, y;
    if (sassrw_decode(text + at, pl->sm, &x) != ORION_OK)
      continue; /* the analysis found none in a safe function */
    orion_status st = ORION_OK;
    if (is_kernel && at > 0 && pl->base == ORION_SASS_SP && is_r1_move(&x)) {
      y = nop_like(&x);
      st = sassrw_enc(&y, pl->sm, dst);
    } else if (x.op == ORION_SASS_OP_LDL || x.op == ORION_SASS_OP_STL) {
      st = sassrw_place_access(&x, func, pl, f.value + at, stub, code);
      moved++;
    }
    if (st != ORION_OK) {
      *err = st;
      *bad = f.value + at;
      return -1;
    }
  }
  return moved;
}

/* One kernel's rewrite, carried through the phases of
 * orion_sassrw_rewrite_kernel; st is the status the call returns. */
typedef struct {
  orion_cubin *c;
  const orion_sassrw *a;
  size_t func;
  const orion_sassrw_opts *opts;
  orion_sassrw_result *res;
  const orion_sassrw_func *fr;
  orion_cubin_func f;
  orion_cubin_section ts;
  sassrw_tree tree;
  sassrw_part part; /* partial: the granules on chip */
  int partial;
  unsigned base;     /* the region's base register: R1 unless partial */
  unsigned regcount; /* the kernel's register count after the rewrite */
  unsigned prologue_n;
  unsigned sm;       /* the cubin's architecture */
  orion_status st;
  size_t n_local, n_tree, n4, nwide, stub_insns, site_insns, last, moved, local_acc;
  unsigned gran;
  int64_t F, thr;
  int add_bound, split, layout, dyn;
  uint32_t region;
  uint64_t chunks, bytes, P0, nsz;
  unsigned char *code;
} rw_kernel;

/* Phases return 0 to go on, 1 to stop: a refusal (res->msg says why, st
 * is what the call returns) or an error (st). */
#define STOP(...)                                            \
  do {                                                       \
    snprintf(k->res->msg, sizeof k->res->msg, __VA_ARGS__);  \
    return 1;                                                \
  } while (0)
#define FAIL(status) return (k->st = (status)), 1

/* Refusals over the functions of the kernel's text section (they must
 * all be the kernel's call tree, which sass/rewrite/stack.c collects and lay_out
 * checks): the tree's counts, the widest access and the last function. */
static int refuse_section(rw_kernel *k) {
  uint64_t last_end = 0;
  k->last = k->func;
  for (size_t i = 0; i < orion_cubin_func_count(k->c); i++) {
    orion_cubin_func g;
    if (orion_cubin_get_func(k->c, i, &g) || g.text != k->f.text)
      continue;
    const orion_sassrw_func *gr = orion_sassrw_get(k->a, i);
    if (i != k->func && (gr->r1_init_at >= 0 || gr->n_r1_moves))
      STOP("callee %s loads or moves the stack pointer (ABI calls)", g.name);
    if (k->opts->dynamic && gr->reads_dyn_size)
      STOP("function %s reads the launch's dynamic shared memory size (c[0x0][0x2c]), which the region "
           "enlarges", g.name);
    if (gr->subword || gr->misaligned)
      STOP("%s frame access in %s", gr->subword ? "sub-word" : "misaligned", g.name);
    if (gr->n_slots && (gr->slots[0].off < 0 || (int64_t)gr->frame_bytes > k->F))
      STOP("frame access in %s outside [R1, R1 + %" PRId64 ")", g.name, k->F);
    k->n_local += gr->n_local;
    k->n_tree++;
    count_widths(gr, &k->n4, &k->nwide, &k->stub_insns);
    if (gr->max_access > k->gran)
      k->gran = gr->max_access;
    if (g.value + g.size >= last_end) {
      last_end = g.value + g.size;
      k->last = i;
    }
  }
  if (!k->n_local)
    STOP("no local-memory accesses: nothing to move");
  if (k->fr->r1_init_at != 0 || k->fr->r1_moves_outside_entry)
    STOP("R1 is not set up by a load at the first instruction and entry moves only");
  if (k->F <= 0)
    STOP("no frame reserved by the entry's R1 moves");
  if (!k->opts->no_dynamic_smem && !k->opts->dynamic)
    STOP("may use dynamic shared memory (pass --no-dynamic-smem when it does not)");
  if (k->f.regcount < 7)
    STOP("fewer than 7 registers for the prologue");
  if (k->ts.size % 16 || last_end > k->ts.size)
    STOP("its text section has an odd size");
  return 0;
}

/* Phase 1: every refusal condition, before the cubin is touched; sets the
 * block size (thr, add_bound) and the granule (gran, split). */
static int refuse(rw_kernel *k) {
  const orion_cubin_func *f = &k->f;
  if (!f->is_kernel)
    STOP("not a kernel");
  if (!k->fr->safe)
    STOP("unsafe: %s", k->fr->reason);
  if (orion_cubin_get_section(k->c, f->text, &k->ts))
    FAIL(ORION_ERR_INTERNAL);
  if (f->value != 0)
    STOP("the kernel does not start its text section");
  k->F = -k->fr->r1_entry_delta;
  if (refuse_section(k))
    return 1;
  k->dyn = k->opts->dynamic != 0;
  k->thr = k->dyn                   ? 32 /* lanes: the region is laid out warp by warp */
           : f->max_threads[0] >= 0 ? f->max_threads[0] * f->max_threads[1] * f->max_threads[2]
           : f->reqntid[0] >= 0     ? f->reqntid[0] * f->reqntid[1] * f->reqntid[2]
                                    : -1;
  if (k->thr <= 0 && k->opts->block > 0 && k->opts->block <= 1024 && f->nvinfo) {
    k->thr = k->opts->block;
    k->add_bound = 1;
  }
  if (k->thr <= 0)
    STOP("no maximum block size (launch bounds / .maxntid)");
  if (!f->shared && k->sm == 90 && !orion_cubin_find_section(k->c, ".nv.shared.reserved.0"))
    STOP("no .nv.shared section and no .nv.shared.reserved.0 to place one with");
  if (!f->shared && k->sm != 90 && !k->dyn && !orion_cubin_nobits_home(k->c))
    STOP("no .nv.shared section and no shared segment to place one in (no kernel of the cubin uses "
         "shared memory)");

  if ((unsigned)k->opts->granule > ORION_SASSRW_GRANULE_WIDE)
    FAIL(ORION_ERR_INVALID_ARG);
  /* the granule: split wider accesses when asked, or (auto) when 4-byte
   * accesses outnumber them */
  k->split = k->gran > 4 && (k->opts->granule == ORION_SASSRW_GRANULE_SPLIT ||
                             (k->opts->granule == ORION_SASSRW_GRANULE_AUTO && k->n4 > k->nwide));
  if (k->split)
    k->gran = 4;
  else
    k->stub_insns = k->nwide = 0;
  return 0;
}

/* The layout opts asks for, or under AUTO the smallest valid region; ties
 * go to the earlier in this order (PTXAS is always valid; MOVES, which adds
 * code, only when smaller). */
static int pick_layout(rw_kernel *k) {
  const sassrw_tree *t = &k->tree;
  if (k->opts->layout == ORION_SASSRW_LAYOUT_AUTO) {
    static const int pref[4] = {SASSRW_LAYOUT_CSTACK, SASSRW_LAYOUT_PTXAS, SASSRW_LAYOUT_SUM,
                                SASSRW_LAYOUT_MOVES};
    k->layout = -1;
    for (int i = 0; i < 4; i++)
      if (t->valid[pref[i]] && (k->layout < 0 || t->region[pref[i]] < t->region[k->layout]))
        k->layout = pref[i];
  } else if ((unsigned)k->opts->layout <= 4) {
    k->layout = (int)k->opts->layout - 1;
    if (!t->valid[k->layout])
      STOP("layout %s is not valid here: %s", layout_names[k->opts->layout], t->why[k->layout]);
  } else {
    FAIL(ORION_ERR_INVALID_ARG);
  }
  return 0;
}

/* Phase 2 when the region does not fit below limit: keep the layout's
 * heaviest granules that fit on chip (sass/rewrite/partial.c), the rest
 * in local memory.  MOVES is out (its moves would cross the two). */
static int lay_out_partial(rw_kernel *k, uint32_t limit) {
  if (k->layout == SASSRW_LAYOUT_MOVES) {
    if (k->opts->layout != ORION_SASSRW_LAYOUT_AUTO)
      STOP("partial placement does not combine with the moves layout");
    k->layout = k->tree.valid[SASSRW_LAYOUT_CSTACK] &&
                        k->tree.region[SASSRW_LAYOUT_CSTACK] <= k->tree.region[SASSRW_LAYOUT_PTXAS]
                    ? SASSRW_LAYOUT_CSTACK
                    : SASSRW_LAYOUT_PTXAS;
  }
  uint64_t per = (uint64_t)k->thr * k->gran;
  uint64_t fit = limit > k->region ? (limit - k->region) / per : 0;
  if (!fit)
    STOP("no room on chip: %u bytes below the limit of %u hold no %u-byte slot for %" PRId64 " threads",
         limit > k->region ? limit - k->region : 0, limit, k->gran, k->thr);
  orion_status e = sassrw_part_build(k->c, &k->tree, k->layout, k->split, (uint32_t)fit, &k->part);
  if (e != ORION_OK)
    FAIL(e);
  k->base = sassrw_part_base(&k->part, (unsigned)k->f.regcount, k->opts->reg_limit, &k->regcount);
  if (k->base == ORION_SASS_RZ) {
    k->res->need_reg = 1;
    STOP("no register left for the on-chip part's base: R%u would take %u registers, more than the %" PRId64
         " allocated (assemble one register lower)",
         k->part.top_gpr + 1, k->part.top_gpr + 4, (k->f.regcount + 7) & ~(int64_t)7);
  }
  k->partial = 1; /* R1 stays the stack pointer */
  k->chunks = k->part.k;
  k->bytes = k->chunks * per;
  return 0;
}

/* Phase 2 for a dynamic region (k->thr = 32 lanes, k->bytes per warp):
 * the region per warp must fit opts.warp_limit, or a one-warp block's
 * shared memory on the architecture; partial placement where it does not. */
static int lay_out_dynamic(rw_kernel *k) {
  const orion_arch_limits *al = orion_arch_get((int)k->sm);
  uint32_t most = al && al->max_smem_per_block_optin > k->region ? al->max_smem_per_block_optin - k->region : 0;
  uint32_t limit = k->opts->warp_limit && k->opts->warp_limit < most ? k->opts->warp_limit : most;
  if (k->bytes > limit && k->opts->partial)
    return lay_out_partial(k, k->region + limit);
  const char *what = k->opts->warp_limit && k->opts->warp_limit < most ? "limit" : "most a one-warp block may have";
  if (k->bytes > limit)
    STOP("needs %" PRIu64 " bytes of shared memory per warp (%" PRIu64
         " slots of %u bytes x 32 lanes), above the %s of %u",
         k->bytes, k->chunks, k->gran, what, limit);
  k->site_insns = k->layout == SASSRW_LAYOUT_MOVES ? sassrw_sites_insns(&k->tree) : 0;
  k->stub_insns += k->site_insns;
  return 0;
}

/* Phase 2: lay the frame out (sass/rewrite/stack.c), place the moves at calls,
 * pick the layout and size the shared region. */
static int lay_out(rw_kernel *k) {
  orion_status e;
  sassrw_tree other; /* the figures of the other colouring choice */
  if (sassrw_tree_build(k->c, k->a, k->func, k->gran, (uint32_t)k->F, k->opts->min_heights, !k->opts->colour,
                        &other) == ORION_OK) {
    for (int l = 0; l < SASSRW_NLAYOUTS; l++)
      k->res->other_bytes[l] = other.valid[l] ? other.region[l] * k->gran : 0;
    sassrw_tree_free(&other);
  }
  k->res->coloured = k->opts->colour != 0;
  if ((e = sassrw_tree_build(k->c, k->a, k->func, k->gran, (uint32_t)k->F, k->opts->min_heights,
                             k->opts->colour, &k->tree)) != ORION_OK)
    STOP("cannot lay the frame out: %s", orion_strerror(e));
  if (k->tree.n != k->n_tree) /* the tree holds the functions the kernel's calls reach */
    STOP("its text section holds %zu function(s) the kernel does not call", k->n_tree - k->tree.n);
  if ((e = sassrw_sites_place(k->c, k->func, &k->tree, k->split)) != ORION_OK)
    STOP("cannot place the moves at calls: %s", orion_strerror(e));
  orion_sassrw_result *res = k->res;
  res->layouts_known = 1;
  res->functions = k->n_tree;
  for (int l = 0; l < SASSRW_NLAYOUTS; l++) {
    res->layout_bytes[l] = k->tree.valid[l] ? k->tree.region[l] * k->gran : 0;
    snprintf(res->layout_why[l], sizeof res->layout_why[l], "%s", k->tree.why[l]);
  }
  if (pick_layout(k))
    return 1;
  k->region = k->f.shared ? (uint32_t)((k->f.shared_size + 15) & ~(uint64_t)15)
               : k->sm == 90 ? SM90_RESERVED_SMEM
                             : 0;
  k->chunks = k->tree.region[k->layout];
  k->bytes = k->chunks * (uint64_t)k->thr * k->gran;
  if (k->dyn)
    return lay_out_dynamic(k);
  uint32_t limit = k->opts->smem_limit && k->opts->smem_limit < STATIC_SMEM_MAX ? k->opts->smem_limit
                                                                                : STATIC_SMEM_MAX;
  if (k->region + k->bytes > limit && k->opts->partial)
    return lay_out_partial(k, limit);
  char lim[32] = "48 KB static limit";
  if (limit != STATIC_SMEM_MAX)
    snprintf(lim, sizeof lim, "limit of %u", limit);
  if (k->region + k->bytes > limit)
    STOP("needs %" PRIu64 " bytes of shared memory (%" PRIu64 " slots of %u bytes x %" PRId64
         " threads + %u), above the %s",
         k->region + k->bytes, k->chunks, k->gran, k->thr, k->region, lim);
  k->site_insns = k->layout == SASSRW_LAYOUT_MOVES ? sassrw_sites_insns(&k->tree) : 0;
  k->stub_insns += k->site_insns;
  return 0;
}

/* Phase 3: the new text section in k->code: the old one rewritten, the
 * prologue, the stubs and NOP padding; nothing in the cubin changes yet. */
static int build(rw_kernel *k) {
  const sassrw_tree *t = &k->tree;
  uint64_t align = k->ts.addralign > 16 ? k->ts.addralign : 16;
  k->P0 = k->ts.size;
  k->prologue_n = sassrw_prologue_len(k->sm, k->partial, k->dyn);
  k->nsz = (k->P0 + (k->prologue_n + k->stub_insns) * 16 + align - 1) / align * align;
  if (!(k->code = malloc(k->nsz)))
    FAIL(ORION_ERR_NOMEM);
  unsigned char *code = k->code;
  memcpy(code, k->ts.data, k->ts.size);
  for (uint64_t o = k->P0; o < k->nsz; o += 16)
    orion_sass_word_store(sassrw_w_nop, code + o);
  orion_sass_insn r1_init;
  if (sassrw_decode(code, k->sm, &r1_init) != ORION_OK)
    FAIL(ORION_ERR_INTERNAL);
  sassrw_prologue_spec ps = {k->gran, k->base, (unsigned)k->dyn, (uint32_t)(k->chunks * k->gran), k->region};
  if ((k->st = sassrw_prologue(&r1_init, &ps, k->P0, 16, code + k->P0)) != ORION_OK ||
      (k->st = sassrw_bra(0, k->P0, ORION_SASS_CTRL_SAFE, k->sm, code)) != ORION_OK) {
    orion_status e = k->st;
    k->st = ORION_OK; /* nothing changed yet: a refusal */
    STOP("prologue does not encode: %s", orion_strerror(e));
  }
  uint64_t stub = k->P0 + k->prologue_n * 16;
  sassrw_placing pl = {.t = t,
                       .layout = k->layout,
                       .split = k->split,
                       .region = k->dyn ? 0 : k->region, /* dynamic: in the base register */
                       .thr = (uint64_t)k->thr,
                       .part = k->partial ? &k->part : NULL,
                       .base = k->base,
                       .sm = k->sm};
  for (size_t i = 0; i < t->n; i++) {
    uint64_t bad = 0;
    long m = rewrite_fn(k->c, t->funcs[i], t->funcs[i] == k->func, &pl, &stub, code, &k->st, &bad);
    if (m < 0) {
      orion_status e = k->st;
      k->st = ORION_OK;
      STOP("instruction at +0x%" PRIx64 " does not encode: %s", bad, orion_strerror(e));
    }
    k->moved += (size_t)m;
  }
  for (size_t j = 0; k->site_insns && j < t->nsites; j++) {
    orion_cubin_func g;
    orion_cubin_get_func(k->c, t->funcs[t->sites[j].fi], &g);
    uint64_t call = g.value + 16 * t->sites[j].call;
    if ((k->st = sassrw_emit_site(&t->sites[j], call, k->dyn ? 0 : k->region, (uint64_t)k->thr, k->gran, k->sm,
                                  &stub, code)) !=
        ORION_OK) {
      orion_status e = k->st;
      k->st = ORION_OK;
      STOP("the moves at the call at +0x%" PRIx64 " do not encode: %s", call, orion_strerror(e));
    }
  }
  uint64_t used = (stub - k->P0) / 16 - k->prologue_n;
  if (k->partial ? used > k->stub_insns : used != k->stub_insns) {
    k->st = ORION_OK;
    STOP("the stubs took %" PRIu64 " instructions, %zu expected", used, k->stub_insns);
  }
  k->local_acc = pl.local;
  if (k->partial) { /* wide accesses left whole in local memory took none */
    k->stub_insns = used;
    k->nwide = pl.stubs;
    k->nsz = (stub + align - 1) / align * align;
  }
  return 0;
}

/* The last function's .debug_frame FDE (initial location, relocated, then
 * the 8-byte address range) to its new size. */
static int apply_debug_frame(rw_kernel *k, const orion_cubin_func *lf, uint64_t new_last) {
  orion_cubin *c = k->c;
  size_t ds = orion_cubin_find_section(c, ".debug_frame"), rs = orion_cubin_find_section(c, ".rela.debug_frame");
  orion_cubin_section d;
  for (size_t i = 0; ds && rs && !orion_cubin_get_section(c, ds, &d) && i < orion_cubin_reloc_count(c, rs); i++) {
    orion_cubin_reloc rel;
    orion_cubin_get_reloc(c, rs, i, &rel);
    if (rel.sym != lf->sym || rel.offset + 16 > d.size)
      continue;
    uint64_t range = 0;
    for (int b = 0; b < 8; b++)
      range |= (uint64_t)d.data[rel.offset + 8 + b] << (8 * b);
    if (range != lf->size)
      continue;
    unsigned char *nd = malloc(d.size);
    if (!nd) {
      k->st = ORION_ERR_NOMEM;
      STOP("out of memory");
    }
    memcpy(nd, d.data, d.size);
    for (int b = 0; b < 8; b++)
      nd[rel.offset + 8 + b] = (unsigned char)(new_last >> (8 * b));
    orion_status cs = orion_cubin_replace_section_data(c, ds, nd, d.size);
    free(nd);
    if (cs) {
      k->st = ORION_ERR_INTERNAL;
      STOP("cannot update .debug_frame");
    }
  }
  return 0;
}

/* The shared section grown or added, EIATTR_MAX_THREADS added where the
 * block size came from opts, the register count raised where the base
 * register asked for it, the tree's frame and stack sizes zeroed (not in
 * a partial rewrite). */
static int apply_attrs(rw_kernel *k) {
  orion_cubin *c = k->c;
  const orion_cubin_func *f = &k->f;
  uint64_t total = k->dyn ? k->region : k->region + k->bytes; /* dynamic: static data 16-aligned */
  int change = !k->dyn || (f->shared ? (uint64_t)f->shared_size != total : k->sm == 90);
  if (change && (f->shared ? orion_cubin_set_nobits_size(c, f->shared, total) != ORION_OK
                           : add_shared(c, f, total, k->gran) != ORION_OK)) {
    k->st = ORION_ERR_INTERNAL;
    STOP("cannot %s the shared-memory section", f->shared ? "grow" : "add");
  }
  if (k->add_bound) {
    unsigned char mt[12] = {0};
    for (int b = 0; b < 4; b++)
      mt[b] = (unsigned char)((uint32_t)k->thr >> (8 * b));
    mt[4] = mt[8] = 1;
    if (orion_cubin_nvinfo_append(c, f->nvinfo, ORION_EIFMT_SVAL, ORION_EIATTR_MAX_THREADS, 12, mt, 12)) {
      k->st = ORION_ERR_INTERNAL;
      STOP("cannot add EIATTR_MAX_THREADS");
    }
  }
  if (k->regcount > 0 && (int64_t)k->regcount > f->regcount &&
      orion_cubin_set_func_attr(c, k->func, ORION_EIATTR_REGCOUNT, k->regcount)) {
    k->st = ORION_ERR_INTERNAL;
    STOP("cannot raise the register count");
  }
  static const unsigned zero_attrs[3] = {ORION_EIATTR_FRAME_SIZE, ORION_EIATTR_MIN_STACK_SIZE,
                                         ORION_EIATTR_MAX_STACK_SIZE};
  for (size_t i = 0; !k->partial && i < k->tree.n; i++) { /* partial: the local frame stays */
    orion_cubin_func g;
    orion_cubin_get_func(c, k->tree.funcs[i], &g);
    int64_t have[3] = {g.frame_size, g.min_stack_size, g.max_stack_size};
    for (int j = 0; j < 3; j++)
      if (have[j] > 0 && orion_cubin_set_func_attr(c, k->tree.funcs[i], zero_attrs[j], 0)) {
        k->st = ORION_ERR_INTERNAL;
        STOP("cannot update %s", orion_eiattr_name(zero_attrs[j]));
      }
  }
  return 0;
}

/* Phase 4: the result's figures, then the cubin edited (errors from here
 * on leave a half-edited cubin). */
static int apply(rw_kernel *k) {
  orion_sassrw_result *res = k->res;
  res->region_off = k->region;
  res->region_bytes = (uint32_t)k->bytes;
  res->granule = k->gran;
  res->threads = (uint32_t)k->thr;
  res->dynamic = k->dyn;
  res->warp_bytes = k->dyn ? (uint32_t)k->bytes : 0;
  res->prologue_insns = k->prologue_n;
  res->partial = k->partial;
  res->slots_on_chip = (uint32_t)k->chunks;
  res->bytes_on_chip = (uint32_t)k->chunks * k->gran;
  if (k->partial) {
    res->slots_local = k->part.n - k->part.k;
    res->bytes_local = res->slots_local * k->gran;
    res->local_accesses = k->local_acc;
    res->weight_on_chip = k->part.weight_on_chip;
    res->weight_total = k->part.weight_total;
    res->base_reg = k->base;
    res->regcount = k->regcount;
  }
  res->moved_accesses = k->moved;
  res->split_accesses = k->nwide;
  res->stub_insns = k->stub_insns;
  if (k->site_insns) {
    res->call_sites = k->tree.nsites;
    res->call_moves = k->tree.nmoves;
    res->site_insns = k->site_insns;
  }
  res->layout = (orion_sassrw_layout)(k->layout + 1);
  orion_cubin_func lf;
  orion_cubin_get_func(k->c, k->last, &lf);
  uint64_t new_last = k->nsz - lf.value;
  if (orion_cubin_replace_section_data(k->c, k->f.text, k->code, k->nsz) ||
      orion_cubin_set_symbol_size(k->c, lf.sym, new_last)) {
    k->st = ORION_ERR_INTERNAL;
    STOP("cannot replace the code");
  }
  return apply_debug_frame(k, &lf, new_last) || apply_attrs(k);
}

/* The one-line summary of a rewrite in res->msg. */
static void summarize(const rw_kernel *k) {
  char tail[192] = "";
  if (k->nwide)
    snprintf(tail, sizeof tail, ", %zu wide accesses split (%zu-instruction stubs)", k->nwide,
             k->stub_insns - k->site_insns);
  if (k->site_insns)
    snprintf(tail + strlen(tail), sizeof tail - strlen(tail),
             ", %zu slot moves at %zu calls (%zu-instruction stubs)", k->tree.nmoves, k->tree.nsites,
             k->site_insns);
  if (k->dyn)
    snprintf(k->res->msg, sizeof k->res->msg,
             "rewritten: %zu local accesses in %zu function%s -> the end of dynamic shared (0x%x + its size), %" PRIu64
             " bytes per warp (%s layout, %" PRIu64 " %u-byte slots x 32 lanes), %u-instruction prologue%s",
             k->moved, k->n_tree, k->n_tree == 1 ? "" : "s", k->region, k->bytes, layout_names[k->layout + 1],
             k->chunks, k->gran, k->prologue_n, tail);
  else
    snprintf(k->res->msg, sizeof k->res->msg,
             "rewritten: %zu local accesses in %zu function%s -> shared [0x%x, 0x%x) (%s layout, %" PRIu64
             " %u-byte slots x %u threads), %u-instruction prologue%s",
             k->moved, k->n_tree, k->n_tree == 1 ? "" : "s", k->region, k->region + (uint32_t)k->bytes,
             layout_names[k->layout + 1], k->chunks, k->gran, (unsigned)k->thr, k->prologue_n, tail);
  if (k->partial) {
    char via[64];
    if ((int64_t)k->regcount > k->f.regcount)
      snprintf(via, sizeof via, "at R1, on chip at R%u (%" PRId64 " -> %u registers)", k->base, k->f.regcount, k->regcount);
    else
      snprintf(via, sizeof via, "at R1, on chip at R%u", k->base);
    size_t n = strlen(k->res->msg);
    snprintf(k->res->msg + n, sizeof k->res->msg - n,
             "; partial: %u of %u slots on chip, %zu accesses left local %s, %.1f%% of the "
             "estimated dynamic accesses on chip",
             k->part.k, k->part.n, k->local_acc, via,
             k->part.weight_total ? 100.0 * (double)k->part.weight_on_chip / (double)k->part.weight_total : 0.0);
  }
}

orion_status orion_sassrw_rewrite_kernel(orion_cubin *c, const orion_sassrw *a, size_t func,
                                         const orion_sassrw_opts *opts, orion_sassrw_result *res) {
  if (!c || !a || !res || !opts)
    return ORION_ERR_INVALID_ARG;
  memset(res, 0, sizeof *res);
  rw_kernel k;
  memset(&k, 0, sizeof k);
  k.c = c, k.a = a, k.func = func, k.opts = opts, k.res = res;
  k.base = ORION_SASS_SP;
  k.sm = sassrw_sm(c);
  k.fr = orion_sassrw_get(a, func);
  if (!k.fr || orion_cubin_get_func(c, func, &k.f))
    return ORION_ERR_INVALID_ARG;
  k.st = ORION_OK;
  if (!refuse(&k) && !lay_out(&k) && !build(&k) && !apply(&k)) {
    res->rewritten = 1;
    summarize(&k);
  }
  free(k.code);
  sassrw_tree_free(&k.tree);
  sassrw_part_free(&k.part);
  return k.st;
}
