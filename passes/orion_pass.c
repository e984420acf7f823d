/* orion_pass.c - OrionPass, device side: versions per kernel (paper 3.1-3.3).
 *
 * For every kernel (ptx_kernel calling convention, or the old
 * nvvm.annotations "kernel" form) of an NVPTX module:
 *   1. static features (features.c) and max-live (maxlive.c);
 *   2. block size from launch bounds ("nvvm.maxntid"/"nvvm.reqntid", or the
 *      old maxntid{x,y,z}/reqntid{x,y,z} annotations), target SM from
 *      "target-cpu";
 *   3. direction and versions (orion-ra select.c, Fig. 8);
 *   4. one clone `<kernel>__orion_<tag>` per register-capped version, with
 *      "nvvm.maxnreg"=<cap> and without "nvvm.minctasm" (the cap alone sets
 *      the occupancy; ptxas lets .minnctapersm override .maxnreg);
 *   5. the decision record `__orion_rec_<kernel>` (orion/record.h), an
 *      externally visible constant string in addrspace(1), so it reaches the
 *      cubin for the runtime;
 *   6. a JSON line in the report and an optimisation remark.
 *
 * Requires: the module is optimised (the plugin runs at OptimizerLastEP) so
 * max-live reflects the code ptxas will see.  Idempotent: kernels that are
 * clones or already have a record are skipped.  Invalidates: all analyses
 * when it adds clones (the caller returns PreservedAnalyses::none()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/occupancy.h"
#include "orion/record.h"
#include "orion_pass.h"

static const char *str_attr(LLVMValueRef f, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                                     key, (unsigned)strlen(key));
  if (!a)
    return NULL;
  unsigned len;
  return LLVMGetStringAttributeValue(a, &len);
}

/* "256" or "128,2,1" -> product; 0 if absent or malformed. */
static int ntid_product(const char *s) {
  if (!s)
    return 0;
  long prod = 1;
  while (*s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0)
      return 0;
    prod *= v;
    if (prod > 1024 * 1024)
      return 0;
    s = end;
    if (*s == ',')
      s++;
    else if (*s)
      return 0;
  }
  return (int)prod;
}

/* Old form: !nvvm.annotations = !{!{ptr @f, !"maxntidx", i32 128, ...}}.
 * Returns the value of key for f, or 0.  LLVM 21+ upgrades this form when it
 * reads IR, so the list is usually empty and this returns at once. */
static long annotation(LLVMModuleRef m, LLVMValueRef f, const char *key) {
  unsigned n = LLVMGetNamedMetadataNumOperands(m, "nvvm.annotations");
  if (n == 0)
    return 0;
  LLVMValueRef *ops = calloc(n, sizeof *ops);
  if (!ops)
    return 0;
  LLVMGetNamedMetadataOperands(m, "nvvm.annotations", ops);
  long found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    unsigned k = LLVMGetMDNodeNumOperands(ops[i]);
    if (k < 3)
      continue;
    LLVMValueRef *e = calloc(k, sizeof *e);
    if (!e)
      break;
    LLVMGetMDNodeOperands(ops[i], e);
    if (e[0] == f)
      for (unsigned j = 1; j + 1 < k; j += 2) {
        unsigned len = 0;
        const char *name = e[j] ? LLVMGetMDString(e[j], &len) : NULL;
        if (name && len == strlen(key) && memcmp(name, key, len) == 0 &&
            e[j + 1] && LLVMIsAConstantInt(e[j + 1]))
          found = (long)LLVMConstIntGetZExtValue(e[j + 1]);
      }
    free(e);
  }
  free(ops);
  return found;
}

static int is_kernel(LLVMModuleRef m, LLVMValueRef f) {
  if (LLVMIsDeclaration(f))
    return 0;
  return LLVMGetFunctionCallConv(f) == LLVMPTXKernelCallConv ||
         annotation(m, f, "kernel") == 1;
}

static int launch_block(LLVMModuleRef m, LLVMValueRef f) {
  int b = ntid_product(str_attr(f, "nvvm.reqntid"));
  if (!b)
    b = ntid_product(str_attr(f, "nvvm.maxntid"));
  if (!b) {
    static const char *const keys[2][3] = {{"reqntidx", "reqntidy", "reqntidz"},
                                           {"maxntidx", "maxntidy", "maxntidz"}};
    for (int k = 0; k < 2 && !b; k++) {
      long x = annotation(m, f, keys[k][0]);
      if (x > 0) {
        long y = annotation(m, f, keys[k][1]), z = annotation(m, f, keys[k][2]);
        long p = x * (y > 0 ? y : 1) * (z > 0 ? z : 1);
        b = p <= 1024 ? (int)p : 0;
      }
    }
  }
  return b;
}

static int target_sm(LLVMValueRef f) {
  const char *cpu = str_attr(f, "target-cpu");
  int sm = 0;
  if (cpu && orion_arch_from_name(cpu, &sm) == ORION_OK)
    return sm;
  return 0;
}

