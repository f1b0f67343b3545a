//===- TilingInterfaceImpl.cpp - Tiling of the embbag ops -----------------===//
//
// TilingInterface for embbag.packed, embbag.offsets and embbag.segments. The
// loops of an op are its result dimensions
//
//   [bag, column_1 .. column_k]          for a table [num_emb, d_1 .. d_k]
//
// all parallel (the gathered rows are not a loop: a bag's rows are only
// known at run time). A tile is the same op on a part of the data:
//   columns  the table's columns (its rows stay whole: indices, `default`
//            and `padding_idx` are row numbers, unchanged);
//   bags     packed:   the tile's rows of indices and weights;
//            offsets:  the tile's offsets, rebased to the tile's first
//                      offset, and the indices (weights) from it to the next
//                      tile's first offset (or the end); with
//                      include_last_offset also the offset closing the
//                      tile's last bag;
//            segments: the tile's segments, plus one extra segment for the
//                      other ids, dropped; invalid ids stay invalid.
// The parts of bags are BagOpInterface::cloneOnBags. Every tile keeps
// `padding_idx` as it is (BagOperands carries it). A row-wise quantized
// table is tiled over bags only.
// A contract violation of the whole op stays one of some tile, so the
// checked lowering still stops the program (docs/Bufferization.md).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/TilingInterfaceImpl.h"
#include "embbag/Dialect/EmbBag/IR/EmbBagOps.h"

#include "BagOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace mlir::embbag;

/// The sizes of the result, which are the loop bounds.
static SmallVector<OpFoldResult> getLoopSizes(OpBuilder &b, Operation *op) {
  ReifiedRankedShapedTypeDims dims;
  // The three ops implement it and never fail.
  (void)reifyResultShapes(b, op, dims);
  return dims[0];
}

static FailureOr<TilingResult> tileBagOp(OpBuilder &b, BagOpInterface op,
                                         ArrayRef<OpFoldResult> offsets,
                                         ArrayRef<OpFoldResult> sizes) {
  Location loc = op->getLoc();
  BagOperands o = op.getBagOperands();
  SmallVector<OpFoldResult> loopSizes = getLoopSizes(b, op);
  SmallVector<Operation *> slices;
  if (!bagops::coversAllColumns(offsets.drop_front(), sizes.drop_front(),
                                ArrayRef(loopSizes).drop_front())) {
    // A quantized row's codes are followed by its scale and bias: a part of
    // its columns is no table of the same layout.
    if (o.rowwise)
      return op->emitOpError()
             << "cannot be tiled over the columns of a row-wise quantized "
                "table; tile its bags only (tile size 0 for dimension 1)";
    o.table = bagops::sliceColumns(b, loc, o.table, offsets.drop_front(),
                                   sizes.drop_front());
    slices.push_back(o.table.getDefiningOp());
  }
  bool allBags = bagops::coversAllBags(offsets[0], sizes[0], loopSizes[0]);
  Value tiled = allBags ? op.cloneWithOperands(b, loc, o)
                        : op.cloneOnBags(b, loc, o, offsets[0], sizes[0]);
  Value tile = tiled;
  // A part of a segments op has one more segment, of the others' ids.
  if (op.getBagForm() == BagForm::Segments && !allBags)
    tile = bagops::sliceDim0(b, loc, tiled, b.getIndexAttr(0), sizes[0]);
  tile = bagops::castToTileSizes(b, loc, tile, sizes);
  return TilingResult{{tiled.getDefiningOp()}, {tile}, slices};
}

namespace {

template <typename OpTy>
struct BagTilingModel
    : public TilingInterface::ExternalModel<BagTilingModel<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    auto rank = cast<BagOpInterface>(op).getBagResultType().getRank();
    return SmallVector<utils::IteratorType>(rank,
                                            utils::IteratorType::parallel);
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    return bagops::iterationDomain(b, getLoopSizes(b, op));
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    return tileBagOp(b, cast<BagOpInterface>(op), offsets, sizes);
  }

  // The loops are the result's dimensions: a tile of the loops is the same
  // tile of the result, and back.
  LogicalResult getResultTilePosition(
      Operation *, OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    resultOffsets.assign(offsets.begin(), offsets.end());
    resultSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *, OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVectorImpl<OpFoldResult> &iterOffsets,
      SmallVectorImpl<OpFoldResult> &iterSizes) const {
    iterOffsets.assign(offsets.begin(), offsets.end());
    iterSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    return tileBagOp(b, cast<BagOpInterface>(op), offsets, sizes);
  }
};

} // namespace

void mlir::embbag::registerTilingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, EmbBagDialect *) {
    ctx->loadDialect<arith::ArithDialect, linalg::LinalgDialect,
                     scf::SCFDialect, tensor::TensorDialect>();
    PackedOp::attachInterface<BagTilingModel<PackedOp>>(*ctx);
    OffsetsOp::attachInterface<BagTilingModel<OffsetsOp>>(*ctx);
    SegmentsOp::attachInterface<BagTilingModel<SegmentsOp>>(*ctx);
    registerTrainingTilingInterfaceExternalModels(ctx);
  });
}
