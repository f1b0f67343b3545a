//===- Pipelines.cpp - EmbBag pass pipelines ------------------------------===//
//
// `embbag-to-llvm`: embbag ops on tensors all the way to the LLVM dialect.
//
//   embbag-verify-constants            warn of (strict: reject) constant
//                                      operands out of range
//   [path=linalg: convert-embbag-to-linalg for embbag.packed]
//   [path=gpu-loops: convert-embbag-to-gpu{host-loops} for what it takes,
//                    with batch-tables batched as on the GPU]
//   convert-embbag-to-loops            scf loops + vector accumulators (on
//                                      the module: shared dynamic-row
//                                      versions)
//   canonicalize, cse
//   eliminate-empty-tensors            write into the caller's buffer
//   one-shot-bufferize                 identity layouts at function boundaries,
//                                      loops may yield new buffers
//   2 x (canonicalize,                 the shared kernels return nothing
//        drop-equivalent-buffer-results)
//   buffer-deallocation-pipeline
//   convert-bufferization-to-memref    the clones deallocation adds
//   canonicalize
//   embbag-unswitch-row-dispatch       dynamic rows: dispatch out of the
//                                      bag loop
//   embbag-zero-fill-to-memset         zero fills of whole buffers
//   convert-linalg-to-loops            what bufferization left as linalg
//   [parallel: embbag-outline-batched-kernels (one function per op of a
//              batched chunk loop),
//              convert-embbag-work-chunks-to-openmp (the bag loops,
//              guided schedule), scf-forall-to-parallel,
//              convert-scf-to-openmp,
//              embbag-inline-parallel-alloca-scopes,
//              embbag-limit-omp-threads, embbag-set-omp-blocktime]
//   [status: embbag-checks-to-status   checks return a status instead]
//   convert-embbag-assert-to-llvm      embbag's checks: stderr, then abort
//   convert-vector-to-scf, lower-affine, convert-scf-to-cf
//   expand-strided-metadata
//   arith-expand{include-bf16}         bf16 rounding inline, not a libcall
//   convert-{vector,memref,arith,math,index,ub,func,cf,openmp}-to-llvm
//   reconcile-unrealized-casts
//   embbag-set-target-triple           the host's, unless the module has one
//
//===----------------------------------------------------------------------===//

#include "embbag/Pipelines/Pipelines.h"

#include "embbag/Conversion/Passes.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Error.h"

using namespace mlir;

llvm::Error
mlir::embbag::verifyEmbBagToLLVMOptions(const EmbBagToLLVMOptions &options) {
  return verifyConvertEmbBagToLoopsOptions(
      options.getConvertEmbBagToLoopsOptions());
}

