/* orion_pass.c - OrionPass, device side: versions per kernel (paper 3.1-3.3).
 *
 * For every kernel (ptx_kernel calling convention, or the old
 * nvvm.annotations "kernel" form) of an NVPTX module:
 *   1. static features (features.c) and max-live (maxlive.c);
 *   2. block size from launch bounds ("nvvm.maxntid"/"nvvm.reqntid", or the
 *      old maxntid{x,y,z}/reqntid{x,y,z} annotations), target SM from
 *      "target-cpu", the user's register ceiling N (bounds.c: __maxnreg__,
 *      also in nvcc_compat.h's annotation form, made "nvvm.maxnreg" first;
 *      __launch_bounds__ with min blocks, -orion-maxrregcount);
 *   3. direction and versions (core/select.c, Fig. 8) for max-live, or
 *      N when the ceiling is lower (ptxas holds the original to N); versions
 *      capped above N are dropped (the original already is what they would
 *      be) and the report/remark name them;
 *   4. the unroll version, when unroll.c made the kernel's clone early and
 *      the unroller changed it (orion_unroll_adopt), and
 *      one clone `<kernel>__orion_<tag>` per register-capped version (the
 *      tag inside the kernel's own identifier when the name is mangled, so
 *      that it demangles: orion_clone_name, orion/demangle.h), with
 *      "nvvm.maxnreg"=<cap> and without "nvvm.minctasm" (the cap alone sets
 *      the occupancy; ptxas lets .minnctapersm override .maxnreg);
 *   5. split parameters (orion/rt.h), when asked for (-orion-split-clones,
 *      ORION_SPLIT_CLONES=1: the runtime splits launches only under
 *      ORION_SPLIT=1) and the kernel is split-safe and has more than one
 *      version: every clone gets ORION_SPLIT_PARAMS hidden (the unroll
 *      versions too, each checked on its own: one whose inlining differs
 *      from the kernel's so that it is not split-safe is dropped)
 *      i32 parameters after its own (off_x, off_y, off_z, nctaid_x,
 *      nctaid_y, nctaid_z); in the clone each read of %ctaid.d becomes
 *      (read + off_d) and each read of %nctaid.d the parameter nctaid_d, so
 *      a launch of part of the grid computes what the whole launch would.
 *      `<kernel>__orion_split` is one more such clone without a cap (all the
 *      original's attributes).  The record says hp=6, else hp=0 and the
 *      clones keep the original signature.  Split-safe (split_blocker):
 *      the kernel's body is the only place that reads %ctaid/%nctaid (not a
 *      called function: only the kernel is rewritten), nothing reads cluster
 *      registers or %gridid, no inline asm mentions ctaid, cluster, gridid
 *      or envreg, no indirect calls, no calls to external functions other
 *      than vprintf/malloc/free/__assertfail, no cluster launch attributes,
 *      and the parameters leave room for 24 more bytes;
 *   6. the decision record, one line of the module's record table
 *      `__orion_records_<hash of the source file name>` (orion/record.h):
 *      ONE externally visible constant string in addrspace(1) holding every
 *      kernel's record, sorted by kernel name, written after the last
 *      kernel, so that it reaches the cubin for the runtime and ptxas sees
 *      one extra global, not one per kernel;
 *   7. a JSON line in the report and an optimisation remark (with the
 *      kernel's demangled name).
 *
 * Requires: the module is optimised (the plugin runs at OptimizerLastEP) so
 * max-live reflects the code ptxas will see; an unoptimised kernel
 * (optnone: -O0) is reported and left alone, as is a kernel whose
 * target-cpu the occupancy model does not know, whose name is longer than a
 * record holds, or any kernel when the table's name is another symbol's (the
 * runtime would read that symbol): each with a remark and a report line
 * saying why.  Idempotent: kernels that are clones or already have a record
 * in the module's table are skipped; a later run's records join the table.  Invalidates: all analyses
 * when it adds clones (the caller returns PreservedAnalyses::none()).
 */
#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"
#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion/rt.h"
#include "orion_pass.h"

/* The architecture of f's target-cpu: 0 when it has none, -1 (why in buf)
 * when it names none that the occupancy model knows. */
