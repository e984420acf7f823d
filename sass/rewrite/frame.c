/* frame.c - per-function stack-frame analysis of an sm_90, sm_80, sm_86 or
 * sm_89 cubin (include/orion/sassrw.h has the contract).
 *
 * Algorithm, per function: decode every 16-byte word of its code; one pass
 * marks block leaders, collects calls, classifies every operand that
 * touches R1 and every LDL/STL; a second pass counts blocks and CFG edges.
 * Then, over all functions, the call graph is searched depth first from
 * each function: a back edge is recursion, and unsafety propagates from
 * callees to callers (to a fixed point, since the graph may have cycles).
 *
 * R1 rules (conservative on purpose: anything else reads R1 and may let a
 * local address escape):
 *   def  R1 loaded from c[0x0][X], unguarded (recorded, X read from the
 *        code): LDC R1 on sm_90; MOV R1 (all lanes' bytes) or IMAD R1,
 *        RZ, RZ (no carry in) on sm_80-89
 *        IADD3 R1, R1, imm, RZ  /  VIADD R1, R1, imm  (unguarded R1 move)
 *   use  the base of LDL/STL, or the source of an R1 move
 * Any register operand overlapping R1 (R0:R1 pairs included) that is not
 * one of these makes the function unsafe.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/sass.h"
#include "orion/sassrw.h"


/* Whether x reads c[0x0][0x2c] (an LDC/ULDC as wide as its destination,
 * any other operand 4 bytes). */
static int reads_dyn_size(const orion_sass_insn *x) {
  if (!x->has_cbank || x->cbank != 0 || x->cbank_off > ORION_SASS_CB_DYN_SMEM_SIZE)
    return 0;
  int32_t bytes = 4;
  if (x->op == ORION_SASS_OP_LDC || x->op == ORION_SASS_OP_ULDC)
    for (unsigned i = 0; i < x->nregs; i++)
      if (x->regs[i].def)
        bytes = 4 * (int32_t)x->regs[i].width;
  return x->cbank_off + bytes > ORION_SASS_CB_DYN_SMEM_SIZE;
}

typedef struct fn_rec {
  orion_sassrw_func pub;
  char *name;
  orion_sassrw_slot *slots;
  size_t *callees;
  char reason[200];
  int own_unsafe;
} fn_rec;

struct orion_sassrw {
  size_t n;
  fn_rec *f;
};

static void unsafe(fn_rec *r, const char *fmt, uint64_t at, const char *what) {
  if (r->own_unsafe)
    return;
  r->own_unsafe = 1;
  char buf[160];
  snprintf(buf, sizeof buf, fmt, what);
  snprintf(r->reason, sizeof r->reason, "%s at +0x%" PRIx64, buf, at);
}

static int touches_r1(const orion_sass_reg *g) {
  return g->file == ORION_SASS_R && g->num != ORION_SASS_RZ && g->num <= ORION_SASS_SP &&
         g->num + g->width > ORION_SASS_SP;
}

static int is_r1(const orion_sass_reg *g) {
  return g->file == ORION_SASS_R && g->num == ORION_SASS_SP && g->width == 1;
}

/* IADD3 R1, R1, imm, RZ or VIADD R1, R1, imm, unguarded, no predicate
 * outputs used (IADD3's carry outputs must be PT). */
static int r1_move(const orion_sass_insn *x, int32_t *delta) {
  if (x->guard != ORION_SASS_PT || x->guard_neg || !x->has_imm)
    return 0;
  if (x->op != ORION_SASS_OP_IADD3 && x->op != ORION_SASS_OP_VIADD)
    return 0;
  int rd = 0, ra = 0;
  for (unsigned i = 0; i < x->nregs; i++) {
    const orion_sass_reg *g = &x->regs[i];
    if (g->file == ORION_SASS_R && g->field == 16 && g->def)
      rd = is_r1(g);
    else if (g->file == ORION_SASS_R && g->field == 24 && !g->def)
      ra = is_r1(g);
    else if (g->file == ORION_SASS_R && g->num != ORION_SASS_RZ)
      return 0; /* IADD3's third source must be RZ */
    else if (g->file == ORION_SASS_P && g->num != ORION_SASS_PT)
      return 0;
  }
  if (!rd || !ra)
    return 0;
  *delta = (int32_t)x->imm;
  return 1;
}

