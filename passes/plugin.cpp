//===- plugin.cpp - OrionPass registration and C API helpers --------------===//
//
// The only C++ in Orion's compiler side.  It
//   * registers the module pass "orion" with the new pass manager, both for
//     `opt -load-pass-plugin=OrionPass.so -passes=orion` and for
//     `clang -fpass-plugin=OrionPass.so` (at the OptimizerLast extension
//     point, so the pass sees optimised IR; the pass is required, so -O0
//     runs it too);
//   * reads the options (cl::opt, or the ORION_* environment variables when
//     clang gives no way to pass -mllvm to a late-loaded plugin);
//   * provides the few helpers the LLVM-C API lacks (function cloning,
//     LoopInfo queries, optimisation remarks).
// The analysis and transformation logic is C: orion_pass.c and friends.
//
//===----------------------------------------------------------------------===//

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>
#include <string>

#include "orion_pass.h"

using namespace llvm;

static cl::opt<std::string>
    ReportPath("orion-report",
               cl::desc("Append Orion's per-kernel decisions as JSON lines to "
                        "this file ('-' for stderr); env ORION_REPORT"),
               cl::value_desc("file"));
static cl::opt<int> TargetSM("orion-sm",
                             cl::desc("Target SM number (default: the "
                                      "kernels' target-cpu); env ORION_SM"));
static cl::opt<int>
    MaxVersions("orion-max-versions",
                cl::desc("At most this many versions per kernel, 1..5 "
                         "(env ORION_MAX_VERSIONS)"));
static cl::opt<int> AssumedBlock(
    "orion-block",
    cl::desc("Block size to assume when a kernel has no launch bounds "
             "(default 256; env ORION_BLOCK)"));
static cl::opt<bool>
    AnalyzeOnly("orion-analyze-only",
                cl::desc("Report decisions but emit no clones or records"));

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

static std::string reportPath() {
  if (ReportPath.getNumOccurrences())
    return ReportPath;
  const char *V = std::getenv("ORION_REPORT");
  if (!V || !*V || std::string(V) == "0")
    return "";
  std::string S(V);
  // ORION_REPORT=1 / json ask the runtime for a report; at compile time they
  // mean "print it": JSON lines on stderr.
  if (S == "1" || S == "json" || S == "stderr")
    return "-";
  return S;
}

namespace {
struct OrionPass : PassInfoMixin<OrionPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!M.getTargetTriple().isNVPTX())
      return PreservedAnalyses::all(); // host side: runtime hook-up (issue 4)
    std::string Report = reportPath();
    orion_pass_options Opt{};
    Opt.report_path = Report.empty() ? nullptr : Report.c_str();
    Opt.sm = TargetSM.getNumOccurrences() ? TargetSM : envInt("ORION_SM", 0);
    Opt.max_versions = MaxVersions.getNumOccurrences()
                           ? MaxVersions
                           : envInt("ORION_MAX_VERSIONS", 0);
    if (Opt.max_versions > ORION_MAX_VERSIONS) {
      errs() << "orion: warning: at most " << ORION_MAX_VERSIONS
             << " versions per kernel; using " << ORION_MAX_VERSIONS << "\n";
      Opt.max_versions = ORION_MAX_VERSIONS;
    }
    Opt.block = AssumedBlock.getNumOccurrences() ? AssumedBlock
                                                 : envInt("ORION_BLOCK", 0);
    if (Opt.block > 1024) {
      errs() << "orion: warning: block size " << Opt.block
             << " exceeds 1024; ignored\n";
      Opt.block = 0;
    }
    Opt.versions_enabled = !AnalyzeOnly;
    bool Changed = orion_run_device_module(wrap(&M), &Opt);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVMValueRef orion_shim_clone_function(LLVMValueRef F,
                                                   const char *Name) {
  Function *Fn = unwrap<Function>(F);
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(Fn, VMap);
  Clone->setName(Name);
  Clone->setLinkage(Fn->getLinkage());
  Clone->setVisibility(Fn->getVisibility());
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
                  if (Name != "orion")
                    return false;
                  MPM.addPass(OrionPass());
                  return true;
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel,
                   ThinOrFullLTOPhase) { MPM.addPass(OrionPass()); });
          }};
}