static int target_sm(LLVMValueRef f, char *buf, size_t n) {
  const char *cpu = orion_str_attr(f, "target-cpu");
  int sm = 0;
  if (!cpu || !*cpu)
    return 0;
  if (orion_arch_from_name(cpu, &sm) == ORION_OK && orion_arch_get(sm))
    return sm;
  snprintf(buf, n, "target-cpu '%s' is not an architecture the occupancy model knows (%s)", cpu,
           orion_arch_supported_list());
  return -1;
}

/* The module's record table (orion/record.h): its name, the records of an
 * earlier run of the pass (kept, and their kernels skipped), the new ones. */
typedef struct rec_table {
  char name[ORION_RECORD_TABLE_NAME_MAX];
  const char *taken; /* why no table can be written (its name is taken), or NULL */
  const char *old;   /* the existing table's text, or NULL */
  size_t old_size;
  char **recs; /* new records (malloc'd) */
  size_t n, cap;
} rec_table;

/* requires m an NVPTX module.  Names t's table after the module's source
 * file and looks at what holds that name: nothing, a table this pass wrote
 * (a constant string of records), or another symbol (t->taken). */
static void table_open(LLVMModuleRef m, rec_table *t) {
  memset(t, 0, sizeof *t);
  size_t len = 0;
  const char *src = LLVMGetSourceFileName(m, &len);
  char *source = strndup(src ? src : "", len);
  orion_record_table_name(source ? source : "", t->name, sizeof t->name);
  free(source);
  LLVMValueRef g = LLVMGetNamedGlobal(m, t->name);
  LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
  size_t n = 0;
  const char *s = init && LLVMIsAConstantDataSequential(init) && LLVMIsConstantString(init)
                      ? LLVMGetAsString(init, &n)
                      : NULL;
  size_t k;
  if (s && LLVMIsGlobalConstant(g) && orion_record_table_next(s, n, 0, &k) == 0 && k >= 7 &&
      strncmp(s, "orion1;", 7) == 0) {
    t->old = s;
    t->old_size = n;
  } else if (g || LLVMGetNamedFunction(m, t->name) ||
             LLVMGetNamedGlobalAlias(m, t->name, strlen(t->name)) ||
             LLVMGetNamedGlobalIFunc(m, t->name, strlen(t->name))) {
    t->taken = "is taken by another symbol";
  }
}

/* requires t opened.  Writes the table (the old records and the new ones)
 * when there are new ones; frees them.  1 when the module changed. */
static int table_close(LLVMModuleRef m, rec_table *t) {
  int changed = 0;
  size_t n_old = 0, len;
  for (size_t p = 0; t->old && (p = orion_record_table_next(t->old, t->old_size, p, &len)) !=
                                   (size_t)-1; p += len + 1)
    n_old++;
  const char **all = t->n ? malloc((n_old + t->n) * sizeof *all) : NULL;
  if (all) {
    size_t i = 0;
    for (size_t p = 0; t->old && (p = orion_record_table_next(t->old, t->old_size, p, &len)) !=
                                     (size_t)-1; p += len + 1)
      all[i++] = strndup(t->old + p, len);
    for (size_t j = 0; j < t->n; j++)
      all[i++] = t->recs[j];
    char *text = orion_record_table_build(all, i);
    for (size_t j = 0; j < n_old; j++)
      free((char *)all[j]);
    if (text) {
      LLVMValueRef old = LLVMGetNamedGlobal(m, t->name);
      if (old)
        LLVMDeleteGlobal(old);
      LLVMContextRef ctx = LLVMGetModuleContext(m);
      LLVMValueRef str = LLVMConstStringInContext2(ctx, text, strlen(text), 0);
      LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(str), t->name, 1);
      LLVMSetInitializer(g, str);
      LLVMSetGlobalConstant(g, 1);
      LLVMSetLinkage(g, LLVMExternalLinkage);
      LLVMSetAlignment(g, 1);
      changed = 1;
    }
    free(text);
  }
  free(all);
  for (size_t j = 0; j < t->n; j++)
    free(t->recs[j]);
  free(t->recs);
  return changed;
}