static int guarded(const orion_sass_insn *x) { return x->guard != ORION_SASS_PT || x->guard_neg; }

/* Whether x sets its destination to c[0x0][X] and nothing else,
 * unguarded: LDC without an index register, a MOV with every byte lane
 * (bits 72-75 all set), or an IMAD of RZ * RZ plus the constant (form 3:
 * c is the constant) with no carry in (!PT). */
static int const_load(const orion_sass_insn *x) {
  if (!x->has_cbank || x->cbank != 0 || guarded(x))
    return 0;
  if (x->op == ORION_SASS_OP_MOV && ((x->rest.hi >> 8) & 0xf) != 0xf)
    return 0;
  if (x->op == ORION_SASS_OP_IMAD ? x->form != 3 : x->op != ORION_SASS_OP_LDC && x->op != ORION_SASS_OP_MOV)
    return 0;
  for (unsigned i = 0; i < x->nregs; i++) {
    const orion_sass_reg *g = &x->regs[i];
    if (g->def)
      continue;
    if ((g->file == ORION_SASS_R && g->num != ORION_SASS_RZ) || (g->file == ORION_SASS_UR && g->num != ORION_SASS_URZ))
      return 0;
    if (g->file == ORION_SASS_P && !(g->num == ORION_SASS_PT && g->neg))
      return 0;
  }
  return 1;
}

static int add_slot(fn_rec *r, size_t *cap, int32_t off, unsigned bytes, int store) {
  for (size_t i = 0; i < r->pub.n_slots; i++)
    if (r->slots[i].off == off && r->slots[i].bytes == bytes) {
      r->slots[i].loads += !store;
      r->slots[i].stores += store;
      return 0;
    }
  if (r->pub.n_slots == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    orion_sassrw_slot *ns = realloc(r->slots, nc * sizeof *ns);
    if (!ns)
      return -1;
    r->slots = ns;
    *cap = nc;
  }
  r->slots[r->pub.n_slots++] = (orion_sassrw_slot){off, bytes, !store, (uint32_t)store};
  return 0;
}

