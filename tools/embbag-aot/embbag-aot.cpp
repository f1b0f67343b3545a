//===- embbag-aot.cpp - embbag kernels to a shared library and C header ---===//
//
//   embbag-aot KERNELS.mlir -o libNAME.so [--checks=abort|status|off]
//              [--target=cpu|nvptx [--chip=sm_90]]
//
// Compiles every public func.func of KERNELS.mlir (embbag ops on tensors,
// as for --embbag-to-llvm) ahead of time into libNAME.so, and writes
// libNAME.h beside it: the memref descriptor structs of MLIR's C interface
// and one `_mlir_ciface_<name>` prototype per function. A serving binary
// includes the header and links the library; it needs neither MLIR nor LLVM.
//
// The pipeline is embbag-to-llvm; --checks picks what a broken runtime
// contract (an index outside the table, ...) does: abort the process with a
// message (abort, the default, as with mlir-runner), return a non-zero
// int32_t from the function without reading out of bounds (status), or go
// unchecked (off). Code generation is in-process for the host (or --mcpu);
// a C compiler driver (cc, or --cc) links the object into the library.
//
// --target=nvptx compiles the kernels for NVIDIA GPUs instead: the
// pipeline is embbag-to-nvvm (PTX for --chip, embedded in the library),
// the memrefs are device buffers, and the library is linked against
// libembbag_cuda_runtime.so, which launches the kernels (docs/GPU.md, "AOT
// libraries for the GPU").
//
//===----------------------------------------------------------------------===//

#include "embbag/InitAll.h"
#include "embbag/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"

#include <optional>
#include <set>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum class ChecksMode { Abort, Status, Off };
enum class Target { CPU, NVPTX };

cl::OptionCategory aotCategory("embbag-aot options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<kernels.mlir>"),
                                   cl::Required, cl::cat(aotCategory));
cl::opt<std::string>
    outputFilename("o",
                   cl::desc("The shared library to write (libNAME.so); "
                            "the header goes beside it (libNAME.h)"),
                   cl::value_desc("libNAME.so"), cl::Required,
                   cl::cat(aotCategory));
cl::opt<std::string> headerFilename(
    "header",
    cl::desc("Where to write the C header (default: the library's "
             "path with .h)"),
    cl::value_desc("path"), cl::cat(aotCategory));
cl::opt<ChecksMode> checksMode(
    "checks", cl::desc("What a broken runtime contract does"),
    cl::init(ChecksMode::Abort),
    cl::values(clEnumValN(ChecksMode::Abort, "abort",
                          "print a message on stderr and abort (default)"),
               clEnumValN(ChecksMode::Status, "status",
                          "every function returns int32_t: 0 ok, non-zero "
                          "a contract violation (nothing read out of "
                          "bounds)"),
               clEnumValN(ChecksMode::Off, "off", "no runtime checks")),
    cl::cat(aotCategory));
cl::opt<Target>
    target("target", cl::desc("What the kernels run on"), cl::init(Target::CPU),
           cl::values(clEnumValN(Target::CPU, "cpu",
                                 "the host's CPU (embbag-to-llvm; default)"),
                      clEnumValN(Target::NVPTX, "nvptx",
                                 "NVIDIA GPUs (embbag-to-nvvm): PTX kernels "
                                 "launched through libembbag_cuda_runtime.so")),
           cl::cat(aotCategory));
cl::opt<std::string>
    chip("chip",
         cl::desc("--target=nvptx: the GPU the PTX is for, sm_NN or "
                  "sm_NNa (default sm_90)"),
         cl::value_desc("sm_NN"), cl::cat(aotCategory));
cl::opt<std::string> cudaRuntimeDir(
    "cuda-runtime-dir",
    cl::desc("--target=nvptx: the directory of libembbag_cuda_runtime.so "
             "(default: ../lib beside embbag-aot)"),
    cl::value_desc("dir"), cl::cat(aotCategory));
cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("More options of the pipeline (embbag-to-llvm, or "
             "embbag-to-nvvm for --target=nvptx), e.g. \"vector-bits=512 "
             "unroll=2\" (checks and status are set by --checks, chip by "
             "--chip)"),
    cl::init(""), cl::cat(aotCategory));
cl::opt<std::string>
    mcpu("mcpu",
         cl::desc("Target CPU, e.g. x86-64-v3 or znver3 (default: the host "
                  "CPU and its features; 'generic' for any of the target)"),
         cl::init("host"), cl::cat(aotCategory));