static void table_add(rec_table *t, const char *text) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    char **r = realloc(t->recs, cap * sizeof *r);
    if (!r)
      return;
    t->recs = r, t->cap = cap;
  }
  char *c = strdup(text);
  if (c)
    t->recs[t->n++] = c;
}

/* Room left in a record's kernel name for a clone's infix and tag. */
#define NAME_ROOM (sizeof ORION_CLONE_INFIX + 4)

/* Whether kernel kname gets versions: 0 yes; 1 no, in silence (a clone, or
 * in the table of an earlier run); 2 no, why in buf (a name too long for a
 * record, the table's name taken by another symbol, which the runtime would
 * read instead). */
static int record_name(const rec_table *t, const char *kname, size_t klen, char *buf, size_t n) {
  size_t len;
  if (!kname || klen == 0 || strstr(kname, ORION_CLONE_INFIX) ||
      (t->old && orion_record_table_find(t->old, t->old_size, kname, &len)))
    return 1;
  if (klen + NAME_ROOM >= ORION_RECORD_KERNEL_MAX) {
    snprintf(buf, n, "its name has %zu characters, more than a decision record holds (%zu)", klen,
             ORION_RECORD_KERNEL_MAX - NAME_ROOM);
    return 2;
  }
  if (t->taken) {
    snprintf(buf, n, "the symbol %s, the name of the module's decision-record table, %s", t->name,
             t->taken);
    return 2;
  }
  return 0;
}

/* ---- split parameters ---------------------------------------------------- */

#define SREG "llvm.nvvm.read.ptx.sreg."
/* Kernel parameter space on sm_70+ (CUDA >= 12.1): 32764 bytes. */
#define PARAM_SPACE 32764

static const char *value_name(LLVMValueRef v) {
  size_t n;
  const char *s = LLVMGetValueName2(v, &n);
  return s ? s : "";
}

static int starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Does text[0..len) contain word? */
static int mem_has(const char *text, size_t len, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; text && w <= len && i <= len - w; i++)
    if (memcmp(text + i, word, w) == 0)
      return 1;
  return 0;
}

/* 0..2 for llvm.nvvm.read.ptx.sreg.<which>.{x,y,z}, else -1. */
static int sreg_dim(const char *name, const char *which) {
  size_t n = strlen(SREG), w = strlen(which);
  if (strncmp(name, SREG, n) != 0 || strncmp(name + n, which, w) != 0 || name[n + w] != '.')
    return -1;
  const char *d = name + n + w + 1;
  return d[0] >= 'x' && d[0] <= 'z' && !d[1] ? d[0] - 'x' : -1;
}

static int has_cluster_attr(LLVMValueRef f) {
  unsigned n = LLVMGetAttributeCountAtIndex(f, LLVMAttributeFunctionIndex);
  if (!n)
    return 0;
  LLVMAttributeRef *a = calloc(n, sizeof *a);
  if (!a)
    return 1;
  LLVMGetAttributesAtIndex(f, LLVMAttributeFunctionIndex, a);
  int found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    if (!LLVMIsStringAttribute(a[i]))
      continue;
    unsigned len;
    const char *k = LLVMGetStringAttributeKind(a[i], &len);
    found = len > 5 && memcmp(k, "nvvm.", 5) == 0 && mem_has(k, len, "cluster");
  }
  free(a);
  return found;
}

/* Bytes of kernel parameters (byval aggregates by their type), each at its
 * ABI alignment. */
static unsigned long long param_bytes(LLVMModuleRef m, LLVMValueRef k) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  unsigned long long off = 0;
  unsigned np = LLVMCountParams(k);
  for (unsigned i = 0; i < np; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(k, i));
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(k, i + 1, byval);
    if (bv)
      t = LLVMGetTypeAttributeValue(bv);
    if (!LLVMTypeIsSized(t))
      continue;
    unsigned long long al = LLVMABIAlignmentOfType(td, t);
    if (al)
      off = (off + al - 1) / al * al;
    off += LLVMABISizeOfType(td, t);
  }
  return off;
}

typedef struct fnlist {
  LLVMValueRef *v;
  size_t n, cap;
} fnlist;

