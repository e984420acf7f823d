/* features.c - static kernel features (STATuner's list plus memory ops per
 * address space and remaining calls).
 *
 * STATuner (Gupta et al.) characterises a kernel by branch/load/int/float
 * instruction fractions, loops, barriers, register usage and static shared
 * memory.  We count on the optimised NVPTX IR, over the kernel and every
 * function it reaches through direct calls (each function once):
 *   branches    conditional br, switch, indirectbr
 *   int/float   arithmetic, comparisons, and intrinsic calls by result type
 *   loops       natural loops (LoopInfo through the shim)
 *   barriers    calls to llvm.nvvm.*barrier* / *bar.sync* intrinsics
 *   calls       calls that remain after inlining (non-intrinsic callees)
 *   loads/stores  split by the address space addrspace.c infers for the
 *               pointer (global, shared, local, const, generic); atomics
 *               apart
 *   smem_static bytes of addrspace(3) globals referenced, each once
 *   reads_smem_size  %total_smem_size / %dynamic_smem_size read by inline
 *               asm or an nvvm.read.ptx.sreg intrinsic
 * Requires nothing; modifies nothing.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "kernel_features.h"
#include "shim.h"

typedef struct vset {
  LLVMValueRef *v;
  size_t n, cap;
} vset;

static int vset_has(const vset *s, LLVMValueRef v) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == v)
      return 1;
  return 0;
}

static void vset_add(vset *s, LLVMValueRef v) {
  if (vset_has(s, v))
    return;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    LLVMValueRef *nv = realloc(s->v, cap * sizeof *nv);
    if (!nv)
      abort();
    s->v = nv;
    s->cap = cap;
  }
  s->v[s->n++] = v;
}

static int name_contains(LLVMValueRef f, const char *needle) {
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  return name && strstr(name, needle) != NULL;
}

/* Does inline asm a read %total_smem_size or %dynamic_smem_size? */
static int asm_reads_smem_size(LLVMValueRef a) {
  size_t len = 0;
  const char *s = LLVMGetInlineAsmAsmString(a, &len);
  for (size_t i = 0; s && i < len; i++)
    if (s[i] == '%' && ((len - i >= 16 && !memcmp(s + i, "%total_smem_size", 16)) ||
                        (len - i >= 18 && !memcmp(s + i, "%dynamic_smem_size", 18))))
      return 1;
  return 0;
}

/* Collect addrspace(3) globals used by value v (walking constant exprs). */
static void note_shared_globals(LLVMValueRef v, vset *smem, int depth) {
  if (depth > 8)
    return;
  if (LLVMIsAGlobalVariable(v)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3)
      vset_add(smem, v);
    return;
  }
  if (LLVMIsAConstantExpr(v)) {
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
      note_shared_globals(LLVMGetOperand(v, i), smem, depth + 1);
  }
}

/* One load (store = 0) or store through ptr, by the inferred space:
 * 7 (a cluster's distributed shared memory) counts as shared, 101 (NVPTX's
 * parameter space) as const, any other as generic. */
static void count_mem(orion_features *f, LLVMValueRef k, LLVMValueRef ptr, int store) {
  long *ld, *st;
  switch (orion_pointer_space(k, ptr)) {
  case 1: ld = &f->global_loads, st = &f->global_stores; break;
  case 3: case 7: ld = &f->shared_loads, st = &f->shared_stores; break;
  case 4: case 101: ld = &f->const_loads, st = &f->const_stores; break;
  case 5: ld = &f->local_loads, st = &f->local_stores; break;
  default: ld = &f->generic_loads, st = &f->generic_stores; break;
  }
  ++*(store ? st : ld);
}

static int is_fp(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
    return 1;
  default:
    return 0;
  }
}

