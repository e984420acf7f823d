/* host.c - OrionPass, host side: kernel launches go through the runtime.
 *
 * In an x86-64 host module (clang's CUDA host compilation) every direct
 * call or invoke of cudaLaunchKernel or cudaLaunchKernel_ptsz with clang's
 * lowering of the C signature,
 *   i32 (ptr func, i64 gridXY, i32 gridZ, i64 blockXY, i32 blockZ,
 *        ptr args, i64 shmem, ptr stream),
 * becomes a call of the runtime's drop-in (orion/rt.h; on x86-64 the same
 * ABI plus one trailing pointer)
 *   i32 @__orion_launch_kernel(<the same 8 operands>, ptr site)
 * keeping the call's attributes, calling convention, tail kind and debug
 * location.  A site is a private constant orion_site, one per launch in the
 * source:
 *   { i32 ORION_SITE_ABI, i32 flags, ptr @__cuda_fatbin_wrapper (null if the
 *     module has none), ptr where, ptr records }
 * where "where" is "file:line" of the launch's outermost inlined-at debug
 * location, else the enclosing function's name (a private unnamed_addr
 * string) and "records" the name of the device side's record table of this
 * file (orion_record_table_name of the module's source file name; one
 * private string per module).  flags: ORION_SITE_PER_THREAD when the callee is the _ptsz
 * variant; ORION_SITE_IN_LOOP when the launch is in a natural loop
 * (LoopInfo); ORION_SITE_LOOP_UNKNOWN when that cannot be known.
 *
 * Loop facts must be taken before the optimiser unrolls small constant-trip
 * loops (three launches in a row would look like three single launches) and
 * also after it inlines (a launch in a helper called in a loop), so the work
 * is split in two phases:
 *
 *  EARLY (PipelineStart, before any optimisation).  A `<<<>>>` launch is a
 *  call of the kernel's device stub, the function whose body calls
 *  cudaLaunchKernel(@itself, ...) (its name contains "__device_stub__").  For
 *  each stub S with direct callers, S.orion is made: a clone of S with one
 *  more parameter, `ptr %orion.site`, whose launch calls are rewritten to pass
 *  it; each direct call S(args) becomes S.orion(args, @site) with that call's
 *  own site (IN_LOOP if the call is in a loop of its function).  The clone
 *  is internal, so the inliner later puts the launch, with its constant
 *  site, at the user's launch.  Launch calls outside stubs (a user calling
 *  cudaLaunchKernel) are rewritten in place with their own loop facts.
 *
 *  LATE (OptimizerLast).  Launch calls still left (in S itself, which only
 *  function pointers reach now; or code the early phase did not see, e.g.
 *  with opt -passes=orion on -O0 output) are rewritten: in a loop of their
 *  function -> IN_LOOP; in a stub, IN_LOOP if a direct call of the stub is
 *  in a loop, else LOOP_UNKNOWN if it has no direct callers or its address
 *  is used other than by __cudaRegisterFunction, as a launch call's kernel
 *  operand, as an argument of another CUDA runtime API declaration (cuda*:
 *  they take kernels by address and never call them; cudaLaunchHostFunc and
 *  cudaStreamAddCallback, which do call host functions, count as escapes),
 *  or by llvm.used.  Then every __orion_launch_kernel call whose site is
 *  one of ours and now sits in a loop (after inlining) gets IN_LOOP in that
 *  site (a site inlined in several places is in a loop if one copy is).
 *  Callers are looked at one level deep: a launch in a function that is not
 *  inlined but called in a loop is reported "not in a loop".
 *
 * Untouched: cudaLaunchCooperativeKernel, cudaLaunchKernelExC and every
 * other call; calls of cudaLaunchKernel through a pointer or with another
 * function type (those get a remark).  Idempotent: a rewritten module has no
 * launch calls left and sites only gain IN_LOOP.  A module without launches
 * is not changed.  Remarks (-Rpass=orion): one per source launch (early)
 * saying whether it is in a loop, one per launch rewritten late, one per
 * site found in a loop after inlining.  With versions_enabled == 0 only the
 * remarks are emitted.
 */