cl::opt<std::string>
    ccProgram("cc", cl::desc("C compiler driver that links the shared library"),
              cl::init("cc"), cl::cat(aotCategory));
cl::list<std::string>
    linkFlags("Xlinker-arg",
              cl::desc("Extra argument for the link (repeatable), e.g. "
                       "-L/usr/lib/llvm-22/lib -lomp for parallel=1"),
              cl::cat(aotCategory));
cl::opt<bool> sanitizeAddress(
    "sanitize-address",
    cl::desc("Instrument the kernels with AddressSanitizer (link the "
             "program with -fsanitize=address): every memory access of a "
             "kernel is checked"),
    cl::init(false), cl::cat(aotCategory));
cl::opt<bool> emitLLVMIR("emit-llvm",
                         cl::desc("Write LLVM IR (.ll) instead of linking"),
                         cl::init(false), cl::cat(aotCategory));

//===----------------------------------------------------------------------===//
// The C header
//===----------------------------------------------------------------------===//

/// C spelling of a memref element type or scalar, or nullopt.
std::optional<std::string> cElementType(Type type, bool inMemory) {
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  // Half types have no portable C scalar; in memory they are 16-bit words.
  if ((type.isF16() || type.isBF16()) && inMemory)
    return std::string("uint16_t");
  if (type.isIndex())
    return std::string("int64_t");
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1)
      return std::string("bool");
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return std::nullopt;
    return (intType.isUnsigned() ? "uint" : "int") + std::to_string(width) +
           "_t";
  }
  return std::nullopt;
}

/// Short name of an element type for struct names: f32, bf16, i32, ui8.
std::string elementTag(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto intType = dyn_cast<IntegerType>(type))
    os << (intType.isUnsigned() ? "ui" : "i") << intType.getWidth();
  else
    os << type;
  return s;
}

struct HeaderWriter {
  std::string structs;
  std::string prototypes;
  std::set<std::string> defined;

  /// The descriptor struct of a ranked memref of `elementType`, defined
  /// once per header (and guarded, for several headers in one program).
  FailureOr<std::string> descriptor(Location loc, ShapedType type) {
    std::optional<std::string> element =
        cElementType(type.getElementType(), /*inMemory=*/true);
    if (!element)
      return emitError(loc) << "no C type for elements of " << type;
    std::string name = "embbag_memref_" + std::to_string(type.getRank()) +
                       "d_" + elementTag(type.getElementType());
    if (defined.insert(name).second) {
      std::string guard = llvm::StringRef(name).upper() + "_DEFINED";
      llvm::raw_string_ostream os(structs);
      os << "#ifndef " << guard << "\n#define " << guard << "\n"
         << "typedef struct " << name << " {\n"
         << "  " << *element << " *allocated;\n"
         << "  " << *element << " *aligned;\n"
         << "  int64_t offset;\n";
      if (type.getRank() > 0)
        os << "  int64_t sizes[" << type.getRank() << "];\n"
           << "  int64_t strides[" << type.getRank() << "];\n";
      os << "} " << name << ";\n#endif\n\n";
    }
    return name;
  }

  FailureOr<std::string> resultDescriptor(func::FuncOp func, ShapedType type) {
    if (!type.hasRank())
      return func.emitError() << "embbag-aot: unranked result " << type;
    return descriptor(func.getLoc(), type);
  }

  /// `NAME_results`: the struct that MLIR's C interface fills for a
  /// function of several results (memref descriptors and scalars, in
  /// order, with C's natural layout, as LLVM's struct of the converted
  /// result types).
  FailureOr<std::string> resultsStruct(func::FuncOp func) {
    std::string name = (func.getSymName() + "_results").str();
    std::string fields;
    for (auto [i, result] : llvm::enumerate(func.getResultTypes())) {
      std::string field = "result" + std::to_string(i);
      if (auto shaped = dyn_cast<ShapedType>(result)) {
        FailureOr<std::string> desc = resultDescriptor(func, shaped);
        if (failed(desc))
          return failure();
        fields += "  " + *desc + " " + field + ";\n";
        continue;
      }
      std::optional<std::string> scalar =
          cElementType(result, /*inMemory=*/false);
      if (!scalar)
        return func.emitError()
               << "embbag-aot: no C type for result " << result;
      fields += "  " + *scalar + " " + field + ";\n";
    }
    llvm::raw_string_ostream(structs) << "typedef struct " << name << " {\n"
                                      << fields << "} " << name << ";\n\n";
    return name;
  }

