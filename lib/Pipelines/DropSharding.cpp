//===- DropSharding.cpp - The embbag-drop-sharding pass -------------------===//

#include "embbag/Pipelines/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGDROPSHARDING
#include "embbag/Pipelines/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;

namespace {

/// The one-process reference of a sharded module: every annotation dropped.
struct DropShardingPass
    : public embbag::impl::EmbBagDropShardingBase<DropShardingPass> {
  void runOnOperation() override {
    getOperation().walk([](shard::ShardOp op) {
      op.replaceAllUsesWith(op.getSrc());
      op.erase();
    });
    getOperation().walk([](Operation *op) {
      if (isa<shard::ShardingOp, shard::GridOp>(op) && op->use_empty())
        op->erase();
    });
  }
};

} // namespace