#include <llvm-c/Comdat.h>
#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/demangle.h"
#include "orion/record.h"
#include "orion/rt.h"
#include "orion_pass.h"

#define STUB_MARK "__device_stub__"
#define RT_LAUNCH "__orion_launch_kernel"
#define SITE_NAME "__orion_site"
#define CLONE_SUFFIX ".orion"

static const char *value_name(LLVMValueRef v) {
  size_t n;
  const char *s = LLVMGetValueName2(v, &n);
  return s ? s : "";
}

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int is_call(LLVMValueRef v) { return LLVMIsACallInst(v) || LLVMIsAInvokeInst(v); }

static LLVMValueRef parent_fn(LLVMValueRef inst) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
}

static int in_loop(LLVMValueRef inst) {
  return orion_shim_loop_depth(LLVMGetInstructionParent(inst)) > 0;
}

/* The function a call or invoke calls directly, else NULL. */
static LLVMValueRef direct_callee(LLVMValueRef inst) {
  if (!is_call(inst))
    return NULL;
  LLVMValueRef v = LLVMGetCalledValue(inst);
  return v && LLVMIsAFunction(v) ? v : NULL;
}

/* 1: cudaLaunchKernel, 2: cudaLaunchKernel_ptsz, 0: anything else. */
static int launch_kind(LLVMValueRef f) {
  if (!f)
    return 0;
  const char *n = value_name(f);
  if (strcmp(n, "cudaLaunchKernel") == 0)
    return 1;
  if (strcmp(n, "cudaLaunchKernel_ptsz") == 0)
    return 2;
  return 0;
}

/* A declaration that receives a kernel's address without calling it. */
static int takes_kernel_by_address(LLVMValueRef f) {
  if (!f || !LLVMIsDeclaration(f))
    return 0;
  const char *n = value_name(f);
  if (strcmp(n, "__cudaRegisterFunction") == 0 || strcmp(n, RT_LAUNCH) == 0)
    return 1;
  return has_prefix(n, "cuda") && !has_prefix(n, "cudaLaunchHostFunc") &&
         !has_prefix(n, "cudaStreamAddCallback");
}

/* Is use u the called operand of call/invoke user (its last operand)? */
static int is_callee_use(LLVMValueRef user, LLVMUseRef u) {
  int n = LLVMGetNumOperands(user);
  return n > 0 && LLVMGetOperandUse(user, (unsigned)(n - 1)) == u;
}

/* A constant (e.g. llvm.used's array) whose every user is llvm.used or
 * llvm.compiler.used. */
static int only_in_used_lists(LLVMValueRef c) {
  for (LLVMUseRef u = LLVMGetFirstUse(c); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGlobalVariable(g) || (strcmp(value_name(g), "llvm.used") != 0 &&
                                      strcmp(value_name(g), "llvm.compiler.used") != 0))
      return 0;
  }
  return 1;
}

/* ---- growable array of values ---- */

typedef struct vlist {
  LLVMValueRef *v;
  size_t n, cap;
  int oom;
} vlist;

static void vl_push(vlist *l, LLVMValueRef x) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    LLVMValueRef *nv = realloc(l->v, cap * sizeof *nv);
    if (!nv) {
      l->oom = 1;
      return;
    }
    l->v = nv;
    l->cap = cap;
  }
  l->v[l->n++] = x;
}

/* Direct calls of f (f as the called operand, with f's own type), in other
 * functions. */
static void direct_calls(LLVMValueRef f, vlist *out) {
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (is_call(user) && is_callee_use(user, u) && parent_fn(user) != f &&
        LLVMGetCalledFunctionType(user) == LLVMGlobalGetValueType(f))
      vl_push(out, user);
  }
}

/* Launch calls in function f. */
static void launch_calls_in(LLVMValueRef f, vlist *out) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      if (launch_kind(direct_callee(in)))
        vl_push(out, in);
}