  LogicalResult addFunction(func::FuncOp func, ChecksMode mode) {
    FunctionType type = func.getFunctionType();
    SmallVector<std::string> params;
    std::string resultType = "void";
    std::string resultNote;

    if (mode == ChecksMode::Status) {
      // embbag-checks-to-status rejects results with a diagnostic at the
      // function; say nothing here.
      resultType = "int32_t";
    } else if (type.getNumResults() > 1) {
      // The C interface returns several values as one struct, through a
      // pointer passed first: a struct of the results in order.
      FailureOr<std::string> results = resultsStruct(func);
      if (failed(results))
        return failure();
      params.push_back(*results + " *results");
      resultNote =
          " *\n *   results: the results in order; each memref result is a "
          "buffer the\n *   function allocates with malloc: "
          "free(results->resultN.allocated).";
    } else if (type.getNumResults() == 1) {
      Type result = type.getResult(0);
      if (auto shaped = dyn_cast<ShapedType>(result)) {
        FailureOr<std::string> desc = resultDescriptor(func, shaped);
        if (failed(desc))
          return failure();
        // The C interface returns a memref through a pointer passed first.
        params.push_back(*desc + " *result");
        resultNote = " *\n *   result: a buffer the function allocates with "
                     "malloc; free(result->allocated).";
      } else {
        std::optional<std::string> scalar =
            cElementType(result, /*inMemory=*/false);
        if (!scalar)
          return func.emitError()
                 << "embbag-aot: no C type for result " << result;
        resultType = *scalar;
      }
    }

    std::string argNotes;
    for (auto [i, arg] : llvm::enumerate(type.getInputs())) {
      std::string name = "arg" + std::to_string(i);
      std::string mlirType;
      llvm::raw_string_ostream(mlirType) << arg;
      argNotes += " *   " + name + ": " + mlirType + "\n";
      if (auto shaped = dyn_cast<ShapedType>(arg)) {
        if (!shaped.hasRank())
          return func.emitError() << "embbag-aot: unranked argument " << arg
                                  << " has no fixed C descriptor";
        FailureOr<std::string> desc = descriptor(func.getLoc(), shaped);
        if (failed(desc))
          return failure();
        params.push_back(*desc + " *" + name);
        continue;
      }
      std::optional<std::string> scalar = cElementType(arg, false);
      if (!scalar)
        return func.emitError() << "embbag-aot: no C type for argument " << arg;
      params.push_back(*scalar + " " + name);
    }

    llvm::raw_string_ostream os(prototypes);
    os << "/* @" << func.getSymName() << "\n" << argNotes;
    if (mode == ChecksMode::Status)
      os << " * Returns 0, or non-zero when an input breaks an embbag op's "
            "contract\n * (then no output is complete and nothing was read "
            "out of bounds).";
    os << resultNote << "\n */\n";
    os << resultType << " _mlir_ciface_" << func.getSymName() << "("
       << (params.empty() ? "void" : llvm::join(params, ", ")) << ");\n\n";
    return success();
  }

  /// `flags` (the target's, after --checks) and `note` (a paragraph of
  /// the leading comment) say what the target changes.
  std::string render(StringRef guardBase, StringRef source, ChecksMode mode,
                     StringRef flags, StringRef note) const {
    std::string guard;
    for (char c : guardBase)
      guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
    guard += "_H";
    const char *modeName = mode == ChecksMode::Abort    ? "abort"
                           : mode == ChecksMode::Status ? "status"
                                                        : "off";
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "/* Generated by embbag-aot from " << source
       << " (--checks=" << modeName << flags << "); do not edit.\n"
       << " *\n"
       << " * Memref arguments are MLIR's strided descriptors: the buffer "
          "(allocated,\n"
       << " * aligned: pass the same pointer twice), an offset in elements, "
          "and the\n"
       << " * sizes and strides (in elements) of every dimension. Tensor "
          "arguments\n"
       << " * are passed the same way and only read.\n"
       << note << " */\n"
       << "#ifndef " << guard << "\n#define " << guard << "\n\n"
       << "#include <stdbool.h>\n#include <stdint.h>\n\n"
       << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
       << structs << prototypes << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* "
       << guard << " */\n";
    return s;
  }
};