static int fnlist_add(fnlist *l, LLVMValueRef f) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i] == f)
      return 0;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    LLVMValueRef *nv = realloc(l->v, cap * sizeof *nv);
    if (!nv)
      return -1;
    l->v = nv;
    l->cap = cap;
  }
  l->v[l->n++] = f;
  return 1;
}

/* Why kernel k cannot take the split parameters (into buf), or NULL. */
static const char *split_blocker(LLVMModuleRef m, LLVMValueRef k, char *buf, size_t n) {
  static const char *const external_ok[] = {"vprintf", "malloc", "free", "__assertfail",
                                            "__assert_fail", NULL};
  static const char *const asm_words[] = {"ctaid", "cluster", "gridid", "envreg", NULL};
  if (has_cluster_attr(k))
    return "cluster launch attributes";
  if (param_bytes(m, k) + 4 * ORION_SPLIT_PARAMS > PARAM_SPACE)
    return "no room for the split parameters in the parameter space";
  fnlist fns = {0};
  const char *why = NULL;
  if (fnlist_add(&fns, k) < 0)
    return "out of memory";
  for (size_t fi = 0; fi < fns.n && !why; fi++) {
    LLVMValueRef f = fns.v[fi];
    const char *fname = value_name(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !why;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !why;
           in = LLVMGetNextInstruction(in)) {
        if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in) && !LLVMIsACallBrInst(in))
          continue;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (callee && LLVMIsAInlineAsm(callee)) {
          size_t len;
          const char *text = LLVMGetInlineAsmAsmString(callee, &len);
          for (int w = 0; asm_words[w] && !why; w++)
            if (mem_has(text, len, asm_words[w])) {
              snprintf(buf, n, "inline asm mentioning %s in %s", asm_words[w], fname);
              why = buf;
            }
          continue;
        }
        if (!callee || !LLVMIsAFunction(callee)) {
          snprintf(buf, n, "indirect call in %s", fname);
          why = buf;
          continue;
        }
        const char *cn = value_name(callee);
        if (starts_with(cn, "llvm.")) {
          if (sreg_dim(cn, "ctaid") >= 0 || sreg_dim(cn, "nctaid") >= 0) {
            if (f == k)
              continue; /* the kernel's own reads are rewritten */
            snprintf(buf, n, "reads %%%s in called function %s", cn + strlen(SREG), fname);
          } else if ((starts_with(cn, SREG) && (strstr(cn, "cluster") || strstr(cn, "gridid"))) ||
                     starts_with(cn, "llvm.nvvm.mapa") ||
                     starts_with(cn, "llvm.nvvm.barrier.cluster")) {
            snprintf(buf, n, "%s in %s", cn, fname);
          } else {
            continue;
          }
          why = buf;
          continue;
        }
        if (!LLVMIsDeclaration(callee)) {
          if (fnlist_add(&fns, callee) < 0)
            why = "out of memory";
          continue;
        }
        int ok = 0;
        for (int e = 0; external_ok[e] && !ok; e++)
          ok = strcmp(cn, external_ok[e]) == 0;
        if (!ok) {
          snprintf(buf, n, "calls external function %s", cn);
          why = buf;
        }
      }
  }
  free(fns.v);
  return why;
}

/* In clone c (first hidden parameter at index first): %ctaid.d -> read +
 * off_d, %nctaid.d -> nctaid_d.  Names the hidden parameters. */