/* A device stub: defined, and launches itself (clang's stub calls
 * cudaLaunchKernel(@stub, ...)) or is named like one. */
static int is_stub(LLVMValueRef f, const vlist *launches) {
  if (LLVMIsDeclaration(f) || !launches->n)
    return 0;
  if (strstr(value_name(f), STUB_MARK))
    return 1;
  for (size_t i = 0; i < launches->n; i++)
    if (LLVMGetOperand(launches->v[i], 0) == f)
      return 1;
  return 0;
}

typedef struct stub_facts {
  int callers;      /* direct calls of the stub */
  int in_loop;      /* one of them is in a loop */
  int escapes;      /* the address is used otherwise */
} stub_facts;

static void stub_scan(LLVMValueRef stub, stub_facts *sf) {
  memset(sf, 0, sizeof *sf);
  for (LLVMUseRef u = LLVMGetFirstUse(stub); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (is_call(user)) {
      if (is_callee_use(user, u)) {
        sf->callers++;
        sf->in_loop |= in_loop(user);
      } else if (!launch_kind(direct_callee(user)) &&
                 !takes_kernel_by_address(direct_callee(user))) {
        sf->escapes = 1;
      }
    } else if (!(LLVMIsAConstant(user) && !LLVMIsAGlobalValue(user) &&
                 only_in_used_lists(user))) {
      sf->escapes = 1;
    }
  }
}

/* The device name clang registered for stub (__cudaRegisterFunction's third
 * argument), else the stub's own name. */
static void kernel_name(LLVMValueRef stub, char *buf, size_t n) {
  if (!stub || !LLVMIsAFunction(stub)) {
    snprintf(buf, n, "%s", "a kernel through a pointer");
    return;
  }
  snprintf(buf, n, "%s", value_name(stub));
  for (LLVMUseRef u = LLVMGetFirstUse(stub); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    LLVMValueRef f = direct_callee(user);
    if (!f || strcmp(value_name(f), "__cudaRegisterFunction") != 0 ||
        LLVMGetNumArgOperands(user) < 3 || LLVMGetOperand(user, 1) != stub)
      continue;
    LLVMValueRef g = LLVMGetOperand(user, 2);
    LLVMValueRef init = LLVMIsAGlobalVariable(g) ? LLVMGetInitializer(g) : NULL;
    if (init && LLVMIsAConstantDataSequential(init) && LLVMIsConstantString(init)) {
      size_t len;
      const char *s = LLVMGetAsString(init, &len);
      snprintf(buf, n, "%.*s", (int)strnlen(s, len), s);
    }
    return;
  }
}

/* ---- rewriting ---- */

typedef struct host_ctx {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMTypeRef ptr, i32, i64;
  LLVMTypeRef launch_ty; /* cudaLaunchKernel as clang lowers it */
  LLVMTypeRef rt_ty;     /* __orion_launch_kernel */
  LLVMValueRef rt_fn;    /* its declaration, made on first use */
  LLVMValueRef fatbin;
  LLVMValueRef records;  /* the record table's name, made on first use */
  int apply;
  int usable;            /* rt_fn's name is free or has rt_ty */
} host_ctx;

