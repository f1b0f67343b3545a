//===- LowerShardCollectives.cpp - embbag-lower-shard-collectives ---------===//
//
// The collectives MLIR 22.1's convert-shard-to-mpi leaves alone: all_slice
// (upstream's patterns) and all_gather (an all-reduce into zeros).
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"

#include "embbag/Pipelines/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::embbag {
#define GEN_PASS_DEF_EMBBAGLOWERSHARDCOLLECTIVES
#include "embbag/Pipelines/Passes.h.inc"
} // namespace mlir::embbag

using namespace mlir;
using namespace mlir::embbag;

namespace {

/// shard.all_gather as an all-reduce into zeros (even splits only: the
/// partitioner emits it for no other).
struct AllGatherToAllReduce : public OpRewritePattern<shard::AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!inType || !outType || !outType.hasStaticShape() ||
        !inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "static tensors only");
    Location loc = op.getLoc();
    int64_t axis = op.getGatherAxis().getSExtValue();
    Value rank = shard::ProcessMultiIndexOp::create(rewriter, loc, op.getGrid(),
                                                    op.getGridAxes())
                     .getResult()[0];
    if (op.getGridAxes().size() != 1)
      return rewriter.notifyMatchFailure(op, "one grid axis only");
    SmallVector<OpFoldResult> offsets(inType.getRank(),
                                      rewriter.getIndexAttr(0));
    offsets[axis] = getAsOpFoldResult(
        arith::MulIOp::create(rewriter, loc, rank,
                              arith::ConstantIndexOp::create(
                                  rewriter, loc, inType.getDimSize(axis))));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), inType.getShape());
    SmallVector<OpFoldResult> strides(inType.getRank(),
                                      rewriter.getIndexAttr(1));
    Value placed = tensor::InsertSliceOp::create(
        rewriter, loc, op.getInput(), zerosLike(rewriter, loc, outType),
        offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<shard::AllReduceOp>(
        op, placed, op.getGrid(), op.getGridAxes(), shard::ReductionKind::Sum);
    return success();
  }
};

struct LowerShardCollectivesPass
    : public embbag::impl::EmbBagLowerShardCollectivesBase<
          LowerShardCollectivesPass> {
  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbolTables);
    patterns.add<AllGatherToAllReduce>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](Operation *op) {
      if (isa<shard::AllGatherOp, shard::AllSliceOp>(op)) {
        op->emitError("embbag-shard-to-llvm: cannot lower this collective "
                      "to MPI (dynamic shape or several grid axes)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
