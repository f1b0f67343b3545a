//===- embbag-fuzz.cpp - libFuzzer target over the embbag pipeline --------===//
//
// Each input is MLIR text. It goes through everything a user's IR goes
// through in embbag-opt: parsing (the custom assembly of the embbag ops),
// verification, a print/re-parse round trip, --embbag-verify-constants and
// the whole --embbag-to-llvm pipeline (or --embbag-to-nvvm, the GPU's), then
// translation to LLVM IR. Rejected
// input is fine: it must only be rejected with a diagnostic. A crash, an
// assertion, a sanitizer report, or an embbag op whose printed form does not
// parse back is a bug.
//
// Every input gets a fresh MLIRContext, so a crash reproduces from the one
// input that caused it. The pipeline options (path, checks, vector width)
// are picked from a hash of the input, so that the corpus covers all of them;
// so are the upstream passes that users run before embbag's (--inline,
// --canonicalize, --cse, --loop-invariant-code-motion), which hand the
// embbag passes IR in the shapes that composition produces: inlined,
// folded, canonicalized into the static forms, hoisted out of loops.
//
// Build and run: utils/fuzz.sh (see docs/Testing.md).
//
//===----------------------------------------------------------------------===//

#include "embbag/InitAll.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

/// The dialects a fuzzed module may hold for the pipeline to run on it: those
/// of the embbag tests. Anything else (gpu, spirv, ...) exercises upstream
/// passes outside --embbag-to-llvm's contract, not embbag.
static bool isPipelineInput(ModuleOp module) {
  WalkResult result = module->walk([](Operation *op) {
    StringRef ns = op->getName().getDialectNamespace();
    if (ns == "builtin" || ns == "func" || ns == "arith" || ns == "tensor" ||
        ns == "bufferization" || ns == "scf" || ns == "embbag")
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

static bool holdsEmbBagOps(ModuleOp module) {
  return module
      ->walk([](Operation *op) {
        return op->getName().getDialectNamespace() == "embbag"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// FNV-1a: a hash that does not change between runs or builds, so a crash
/// input picks the same pipeline options when it is replayed.
static uint64_t stableHash(const uint8_t *data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 0x100000001b3ull;
  return hash;
}

[[noreturn]] static void reportBug(const char *what, StringRef detail) {
  llvm::errs() << "embbag-fuzz: " << what << "\n" << detail << "\n";
  std::abort();
}

static const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    registerAllToLLVMIRTranslations(*r);
    embbag::registerAllEmbBagDialects(*r);
    return r;
  }();
  return *registry;
}

/// libMLIR.so is not instrumented, but the BumpPtrAllocator code inlined into
/// this instrumented binary poisons its slabs for ASan, and libMLIR's own
/// inlined copy never unpoisons what it hands out from those slabs. Every
/// write through it would be a false use-after-poison; user poisoning is off.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome for most inputs; keep them quiet.
  // EMBBAG_FUZZ_VERBOSE=1 prints them when replaying a single input.
  static const bool verbose = std::getenv("EMBBAG_FUZZ_VERBOSE") != nullptr;
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &diag) {
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  // The MLIR lexer stops at a NUL that it expects after the buffer; the
  // fuzzer's bytes have none, so lexing an unterminated string literal
  // read past them. A std::string is NUL-terminated.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;

  // What is printed must parse back and verify: users pipe embbag-opt into
  // embbag-opt.
  if (holdsEmbBagOps(*module)) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    OwningOpRef<ModuleOp> reparsed =
        parseSourceString<ModuleOp>(printed, ParserConfig(&context));
    if (!reparsed || failed(verify(*reparsed)))
      reportBug("the printed module does not parse back", printed);
  }

  if (!isPipelineInput(*module))
    return 0;

  uint64_t hash = stableHash(data, size);
  embbag::EmbBagToLLVMOptions options;
  options.path =
      (hash & 1) ? embbag::LoweringPath::Linalg : embbag::LoweringPath::Loops;
  options.checks = (hash & 2) == 0;
  options.vectorBits = (hash & 4) ? 512 : 256;
  options.parallel = (hash & 8) != 0;
  options.maxVectors = (hash >> 4) % 9;
  options.prefetchDistance = static_cast<int>((hash >> 8) % 4) - 1;
  options.unroll = 1 + (hash >> 10) % 3;

  PassManager pm(&context);
  // Upstream passes a user may run first, each on or off by its own bit.
  if (hash & (1u << 12))
    pm.addPass(createInlinerPass());
  if (hash & (1u << 13))
    pm.addPass(createCanonicalizerPass());
  if (hash & (1u << 14))
    pm.addPass(createCSEPass());
  if (hash & (1u << 15))
    pm.addPass(createLoopInvariantCodeMotionPass());
  // One input in four takes the GPU kernels: run by host loops
  // (path=gpu-loops), or one in four of those compiled to PTX
  // (embbag-to-nvvm, the device's pipeline).
  if ((hash >> 16) % 4 == 0) {
    options.path = embbag::LoweringPath::GPULoops;
    options.batchTables = (hash & (1u << 18)) != 0;
    // The host loops batch tables with parallel loops only.
    options.parallel = options.parallel || options.batchTables;
  }
  if ((hash >> 16) % 16 == 4) {
    embbag::EmbBagToNVVMOptions nvvm;
    nvvm.checks = options.checks;
    nvvm.status = options.checks && (hash & (1u << 19)) != 0;
    nvvm.batchTables = (hash & (1u << 18)) != 0;
    nvvm.rowsInFlight = 1 + (hash >> 20) % 16;
    embbag::buildEmbBagToNVVMPipeline(pm, nvvm);
  } else {
    embbag::buildEmbBagToLLVMPipeline(pm, options);
  }
  if (failed(pm.run(*module)))
    return 0;

  llvm::LLVMContext llvmContext;
  (void)translateModuleToLLVMIR(*module, llvmContext);
  return 0;
}
