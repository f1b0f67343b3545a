//===- Pipelines.h - EmbBag pass pipelines ----------------------*- C++ -*-===//

#ifndef EMBBAG_PIPELINES_PIPELINES_H
#define EMBBAG_PIPELINES_PIPELINES_H

#include "embbag/Conversion/EmbBagToGPU/EmbBagToGPU.h"
#include "embbag/Conversion/EmbBagToLoops/EmbBagToLoops.h"
#include "embbag/Conversion/EmbBagWorkChunksToOpenMP/EmbBagWorkChunksToOpenMP.h"

#include "mlir/Pass/PassOptions.h"

namespace llvm {
class Error;
} // namespace llvm

namespace mlir {
class OpPassManager;

namespace embbag {

#define GEN_PASS_PIPELINE_OPTIONS_CONVERTEMBBAGTOLOOPS
#define GEN_PASS_PIPELINE_OPTIONS_EMBBAGTOGPUFORWARDEDOPTIONS
#define GEN_PASS_PIPELINE_OPTIONS_EMBBAGWORKCHUNKSFORWARDEDOPTIONS
#include "embbag/Conversion/PassOptions.h.inc"

/// Options of both lowering pipelines: what a broken runtime contract does.
struct ContractReportOptions : public virtual detail::PassOptions {
  Option<bool> strictConstants{
      *this, "strict-constants",
      llvm::cl::desc("Constant operands that break an op's runtime contract "
                     "are compile-time errors (default: warnings, and the "
                     "runtime checks stop the program if the op runs)"),
      llvm::cl::init(false)};
  Option<bool> status{
      *this, "status",
      llvm::cl::desc("Report a broken runtime contract as a non-zero i32 "
                     "result of every public function instead of aborting "
                     "(needs checks; see embbag-checks-to-status)"),
      llvm::cl::init(false)};
};

/// Which lowering `--embbag-to-llvm` takes for the embbag ops.
enum class LoweringPath { Loops, Linalg, GPULoops };

/// Options of `--embbag-to-llvm`: every option of convert-embbag-to-loops,
/// declared in Passes.td and forwarded to it as one struct
/// (getConvertEmbBagToLoopsOptions), `omp-schedule` of
/// convert-embbag-work-chunks-to-openmp, ContractReportOptions and the
/// pipeline's own below. `checks` and `parallel` also steer the rest of the
/// pipeline.
struct EmbBagToLLVMOptions : public PassPipelineOptions<EmbBagToLLVMOptions>,
                             public ConvertEmbBagToLoopsPipelineOptions,
                             public EmbBagWorkChunksForwardedOptions,
                             public ContractReportOptions {
  PassOptions::Option<LoweringPath> path{
      *this, "path", llvm::cl::desc("Which lowering of the embbag ops to use"),
      llvm::cl::init(LoweringPath::Loops),
      llvm::cl::values(
          clEnumValN(LoweringPath::Loops, "loops",
                     "scf loops with vector accumulators, every op (default)"),
          clEnumValN(LoweringPath::Linalg, "linalg",
                     "linalg.generic for embbag.packed, loops for the "
                     "others"),
          clEnumValN(LoweringPath::GPULoops, "gpu-loops",
                     "the GPU kernels of embbag-to-nvvm as loops on the "
                     "host, for the ops they support (testing without a "
                     "GPU); loops for the others"))};
  PassOptions::Option<int> ompBlocktime{
      *this, "omp-blocktime",
      llvm::cl::desc("With parallel: milliseconds libomp's workers spin after "
                     "a region before they sleep (default 0: at once, so "
                     "that they leave the cores to the process's other "
                     "threads; -1: libomp's own setting, KMP_BLOCKTIME)"),
      llvm::cl::init(0)};
};

/// Checks the options before a pipeline is built from them: an error naming
/// the first bad one (verifyConvertEmbBagToLoopsOptions), or success.
llvm::Error verifyEmbBagToLLVMOptions(const EmbBagToLLVMOptions &options);

/// Adds the whole lowering from a module of func.func on tensors holding
/// embbag, arith, tensor and bufferization ops to the LLVM dialect. Bad
/// options (verifyEmbBagToLLVMOptions) make convert-embbag-to-loops fail.
void buildEmbBagToLLVMPipeline(OpPassManager &pm,
                               const EmbBagToLLVMOptions &options);

/// Registers `embbag-to-llvm` with the global pipeline registry; its options
/// are verified when a pipeline naming it is parsed.
void registerEmbBagToLLVMPipeline();

/// Adds a pipeline built from EmbBagToLLVMOptions to a pass manager.
using EmbBagToLLVMPipelineBuilder = void (*)(OpPassManager &,
                                             const EmbBagToLLVMOptions &);

/// Registers the pipeline `name` built by `build` from EmbBagToLLVMOptions,
/// which are verified (verifyEmbBagToLLVMOptions) when a pipeline naming it
/// is parsed.
void registerEmbBagToLLVMOptionsPipeline(StringRef name, StringRef description,
                                         EmbBagToLLVMPipelineBuilder build);

/// Options of `--embbag-to-nvvm` (docs/GPU.md): the options of
/// convert-embbag-to-gpu that Passes.td's EmbBagToGPUForwardedOptions names,
/// ContractReportOptions, and the pipeline's own below.
struct EmbBagToNVVMOptions : public PassPipelineOptions<EmbBagToNVVMOptions>,
                             public EmbBagToGPUForwardedOptions,
                             public ContractReportOptions {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The NVIDIA GPU the PTX is for (nvvm-attach-target's "
                     "chip), e.g. sm_80 or sm_90"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("nvvm-attach-target's features: the PTX ISA version "
                     "(+ptxNN). From 8.1 (CUDA 12.1 drivers) a launch may "
                     "take 32764 bytes of parameters instead of 4352, which "
                     "batch-tables uses"),
      llvm::cl::init("+ptx81")};
  PassOptions::Option<unsigned> minBlocksPerSM{
      *this, "min-blocks-per-sm",
      llvm::cl::desc("Blocks of each kernel that ptxas should keep resident "
                     "per SM, bounding its registers (embbag-set-kernel-"
                     "occupancy; 0: ptxas decides)"),
      llvm::cl::init(4)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM's optimization level for the kernels (0 to 3)"),
      llvm::cl::init(3)};
};

/// Adds the lowering of a module of func.func on tensors and buffers
/// holding embbag ops to kernels in gpu.modules, compiled to PTX in
/// gpu.binary ops, and host code in the LLVM dialect that launches them
/// (through the mgpu* runtime functions).
void buildEmbBagToNVVMPipeline(OpPassManager &pm,
                               const EmbBagToNVVMOptions &options);

/// Registers `embbag-to-nvvm` with the global pipeline registry.
void registerEmbBagToNVVMPipeline();

/// Adds `embbag-shard-to-llvm`: the functions of a module annotated with the
/// shard dialect are sharded (propagation, partition), their collectives
/// lowered to MPI, MPI initialised and finalised in `@main`, then the whole
/// module goes down to the LLVM dialect as with buildEmbBagToLLVMPipeline
/// (docs/Sharding.md).
void buildEmbBagShardToLLVMPipeline(OpPassManager &pm,
                                    const EmbBagToLLVMOptions &options);

/// Registers `embbag-shard-to-llvm` with the global pipeline registry.
void registerEmbBagShardToLLVMPipeline();

} // namespace embbag
} // namespace mlir

#endif // EMBBAG_PIPELINES_PIPELINES_H
