//===- Pipelines.h - EmbBag pass pipelines ----------------------*- C++ -*-===//

#ifndef EMBBAG_PIPELINES_PIPELINES_H
#define EMBBAG_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace embbag {

/// Which lowering `--embbag-to-llvm` takes for the embbag ops.
enum class LoweringPath { Loops, Linalg };

/// Options of `--embbag-to-llvm`.
struct EmbBagToLLVMOptions : public PassPipelineOptions<EmbBagToLLVMOptions> {
  PassOptions::Option<LoweringPath> path{
      *this, "path", llvm::cl::desc("Which lowering of the embbag ops to use"),
      llvm::cl::init(LoweringPath::Loops),
      llvm::cl::values(
          clEnumValN(LoweringPath::Loops, "loops",
                     "scf loops with vector accumulators, every op (default)"),
          clEnumValN(LoweringPath::Linalg, "linalg",
                     "linalg.generic for embbag.packed, loops for the "
                     "others"))};
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The machine the kernels are for: host (default), "
                     "avx512, avx2 or generic"),
      llvm::cl::init("host")};
  PassOptions::Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Width in bits of the accumulator vectors (0: the "
                     "target's; 256: AVX2, 512: AVX-512)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> maxVectors{
      *this, "max-vectors",
      llvm::cl::desc("Accumulator vectors kept in registers per pass over a "
                     "bag (0: as many as the register file allows)"),
      llvm::cl::init(0)};
  PassOptions::Option<int> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("Prefetch rows this many indices ahead (-1: from the "
                     "row and table sizes, 0: no prefetch)"),
      llvm::cl::init(-1)};
  PassOptions::Option<int> prefetchLocality{
      *this, "prefetch-locality",
      llvm::cl::desc("Where prefetched rows go: 3 every cache level "
                     "(prefetcht0), 2 L2 and beyond (prefetcht1), 1 the "
                     "last level (prefetcht2), 0 non-temporal; -1: 3 for "
                     "a table of at most 4 MiB, else 2 (at run time when "
                     "its size is dynamic)"),
      llvm::cl::init(-1)};
  PassOptions::Option<unsigned> unroll{
      *this, "unroll",
      llvm::cl::desc("Unroll the loop over a bag's indices by this factor"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Distribute the bags over threads with OpenMP (link "
                     "libomp; OMP_NUM_THREADS sets the thread count)"),
      llvm::cl::init(false)};
  PassOptions::Option<int> ompBlocktime{
      *this, "omp-blocktime",
      llvm::cl::desc("With parallel: milliseconds libomp's workers spin after "
                     "a region before they sleep (default 0: at once, so "
                     "that they leave the cores to the process's other "
                     "threads; -1: libomp's own setting, KMP_BLOCKTIME)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> strictConstants{
      *this, "strict-constants",
      llvm::cl::desc("Constant operands that break an op's runtime contract "
                     "are compile-time errors (default: warnings, and the "
                     "runtime checks stop the program if the op runs)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> checks{
      *this, "checks",
      llvm::cl::desc("Check the runtime contract of every op and stop with a "
                     "message on stderr when it is broken (default on)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> status{
      *this, "status",
      llvm::cl::desc("Report a broken runtime contract as a non-zero i32 "
                     "result of every public function instead of aborting "
                     "(needs checks; see embbag-checks-to-status)"),
      llvm::cl::init(false)};
};

/// Adds the whole lowering from a module of func.func on tensors holding
/// embbag, arith, tensor and bufferization ops to the LLVM dialect.
void buildEmbBagToLLVMPipeline(OpPassManager &pm,
                               const EmbBagToLLVMOptions &options);

/// Registers `embbag-to-llvm` with the global pipeline registry.
void registerEmbBagToLLVMPipeline();

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