static LLVMValueRef private_constant(host_ctx *h, LLVMValueRef init, const char *name,
                                     unsigned align, int unnamed) {
  LLVMValueRef g = LLVMAddGlobal(h->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, align);
  if (unnamed)
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

/* The string naming this file's record table (orion/record.h). */
static LLVMValueRef records_name(host_ctx *h) {
  if (!h->records) {
    size_t len = 0;
    const char *src = LLVMGetSourceFileName(h->m, &len);
    char *source = strndup(src ? src : "", len), name[ORION_RECORD_TABLE_NAME_MAX];
    orion_record_table_name(source ? source : "", name, sizeof name);
    free(source);
    LLVMValueRef init = LLVMConstStringInContext2(h->ctx, name, strlen(name), 0);
    LLVMValueRef g = LLVMGetNamedGlobal(h->m, "__orion_table_name"); /* the early phase's */
    h->records = g && LLVMGetInitializer(g) == init ? g
                                                    : private_constant(h, init, "__orion_table_name", 1, 1);
  }
  return h->records;
}

/* requires where_g a string constant or null (a type probe). */
static LLVMValueRef site_init(host_ctx *h, unsigned flags, LLVMValueRef where_g) {
  int probe = LLVMIsNull(where_g);
  LLVMValueRef fields[5] = {LLVMConstInt(h->i32, ORION_SITE_ABI, 0),
                            LLVMConstInt(h->i32, flags, 0),
                            h->fatbin ? h->fatbin : LLVMConstNull(h->ptr), where_g,
                            probe ? LLVMConstNull(h->ptr) : records_name(h)};
  return LLVMConstStructInContext(h->ctx, fields, 5, 0);
}

/* A new site constant.  Not unnamed_addr: its address identifies the site. */
static LLVMValueRef make_site(host_ctx *h, unsigned flags, const char *where) {
  LLVMValueRef where_g = private_constant(
      h, LLVMConstStringInContext2(h->ctx, where, strlen(where), 0), "__orion_where", 1, 1);
  return private_constant(h, site_init(h, flags, where_g), SITE_NAME, 8, 0);
}

/* If v is a site this pass made, its flags (else -1). */
static long site_flags_of(host_ctx *h, LLVMValueRef v) {
  if (!v || !LLVMIsAGlobalVariable(v) || !has_prefix(value_name(v), SITE_NAME) ||
      LLVMGetLinkage(v) != LLVMPrivateLinkage)
    return -1;
  LLVMValueRef init = LLVMGetInitializer(v);
  if (!init || LLVMTypeOf(init) != LLVMTypeOf(site_init(h, 0, LLVMConstNull(h->ptr))))
    return -1;
  LLVMValueRef abi = LLVMGetOperand(init, 0), fl = LLVMGetOperand(init, 1);
  if (!LLVMIsAConstantInt(abi) || LLVMConstIntGetZExtValue(abi) != ORION_SITE_ABI ||
      !LLVMIsAConstantInt(fl))
    return -1;
  return (long)LLVMConstIntGetZExtValue(fl);
}

static void site_where(LLVMValueRef call, char *buf, size_t n) {
  if (!orion_shim_site_location(call, buf, n))
    snprintf(buf, n, "%s", value_name(parent_fn(call)));
}

static void copy_call_attributes(LLVMValueRef from, LLVMValueRef to, unsigned nargs) {
  for (long idx = -1; idx <= (long)nargs; idx++) {
    LLVMAttributeIndex ai =
        idx < 0 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex : (LLVMAttributeIndex)idx;
    unsigned n = LLVMGetCallSiteAttributeCount(from, ai);
    if (!n)
      continue;
    LLVMAttributeRef *a = malloc(n * sizeof *a);
    if (!a)
      return;
    LLVMGetCallSiteAttributes(from, ai, a);
    for (unsigned i = 0; i < n; i++)
      LLVMAddCallSiteAttribute(to, ai, a[i]);
    free(a);
  }
}

/* Replace call/invoke old (nold arguments) by a call of fn (type ty) with
 * old's arguments plus `extra`; keeps name, attributes, calling
 * convention, tail kind, debug location and invoke destinations. */
static LLVMValueRef recall(host_ctx *h, LLVMValueRef old, unsigned nold, LLVMTypeRef ty,
                           LLVMValueRef fn, LLVMValueRef extra) {
  LLVMValueRef args[64];
  if (nold + 1 > sizeof args / sizeof *args)
    return NULL;
  for (unsigned i = 0; i < nold; i++)
    args[i] = LLVMGetOperand(old, i);
  args[nold] = extra;
  size_t nlen;
  const char *oname = LLVMGetValueName2(old, &nlen);
  char *name = strndup(oname ? oname : "", nlen);
  if (!name)
    return NULL;
  LLVMSetValueName2(old, "", 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(h->ctx);
  LLVMPositionBuilderBefore(b, old);
  LLVMValueRef nc;
  if (LLVMIsAInvokeInst(old)) {
    nc = LLVMBuildInvoke2(b, ty, fn, args, nold + 1, LLVMGetNormalDest(old),
                          LLVMGetUnwindDest(old), name);
  } else {
    nc = LLVMBuildCall2(b, ty, fn, args, nold + 1, name);
    LLVMSetTailCallKind(nc, LLVMGetTailCallKind(old));
  }
  LLVMDisposeBuilder(b);
  free(name);
  LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(old));
  copy_call_attributes(old, nc, nold);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(old);
  if (loc)
    LLVMInstructionSetDebugLoc(nc, loc);
  LLVMReplaceAllUsesWith(old, nc);
  LLVMInstructionEraseFromParent(old);
  return nc;
}

/* Can this launch call be rewritten?  If not, say why when asked (the
 * early phase asks; the late one would repeat it). */
static int hookable(host_ctx *h, LLVMValueRef call, const char *kname, const char *where,
                    int remark) {
  if (LLVMGetCalledFunctionType(call) == h->launch_ty && h->usable)
    return 1;
  if (!remark)
    return 0;
  char msg[1536], shown[512];
  orion_demangle(kname, shown, sizeof shown);
  if (!h->usable)
    snprintf(msg, sizeof msg, "launch of %s at %s: left alone: %s is declared with another "
                              "type in this module", shown, where, RT_LAUNCH);
  else
    snprintf(msg, sizeof msg, "launch of %s at %s: left alone: %s called with an unexpected "
                              "type", shown, where, value_name(direct_callee(call)));
  orion_shim_remark_at(call, "LaunchNotHooked", msg);
  return 0;
}

static LLVMValueRef rt_fn(host_ctx *h) {
  if (!h->rt_fn)
    h->rt_fn = LLVMAddFunction(h->m, RT_LAUNCH, h->rt_ty);
  return h->rt_fn;
}

/* Rewrite launch call to pass site (a constant or the clone's parameter). */
static void hook_launch(host_ctx *h, LLVMValueRef call, LLVMValueRef site) {
  recall(h, call, 8, h->rt_ty, rt_fn(h), site);
}

static void remark_site(LLVMValueRef at, const char *kname, const char *where, const char *why,
                        int kind) {
  char msg[2048], shown[512];
  orion_demangle(kname, shown, sizeof shown);
  snprintf(msg, sizeof msg, "launch of %s at %s: %s%s", shown, where, why,
           kind == 2 ? "; per-thread default stream" : "");
  orion_shim_remark_at(at, "LaunchHooked", msg);
}

/* EARLY, stubs: S(args) -> S.orion(args, @site) per direct call. */
static int specialise_stub(host_ctx *h, LLVMValueRef stub, const vlist *launches) {
  vlist calls = {0};
  direct_calls(stub, &calls);
  int changed = 0, kind = launch_kind(direct_callee(launches->v[0]));
  char kname[512], where[1024];
  kernel_name(stub, kname, sizeof kname);
  int ok = !calls.oom;
  for (size_t i = 0; i < launches->n && ok; i++) {
    site_where(launches->v[i], where, sizeof where);
    ok = hookable(h, launches->v[i], kname, where, 1);
  }
  if (!ok || !calls.n) {
    free(calls.v);
    return 0;
  }
  LLVMValueRef clone = NULL;
  LLVMTypeRef clone_ty = NULL;
  unsigned nparams = LLVMCountParams(stub);
  if (h->apply) {
    char *name = malloc(strlen(value_name(stub)) + sizeof CLONE_SUFFIX);
    if (!name) {
      free(calls.v);
      return 0;
    }
    sprintf(name, "%s%s", value_name(stub), CLONE_SUFFIX);
    clone = orion_shim_clone_function(stub, name, &h->ptr, 1);
    free(name);
    LLVMSetLinkage(clone, LLVMInternalLinkage);
    LLVMSetVisibility(clone, LLVMDefaultVisibility);
    LLVMSetDLLStorageClass(clone, LLVMDefaultStorageClass);
    LLVMSetComdat(clone, NULL);
    LLVMValueRef param = LLVMGetParam(clone, nparams);
    LLVMSetValueName2(param, "orion.site", 10);
    clone_ty = LLVMGlobalGetValueType(clone);
    vlist inner = {0};
    launch_calls_in(clone, &inner);
    for (size_t i = 0; i < inner.n; i++)
      hook_launch(h, inner.v[i], param);
    free(inner.v);
    changed = 1;
  }
  for (size_t i = 0; i < calls.n; i++) {
    LLVMValueRef c = calls.v[i];
    int loop = in_loop(c);
    unsigned flags = (kind == 2 ? ORION_SITE_PER_THREAD : 0) | (loop ? ORION_SITE_IN_LOOP : 0);
    site_where(c, where, sizeof where);
    remark_site(c, kname, where, loop ? "in a loop" : "not in a loop", kind);
    if (h->apply)
      recall(h, c, nparams, clone_ty, clone, make_site(h, flags, where));
  }
  free(calls.v);
  return changed;
}

static int early(host_ctx *h) {
  int changed = 0;
  vlist fns = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f))
    vl_push(&fns, f);
  for (size_t fi = 0; fi < fns.n && !fns.oom; fi++) {
    vlist launches = {0};
    launch_calls_in(fns.v[fi], &launches);
    if (launches.oom || !launches.n) {
      free(launches.v);
      continue;
    }
    if (is_stub(fns.v[fi], &launches)) {
      changed |= specialise_stub(h, fns.v[fi], &launches);
    } else {
      /* the user's own cudaLaunchKernel calls */
      char kname[512], where[1024];
      for (size_t i = 0; i < launches.n; i++) {
        LLVMValueRef c = launches.v[i];
        int kind = launch_kind(direct_callee(c)), loop = in_loop(c);
        kernel_name(LLVMGetOperand(c, 0), kname, sizeof kname);
        site_where(c, where, sizeof where);
        if (!hookable(h, c, kname, where, 1))
          continue;
        remark_site(c, kname, where, loop ? "in a loop" : "not in a loop", kind);
        if (h->apply) {
          unsigned flags =
              (kind == 2 ? ORION_SITE_PER_THREAD : 0) | (loop ? ORION_SITE_IN_LOOP : 0);
          hook_launch(h, c, make_site(h, flags, where));
          changed = 1;
        }
      }
    }
    free(launches.v);
  }
  free(fns.v);
  return changed;
}

