//===- LowerShardCollectives.cpp - embbag-lower-shard-collectives ---------===//
//
// The collectives MLIR 22.1's convert-shard-to-mpi leaves alone: all_slice
// (upstream's patterns), all_gather (an all-reduce into zeros), send and
// recv (MPI_Send, MPI_Recv: table-wise sharding's exchange, first moved
// down to where its result is used).
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"

#include "embbag/Pipelines/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// The MPI rank (in MPI_COMM_WORLD, i32) of the process whose in-group
/// index along `axis` is `peer` and whose other coordinates are this
/// process's: the grid is linearised row-major, as convert-shard-to-mpi's
/// process_multi_index lowering reads it.
static Value peerRank(OpBuilder &b, Location loc, shard::GridOp grid,
                      shard::GridAxis axis, int64_t peer) {
  ValueRange coordinates =
      shard::ProcessMultiIndexOp::create(b, loc, grid).getResult();
  Value rank = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [i, size] : llvm::enumerate(grid.getShape())) {
    Value coordinate = (int64_t)i == axis
                           ? arith::ConstantIndexOp::create(b, loc, peer)
                           : coordinates[i];
    rank = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, rank,
                              arith::ConstantIndexOp::create(b, loc, size)),
        coordinate);
  }
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), rank);
}

/// The one grid axis and the static in-group peer of a send or receive.
template <typename OpTy>
static FailureOr<std::pair<shard::GridAxis, int64_t>>
getPeer(OpTy op, std::optional<ArrayRef<int64_t>> peer,
        SymbolTableCollection &symbols, PatternRewriter &rewriter) {
  shard::GridOp grid = shard::getGrid(op, symbols);
  if (!grid || op.getGridAxes().size() != 1 || !peer || peer->size() != 1 ||
      ShapedType::isDynamic((*peer)[0]) ||
      llvm::any_of(grid.getShape(), ShapedType::isDynamic))
    return rewriter.notifyMatchFailure(
        op, "one grid axis, a static peer and a static grid only");
  return std::make_pair(op.getGridAxes()[0], (*peer)[0]);
}

/// A tag for the sends and receives of table-wise sharding: MPI delivers
/// the messages of one sender to one receiver in order, so one tag is
/// enough for messages sent in the same order as they are received.
static Value exchangeTag(OpBuilder &b, Location loc) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(23));
}

/// The identity-layout buffer of the shape of `tensor` (dynamic sizes read
/// from it), for MPI (which sends and receives contiguous elements).
static Value allocLike(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, tensor, dim));
  return memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()),
      dynamicSizes);
}

/// `buffer` (identity layout) as one dimension: the MPI lowering counts the
/// elements of a memref's first dimension only.
static Value flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return memref::CollapseShapeOp::create(b, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

/// shard.send as a blocking MPI_Send of a contiguous copy of the tensor
/// (the tensor may be a strided slice); the op's result is its input.
struct SendToMPI : public OpRewritePattern<shard::SendOp> {
  SendToMPI(MLIRContext *ctx, SymbolTableCollection &symbols)
      : OpRewritePattern(ctx), symbols(symbols) {}

  LogicalResult matchAndRewrite(shard::SendOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<std::pair<shard::GridAxis, int64_t>> peer =
        getPeer(op, op.getDestination(), symbols, rewriter);
    if (failed(peer) || !op.getDestinationDynamic().empty())
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getInput().getType());
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        op.getInput(), /*read_only=*/true);
    Value buffer = allocLike(rewriter, loc, op.getInput());
    memref::CopyOp::create(rewriter, loc, source, buffer);
    Value comm = mpi::CommWorldOp::create(
        rewriter, loc, mpi::CommType::get(rewriter.getContext()));
    mpi::SendOp::create(rewriter, loc, TypeRange(),
                        flatten(rewriter, loc, buffer),
                        exchangeTag(rewriter, loc),
                        peerRank(rewriter, loc, shard::getGrid(op, symbols),
                                 peer->first, peer->second),
                        comm);
    rewriter.replaceOp(op, op.getInput());
    return success();
  }

  SymbolTableCollection &symbols;
};

/// shard.recv as a blocking MPI_Recv into a new buffer of the input's shape.
struct RecvToMPI : public OpRewritePattern<shard::RecvOp> {
  RecvToMPI(MLIRContext *ctx, SymbolTableCollection &symbols)
      : OpRewritePattern(ctx), symbols(symbols) {}

  LogicalResult matchAndRewrite(shard::RecvOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<std::pair<shard::GridAxis, int64_t>> peer =
        getPeer(op, op.getSource(), symbols, rewriter);
    if (failed(peer) || !op.getSourceDynamic().empty())
      return failure();
    Location loc = op.getLoc();
    Value buffer = allocLike(rewriter, loc, op.getInput());
    Value comm = mpi::CommWorldOp::create(
        rewriter, loc, mpi::CommType::get(rewriter.getContext()));
    mpi::RecvOp::create(rewriter, loc, TypeRange(),
                        flatten(rewriter, loc, buffer),
                        exchangeTag(rewriter, loc),
                        peerRank(rewriter, loc, shard::getGrid(op, symbols),
                                 peer->first, peer->second),
                        comm);
    Value received = bufferization::ToTensorOp::create(
        rewriter, loc, op.getResult().getType(), buffer, /*restrict=*/true,
        /*writable=*/true);
    rewriter.replaceOp(op, received);
    return success();
  }

  SymbolTableCollection &symbols;
};

/// Table-wise sharding's exchange (lib/Dialect/EmbBag/IR/
/// TableWiseSharding.cpp): an scf.if whose else branch receives
/// (shard.recv) what its then branch sends.
static bool isTableExchange(scf::IfOp op) {
  return op.getNumResults() == 1 && op.elseBlock() &&
         llvm::any_of(op.elseBlock()->getOperations(),
                      llvm::IsaPred<shard::RecvOp>);
}

/// Moves each table exchange down to the first op of its block that uses
/// its result (or the terminator): a rank then computes all its tables
/// before it waits for the others' bags, instead of idling while each
/// table's owner computes it in turn. Every rank moves the same exchanges,
/// so the ranks still send and receive in one order.
static void sinkTableExchanges(Operation *root) {
  SmallVector<scf::IfOp> exchanges;
  root->walk([&](scf::IfOp op) {
    if (isTableExchange(op))
      exchanges.push_back(op);
  });
  for (scf::IfOp op : exchanges) {
    Block *block = op->getBlock();
    if (!block->mightHaveTerminator())
      continue;
    Operation *first = block->getTerminator();
    for (Operation *user : op->getUsers())
      if (Operation *ancestor = block->findAncestorOpInBlock(*user))
        if (ancestor->isBeforeInBlock(first))
          first = ancestor;
    op->moveBefore(first);
  }
}

struct LowerShardCollectivesPass
    : public embbag::impl::EmbBagLowerShardCollectivesBase<
          LowerShardCollectivesPass> {
  void runOnOperation() override {
    sinkTableExchanges(getOperation());
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbolTables);
    patterns.add<AllGatherToAllReduce>(&getContext());
    patterns.add<SendToMPI, RecvToMPI>(&getContext(), symbolTables);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](Operation *op) {
      if (isa<shard::AllGatherOp, shard::AllSliceOp, shard::SendOp,
              shard::RecvOp>(op)) {
        op->emitError("embbag-shard-to-llvm: cannot lower this collective "
                      "to MPI (dynamic shape, several grid axes or a "
                      "dynamic peer)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