//===----------------------------------------------------------------------===//
// The pipelines
//===----------------------------------------------------------------------===//

LogicalResult addLLVMPipeline(PassManager &pm) {
  embbag::EmbBagToLLVMOptions options;
  if (failed(options.parseFromString(pipelineOptions))) {
    llvm::errs() << "embbag-aot: bad --pipeline-options '" << pipelineOptions
                 << "'\n";
    return failure();
  }
  if (llvm::Error bad = embbag::verifyEmbBagToLLVMOptions(options)) {
    llvm::errs() << "embbag-aot: bad --pipeline-options '" << pipelineOptions
                 << "': " << llvm::toString(std::move(bad)) << "\n";
    return failure();
  }
  options.checks = checksMode != ChecksMode::Off;
  options.status = checksMode == ChecksMode::Status;
  embbag::buildEmbBagToLLVMPipeline(pm, options);
  return success();
}

/// Whether LLVM's NVPTX back end knows `name`: it would only warn about
/// an unknown processor and write PTX for a default one.
bool isKnownNVPTXChip(StringRef name) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      nvptx->createMCSubtargetInfo(triple, "", ""));
  return info && info->isCPUStringValid(name);
}

/// The chip of --target=nvptx: sm_ and a compute capability, with the
/// architecture-specific suffix a or f (sm_90a), that LLVM knows.
FailureOr<std::string> nvptxChip() {
  std::string name = chip.empty() ? "sm_90" : chip.getValue();
  if (!llvm::Regex("^sm_[1-9][0-9]+[af]?$").match(name)) {
    llvm::errs() << "embbag-aot: bad --chip '" << name
                 << "': expected sm_NN, e.g. sm_80, sm_90 or sm_90a\n";
    return failure();
  }
  if (!isKnownNVPTXChip(name)) {
    llvm::errs() << "embbag-aot: bad --chip '" << name
                 << "': LLVM's NVPTX back end does not know this GPU\n";
    return failure();
  }
  return name;
}

/// embbag-to-nvvm, by its registered name, with --pipeline-options and the
/// options --checks and --chip set.
LogicalResult addNVVMPipeline(PassManager &pm) {
  FailureOr<std::string> name = nvptxChip();
  if (failed(name))
    return failure();
  // Set once, by the flags: the same option twice is an error of the
  // options parser, and a silent override would be worse.
  if (llvm::Regex("(^|[ {])(chip|checks|status)=").match(pipelineOptions)) {
    llvm::errs() << "embbag-aot: bad --pipeline-options '" << pipelineOptions
                 << "': chip is set by --chip, checks and status by --checks\n";
    return failure();
  }
  const PassPipelineInfo *info = PassPipelineInfo::lookup("embbag-to-nvvm");
  if (!info) {
    llvm::errs() << "embbag-aot: the embbag-to-nvvm pipeline is not "
                    "registered\n";
    return failure();
  }
  std::string options =
      pipelineOptions + " chip=" + *name +
      " checks=" + (checksMode != ChecksMode::Off ? "1" : "0") +
      " status=" + (checksMode == ChecksMode::Status ? "1" : "0");
  // The options parser reports most errors itself, on stderr, and calls
  // the handler only for some.
  std::string reason;
  if (succeeded(info->addToPipeline(pm, options, [&](const Twine &message) {
        reason = ": " + message.str();
        return failure();
      })))
    return success();
  llvm::errs() << "embbag-aot: bad --pipeline-options '" << pipelineOptions
               << "'" << reason << "\n";
  return failure();
}

//===----------------------------------------------------------------------===//
// Code generation
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() {
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    llvm::errs() << "embbag-aot: " << error << "\n";
    return failure();
  }
  std::string cpu = mcpu;
  std::string features;
  if (cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    SmallVector<std::string> list;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      list.push_back((feature.second ? "+" : "-") + feature.first().str());
    features = llvm::join(list, ",");
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine) {
    llvm::errs() << "embbag-aot: no target machine for CPU '" << cpu << "'\n";
    return failure();
  }
  return machine;
}

/// Adds AddressSanitizer's checks to every function defined in `module`,
/// after optimization, as clang -fsanitize=address does.
void instrumentWithASan(llvm::Module &module, llvm::TargetMachine &machine) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr(llvm::Attribute::SanitizeAddress);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions{}));
  mpm.run(module, mam);
}