/* LATE, one launch call left: loop facts where it stands. */
static int late_launch(host_ctx *h, LLVMValueRef call) {
  char kname[512], where[1024];
  int kind = launch_kind(direct_callee(call));
  LLVMValueRef fn = parent_fn(call);
  kernel_name(LLVMGetOperand(call, 0), kname, sizeof kname);
  site_where(call, where, sizeof where);
  if (!hookable(h, call, kname, where, 0))
    return 0;
  unsigned flags = kind == 2 ? ORION_SITE_PER_THREAD : 0;
  const char *why = "not in a loop";
  vlist self = {0};
  vl_push(&self, call);
  if (in_loop(call)) {
    flags |= ORION_SITE_IN_LOOP;
    why = "in a loop";
  } else if (is_stub(fn, &self)) {
    stub_facts sf;
    stub_scan(fn, &sf);
    if (sf.in_loop) {
      flags |= ORION_SITE_IN_LOOP;
      why = "in a loop (a call of its device stub is)";
    } else if (sf.escapes || sf.callers == 0) {
      flags |= ORION_SITE_LOOP_UNKNOWN;
      why = sf.escapes ? "in the device stub, whose address escapes: loop unknown, treated as "
                         "in a loop"
                       : "in the device stub, reached only through its address: loop "
                         "unknown, treated as in a loop";
    } else {
      why = "not in a loop (nor is any call of its device stub)";
    }
  }
  free(self.v);
  remark_site(call, kname, where, why, kind);
  if (!h->apply)
    return 0;
  hook_launch(h, call, make_site(h, flags, where));
  return 1;
}