static void rewrite_split_sregs(LLVMValueRef c, unsigned first) {
  static const char *const pnames[ORION_SPLIT_PARAMS] = {
      "__orion_off_x",    "__orion_off_y",    "__orion_off_z",
      "__orion_nctaid_x", "__orion_nctaid_y", "__orion_nctaid_z"};
  for (unsigned i = 0; i < ORION_SPLIT_PARAMS; i++)
    LLVMSetValueName2(LLVMGetParam(c, first + i), pnames[i], strlen(pnames[i]));
  size_t n = 0, cap = 0;
  LLVMValueRef *reads = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
      if (!callee || !LLVMIsAFunction(callee))
        continue;
      const char *cn = value_name(callee);
      if (sreg_dim(cn, "ctaid") < 0 && sreg_dim(cn, "nctaid") < 0)
        continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 16;
        LLVMValueRef *nr = realloc(reads, cap * sizeof *nr);
        if (!nr)
          abort(); /* a half-rewritten clone would compute wrong results */
        reads = nr;
      }
      reads[n++] = in;
    }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(c)));
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef call = reads[i];
    const char *cn = value_name(LLVMGetCalledValue(call));
    int d = sreg_dim(cn, "ctaid");
    if (d >= 0) {
      LLVMValueRef off = LLVMGetParam(c, first + (unsigned)d);
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
      LLVMValueRef sum = LLVMBuildAdd(b, LLVMGetPoison(LLVMTypeOf(call)), off, "");
      LLVMReplaceAllUsesWith(call, sum);
      LLVMSetOperand(sum, 0, call);
      LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
      if (loc)
        LLVMInstructionSetDebugLoc(sum, loc);
    } else {
      d = sreg_dim(cn, "nctaid");
      LLVMReplaceAllUsesWith(call, LLVMGetParam(c, first + 3 + (unsigned)d));
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
  free(reads);
}

static void describe(char *buf, size_t n, const char *kernel, int ml, int sm,
                     const orion_selection *sel) {
  int off = snprintf(buf, n,
                     "kernel %s: max-live %d registers, threshold %d at %d "
                     "threads/block%s on sm_%d: direction %s; versions",
                     kernel, ml, sel->threshold, sel->block,
                     sel->block_known ? "" : " (assumed)", sm,
                     orion_direction_name(sel->direction));
  for (int i = 0; i < sel->n_versions && off > 0 && (size_t)off < n; i++) {
    const orion_version *v = &sel->versions[i];
    off += snprintf(buf + off, n - (size_t)off, "%s %s (%s, %d warps/SM%s)",
                    i ? "," : "", v->tag, orion_role_name(v->role), v->target_warps,
                    v->is_pad ? ", by padding" : "");
  }
}

/* f (np parameters) cloned as `name` with hp hidden split parameters
 * after its own (0: none), its %ctaid/%nctaid reads rewritten to them. */
static LLVMValueRef clone_split(LLVMValueRef f, const char *name, unsigned hp, unsigned np) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
  LLVMTypeRef hidden[ORION_SPLIT_PARAMS];
  for (unsigned j = 0; j < ORION_SPLIT_PARAMS; j++)
    hidden[j] = i32;
  LLVMValueRef c = orion_shim_clone_function(f, name, hidden, hp);
  if (hp)
    rewrite_split_sregs(c, np);
  return c;
}

/* With hp hidden parameters: unroll clone u (np parameters) replaced by a
 * copy of itself with them, named as u was.  Returns 1 if it did. */
static int split_unroll_clone(LLVMValueRef u, unsigned hp, unsigned np) {
  if (!hp || LLVMCountParams(u) != np)
    return 0;
  size_t n;
  const char *s = LLVMGetValueName2(u, &n);
  char cname[ORION_RECORD_KERNEL_MAX + 32];
  if (n >= sizeof cname)
    return 0;
  memcpy(cname, s, n + 1);
  LLVMSetValueName2(u, "", 0);
  clone_split(u, cname, hp, np);
  LLVMDeleteFunction(u);
  return 1;
}

/* Clone k once per register-capped version of rep->sel and, with hp hidden
 * parameters, once more as the split entry, and give the unroll versions
 * the hidden parameters too.  Returns 1 if it added or changed any. */