LogicalResult writeObject(llvm::Module &module, llvm::TargetMachine &machine,
                          StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "embbag-aot: cannot write " << path << ": " << ec.message()
                 << "\n";
    return failure();
  }
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    llvm::errs() << "embbag-aot: the target cannot emit object files\n";
    return failure();
  }
  pm.run(module);
  return success();
}

/// The directory of libembbag_cuda_runtime.so: --cuda-runtime-dir, or
/// ../lib beside this executable (the build tree's and an install's
/// layout).
FailureOr<std::string> cudaRuntimeDirectory(const char *argv0) {
  SmallString<256> dir(cudaRuntimeDir);
  if (dir.empty()) {
    static int anchor;
    dir = llvm::sys::fs::getMainExecutable(argv0, &anchor);
    llvm::sys::path::remove_filename(dir); // bin/
    llvm::sys::path::remove_filename(dir);
    llvm::sys::path::append(dir, "lib");
  }
  llvm::sys::fs::make_absolute(dir);
  SmallString<256> library(dir);
  llvm::sys::path::append(library, "libembbag_cuda_runtime.so");
  if (!llvm::sys::fs::exists(library)) {
    llvm::errs() << "embbag-aot: --target=nvptx links against " << library
                 << ", which does not exist (--cuda-runtime-dir)\n";
    return failure();
  }
  return std::string(dir);
}

/// What the link of a GPU library adds: the CUDA runtime, found at run
/// time where it was at the link or else beside the library (a copy of
/// both shipped to a GPU machine), and no undefined symbol left (every
/// mgpu* function the host code calls must be the runtime's).
SmallVector<std::string> nvptxLinkFlags(StringRef runtimeDir) {
  SmallVector<std::string> flags = {
      "-L" + runtimeDir.str(), "-Wl,-rpath," + runtimeDir.str(),
      "-Wl,-rpath,$ORIGIN", "-lembbag_cuda_runtime"};
  // AddressSanitizer's run-time functions come with the program.
  if (!sanitizeAddress)
    flags.push_back("-Wl,--no-undefined");
  return flags;
}

LogicalResult linkSharedLibrary(StringRef object, StringRef output,
                                ArrayRef<std::string> extraFlags) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName(ccProgram);
  if (!cc) {
    llvm::errs() << "embbag-aot: cannot find the C compiler driver '"
                 << ccProgram << "' to link " << output << " (--cc)\n";
    return failure();
  }
  SmallVector<std::string> args = {*cc, "-shared", "-o", output.str(),
                                   object.str()};
  args.append(extraFlags.begin(), extraFlags.end());
  for (const std::string &flag : linkFlags)
    args.push_back(flag);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int rc =
      llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0, &error);
  if (rc != 0) {
    llvm::errs() << "embbag-aot: linking " << output << " failed"
                 << (error.empty() ? "" : ": " + error) << "\n";
    return failure();
  }
  return success();
}

/// What --target changes: the libraries the link adds, and the header's
/// flags line and leading note.
struct TargetOutput {
  SmallVector<std::string> linkFlags;
  std::string headerFlags, headerNote;
};

/// The TargetOutput of --target and --chip; failure after a message.
FailureOr<TargetOutput> targetOutput(const char *argv0) {
  TargetOutput out;
  if (target == Target::CPU && !chip.empty()) {
    llvm::errs() << "embbag-aot: --chip is an option of --target=nvptx\n";
    return failure();
  }
  if (target != Target::NVPTX)
    return out;
  FailureOr<std::string> name = nvptxChip();
  if (failed(name))
    return failure();
  // --emit-llvm links nothing.
  if (!emitLLVMIR) {
    FailureOr<std::string> runtimeDir = cudaRuntimeDirectory(argv0);
    if (failed(runtimeDir))
      return failure();
    out.linkFlags = nvptxLinkFlags(*runtimeDir);
  }
  out.headerFlags = " --target=nvptx --chip=" + *name;
  out.headerNote =
      " *\n"
      " * --target=nvptx: the buffers are CUDA device memory (cuMemAlloc,\n"
      " * cudaMalloc, a CUDA tensor's data_ptr()) of the current context.\n"
      " * A call launches its kernels on the calling thread's stream of\n"
      " * libembbag_cuda_runtime.so (embbagCudaSetStream, default: the\n"
      " * legacy default stream) and returns when they are done. Driver\n"
      " * errors abort with the driver's message (embbag-c/CudaRuntime.h).\n";
  return out;
}

