//===- InsertMPIInitFinalize.cpp - embbag-insert-mpi-init-finalize --------===//

#include "ShardingUtils.h"

#include "embbag/Pipelines/Passes.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGINSERTMPIINITFINALIZE
#include "embbag/Pipelines/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;

namespace {

struct InsertMPIInitFinalizePass
    : public embbag::impl::EmbBagInsertMPIInitFinalizeBase<
          InsertMPIInitFinalizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The MPI lowering asks DLTI which implementation to call and picks
    // MPICH after an error message when nothing says so.
    if (!module->hasAttr(DLTIDialect::kMapAttrName))
      module->setAttr(DLTIDialect::kMapAttrName,
                      getMPICHImplementationMap(&getContext()));
    // Nothing refers to the grids after convert-shard-to-mpi, and a grid
    // left in the module stops mlir-translate and mlir-runner.
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      grid.erase();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    OpBuilder b(main.getBody());
    mpi::InitOp::create(b, main.getLoc(), Type());
    main.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      mpi::FinalizeOp::create(b, ret.getLoc(), Type());
    });
  }
};

} // namespace
