/* maxlive.c - max-live in 32-bit register units on NVPTX IR (paper 3.3).
 *
 * Max-live is "the number of registers necessary to hold all simultaneously
 * live variables".  On SSA form:
 *
 *   1. Tracked values: instructions with a register-sized result, and the
 *      arguments of device functions.  Kernel arguments live in the
 *      parameter constant bank and are not counted; allocas name stack
 *      slots, not registers; i1 values go to predicate registers (width 0).
 *      Width = ceil(bits / 32): i64/f64/64-bit pointers count 2, vectors
 *      their total width.
 *   2. Liveness by the usual backward dataflow over blocks, with phi
 *      operands live out of the matching predecessor only:
 *        out(B) = U_{S in succ(B)} (in(S) \ phidefs(S)) U phiuses(S, B)
 *        in(B)  = ue(B) U (out(B) \ defs(B))
 *      iterated to a fixed point in post order.
 *   3. A backward scan of every block measures the pressure at each
 *      instruction as max(|live after U def|, |live before|), both weighted
 *      by width.  At a call to a defined function the pressure is the width
 *      of what is live across the call plus the callee's own max-live
 *      (computed recursively and memoised; a recursive edge adds 0, and the
 *      kernel is reported recursive by features.c).
 *
 * Requires: a well-formed module with a data layout.  Modifies nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "orion_pass.h"

/* ---- pointer -> int map (open addressing, power-of-two capacity) ------- */
typedef struct pmap {
  const void **key;
  int *val;
  size_t cap, n;
} pmap;

static size_t phash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz);
  if (!p)
    abort(); /* out of memory inside LLVM: nothing sensible to do */
  return p;
}

static void pmap_init(pmap *m, size_t expect) {
  m->cap = 16;
  while (m->cap < expect * 2)
    m->cap *= 2;
  m->key = xcalloc(m->cap, sizeof *m->key);
  m->val = xcalloc(m->cap, sizeof *m->val);
  m->n = 0;
}

static void pmap_free(pmap *m) {
  free(m->key);
  free(m->val);
}

static void pmap_put(pmap *m, const void *k, int v);

static void pmap_grow(pmap *m) {
  pmap old = *m;
  m->cap *= 2;
  m->key = xcalloc(m->cap, sizeof *m->key);
  m->val = xcalloc(m->cap, sizeof *m->val);
  m->n = 0;
  for (size_t i = 0; i < old.cap; i++)
    if (old.key[i])
      pmap_put(m, old.key[i], old.val[i]);
  pmap_free(&old);
}

static void pmap_put(pmap *m, const void *k, int v) {
  if ((m->n + 1) * 2 > m->cap)
    pmap_grow(m);
  size_t i = phash(k) & (m->cap - 1);
  while (m->key[i] && m->key[i] != k)
    i = (i + 1) & (m->cap - 1);
  if (!m->key[i])
    m->n++;
  m->key[i] = k;
  m->val[i] = v;
}

static int pmap_get(const pmap *m, const void *k, int dflt) {
  size_t i = phash(k) & (m->cap - 1);
  while (m->key[i]) {
    if (m->key[i] == k)
      return m->val[i];
    i = (i + 1) & (m->cap - 1);
  }
  return dflt;
}

/* ---- bitsets ------------------------------------------------------------ */
typedef uint64_t word;
#define WBITS 64

static int bs_get(const word *b, int i) { return (int)((b[i / WBITS] >> (i % WBITS)) & 1u); }
static void bs_set(word *b, int i) { b[i / WBITS] |= (word)1 << (i % WBITS); }
static void bs_clr(word *b, int i) { b[i / WBITS] &= ~((word)1 << (i % WBITS)); }

/* ---- context ------------------------------------------------------------ */
struct orion_maxlive_ctx {
  LLVMModuleRef m;
  LLVMTargetDataRef td;
  pmap memo; /* function -> max-live; -1 while in progress */
};

orion_maxlive_ctx *orion_maxlive_new(LLVMModuleRef m) {
  orion_maxlive_ctx *c = xcalloc(1, sizeof *c);
  c->m = m;
  c->td = LLVMGetModuleDataLayout(m);
  pmap_init(&c->memo, 16);
  return c;
}

void orion_maxlive_free(orion_maxlive_ctx *ctx) {
  if (!ctx)
    return;
  pmap_free(&ctx->memo);
  free(ctx);
}

int orion_type_regs(LLVMTargetDataRef td, LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMVoidTypeKind:
  case LLVMLabelTypeKind:
  case LLVMMetadataTypeKind:
  case LLVMTokenTypeKind:
    return 0;
  case LLVMIntegerTypeKind:
    if (LLVMGetIntTypeWidth(t) == 1)
      return 0;
    break;
  case LLVMVectorTypeKind:
    if (LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(LLVMGetElementType(t)) == 1)
      return 0;
    break;
  case LLVMStructTypeKind: {
    int sum = 0;
    unsigned n = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < n; i++)
      sum += orion_type_regs(td, LLVMStructGetTypeAtIndex(t, i));
    return sum;
  }
  default:
    break;
  }
  if (!LLVMTypeIsSized(t))
    return 0;
  unsigned long long bits = LLVMSizeOfTypeInBits(td, t);
  return (int)((bits + 31) / 32);
}