static int slot_cmp(const void *a, const void *b) {
  const orion_sassrw_slot *x = a, *y = b;
  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

static int ends_block(const orion_sass_insn *x) {
  return x->cls == ORION_SASS_BRANCH || x->cls == ORION_SASS_EXIT || x->cls == ORION_SASS_RET;
}


/* The scan of one function's instructions by analyze_fn. */
typedef struct {
  const orion_cubin *c;
  orion_cubin_func f;
  size_t size, n;        /* bytes and instructions of code */
  unsigned char *leader; /* n + 1 entries: instruction i starts a block */
  int in_entry, seen_local;
  size_t slot_cap, callee_cap;
} fn_scan;

/* Block leaders from x's branch target and from its ending a block. */
static void scan_target(fn_rec *r, fn_scan *s, const orion_sass_insn *x, size_t i) {
  uint64_t at = i * 16;
  if (x->has_target) {
    int64_t t = (int64_t)at + 16 + x->target;
    if (x->cls == ORION_SASS_CALL || x->cls == ORION_SASS_RET) {
      /* calls are resolved below, against the section; RET.REL's field
       * is relative to the section start, not a branch */
    } else if (t < 0 || t > (int64_t)s->size || t % 16) {
      unsafe(r, "%s", at, "branch target outside the function");
    } else {
      s->leader[t / 16] = 1;
    }
  }
  if (ends_block(x) && i + 1 <= s->n)
    s->leader[i + 1] = 1;
}

/* A CALL: the callee resolved against the functions of the section and
 * added to r's callees once. */
static orion_status scan_call(fn_rec *r, fn_scan *s, const orion_sass_insn *x, uint64_t at) {
  orion_sassrw_func *p = &r->pub;
  p->n_calls++;
  s->in_entry = 0;
  size_t callee = (size_t)-1;
  if (x->has_target) {
    uint64_t abs = s->f.value + at + 16 + (uint64_t)x->target;
    for (size_t k = 0; k < orion_cubin_func_count(s->c); k++) {
      orion_cubin_func g;
      if (!orion_cubin_get_func(s->c, k, &g) && g.text == s->f.text && g.value == abs) {
        callee = k;
        break;
      }
    }
  }
  if (callee == (size_t)-1) {
    unsafe(r, "%s", at, "indirect or unresolved call");
    return ORION_OK;
  }
  size_t k = 0;
  while (k < p->n_callees && r->callees[k] != callee)
    k++;
  if (k < p->n_callees)
    return ORION_OK;
  if (p->n_callees == s->callee_cap) {
    size_t nc = s->callee_cap ? s->callee_cap * 2 : 4;
    size_t *ncs = realloc(r->callees, nc * sizeof *ncs);
    if (!ncs)
      return ORION_ERR_NOMEM;
    r->callees = ncs;
    s->callee_cap = nc;
  }
  r->callees[p->n_callees++] = callee;
  return ORION_OK;
}

/* Every other use of R1: its load at the entry, or what makes the function unsafe
 * (R1 written otherwise, or read but as a local access's base). */
static void scan_r1_uses(fn_rec *r, const fn_scan *s, const orion_sass_insn *x, uint64_t at, int is_local) {
  orion_sassrw_func *p = &r->pub;
  for (unsigned k = 0; k < x->nregs; k++) {
    const orion_sass_reg *g = &x->regs[k];
    if (!touches_r1(g))
      continue;
    if (g->def) {
      if (const_load(x) && is_r1(g) && p->r1_init_at < 0) {
        p->r1_init_cbank = x->cbank_off;
        p->r1_init_at = (int64_t)at;
        p->r1_init_op = (int)x->op;
        if (!s->in_entry || s->seen_local)
          unsafe(r, "%s", at, "R1 loaded after the entry block");
      } else {
        unsafe(r, "R1 written by %s", at, orion_sass_op_name(x->op));
      }
    } else if (!(is_local && k == x->mem_base_index && is_r1(g))) {
      unsafe(r, "R1 read by %s (the stack pointer escapes)", at, orion_sass_op_name(x->op));
    }
  }
}

/* An LDL/STL: its frame slot, width and alignment. */
static orion_status scan_local(fn_rec *r, fn_scan *s, const orion_sass_insn *x, uint64_t at) {
  orion_sassrw_func *p = &r->pub;
  p->n_local++;
  s->seen_local = 1;
  const orion_sass_reg *b = &x->regs[x->mem_base_index];
  int uniform_index = 0;
  for (unsigned k = 0; k < x->nregs; k++)
    if (x->regs[k].file == ORION_SASS_UR && x->regs[k].num != ORION_SASS_URZ)
      uniform_index = 1;
  if (!is_r1(b) || uniform_index) {
    unsafe(r, "%s with a base other than R1 (indexed local memory)", at, orion_sass_op_name(x->op));
    return ORION_OK;
  }
  unsigned bytes = x->mem_bytes;
  if (add_slot(r, &s->slot_cap, x->mem_off, bytes, x->op == ORION_SASS_OP_STL))
    return ORION_ERR_NOMEM;
  if (bytes < 4)
    p->subword = 1;
  if (bytes && x->mem_off % (int32_t)bytes)
    p->misaligned = 1;
  if (x->mem_off >= 0 && (uint32_t)x->mem_off + bytes > p->frame_bytes)
    p->frame_bytes = (uint32_t)x->mem_off + bytes;
  if (bytes > p->max_access)
    p->max_access = bytes;
  return ORION_OK;
}

/* One decoded instruction i: leaders, calls, shared accesses, R1 moves and
 * uses, local accesses. */
static orion_status scan_insn(fn_rec *r, fn_scan *s, const orion_sass_insn *x, size_t i) {
  orion_sassrw_func *p = &r->pub;
  uint64_t at = i * 16;
  orion_status st;
  if (s->leader[i] && i)
    s->in_entry = 0;
  scan_target(r, s, x, i);
  if (x->cls == ORION_SASS_CALL && (st = scan_call(r, s, x, at)) != ORION_OK)
    return st;
  unsigned sreg = x->op == ORION_SASS_OP_S2R || x->op == ORION_SASS_OP_S2UR ? (unsigned)((x->rest.hi >> 8) & 0xff)
                                                                            : ~0u;
  if (x->space == ORION_SASS_SPACE_SHARED || sreg == ORION_SASS_SR_CGACTAID)
    p->shared_access = 1;
  if (sreg == ORION_SASS_SR_SMEMSZ) /* a rewrite grows the block's shared memory */
    unsafe(r, "%s", at, "reads the block's shared memory size (SR_SMEMSZ)");
  if (reads_dyn_size(x))
    p->reads_dyn_size = 1;
  if (x->cls == ORION_SASS_LOAD && (x->space == ORION_SASS_SPACE_GLOBAL || x->space == ORION_SASS_SPACE_GENERIC))
    p->n_global_loads++;
  int32_t delta;
  int is_local = x->op == ORION_SASS_OP_LDL || x->op == ORION_SASS_OP_STL;
  if (r1_move(x, &delta)) {
    p->n_r1_moves++;
    if (s->in_entry && !s->seen_local)
      p->r1_entry_delta += delta;
    else
      p->r1_moves_outside_entry = 1;
    return ORION_OK;
  }
  scan_r1_uses(r, s, x, at, is_local);
  return is_local ? scan_local(r, s, x, at) : ORION_OK;
}

/* Blocks and edges of the decoded instructions. */
static void count_blocks(orion_sassrw_func *p, const orion_sass_insn *in, const unsigned char *leader,
                         const unsigned char *ok, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (leader[i])
      p->n_blocks++;
    if (!ok[i])
      continue;
    const orion_sass_insn *x = &in[i];
    int falls = !(ends_block(x) && !guarded(x));
    int to_next = falls && i + 1 < n && leader[i + 1];
    int jumps = x->cls == ORION_SASS_BRANCH && x->has_target;
    p->n_edges += (size_t)to_next + (size_t)jumps;
  }
}