/* LATE: sites whose launch is in a loop after inlining. */
static int refine_sites(host_ctx *h) {
  if (!h->rt_fn)
    return 0;
  int changed = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(h->rt_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!is_call(call) || !is_callee_use(call, u) || LLVMGetNumArgOperands(call) != 9)
      continue;
    LLVMValueRef site = LLVMGetOperand(call, 8);
    long flags = site_flags_of(h, site);
    if (flags < 0 || (flags & (ORION_SITE_IN_LOOP | ORION_SITE_LOOP_UNKNOWN)) || !in_loop(call))
      continue;
    LLVMValueRef init = LLVMGetInitializer(site);
    LLVMValueRef where_g = LLVMGetOperand(init, 3);
    char kname[512], where[1024];
    kernel_name(LLVMGetOperand(call, 0), kname, sizeof kname);
    size_t wl = 0;
    const char *w = LLVMIsAGlobalVariable(where_g) && LLVMGetInitializer(where_g)
                        ? LLVMGetAsString(LLVMGetInitializer(where_g), &wl)
                        : "";
    snprintf(where, sizeof where, "%.*s", (int)strnlen(w, wl), w);
    remark_site(call, kname, where, "in a loop after inlining", 0);
    LLVMSetInitializer(site, site_init(h, (unsigned)flags | ORION_SITE_IN_LOOP, where_g));
    changed = 1;
  }
  return changed;
}

