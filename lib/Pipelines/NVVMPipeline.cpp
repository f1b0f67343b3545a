//===- NVVMPipeline.cpp - embbag ops to PTX kernels and host code --------===//
//
// `embbag-to-nvvm`: embbag ops on tensors to kernels compiled to PTX by
// LLVM's NVPTX back end (no CUDA toolkit) and host code in the LLVM
// dialect that launches them through the mgpu* runtime functions
// (docs/GPU.md):
//
//   embbag-verify-constants
//   convert-embbag-to-gpu              gpu.launch per op on buffers, async
//                                      on the thread's stream; checks on the
//                                      host and through a flag word, read
//                                      after a gpu.wait for the kernel
//                                      [batch-tables: one launch for the
//                                      independent ops of a block]
//   canonicalize, cse
//   one-shot-bufferize                 the functions' tensors are device
//                                      buffers (identity layouts)
//   canonicalize
//   [status: embbag-checks-to-status]
//   convert-embbag-assert-to-llvm      the host's checks: stderr, abort
//   gpu-launch-sink-index-computations constants into the kernels
//   gpu-kernel-outlining               gpu.func in a gpu.module per kernel
//   nvvm-attach-target{chip, features, O}
//   gpu.module(embbag-set-kernel-occupancy{min-blocks}: nvvm.minctasm,
//              convert-scf-to-cf, convert-gpu-to-nvvm, canonicalize, cse,
//              reconcile-unrealized-casts)
//   gpu-module-to-binary{format=isa}   PTX in a gpu.binary
//   host: convert-scf-to-cf, expand-strided-metadata, lower-affine,
//         convert-{arith,math,index,func,cf}-to-llvm, finalize-memref,
//         gpu-to-llvm, reconcile-unrealized-casts
//
//===----------------------------------------------------------------------===//

#include "embbag/Pipelines/Pipelines.h"

#include "embbag/Conversion/Passes.h"
#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The kernels of the gpu.modules, to PTX.
static void addKernelCompilation(OpPassManager &pm,
                                 const embbag::EmbBagToNVVMOptions &options) {
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  embbag::EmbBagSetKernelOccupancyOptions occupancy;
  occupancy.minBlocks = options.minBlocksPerSM;
  kernels.addPass(embbag::createEmbBagSetKernelOccupancy(occupancy));
  // scf first: a structured op left for convert-gpu-to-nvvm would leave an
  // unrealized cast that the translation to LLVM IR rejects.
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// The host code, with its launches, to the LLVM dialect.
static void addHostLowering(OpPassManager &pm) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The most bytes of parameters a kernel may take: 32764 from PTX ISA 8.1
/// on sm_70 and newer, else 4352 (`features` names the ISA as +ptxNN).
static unsigned kernelParamBytes(const embbag::EmbBagToNVVMOptions &options) {
  auto number = [](StringRef text, StringRef prefix) {
    unsigned value = 0;
    size_t at = text.find(prefix);
    if (at != StringRef::npos)
      (void)text.substr(at + prefix.size()).consumeInteger(10, value);
    return value;
  };
  bool large = number(options.features, "+ptx") >= 81 &&
               number(options.chip, "sm_") >= 70;
  return large ? 32764 : 4352;
}

void mlir::embbag::buildEmbBagToNVVMPipeline(
    OpPassManager &pm, const EmbBagToNVVMOptions &options) {
  EmbBagVerifyConstantsOptions verifyConstants;
  verifyConstants.warningsOnly = !options.strictConstants;
  pm.addPass(createEmbBagVerifyConstants(verifyConstants));
  ConvertEmbBagToGPUOptions gpu;
  options.copyTo(gpu);
  gpu.kernelParamBytes = kernelParamBytes(options);
  // On the module: the checked kernels' runtime function is declared there.
  pm.addPass(createConvertEmbBagToGPU(gpu));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Every tensor of a public function is a buffer in device memory.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  if (options.status)
    pm.addPass(createEmbBagChecksToStatus());
  pm.addPass(createConvertEmbBagAssertToLLVM());
  addKernelCompilation(pm, options);
  addHostLowering(pm);
  // The host code's triple, as embbag-to-llvm sets it.
  pm.addPass(createEmbBagSetTargetTriple());
}

void mlir::embbag::registerEmbBagToNVVMPipeline() {
  PassPipelineRegistration<EmbBagToNVVMOptions>(
      "embbag-to-nvvm",
      "Lower embbag ops on tensors to PTX kernels (LLVM's NVPTX back end, no "
      "CUDA toolkit) in gpu.binary ops and host code in the LLVM dialect "
      "that launches them through the mgpu* runtime functions (link "
      "embbag's CUDA runtime library); results go into destination buffers "
      "(docs/GPU.md)",
      buildEmbBagToNVVMPipeline);
}
