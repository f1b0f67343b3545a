//===- Host.h - The host side of the GPU kernels ----------------*- C++ -*-===//
//
// What the lowerings of the bag ops (EmbBagToGPU.cpp) and of the training
// ops (TrainingLowering.cpp) share on the host, before the launches: the
// operands as device buffers, the results' destinations, the launches, and
// the runtime contract split between the host and the device's flag word.
// Private to EmbBagToGPU.
//
//===----------------------------------------------------------------------===//

#ifndef EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_HOST_H
#define EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_HOST_H

#include "BagKernel.h"
#include "TrainingKernel.h"

#include "embbag/Conversion/EmbBagCommon/ContractChecks.h"
#include "embbag/Conversion/EmbBagToGPU/EmbBagToGPU.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::embbag::gpu_lowering {

/// The host's checks compare scalars and shapes only.
constexpr unsigned kHostCheckVectorBits = 128;

/// The flag word's bit for segment ids that are not sorted: above the
/// contract's rules, whose bits are 1 << rule.
constexpr int32_t kUnsortedBit = int32_t(1) << 30;

/// The contract's evaluator for a kernel: the host checks what it holds
/// (scalars, shapes) before the launch; the rules on the offsets and
/// indices, which live on the device, are flagged by the threads.
using KernelChecks = lowering::FlagWordChecks;

/// `tensor` as a read-only buffer whose layout any buffer casts to, with
/// unit stride along the last dimension (what vector loads need).
Value readBuffer(ImplicitLocOpBuilder &b, Value tensor);

/// The memref that `result`, of `op`, is only materialized in, when it
/// dominates `op` and has the result's rank: the kernel writes there
/// directly.
bufferization::MaterializeInDestinationOp findDestination(Value result,
                                                          Operation *op);

/// A destination as [num_bags, row] (or [num_emb, row]).
Value collapseDestination(ImplicitLocOpBuilder &b, Value dest);

/// A destination as one dimension (a weights gradient's).
Value flattenDestination(ImplicitLocOpBuilder &b, Value dest);

/// The address of `buffer`'s first element (index).
Value firstElementAddress(ImplicitLocOpBuilder &b, Value buffer);

/// The lanes per bag: the power of two from 1 to 32 that covers the
/// row's loads (`loadsPerRow`), or 32.
Value lanesFor(ImplicitLocOpBuilder &b, Value loadsPerRow);

/// The threads' code of a launch, at a thread's block and thread ids.
using ThreadBuilder =
    function_ref<void(ImplicitLocOpBuilder &, Value block, Value thread)>;

/// Runs the threads' code over `numBlocks` blocks of kBlockSize threads: a
/// stream-ordered, asynchronous gpu.launch (none for no blocks), which the
/// host waits for if `hostWaits`; or two nested scf.parallel loops on the
/// host.
void buildLaunch(ImplicitLocOpBuilder &b, ThreadBuilder thread, Value numBlocks,
                 bool hostLoops, bool hostWaits);

/// The flag word the kernel's checks set, zeroed: the runtime's word on
/// the GPU, or a stack slot for host loops.
Value allocateFlag(ImplicitLocOpBuilder &b, bool hostLoops);

/// The kernel's buffers, sizes and clauses of the bag op `op` (a training
/// op's forward op too); `checks` gives the bits of the device's rules.
BagKernel buildBagKernel(ImplicitLocOpBuilder &b, BagOpInterface op,
                         const KernelChecks &checks,
                         const ConvertEmbBagToGPUOptions &options);

/// Before the launch: with no segments, every id breaks the range rule,
/// and no thread runs to flag it. Or'ed into the word, which the other
/// kernels of a launch may share.
void flagIdsWithoutSegments(ImplicitLocOpBuilder &b, const BagKernel &k);

/// Reports the device's rules of `op`'s kernel `k` from its `flags` (in
/// the bits the checks read), then ids that are in range but not sorted: a
/// limit of the GPU's segments, not a broken contract.
void reportFlags(ImplicitLocOpBuilder &b, Operation *op, KernelChecks &checks,
                 const BagKernel &k, Value flags);

//===----------------------------------------------------------------------===//
// The training ops (TrainingLowering.cpp)
//===----------------------------------------------------------------------===//

/// Why this lowering does not take the training op `op`, or nothing when
/// it does.
std::optional<StringRef> getTrainingUnsupportedReason(Operation *op,
                                                      bool hostLoops);

/// Whether the kernels of the training op `op` need scratch memory, which
/// on the GPU comes from the runtime (`embbagCudaScratch`).
bool needsScratch(Operation *op);

/// Declares the runtime's scratch memory function in `module` unless it
/// is.
void declareScratchFunction(ModuleOp module);

/// Whether the training op `op`'s kernels put results in new device
/// memory (a sparse gradient's), which needs declareResultFunctions.
bool allocatesResults(Operation *op);

/// Declares the runtime functions of results in new device memory: the
/// allocation, and the host-visible word the kernels leave a count in.
void declareResultFunctions(ModuleOp module);

/// The patterns of the training ops this lowering takes.
void populateTrainingOpToGPUPatterns(RewritePatternSet &patterns,
                                     const ConvertEmbBagToGPUOptions &options);

} // namespace mlir::embbag::gpu_lowering

#endif // EMBBAG_LIB_CONVERSION_EMBBAGTOGPU_HOST_H