static int emit_clones(LLVMModuleRef m, LLVMValueRef k, const char *name, orion_kernel_report *rep,
                       unsigned hp, unsigned np) {
  int changed = 0;
  for (int i = 0; i <= rep->sel.n_versions; i++) {
    /* i < n_versions: the capped versions; i == n_versions: the split clone */
    const orion_version *v = i < rep->sel.n_versions ? &rep->sel.versions[i] : NULL;
    char cname[ORION_RECORD_KERNEL_MAX + 32];
    if (v && v->role == ORION_ROLE_UNROLL && orion_clone_name(name, v->tag, cname, sizeof cname)) {
      LLVMValueRef u = LLVMGetNamedFunction(m, cname);
      changed |= u && split_unroll_clone(u, hp, np);
      continue;
    }
    if (v ? v->is_pad || v->max_regs <= 0 : !hp)
      continue;
    if (!orion_clone_name(name, v ? v->tag : ORION_SPLIT_SUFFIX, cname, sizeof cname) ||
        LLVMGetNamedFunction(m, cname))
      continue;
    LLVMValueRef c = clone_split(k, cname, hp, np);
    if (v) {
      char cap[16];
      snprintf(cap, sizeof cap, "%d", v->max_regs);
      orion_set_str_attr(c, "nvvm.maxnreg", cap);
      orion_set_str_attr(c, "nvvm.minctasm", NULL);
      rep->n_clones++;
    }
    changed = 1;
  }
  return changed;
}

/* The "Versions" remark: the decision, the user's ceiling, the split. */
static void remark_versions(LLVMValueRef k, const char *name, const orion_kernel_report *rep,
                            const char *split_why) {
  char msg[1536], shown[512];
  orion_demangle(name, shown, sizeof shown);
  describe(msg, sizeof msg, shown, rep->max_live, rep->sm, &rep->sel);
  size_t ml = strlen(msg);
  if (rep->reg_limit && ml < sizeof msg)
    ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "; %s", rep->limit_note);
  if (ml < sizeof msg) {
    char split[ORION_RECORD_KERNEL_MAX + 32];
    if (rep->hidden_params && orion_clone_name(name, ORION_SPLIT_SUFFIX, split, sizeof split)) {
      orion_demangle_base(split, shown, sizeof shown);
      snprintf(msg + ml, sizeof msg - ml, "; split: %d hidden parameters, entry %s",
               rep->hidden_params, shown);
    }
    else if (!rep->hidden_params)
      snprintf(msg + ml, sizeof msg - ml, "; no split: %s", split_why);
  }
  orion_shim_remark(k, "Versions", msg, 0);
}

/* A kernel left alone: note, remark, report line. */
static void not_versioned(LLVMValueRef k, orion_kernel_report *rep, const char *report_path,
                          const char *why) {
  char msg[2048], shown[512];
  orion_demangle(rep->kernel, shown, sizeof shown);
  snprintf(msg, sizeof msg, "kernel %s: not versioned: %s", shown, why);
  rep->note = msg;
  orion_shim_remark(k, "NotVersioned", msg, 0);
  orion_report_write(report_path, rep);
}