/// The input module, with every public definition added to `header` and
/// marked for a C interface; null after a diagnostic.
OwningOpRef<ModuleOp> loadKernels(MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr,
                                  HeaderWriter &header) {
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << "embbag-aot: " << errorMessage << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  bool any = false;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    any = true;
    if (failed(header.addFunction(func, checksMode)))
      return nullptr;
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&context));
  }
  if (!any) {
    emitError(module->getLoc()) << "embbag-aot: " << inputFilename
                                << " has no public func.func to export";
    return nullptr;
  }
  return module;
}

/// The module through --target's pipeline, translated to LLVM IR for
/// `machine` and optimized at -O3 (instrumented with --sanitize=address);
/// null after a message.
std::unique_ptr<llvm::Module> lowerToLLVMIR(ModuleOp module,
                                            llvm::LLVMContext &llvmContext,
                                            llvm::TargetMachine &machine) {
  PassManager pm(module.getContext());
  if (failed(target == Target::NVPTX ? addNVVMPipeline(pm)
                                     : addLLVMPipeline(pm)) ||
      failed(pm.run(module)))
    return nullptr;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, inputFilename);
  if (!llvmModule) {
    llvm::errs() << "embbag-aot: translation to LLVM IR failed\n";
    return nullptr;
  }
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  if (llvm::Error err =
          makeOptimizingTransformer(3, 0, &machine)(llvmModule.get())) {
    llvm::errs() << "embbag-aot: optimizing: " << toString(std::move(err))
                 << "\n";
    return nullptr;
  }
  if (sanitizeAddress)
    instrumentWithASan(*llvmModule, machine);
  return llvmModule;
}

/// `module` at `output`: its LLVM IR with --emit-llvm, else a shared
/// library linked with `linkFlags`.
LogicalResult writeLibrary(llvm::Module &module, llvm::TargetMachine &machine,
                           StringRef output, ArrayRef<std::string> linkFlags) {
  if (emitLLVMIR) {
    std::error_code ec;
    llvm::raw_fd_ostream os(output, ec);
    if (ec) {
      llvm::errs() << "embbag-aot: cannot write " << output << "\n";
      return failure();
    }
    module.print(os, nullptr);
    return success();
  }
  SmallString<128> object;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("embbag-aot", "o", fd, object)) {
    llvm::errs() << "embbag-aot: cannot create a temporary object file\n";
    return failure();
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  llvm::FileRemover removeObject(object);
  if (failed(writeObject(module, machine, object)))
    return failure();
  return linkSharedLibrary(object, output, linkFlags);
}

/// The C header: --header, or libNAME.h beside libNAME.so.
LogicalResult writeHeader(const HeaderWriter &header, StringRef output,
                          const TargetOutput &targetOut) {
  SmallString<128> headerPath(headerFilename.empty() ? output.str()
                                                     : headerFilename);
  if (headerFilename.empty())
    llvm::sys::path::replace_extension(headerPath, "h");
  std::string error;
  auto headerFile = openOutputFile(headerPath, &error);
  if (!headerFile) {
    llvm::errs() << "embbag-aot: " << error << "\n";
    return failure();
  }
  headerFile->os() << header.render(llvm::sys::path::stem(headerPath),
                                    llvm::sys::path::filename(inputFilename),
                                    checksMode, targetOut.headerFlags,
                                    targetOut.headerNote);
  headerFile->keep();
  return success();
}

int run(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  cl::HideUnrelatedOptions(aotCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "embbag-aot: embbag kernels to a shared library and a C header\n");
  FailureOr<TargetOutput> targetOut = targetOutput(argv[0]);
  if (failed(targetOut))
    return 1;
  embbag::registerAllEmbBagPipelines();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  embbag::registerAllEmbBagDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  HeaderWriter header;
  OwningOpRef<ModuleOp> module = loadKernels(context, sourceMgr, header);
  if (!module)
    return 1;

  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine();
  if (failed(machine))
    return 1;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      lowerToLLVMIR(*module, llvmContext, **machine);
  if (!llvmModule ||
      failed(writeLibrary(*llvmModule, **machine, outputFilename,
                          targetOut->linkFlags)) ||
      failed(writeHeader(header, outputFilename, *targetOut)))
    return 1;
  return 0;
}

} // namespace

int main(int argc, char **argv) { return run(argc, argv); }