/* Analyse function fi; text = its code, up to where another function's
 * code starts (a kernel's symbol spans the functions it calls, placed
 * after its own code: their instructions are theirs, not the kernel's). */
static orion_status analyze_fn(const orion_cubin *c, size_t fi, unsigned sm, fn_rec *r) {
  fn_scan s;
  memset(&s, 0, sizeof s);
  s.c = c;
  const unsigned char *text;
  if (orion_cubin_get_func(c, fi, &s.f) || orion_cubin_func_own_text(c, fi, &text, &s.size))
    return ORION_ERR_INTERNAL;
  if (!(r->name = strdup(s.f.name)))
    return ORION_ERR_NOMEM;
  orion_sassrw_func *p = &r->pub;
  p->func = fi;
  p->name = r->name;
  p->is_kernel = s.f.is_kernel;
  p->size = s.size;
  p->r1_init_cbank = -1;
  p->r1_init_at = -1;
  p->r1_init_op = -1;
  size_t n = s.n = s.size / 16;
  p->n_insns = n;
  if (s.size % 16)
    unsafe(r, "%s", s.size, "code size not a multiple of 16");
  orion_sass_insn *in = calloc(n ? n : 1, sizeof *in);
  unsigned char *ok = calloc(n ? n : 1, 1);
  s.leader = calloc(n + 1, 1);
  orion_status st = ORION_OK;
  if (!in || !s.leader || !ok) {
    st = ORION_ERR_NOMEM;
    goto out;
  }
  if (n)
    s.leader[0] = 1;
  s.in_entry = 1;
  for (size_t i = 0; i < n && st == ORION_OK; i++) {
    if (orion_sass_decode_arch(orion_sass_word_load(text + i * 16), sm, &in[i]) != ORION_OK) {
      unsafe(r, "%s", i * 16, "unknown instruction");
      s.in_entry = 0;
      continue;
    }
    ok[i] = 1;
    st = scan_insn(r, &s, &in[i], i);
  }
  if (st != ORION_OK)
    goto out;
  count_blocks(p, in, s.leader, ok, n);
  if (p->n_slots)
    qsort(r->slots, p->n_slots, sizeof *r->slots, slot_cmp);
  p->slots = r->slots;
  p->callees = r->callees;
out:
  free(in);
  free(s.leader);
  free(ok);
  return st;
}

