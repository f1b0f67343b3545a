//===- ConvertMPIToLLVM.cpp - The embbag-convert-mpi-to-llvm pass ---------===//

#include "ShardingUtils.h"

#include "embbag/Pipelines/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGCONVERTMPITOLLVM
#include "embbag/Pipelines/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;

namespace {

struct ConvertMPIToLLVMPass
    : public embbag::impl::EmbBagConvertMPIToLLVMBase<ConvertMPIToLLVMPass> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // mlir-runner does not load DLTI: drop the entry the pipeline added.
    if (getOperation()->getAttr(DLTIDialect::kMapAttrName) ==
        getMPICHImplementationMap(&getContext()))
      getOperation()->removeAttr(DLTIDialect::kMapAttrName);
  }
};

} // namespace
