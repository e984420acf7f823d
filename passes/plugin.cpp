//===- plugin.cpp - OrionPass registration and C API helpers --------------===//
//
// The only C++ in Orion's compiler side.  It
//   * registers the module pass "orion" with the new pass manager, both for
//     `opt -load-pass-plugin=OrionPass.so -passes=orion` (every phase at
//     once but the unroll versions', which `-passes=orion-unroll-versions`
//     runs, before "orion") and for `clang -fpass-plugin=OrionPass.so`: at the OptimizerLast
//     extension point, so the pass sees optimised IR, and for host modules
//     also at PipelineStart, where launch sites' loop facts are taken before
//     inlining and unrolling (host.c); the pass is required, so -O0 runs it
//     too;
//   * reads the options (cl::opt, or the ORION_* environment variables when
//     clang gives no way to pass -mllvm to a late-loaded plugin);
//   * dispatches on the module's target: NVPTX device modules go to
//     orion_run_device_module (orion_pass.c), x86-64 host modules to
//     orion_run_host_module (host.c), anything else is left alone;
//   * on device modules at PipelineStart: makes atomicCAS relaxed, as CUDA
//     defines it (atomics.c), and, when asked, folds pow of constants where
//     the result is exact, as nvcc does (fold_pow.c), and (ORION_INTERNALIZE=1, what
//     orion-cc sets without -fgpu-rdc), gives non-kernel device functions
//     internal linkage (internalize.c);
//   * on device modules at OptimizerEarly: the kernels' unroll versions
//     (unroll.c), before the optimisation pipeline's loop unroller;
//   * on device modules, before the versions are made, when asked
//     (ORION_ALIGN_ARRAYS=1): aligns stack and shared arrays as nvcc does
//     (align.c) and, where that raised an alignment, runs LLVM's address-space
//     and alignment inference, so that the loads and stores carry it to
//     code generation, where the vectorizer pairs them;
//   * provides the few helpers the LLVM-C API lacks (cloning a function into
//     a wider signature, LoopInfo queries, the outermost inlined-at debug
//     location, optimisation remarks).
// The analysis and transformation logic is C: orion_pass.c, host.c and
// friends.
//
//===----------------------------------------------------------------------===//

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "orion/occupancy.h"
#include "orion_pass.h"

using namespace llvm;

static cl::opt<std::string>
    ReportPath("orion-report",
               cl::desc("Append Orion's per-kernel decisions as JSON lines to "
                        "this file ('-' for stderr); env ORION_CC_REPORT"),
               cl::value_desc("file"));
static cl::opt<int> TargetSM("orion-sm",
                             cl::desc("Target SM number (default: the "
                                      "kernels' target-cpu); env ORION_SM"));
static cl::opt<int>
    MaxVersions("orion-max-versions",
                cl::desc("At most this many versions per kernel, 1..5 "
                         "(env ORION_MAX_VERSIONS)"));
static cl::opt<int> CapFloor(
    "orion-cap-floor",
    cl::desc("No register-capped clone below this percentage of the "
             "kernel's max-live estimate, 0..100 (default 40; 0: every "
             "level Fig. 8 picks; env ORION_CAP_FLOOR)"));
static cl::opt<int> AssumedBlock(
    "orion-block",
    cl::desc("Block size to assume when a kernel has no launch bounds "
             "(default 256; env ORION_BLOCK)"));
static cl::opt<int> MaxRRegCount(
    "orion-maxrregcount",
    cl::desc("The ptxas -maxrregcount the build uses: a register ceiling "
             "for kernels without launch bounds or __maxnreg__ (env "
             "ORION_MAXRREGCOUNT)"));
static cl::opt<bool> SplitClones(
    "orion-split-clones",
    cl::desc("Emit each kernel's split clone and the clones' split "
             "parameters, which the runtime's ORION_SPLIT=1 needs (env "
             "ORION_SPLIT_CLONES=1)"));
static cl::opt<bool>
    AnalyzeOnly("orion-analyze-only",
                cl::desc("Report decisions but emit no clones or records"));