typedef struct fn_state {
  int nvals, nblocks, words;
  pmap vid, bid;         /* value -> id, block -> index */
  int *width;            /* per value */
  LLVMBasicBlockRef *blocks;
  word *in, *out, *def, *ue; /* nblocks * words each */
} fn_state;

static word *row(word *base, int words, int i) { return base + (size_t)i * (size_t)words; }

static int is_tracked_inst(LLVMValueRef in) { return LLVMGetInstructionOpcode(in) != LLVMAlloca; }

static int value_id(const fn_state *s, LLVMValueRef v) {
  if (!v || !(LLVMIsAInstruction(v) || LLVMIsAArgument(v)))
    return -1;
  return pmap_get(&s->vid, v, -1);
}

static int weight(const fn_state *s, const word *set) {
  int w = 0;
  for (int i = 0; i < s->nvals; i++)
    if (bs_get(set, i))
      w += s->width[i];
  return w;
}

static int callee_maxlive(orion_maxlive_ctx *ctx, LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  if (LLVMIsAInlineAsm(c))
    return 0;
  LLVMValueRef f = LLVMIsAFunction(c);
  if (!f || LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f))
    return 0;
  return orion_maxlive(ctx, f);
}

/* Track value v (an argument or instruction) when it needs registers. */
static void track(orion_maxlive_ctx *ctx, fn_state *s, LLVMValueRef v) {
  int w = orion_type_regs(ctx->td, LLVMTypeOf(v));
  if (w > 0) {
    s->width[s->nvals] = w;
    pmap_put(&s->vid, v, s->nvals++);
  }
}

/* Phase 1: number the blocks of f and its tracked values (step 1 above);
 * allocates s's sets.  Requires s zeroed. */
static void number(orion_maxlive_ctx *ctx, LLVMValueRef f, fn_state *s) {
  s->nblocks = (int)LLVMCountBasicBlocks(f);
  s->blocks = xcalloc((size_t)s->nblocks, sizeof *s->blocks);
  LLVMGetBasicBlocks(f, s->blocks);
  pmap_init(&s->bid, (size_t)s->nblocks);
  int ninst = 0;
  for (int b = 0; b < s->nblocks; b++) {
    pmap_put(&s->bid, s->blocks[b], b);
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[b]); in; in = LLVMGetNextInstruction(in))
      ninst++;
  }
  int nparams = (int)LLVMCountParams(f);
  pmap_init(&s->vid, (size_t)(ninst + nparams));
  s->width = xcalloc((size_t)(ninst + nparams), sizeof *s->width);
  if (LLVMGetFunctionCallConv(f) != LLVMPTXKernelCallConv)
    for (int i = 0; i < nparams; i++)
      track(ctx, s, LLVMGetParam(f, (unsigned)i));
  for (int b = 0; b < s->nblocks; b++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[b]); in; in = LLVMGetNextInstruction(in))
      if (is_tracked_inst(in))
        track(ctx, s, in);
  s->words = (s->nvals + WBITS - 1) / WBITS;
  if (s->words == 0)
    s->words = 1;
  size_t cells = (size_t)s->nblocks * (size_t)s->words;
  s->in = xcalloc(cells, sizeof(word));
  s->out = xcalloc(cells, sizeof(word));
  s->def = xcalloc(cells, sizeof(word));
  s->ue = xcalloc(cells, sizeof(word));
}

static void fn_state_free(fn_state *s) {
  free(s->in);
  free(s->out);
  free(s->def);
  free(s->ue);
  free(s->width);
  free(s->blocks);
  pmap_free(&s->vid);
  pmap_free(&s->bid);
}

/* Local defs and upward-exposed uses of every block (phi uses belong to
 * edges). */
static void local_sets(fn_state *s) {
  for (int b = 0; b < s->nblocks; b++) {
    word *def = row(s->def, s->words, b), *ue = row(s->ue, s->words, b);
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[b]); in; in = LLVMGetNextInstruction(in)) {
      if (LLVMGetInstructionOpcode(in) != LLVMPHI) {
        int nops = LLVMGetNumOperands(in);
        for (int i = 0; i < nops; i++) {
          int id = value_id(s, LLVMGetOperand(in, i));
          if (id >= 0 && !bs_get(def, id))
            bs_set(ue, id);
        }
      }
      int id = value_id(s, in);
      if (id >= 0)
        bs_set(def, id);
    }
  }
}