static int late(host_ctx *h) {
  vlist calls = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f))
    launch_calls_in(f, &calls);
  int changed = 0;
  for (size_t i = 0; i < calls.n && !calls.oom; i++)
    changed |= late_launch(h, calls.v[i]);
  free(calls.v);
  if (h->apply)
    changed |= refine_sites(h);
  /* In a hooked module, drop the launch declarations nothing uses any more. */
  for (int k = 0; k < 2 && h->apply && h->rt_fn; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(h->m, k ? "cudaLaunchKernel_ptsz" : "cudaLaunchKernel");
    if (f && LLVMIsDeclaration(f) && !LLVMGetFirstUse(f)) {
      LLVMDeleteFunction(f);
      changed = 1;
    }
  }
  return changed;
}

int orion_run_host_module(LLVMModuleRef m, const orion_pass_options *opt, int phases) {
  host_ctx h;
  memset(&h, 0, sizeof h);
  h.m = m;
  h.ctx = LLVMGetModuleContext(m);
  h.ptr = LLVMPointerTypeInContext(h.ctx, 0);
  h.i32 = LLVMInt32TypeInContext(h.ctx);
  h.i64 = LLVMInt64TypeInContext(h.ctx);
  LLVMTypeRef params[9] = {h.ptr, h.i64, h.i32, h.i64, h.i32, h.ptr, h.i64, h.ptr, h.ptr};
  h.launch_ty = LLVMFunctionType(h.i32, params, 8, 0);
  h.rt_ty = LLVMFunctionType(h.i32, params, 9, 0);
  h.fatbin = LLVMGetNamedGlobal(m, "__cuda_fatbin_wrapper");
  h.apply = opt->versions_enabled;
  h.rt_fn = LLVMGetNamedFunction(m, RT_LAUNCH);
  h.usable = !h.rt_fn || LLVMGlobalGetValueType(h.rt_fn) == h.rt_ty;
  if (!h.usable)
    h.rt_fn = NULL;
  int changed = 0;
  if (phases & ORION_HOST_EARLY)
    changed |= early(&h);
  if (phases & ORION_HOST_LATE)
    changed |= late(&h);
  return changed;
}