static cl::opt<bool> LaunchHook(
    "orion-launch-hook", cl::init(true),
    cl::desc("Host side: route cudaLaunchKernel calls to the runtime's "
             "__orion_launch_kernel (default on; env ORION_LAUNCH_HOOK=0 "
             "turns it off, e.g. when liborionrt is not linked)"));

static cl::opt<bool> AlignArrays(
    "orion-align-arrays", cl::init(false),
    cl::desc("Device side: give stack and __shared__ arrays nvcc's "
             "alignment (default off: measured slower on some programs; env "
             "ORION_ALIGN_ARRAYS=1 turns it on)"));

static cl::opt<bool> RelaxedCAS(
    "orion-relaxed-cas", cl::init(true),
    cl::desc("Device side: atomicCAS relaxed at device scope, as CUDA "
             "defines it and nvcc emits it, not clang's seq_cst CAS with a "
             "system fence (default on; env ORION_RELAXED_CAS=0 turns it "
             "off)"));

static cl::opt<bool> FoldPow(
    "orion-fold-pow", cl::init(false),
    cl::desc("Device side: pow of constants folded where the result is exact "
             "(pow(0.5, 23.0)), the value nvcc's fold gives; off by default, "
             "as libdevice's pow at run time does not always return it (env "
             "ORION_FOLD_POW=1 turns it on)"));

static cl::opt<bool> Internalize(
    "orion-internalize", cl::init(false),
    cl::desc("Device side: non-kernel device functions get internal linkage "
             "before inlining, as nvcc's whole-program compile treats them; "
             "only right without -fgpu-rdc, which the IR does not show "
             "(default off; orion-cc turns it on through env "
             "ORION_INTERNALIZE=1 when the build has no -fgpu-rdc)"));

static cl::opt<bool> UnrollVersions(
    "orion-unroll-versions", cl::init(true),
    cl::desc("Device side: beside the register caps, versions of each kernel "
             "with its small innermost loops unrolled 4x and 8x, for the runtime "
             "to measure (default on; env ORION_UNROLL_VERSIONS=0 turns it off)"));

// The function analyses of the module the early phase works on (OrionPass
// sets it around orion_unroll_clones): the target's cost model for the
// unroller.
static FunctionAnalysisManager *EarlyFAM;

static int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End;
  long L = std::strtol(V, &End, 10);
  if (*End || L < 0 || L > 100000) {
    errs() << "orion: warning: ignoring " << Name << "='" << V
           << "': not a non-negative integer\n";
    return Default;
  }
  return int(L);
}

// A switch: option O if given, else environment variable Env (0 = off,
// any other number = on), else O's default.
static bool flag(const cl::opt<bool> &O, const char *Env) {
  return O.getNumOccurrences() ? bool(O) : envInt(Env, bool(O)) != 0;
}

// A setting: option O (spelled Flag) if given, else environment variable
// Env, else 0 (the default).  A value outside Lo..Hi is ignored with a
// warning that names it; Hi above the top clamps with a warning instead.
static int setting(const cl::opt<int> &O, const char *Flag, const char *Env, int Lo, int Hi,
                   int Top = 0) {
  long V = O.getNumOccurrences() ? long(O) : long(envInt(Env, 0));
  const char *Name = O.getNumOccurrences() ? Flag : Env;
  if (V == 0 || (V >= Lo && V <= Hi))
    return int(V);
  if (Top && V > Hi) {
    errs() << "orion: warning: " << Name << "=" << V << ": at most " << Hi << "; using " << Hi
           << "\n";
    return Hi;
  }
  errs() << "orion: warning: ignoring " << Name << "=" << V << ": not in " << Lo << ".." << Hi
         << "\n";
  return 0;
}

// The cap floor (orion_select_input): -orion-cap-floor, else
// ORION_CAP_FLOOR, else ORION_CAP_FLOOR_PCT; 0 is a value (no floor).
static int capFloor() {
  int V = CapFloor.getNumOccurrences() ? int(CapFloor) : envInt("ORION_CAP_FLOOR", ORION_CAP_FLOOR_PCT);
  if (V >= 0 && V <= 100)
    return V;
  errs() << "orion: warning: ignoring cap floor " << V << " (-orion-cap-floor / ORION_CAP_FLOOR): "
         << "not in 0..100; using " << ORION_CAP_FLOOR_PCT << "\n";
  return ORION_CAP_FLOOR_PCT;
}