/* out(b) from the current in-sets of b's successors, into tmp. */
static void block_out(const fn_state *s, int b, word *tmp) {
  memset(tmp, 0, (size_t)s->words * sizeof(word));
  LLVMValueRef term = LLVMGetBasicBlockTerminator(s->blocks[b]);
  unsigned nsucc = term ? LLVMGetNumSuccessors(term) : 0;
  for (unsigned k = 0; k < nsucc; k++) {
    LLVMBasicBlockRef sb = LLVMGetSuccessor(term, k);
    int si = pmap_get(&s->bid, sb, -1);
    if (si < 0)
      continue;
    const word *sin = row(s->in, s->words, si);
    for (int w = 0; w < s->words; w++)
      tmp[w] |= sin[w];
    for (LLVMValueRef phi = LLVMGetFirstInstruction(sb);
         phi && LLVMGetInstructionOpcode(phi) == LLVMPHI; phi = LLVMGetNextInstruction(phi)) {
      int pid = value_id(s, phi);
      if (pid >= 0)
        bs_clr(tmp, pid);
    }
  }
  /* Phi uses on edges out of b, added after the phi defs were removed
   * (a phi may use another phi of the same block). */
  for (unsigned k = 0; k < nsucc; k++) {
    LLVMBasicBlockRef sb = LLVMGetSuccessor(term, k);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(sb);
         phi && LLVMGetInstructionOpcode(phi) == LLVMPHI; phi = LLVMGetNextInstruction(phi)) {
      unsigned n = LLVMCountIncoming(phi);
      for (unsigned i = 0; i < n; i++)
        if (LLVMGetIncomingBlock(phi, i) == s->blocks[b]) {
          int id = value_id(s, LLVMGetIncomingValue(phi, i));
          if (id >= 0)
            bs_set(tmp, id);
        }
    }
  }
}

/* Phase 2: liveness (step 2 above) to a fixed point; blocks visited
 * last-to-first converge quickly.  tmp: scratch of s->words words. */
static void liveness(fn_state *s, word *tmp) {
  local_sets(s);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = s->nblocks - 1; b >= 0; b--) {
      block_out(s, b, tmp);
      word *out = row(s->out, s->words, b), *in = row(s->in, s->words, b);
      const word *def = row(s->def, s->words, b), *ue = row(s->ue, s->words, b);
      for (int w = 0; w < s->words; w++) {
        if (out[w] != tmp[w]) {
          out[w] = tmp[w];
          changed = 1;
        }
        word ni = ue[w] | (out[w] & ~def[w]);
        if (ni != in[w]) {
          in[w] = ni;
          changed = 1;
        }
      }
    }
  }
}

/* Phase 3: the maximum pressure (step 3 above), block by block, backwards.
 * live: scratch of s->words words. */
static int maximum(orion_maxlive_ctx *ctx, const fn_state *s, word *live) {
  int best = 0;
  for (int b = 0; b < s->nblocks; b++) {
    memcpy(live, row(s->out, s->words, b), (size_t)s->words * sizeof(word));
    int cur = weight(s, live);
    if (cur > best)
      best = cur;
    for (LLVMValueRef in = LLVMGetLastInstruction(s->blocks[b]); in; in = LLVMGetPreviousInstruction(in)) {
      int id = value_id(s, in);
      int at = cur;
      if (id >= 0 && !bs_get(live, id))
        at += s->width[id]; /* a dead def still needs a register */
      if (id >= 0 && bs_get(live, id)) {
        bs_clr(live, id);
        cur -= s->width[id];
      }
      if (LLVMGetInstructionOpcode(in) == LLVMCall) {
        int across = cur; /* live after the call, minus its result */
        int callee = callee_maxlive(ctx, in);
        if (across + callee > at)
          at = across + callee;
      }
      if (LLVMGetInstructionOpcode(in) != LLVMPHI) {
        int nops = LLVMGetNumOperands(in);
        for (int i = 0; i < nops; i++) {
          int u = value_id(s, LLVMGetOperand(in, i));
          if (u >= 0 && !bs_get(live, u)) {
            bs_set(live, u);
            cur += s->width[u];
          }
        }
      }
      if (cur > at)
        at = cur;
      if (at > best)
        best = at;
    }
  }
  return best;
}

static int compute(orion_maxlive_ctx *ctx, LLVMValueRef f) {
  fn_state s;
  memset(&s, 0, sizeof s);
  number(ctx, f, &s);
  word *scratch = xcalloc((size_t)s.words, sizeof(word));
  liveness(&s, scratch);
  int best = maximum(ctx, &s, scratch);
  free(scratch);
  fn_state_free(&s);
  return best;
}

int orion_maxlive(orion_maxlive_ctx *ctx, LLVMValueRef f) {
  if (!ctx || !f || LLVMIsDeclaration(f))
    return 0;
  int memo = pmap_get(&ctx->memo, f, -2);
  if (memo == -1)
    return 0; /* recursive edge */
  if (memo >= 0)
    return memo;
  pmap_put(&ctx->memo, f, -1);
  int v = compute(ctx, f);
  pmap_put(&ctx->memo, f, v);
  return v;
}