void mlir::embbag::buildEmbBagToLLVMPipeline(
    OpPassManager &pm, const EmbBagToLLVMOptions &options) {
  ConvertEmbBagToLoopsOptions loops = options.getConvertEmbBagToLoopsOptions();
  EmbBagVerifyConstantsOptions verifyConstants;
  verifyConstants.warningsOnly = !options.strictConstants;
  pm.addPass(createEmbBagVerifyConstants(verifyConstants));

  if (options.path == LoweringPath::Linalg) {
    // `checks` covers both lowerings; the loops below take what linalg
    // leaves.
    ConvertEmbBagToLinalgOptions linalg;
    linalg.checks = loops.checks;
    linalg.leaveUnsupported = true;
    pm.addNestedPass<func::FuncOp>(createConvertEmbBagToLinalg(linalg));
  }
  if (options.path == LoweringPath::GPULoops) {
    // The GPU kernels' code, run by the host (docs/GPU.md).
    ConvertEmbBagToGPUOptions gpu;
    gpu.checks = loops.checks;
    gpu.hostLoops = true;
    gpu.leaveUnsupported = true;
    // batch-tables batches the kernels too; the loops batch what is left.
    gpu.batchTables = loops.batchTables;
    pm.addNestedPass<func::FuncOp>(createConvertEmbBagToGPU(gpu));
  }
  // On the module: the ops of dynamic row length share their kernels'
  // versions in functions of it.
  pm.addPass(createConvertEmbBagToLoops(loops));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels that materialize their result into a caller's buffer compute in
  // that buffer directly instead of in a new one that is then copied.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop whose body yields a new tensor (e.g. an embbag result) rather
  // than one equivalent to its iter_arg gets a new buffer per iteration
  // instead of an error; the deallocation pipeline frees them.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // The shared kernels return their result argument's buffer: dropped, or
  // the deallocation would return a copy. Twice: a dispatcher returns what
  // its versions did.
  for (int round = 0; round < 2; ++round) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  }
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // The deallocation pipeline clones buffers whose ownership it cannot
  // prove (a returned constant or argument, a buffer yielded by a loop):
  // bufferization.clone becomes memref.alloc + memref.copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  // Dynamic rows: the row-length dispatch leaves the bag loop.
  pm.addPass(createEmbBagUnswitchRowDispatch());
  // Copies between strided views (a tensor.concat's operands into their
  // columns) become loops, not calls of MLIR's runtime function memrefCopy:
  // a library needs libc only.
  pm.addNestedPass<func::FuncOp>(createEmbBagStridedCopyToLinalg());
  // Bufferization leaves linalg ops behind (tensor.splat becomes linalg.map);
  // a fill of zeros (a dense table gradient) becomes a memset first.
  pm.addNestedPass<func::FuncOp>(createEmbBagZeroFillToMemset());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (options.parallel) {
    // The bag loops are scf.foralls on buffers by now: OpenMP worksharing
    // loops over chunks of bags, with a guided schedule (the chunks cost
    // unevenly); any other loop gets upstream's static one.
    // With batch-tables: each op of a chunk loop in a function of its own.
    pm.addPass(createEmbBagOutlineBatchedKernels());
    ConvertEmbBagWorkChunksToOpenMPOptions workChunks;
    options.copyTo(workChunks);
    pm.addPass(createConvertEmbBagWorkChunksToOpenMP(workChunks));
    pm.addPass(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    // scf-to-openmp wraps the loop body in a memref.alloca_scope, which must
    // stay one block; the kernel allocates nothing per bag, so the
    // canonicalizer inlines the scope before scf-to-cf splits the body.
    pm.addPass(createCanonicalizerPass());
    // ... and the scopes it keeps around a func.call (dealloc_helper).
    pm.addPass(createEmbBagInlineParallelAllocaScopes());
    // As many threads as the loop has chunks, at most.
    pm.addPass(createEmbBagLimitOmpThreads());
    if (options.ompBlocktime >= 0) {
      EmbBagSetOmpBlocktimeOptions blocktime;
      blocktime.milliseconds = options.ompBlocktime;
      pm.addPass(createEmbBagSetOmpBlocktime(blocktime));
    }
  }

  // Status mode: the checks become an early return of a status before the
  // abort lowering below would see them.
  if (options.status)
    pm.addPass(createEmbBagChecksToStatus());
  pm.addPass(createConvertEmbBagAssertToLLVM());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Without AVX512-BF16, LLVM rounds f32 to bf16 with a call to
  // __truncsfbf2 per element; as integer ops it vectorises with the rest.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // LLVM's code generators call memcpy / memset only for a known triple.
  pm.addPass(createEmbBagSetTargetTriple());
}

/// Parses the options `text` of the pipeline `name` and adds it to `pm`.
/// Bad values stop the parsing of the pipeline, before anything runs.
static LogicalResult
addPipelineFromText(StringRef name, embbag::EmbBagToLLVMPipelineBuilder build,
                    OpPassManager &pm, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  embbag::EmbBagToLLVMOptions options;
  if (failed(options.parseFromString(text)))
    return failure();
  if (llvm::Error error = embbag::verifyEmbBagToLLVMOptions(options))
    return errorHandler(name + ": " + llvm::toString(std::move(error)));
  build(pm, options);
  return success();
}

void mlir::embbag::registerEmbBagToLLVMOptionsPipeline(
    StringRef name, StringRef description, EmbBagToLLVMPipelineBuilder build) {
  registerPassPipeline(
      name, description,
      [name = name.str(), build](OpPassManager &pm, StringRef text,
                                 auto errorHandler) {
        return addPipelineFromText(name, build, pm, text, errorHandler);
      },
      [](function_ref<void(const detail::PassOptions &)> printOptions) {
        printOptions(EmbBagToLLVMOptions());
      });
}

void mlir::embbag::registerEmbBagToLLVMPipeline() {
  registerEmbBagToLLVMOptionsPipeline(
      "embbag-to-llvm",
      "Lower embbag ops on tensors (with func, arith, tensor and "
      "bufferization ops) to the LLVM dialect, ready for mlir-runner and "
      "mlir-translate --mlir-to-llvmir; parallel=1 distributes the bags "
      "with OpenMP (link libomp; OMP_NUM_THREADS sets the thread count)",
      buildEmbBagToLLVMPipeline);
}