static void count_function(LLVMValueRef k, LLVMValueRef fn, orion_features *f, vset *todo,
                           vset *smem) {
  f->loops += orion_shim_count_loops(fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb)) {
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
         in = LLVMGetNextInstruction(in)) {
      f->instructions++;
      int nops = LLVMGetNumOperands(in);
      for (int i = 0; i < nops; i++)
        note_shared_globals(LLVMGetOperand(in, i), smem, 0);
      LLVMOpcode op = LLVMGetInstructionOpcode(in);
      switch (op) {
      case LLVMBr:
        if (LLVMIsConditional(in))
          f->branches++;
        break;
      case LLVMSwitch:
      case LLVMIndirectBr:
        f->branches++;
        break;
      case LLVMLoad:
        f->loads++;
        count_mem(f, k, LLVMGetOperand(in, 0), 0);
        break;
      case LLVMStore:
        f->stores++;
        count_mem(f, k, LLVMGetOperand(in, 1), 1);
        break;
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg:
        f->atomics++;
        break;
      case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv:
      case LLVMURem: case LLVMSRem: case LLVMShl: case LLVMLShr:
      case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp:
        f->int_ops++;
        break;
      case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv:
      case LLVMFRem: case LLVMFNeg: case LLVMFCmp:
        f->float_ops++;
        break;
      case LLVMCall: {
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (LLVMIsAInlineAsm(callee)) {
          f->reads_smem_size |= asm_reads_smem_size(callee);
          break;
        }
        LLVMValueRef fnv = LLVMIsAFunction(callee);
        if (!fnv) {
          f->calls++;
          f->indirect_calls++;
          break;
        }
        if (LLVMGetIntrinsicID(fnv)) {
          if (name_contains(fnv, "sreg.total_smem_size") || name_contains(fnv, "sreg.dynamic_smem_size"))
            f->reads_smem_size = 1;
          if (name_contains(fnv, "barrier") || name_contains(fnv, "bar.sync"))
            f->barriers++;
          else if (is_fp(LLVMTypeOf(in)))
            f->float_ops++;
          else if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMIntegerTypeKind &&
                   !name_contains(fnv, "read.ptx.sreg"))
            f->int_ops++;
          break;
        }
        f->calls++;
        if (!LLVMIsDeclaration(fnv))
          vset_add(todo, fnv);
        break;
      }
      default:
        break;
      }
    }
  }
}

/* Does the direct call graph below k contain a cycle?  DFS with colours. */
static int has_cycle(LLVMValueRef fn, vset *grey, vset *black) {
  if (vset_has(black, fn))
    return 0;
  if (vset_has(grey, fn))
    return 1;
  vset_add(grey, fn);
  int cyc = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !cyc;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !cyc;
         in = LLVMGetNextInstruction(in)) {
      if (LLVMGetInstructionOpcode(in) != LLVMCall)
        continue;
      LLVMValueRef c = LLVMIsAFunction(LLVMGetCalledValue(in));
      if (c && !LLVMIsDeclaration(c) && !LLVMGetIntrinsicID(c))
        cyc = has_cycle(c, grey, black);
    }
  /* remove from grey (swap-delete), add to black */
  for (size_t i = 0; i < grey->n; i++)
    if (grey->v[i] == fn) {
      grey->v[i] = grey->v[--grey->n];
      break;
    }
  vset_add(black, fn);
  return cyc;
}

void orion_compute_features(LLVMModuleRef m, LLVMValueRef k, orion_features *out) {
  memset(out, 0, sizeof *out);
  vset todo = {0}, smem = {0};
  vset_add(&todo, k);
  for (size_t i = 0; i < todo.n; i++) /* todo grows while we walk it */
    count_function(k, todo.v[i], out, &todo, &smem);
  vset grey = {0}, black = {0};
  out->recursive = has_cycle(k, &grey, &black);
  free(grey.v);
  free(black.v);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  for (size_t i = 0; i < smem.n; i++)
    out->smem_static += (long)LLVMABISizeOfType(td, LLVMGlobalGetValueType(smem.v[i]));
  free(todo.v);
  free(smem.v);
}
