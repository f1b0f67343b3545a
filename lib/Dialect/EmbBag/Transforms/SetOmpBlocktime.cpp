//===- SetOmpBlocktime.cpp - libomp's blocktime before parallel regions ---===//
//
// A call to `kmp_set_blocktime(ms)` before every `omp.parallel`: the workers
// of the region then spin `ms` milliseconds after it instead of libomp's
// default 200, and sleep. Why the embbag pipeline wants 0 is in the pass
// description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGSETOMPBLOCKTIME
#include "embbag/Dialect/EmbBag/Transforms/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kSetBlocktime = "kmp_set_blocktime";

/// The declaration of `kmp_set_blocktime(i32)`, added when missing. A symbol
/// of that name that is not such a function is an error.
FailureOr<func::FuncOp> getOrDeclareSetBlocktime(ModuleOp module) {
  OpBuilder builder(module.getContext());
  auto type = builder.getFunctionType({builder.getI32Type()}, {});
  Operation *existing = SymbolTable::lookupSymbolIn(module, kSetBlocktime);
  if (auto func = dyn_cast_or_null<func::FuncOp>(existing)) {
    if (func.getFunctionType() == type)
      return func;
  }
  if (existing) {
    existing->emitError() << "'" << kSetBlocktime
                          << "' is libomp's (i32) -> () function; "
                             "embbag-set-omp-blocktime cannot call this one";
    return failure();
  }
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), kSetBlocktime,
                                   type);
  decl.setPrivate();
  return decl;
}

struct EmbBagSetOmpBlocktime
    : public embbag::impl::EmbBagSetOmpBlocktimeBase<EmbBagSetOmpBlocktime> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::ParallelOp> regions;
    module.walk([&](omp::ParallelOp region) { regions.push_back(region); });
    if (regions.empty())
      return;
    FailureOr<func::FuncOp> setBlocktime = getOrDeclareSetBlocktime(module);
    if (failed(setBlocktime))
      return signalPassFailure();
    for (omp::ParallelOp region : regions) {
      OpBuilder builder(region);
      Value ms = arith::ConstantIntOp::create(builder, region.getLoc(),
                                              builder.getI32Type(),
                                              milliseconds);
      func::CallOp::create(builder, region.getLoc(), *setBlocktime,
                           ValueRange{ms});
    }
  }
};

} // namespace