static std::string reportPath() {
  if (ReportPath.getNumOccurrences())
    return ReportPath;
  // The compiler's own variable: ORION_REPORT is the runtime's, and a
  // program's run environment must not make every compile print JSON.
  const char *V = std::getenv("ORION_CC_REPORT");
  if (!V || !*V || std::string(V) == "0")
    return "";
  std::string S(V);
  // 1 / json / stderr: JSON lines on stderr.
  if (S == "1" || S == "json" || S == "stderr")
    return "-";
  return S;
}

namespace {
// Phases = which host-side phases run (host.c); the device side runs with
// the late phase (the optimised IR).
struct OrionPass : PassInfoMixin<OrionPass> {
  int Phases;
  explicit OrionPass(int P) : Phases(P) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    const Triple &T = M.getTargetTriple();
    if (!T.isNVPTX()) {
      if (T.getArch() != Triple::x86_64 || !(Phases & (ORION_HOST_EARLY | ORION_HOST_LATE)))
        return PreservedAnalyses::all(); // the launch ABI is x86-64's
      if (!flag(LaunchHook, "ORION_LAUNCH_HOOK"))
        return PreservedAnalyses::all();
      orion_pass_options Opt{};
      Opt.versions_enabled = !AnalyzeOnly;
      bool Changed = orion_run_host_module(wrap(&M), &Opt, Phases);
      return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
    bool Early = false;
    if ((Phases & ORION_HOST_EARLY) && flag(RelaxedCAS, "ORION_RELAXED_CAS"))
      Early = orion_relax_atomic_cas(wrap(&M)) > 0;
    if ((Phases & ORION_HOST_EARLY) && flag(FoldPow, "ORION_FOLD_POW"))
      Early |= orion_fold_pow(wrap(&M)) > 0;
    if ((Phases & ORION_HOST_EARLY) && flag(Internalize, "ORION_INTERNALIZE"))
      Early |= orion_internalize_device(wrap(&M)) > 0;
    if ((Phases & ORION_DEVICE_MID) && !AnalyzeOnly &&
        flag(UnrollVersions, "ORION_UNROLL_VERSIONS")) {
      EarlyFAM = &MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
      Early |= orion_unroll_clones(wrap(&M)) > 0;
      EarlyFAM = nullptr;
    }
    if (!(Phases & ORION_HOST_LATE))
      return Early ? PreservedAnalyses::none() : PreservedAnalyses::all();
    bool Aligned = false;
    if (flag(AlignArrays, "ORION_ALIGN_ARRAYS"))
      Aligned = orion_align_arrays(wrap(&M)) > 0;
    if (Aligned) {
      FunctionPassManager FPM;
      FPM.addPass(InferAddressSpacesPass());
      FPM.addPass(InferAlignmentPass());
      createModuleToFunctionPassAdaptor(std::move(FPM)).run(M, MAM);
    }
    std::string Report = reportPath();
    orion_pass_options Opt{};
    Opt.report_path = Report.empty() ? nullptr : Report.c_str();
    Opt.sm = setting(TargetSM, "-orion-sm", "ORION_SM", 1, 1 << 20);
    if (Opt.sm && !orion_arch_get(Opt.sm)) {
      errs() << "orion: warning: ignoring sm " << Opt.sm << " (-orion-sm / ORION_SM): not "
             << "an architecture the occupancy model knows (" << orion_arch_supported_list()
             << "); the kernels' target-cpu holds\n";
      Opt.sm = 0;
    }
    Opt.max_versions = setting(MaxVersions, "-orion-max-versions", "ORION_MAX_VERSIONS", 1,
                               ORION_MAX_VERSIONS, 1);
    Opt.cap_floor_pct = capFloor();
    Opt.block = setting(AssumedBlock, "-orion-block", "ORION_BLOCK", 1, 1024);
    Opt.maxrregcount =
        setting(MaxRRegCount, "-orion-maxrregcount", "ORION_MAXRREGCOUNT", 1, 65535);
    Opt.split = flag(SplitClones, "ORION_SPLIT_CLONES");
    Opt.versions_enabled = !AnalyzeOnly;
    bool Changed = orion_run_device_module(wrap(&M), &Opt) || Aligned || Early;
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

// Clone F as Name with NExtra more parameters of types Extra[] (0: the same
// signature).
// CloneFunctionInto copies the attributes (parameter attributes follow the
// VMap, so byval/align/noalias stay on the original parameters), calling
// convention, metadata and debug info (a new DISubprogram: the clone is a
// local change within the module).
extern "C" LLVMValueRef orion_shim_clone_function(LLVMValueRef F,
                                                   const char *Name,
                                                   LLVMTypeRef *Extra,
                                                   unsigned NExtra) {
  Function *Fn = unwrap<Function>(F);
  SmallVector<Type *, 16> Params(Fn->getFunctionType()->params());
  for (unsigned I = 0; I < NExtra; ++I)
    Params.push_back(unwrap(Extra[I]));
  FunctionType *Ty = FunctionType::get(Fn->getReturnType(), Params,
                                       Fn->getFunctionType()->isVarArg());
  Function *Clone = Function::Create(Ty, Fn->getLinkage(),
                                     Fn->getAddressSpace(), Name,
                                     Fn->getParent());
  ValueToValueMapTy VMap;
  auto NewArg = Clone->arg_begin();
  for (Argument &A : Fn->args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(Clone, Fn, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  return wrap(Clone);
}

extern "C" int orion_shim_count_loops(LLVMValueRef F) {
  Function *Fn = unwrap<Function>(F);
  if (Fn->isDeclaration())
    return 0;
  DominatorTree DT(*Fn);
  LoopInfo LI(DT);
  return int(LI.getLoopsInPreorder().size());
}

// A user's unroll pragma that decides the loop's unrolling: a count, full,
// disable (`#pragma unroll 1`), no run-time unrolling.  A bare `#pragma
// unroll` (llvm.loop.unroll.enable) on a loop still there after the
// simplification pipeline is one clang could not unroll fully (its trip
// count is not a constant), where nvcc unrolls 4x: the request stands for
// the unroll version.
static bool hasUnrollPragma(const Loop *L) {
  for (const char *K : {"llvm.loop.unroll.disable", "llvm.loop.unroll.count",
                        "llvm.loop.unroll.full", "llvm.loop.unroll.runtime.disable"})
    if (findStringMetadataForLoop(L, K))
      return true;
  return false;
}

// L's loop ID without its llvm.loop.unroll.count (a request the unroller
// did not meet: left in, it would warn the user about a loop they never
// asked to unroll).
static void dropUnrollCount(Loop *L) {
  MDNode *ID = L->getLoopID();
  SmallVector<Metadata *, 4> Ops{nullptr};
  for (unsigned I = 1; ID && I < ID->getNumOperands(); I++) {
    auto *Op = dyn_cast<MDNode>(ID->getOperand(I));
    auto *Key = Op && Op->getNumOperands() ? dyn_cast<MDString>(Op->getOperand(0)) : nullptr;
    if (!Key || Key->getString() != "llvm.loop.unroll.count")
      Ops.push_back(ID->getOperand(I));
  }
  MDNode *New = MDNode::getDistinct(L->getHeader()->getContext(), Ops);
  New->replaceOperandWith(0, New);
  L->setLoopID(New);
}

extern "C" int orion_shim_unroll_loops(LLVMValueRef F, int Count, int MaxInsts,
                                       int MaxInstsAsked) {
  Function *Fn = unwrap<Function>(F);
  if (Fn->isDeclaration() || !EarlyFAM)
    return 0;
  int Marked = 0;
  {
    DominatorTree DT(*Fn);
    LoopInfo LI(DT);
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !L->getLoopLatch() || hasUnrollPragma(L))
        continue;
      int Insts = 0;
      for (BasicBlock *B : L->blocks())
        Insts += int(B->sizeWithoutDebug());
      bool Asked = findStringMetadataForLoop(L, "llvm.loop.unroll.enable").has_value();
      if (Insts > (Asked ? MaxInstsAsked : MaxInsts))
        continue;
      addStringMetadataToLoop(L, "llvm.loop.unroll.count", unsigned(Count));
      Marked++;
    }
  }
  if (!Marked)
    return 0;
  EarlyFAM->invalidate(*Fn, PreservedAnalyses::none());
  LoopUnrollPass(LoopUnrollOptions(3, /*OnlyWhenForced=*/true)).run(*Fn, *EarlyFAM);
  // Nothing cached for the clone outlives this call: the caller may delete
  // it (unroll.c), and a result keyed by a deleted function could be found
  // again by a function allocated at its address.
  EarlyFAM->clear(*Fn, Fn->getName());
  DominatorTree DT(*Fn);
  LoopInfo LI(DT);
  // A loop the unroller unrolled (and its run-time remainder) now says
  // llvm.loop.unroll.disable; one it refused still asks.
  int Left = 0;
  for (Loop *L : LI.getLoopsInPreorder())
    if (findStringMetadataForLoop(L, "llvm.loop.unroll.count")) {
      Left += !findStringMetadataForLoop(L, "llvm.loop.unroll.disable");
      dropUnrollCount(L);
    }
  return Marked - Left;
}

extern "C" int orion_shim_loop_depth(LLVMBasicBlockRef BB) {
  BasicBlock *B = unwrap(BB);
  DominatorTree DT(*B->getParent());
  LoopInfo LI(DT);
  return int(LI.getLoopDepth(B));
}

// The location the user wrote: follow inlinedAt to the outermost frame (at
// -O3 a launch call sits in the inlined device stub, whose own location is
// the kernel's declaration).
static DILocation *outermostLoc(const Instruction *I) {
  DILocation *L = I->getDebugLoc().get();
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return L;
}

extern "C" int orion_shim_site_location(LLVMValueRef Inst, char *Buf,
                                        size_t N) {
  DILocation *L = outermostLoc(unwrap<Instruction>(Inst));
  if (!L || L->getLine() == 0 || L->getFilename().empty() || N == 0)
    return 0;
  std::string S = (L->getFilename() + ":" + Twine(L->getLine())).str();
  snprintf(Buf, N, "%s", S.c_str());
  return 1;
}

extern "C" void orion_shim_remark_at(LLVMValueRef Inst, const char *Name,
                                     const char *Msg) {
  Instruction *I = unwrap<Instruction>(Inst);
  OptimizationRemarkEmitter ORE(I->getFunction());
  DiagnosticLocation Loc{DebugLoc(outermostLoc(I))};
  ORE.emit(OptimizationRemark("orion", Name, Loc, I->getParent()) << Msg);
}

extern "C" void orion_shim_remark(LLVMValueRef F, const char *Name,
                                  const char *Msg, int Analysis) {
  Function *Fn = unwrap<Function>(F);
  OptimizationRemarkEmitter ORE(Fn);
  if (Analysis)
    ORE.emit(OptimizationRemarkAnalysis("orion", Name, Fn) << Msg);
  else
    ORE.emit(OptimizationRemark("orion", Name, Fn) << Msg);
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "OrionPass", "0.1.0", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  // "orion-unroll-versions": the early device phase alone,
                  // for `opt -passes=orion-unroll-versions,orion`.
                  if (Name == "orion-unroll-versions") {
                    MPM.addPass(OrionPass(ORION_DEVICE_MID));
                    return true;
                  }
                  if (Name != "orion")
                    return false;
                  MPM.addPass(
                      OrionPass(ORION_HOST_EARLY | ORION_HOST_LATE));
                  return true;
                });
            // Host launch sites' loop facts before unrolling and inlining.
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(OrionPass(ORION_HOST_EARLY));
                });
            // Device kernels' unroll versions, before the loop unroller.
            PB.registerOptimizerEarlyEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel L,
                   ThinOrFullLTOPhase) {
                  if (L != OptimizationLevel::O0)
                    MPM.addPass(OrionPass(ORION_DEVICE_MID));
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel,
                   ThinOrFullLTOPhase) {
                  MPM.addPass(OrionPass(ORION_HOST_LATE));
                });
          }};
}