/* Depth-first search for cycles from function v: state 0 new, 1 on the
 * stack, 2 done. */
static void find_recursion(orion_sassrw *a, size_t v, unsigned char *state) {
  state[v] = 1;
  fn_rec *r = &a->f[v];
  for (size_t k = 0; k < r->pub.n_callees; k++) {
    size_t w = r->callees[k];
    if (w >= a->n)
      continue;
    if (state[w] == 1) {
      if (!a->f[w].own_unsafe)
        unsafe(&a->f[w], "%s", 0, "recursion (a cycle of the call graph)");
    } else if (state[w] == 0) {
      find_recursion(a, w, state);
    }
  }
  state[v] = 2;
}

orion_status orion_sassrw_analyze(const orion_cubin *c, orion_sassrw **out) {
  if (!c || !out)
    return ORION_ERR_INVALID_ARG;
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  if (!orion_sass_arch_supported(h.sm))
    return ORION_ERR_UNSUPPORTED_ARCH;
  orion_sassrw *a = calloc(1, sizeof *a);
  if (!a)
    return ORION_ERR_NOMEM;
  a->n = orion_cubin_func_count(c);
  a->f = calloc(a->n ? a->n : 1, sizeof *a->f);
  unsigned char *state = calloc(a->n ? a->n : 1, 1);
  orion_status st = (a->f && state) ? ORION_OK : ORION_ERR_NOMEM;
  for (size_t i = 0; st == ORION_OK && i < a->n; i++)
    st = analyze_fn(c, i, h.sm, &a->f[i]);
  if (st == ORION_OK) {
    for (size_t i = 0; i < a->n; i++)
      if (!state[i])
        find_recursion(a, i, state);
    for (size_t i = 0; i < a->n; i++)
      a->f[i].pub.safe = !a->f[i].own_unsafe;
    /* unsafety flows from callees to callers, to a fixed point */
    for (int changed = 1; changed;) {
      changed = 0;
      for (size_t i = 0; i < a->n; i++) {
        fn_rec *r = &a->f[i];
        for (size_t k = 0; r->pub.safe && k < r->pub.n_callees; k++) {
          const fn_rec *q = &a->f[r->callees[k]];
          if (!q->pub.safe) {
            r->pub.safe = 0;
            snprintf(r->reason, sizeof r->reason, "calls %.80s, which is unsafe", q->name);
            changed = 1;
          }
        }
      }
    }
    for (size_t i = 0; i < a->n; i++)
      a->f[i].pub.reason = a->f[i].reason;
  }
  free(state);
  if (st != ORION_OK) {
    orion_sassrw_free(a);
    return st;
  }
  *out = a;
  return ORION_OK;
}

void orion_sassrw_free(orion_sassrw *a) {
  if (!a)
    return;
  for (size_t i = 0; a->f && i < a->n; i++) {
    free(a->f[i].name);
    free(a->f[i].slots);
    free(a->f[i].callees);
  }
  free(a->f);
  free(a);
}

size_t orion_sassrw_count(const orion_sassrw *a) { return a ? a->n : 0; }

const orion_sassrw_func *orion_sassrw_get(const orion_sassrw *a, size_t i) {
  return a && i < a->n ? &a->f[i].pub : NULL;
}