static void set_str_attr(LLVMValueRef f, const char *key, const char *val) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(f));
  LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (val)
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, key, (unsigned)strlen(key),
                                                      val, (unsigned)strlen(val)));
}

static void add_record(LLVMModuleRef m, const char *gname, const char *text) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMValueRef str = LLVMConstStringInContext2(ctx, text, strlen(text), 0);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(str), gname, 1);
  LLVMSetInitializer(g, str);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMExternalLinkage);
  LLVMSetAlignment(g, 1);
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

static int process_kernel(LLVMModuleRef m, LLVMValueRef k, orion_maxlive_ctx *ml_ctx,
                          const orion_pass_options *opt, const char *module_name) {
  size_t klen;
  const char *kname = LLVMGetValueName2(k, &klen);
  if (!kname || klen == 0 || strstr(kname, ORION_CLONE_INFIX) ||
      klen + sizeof ORION_RECORD_PREFIX >= ORION_RECORD_KERNEL_MAX)
    return 0;
  char gname[ORION_RECORD_KERNEL_MAX + sizeof ORION_RECORD_PREFIX];
  snprintf(gname, sizeof gname, "%s%s", ORION_RECORD_PREFIX, kname);
  if (LLVMGetNamedGlobal(m, gname))
    return 0; /* already versioned */
  char *name = strdup(kname); /* kname may move when clones are added */
  if (!name)
    return 0;

  orion_kernel_report rep;
  memset(&rep, 0, sizeof rep);
  rep.module = module_name;
  rep.kernel = name;
  orion_compute_features(m, k, &rep.features);
  rep.max_live = orion_maxlive(ml_ctx, k);
  rep.sm = opt->sm ? opt->sm : target_sm(k);
  if (!rep.sm) {
    rep.sm = 90;
    rep.note = "no target-cpu on the kernel: assumed sm_90";
  }

  orion_select_input in = {rep.sm, rep.max_live,
                           opt->block ? opt->block : launch_block(m, k),
                           (unsigned)rep.features.smem_static, opt->max_versions};
  orion_status st = orion_select_versions(&in, &rep.sel);
  int changed = 0;
  char text[1024];
  char msg[1024];
  if (st != ORION_OK) {
    snprintf(msg, sizeof msg, "kernel %s: not versioned: %s", name, orion_strerror(st));
    rep.note = msg;
    orion_shim_remark(k, "NotVersioned", msg, 0);
    orion_report_write(opt->report_path, &rep);
    free(name);
    return 0;
  }
  orion_record rec;
  memset(&rec, 0, sizeof rec);
  snprintf(rec.kernel, sizeof rec.kernel, "%s", name);
  rec.sm = rep.sm;
  rec.max_live = rep.max_live;
  rec.n_params = (int)LLVMCountParams(k);
  rec.sel = rep.sel;
  if (orion_record_format(&rec, text, sizeof text) == ORION_OK)
    rep.record = text;

  if (opt->versions_enabled) {
    for (int i = 0; i < rep.sel.n_versions; i++) {
      const orion_version *v = &rep.sel.versions[i];
      if (v->is_pad || v->max_regs <= 0)
        continue;
      char cname[ORION_RECORD_KERNEL_MAX + 32];
      snprintf(cname, sizeof cname, "%s%s%s", name, ORION_CLONE_INFIX, v->tag);
      if (LLVMGetNamedFunction(m, cname))
        continue;
      LLVMValueRef c = orion_shim_clone_function(k, cname, NULL, 0);
      char cap[16];
      snprintf(cap, sizeof cap, "%d", v->max_regs);
      set_str_attr(c, "nvvm.maxnreg", cap);
      set_str_attr(c, "nvvm.minctasm", NULL);
      rep.n_clones++;
      changed = 1;
    }
    if (rep.record) {
      add_record(m, gname, rep.record);
      changed = 1;
    }
  }
  describe(msg, sizeof msg, name, rep.max_live, rep.sm, &rep.sel);
  orion_shim_remark(k, "Versions", msg, 0);
  orion_report_write(opt->report_path, &rep);
  free(name);
  return changed;
}

int orion_run_device_module(LLVMModuleRef m, const orion_pass_options *opt) {
  /* Collect kernels first: cloning adds functions to the list. */
  size_t n = 0, cap = 16;
  LLVMValueRef *kernels = malloc(cap * sizeof *kernels);
  if (!kernels)
    return 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!is_kernel(m, f))
      continue;
    if (n == cap) {
      LLVMValueRef *nk = realloc(kernels, (cap *= 2) * sizeof *nk);
      if (!nk)
        break;
      kernels = nk;
    }
    kernels[n++] = f;
  }
  size_t idlen;
  const char *mid = LLVMGetModuleIdentifier(m, &idlen);
  orion_maxlive_ctx *ctx = orion_maxlive_new(m);
  int changed = 0;
  for (size_t i = 0; i < n; i++)
    changed |= process_kernel(m, kernels[i], ctx, opt, mid ? mid : "");
  orion_maxlive_free(ctx);
  free(kernels);
  return changed;
}
