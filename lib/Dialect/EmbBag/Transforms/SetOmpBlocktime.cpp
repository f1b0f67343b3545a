//===- SetOmpBlocktime.cpp - libomp's blocktime before parallel regions ---===//
//
// A call to `kmp_set_blocktime(ms)` before every `omp.parallel`: the workers
// of the region then spin `ms` milliseconds after it instead of libomp's
// default 200, and sleep. Why the embbag pipeline wants 0 is in the pass
// description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "OmpRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSETOMPBLOCKTIME
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kSetBlocktime = "kmp_set_blocktime";

struct EmbBagSetOmpBlocktime
    : public embbag::impl::EmbBagSetOmpBlocktimeBase<EmbBagSetOmpBlocktime> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::ParallelOp> regions;
    module.walk([&](omp::ParallelOp region) { regions.push_back(region); });
    if (regions.empty())
      return;
    OpBuilder builder(module.getContext());
    FailureOr<func::FuncOp> setBlocktime = embbag::getOrDeclareOmpFunction(
        module, kSetBlocktime,
        builder.getFunctionType({builder.getI32Type()}, {}), getArgument());
    if (failed(setBlocktime))
      return signalPassFailure();
    for (omp::ParallelOp region : regions) {
      builder.setInsertionPoint(region);
      Value ms = arith::ConstantIntOp::create(builder, region.getLoc(),
                                              builder.getI32Type(),
                                              milliseconds);
      func::CallOp::create(builder, region.getLoc(), *setBlocktime,
                           ValueRange{ms});
    }
  }
};

} // namespace