static int process_kernel(LLVMModuleRef m, LLVMValueRef k, orion_maxlive_ctx *ml_ctx,
                          const orion_pass_options *opt, const char *module_name, rec_table *t) {
  size_t klen;
  const char *kname = LLVMGetValueName2(k, &klen);
  char why[512];
  int skip = record_name(t, kname, klen, why, sizeof why);
  if (skip == 1)
    return 0;
  char *name = strdup(kname); /* kname may move when clones are added */
  if (!name)
    return 0;

  orion_kernel_report rep;
  memset(&rep, 0, sizeof rep);
  rep.module = module_name;
  rep.kernel = name;
  orion_compute_features(m, k, &rep.features);
  rep.max_live = orion_maxlive(ml_ctx, k);
  rep.sm = opt->sm ? opt->sm : target_sm(k, why, sizeof why);
  if (!rep.sm) {
    rep.sm = 90;
    rep.note = "no target-cpu on the kernel: assumed sm_90";
  }
  if (skip || rep.sm < 0 || !orion_is_optimised(k)) {
    rep.sm = rep.sm < 0 ? 0 : rep.sm;
    not_versioned(k, &rep, opt->report_path, skip || !rep.sm ? why : ORION_O0_WHY);
    free(name);
    return 0;
  }
  /* The user's limit holds the original: the model sees at most that many
   * registers, and no version may exceed it. */
  char limit_why[96], limit_note[256];
  orion_reg_limits lim;
  orion_kernel_reg_limits(m, k, opt->maxrregcount, &lim);
  rep.reg_limit = orion_reg_ceiling(rep.sm, &lim, limit_why, sizeof limit_why);
  orion_select_input in = {rep.sm,
                           rep.reg_limit && rep.max_live > rep.reg_limit ? rep.reg_limit
                                                                         : rep.max_live,
                           opt->block ? opt->block : orion_launch_block(m, k),
                           (unsigned)rep.features.smem_static, opt->max_versions,
                           opt->cap_floor_pct};
  orion_status st = orion_select_versions(&in, &rep.sel);
  if (st != ORION_OK) {
    not_versioned(k, &rep, opt->report_path, orion_strerror(st));
    free(name);
    return 0;
  }
  if (rep.reg_limit) {
    orion_select_apply_ceiling(&rep.sel, rep.reg_limit, limit_why, rep.max_live, limit_note,
                               sizeof limit_note);
    rep.limit_note = limit_note;
  }
  /* Padding versions launch with more dynamic shared memory: a kernel
   * that reads its shared memory size would see another value. */
  char pad_note[256];
  if (rep.features.reads_smem_size && orion_select_drop_pads(&rep.sel)) {
    snprintf(pad_note, sizeof pad_note, "%s%sno padding versions: the kernel reads %%total_smem_size or "
             "%%dynamic_smem_size, which padding changes", rep.note ? rep.note : "", rep.note ? "; " : "");
    rep.note = pad_note;
  }
  /* Split parameters: only when asked for (the runtime splits launches
   * only under ORION_SPLIT=1, and the split clone is one more compile of
   * the kernel) and when there is a choice to make. */
  char split_buf[512];
  const char *blocked = opt->split ? split_blocker(m, k, split_buf, sizeof split_buf) : NULL;
  /* The unroll versions (unroll.c), each split-safe where the kernel is
   * (emit_clones gives them the split parameters). */
  orion_unroll_adopt(m, k, name, opt->versions_enabled && opt->max_versions != 1,
                     opt->split && !blocked ? split_blocker : NULL, ml_ctx, &rep);
  const char *split_why =
      !opt->split             ? "split clones off (ORION_SPLIT_CLONES=1 or orion-cc --orion-split)"
      : rep.sel.n_versions > 1 ? blocked
                               : "one version: nothing to split for";
  rep.hidden_params = split_why ? 0 : ORION_SPLIT_PARAMS;
  rep.split_note = split_why;
  unsigned hp = (unsigned)rep.hidden_params, np = LLVMCountParams(k);

  orion_record rec;
  memset(&rec, 0, sizeof rec);
  snprintf(rec.kernel, sizeof rec.kernel, "%s", name);
  rec.sm = rep.sm;
  rec.max_live = rep.max_live;
  rec.n_params = (int)np;
  rec.hidden_params = rep.hidden_params;
  rec.sel = rep.sel;
  char text[1024];
  if (orion_record_format(&rec, text, sizeof text) == ORION_OK)
    rep.record = text;

  int changed = 0;
  if (opt->versions_enabled) {
    changed = emit_clones(m, k, name, &rep, hp, np);
    if (rep.record)
      table_add(t, rep.record);
  }
  remark_versions(k, name, &rep, split_why);
  orion_report_write(opt->report_path, &rep);
  free(name);
  return changed;
}

int orion_run_device_module(LLVMModuleRef m, const orion_pass_options *opt) {
  size_t n = 0;
  LLVMValueRef *kernels = orion_module_kernels(m, &n); /* before clones join the list */
  if (!kernels)
    return 0;
  size_t kept = 0; /* not the unroll clones: their kernels adopt or delete them */
  for (size_t i = 0; i < n; i++)
    if (!orion_unroll_pending(kernels[i]))
      kernels[kept++] = kernels[i];
  n = kept;
  size_t idlen;
  const char *mid = LLVMGetModuleIdentifier(m, &idlen);
  orion_maxlive_ctx *ctx = orion_maxlive_new(m);
  int changed = orion_maxnreg_annotations(m) > 0;
  rec_table t;
  table_open(m, &t);
  for (size_t i = 0; i < n; i++)
    changed |= process_kernel(m, kernels[i], ctx, opt, mid ? mid : "", &t);
  changed |= table_close(m, &t);
  changed |= orion_unroll_sweep(m) > 0;
  orion_maxlive_free(ctx);
  free(kernels);
  return changed;
}
