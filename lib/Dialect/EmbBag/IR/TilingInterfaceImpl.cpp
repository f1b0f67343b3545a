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

/// `table[:, columns]`: every row, the tile's columns.
static Value sliceColumns(OpBuilder &b, Location loc, Value table,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(table.getType());
  SmallVector<OpFoldResult> tileOffsets{b.getIndexAttr(0)};
  SmallVector<OpFoldResult> tileSizes{tensor::getMixedSize(b, loc, table, 0)};
  llvm::append_range(tileOffsets, offsets);
  llvm::append_range(tileSizes, sizes);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, table, tileOffsets, tileSizes,
                                        strides);
}

/// Whether `a` and `b` are the same size. The loop bounds and this model's
/// own sizes are computed apart (reifyResultShapes), so besides equal
/// constants and values this knows the ops that compute them.
static bool isSameSize(OpFoldResult a, OpFoldResult b) {
  if (isEqualConstantIntOrValue(a, b))
    return true;
  auto va = dyn_cast<Value>(a), vb = dyn_cast<Value>(b);
  if (!va || !vb)
    return false;
  if (auto da = va.getDefiningOp<tensor::DimOp>())
    if (auto db = vb.getDefiningOp<tensor::DimOp>())
      return da.getSource() == db.getSource() && da.getConstantIndex() &&
             da.getConstantIndex() == db.getConstantIndex();
  if (auto ca = va.getDefiningOp<arith::IndexCastOp>())
    if (auto cb = vb.getDefiningOp<arith::IndexCastOp>())
      return ca.getIn() == cb.getIn();
  return false;
}

/// Whether the tile's bags are all the bags, so that only columns are cut.
static bool coversAllBags(OpFoldResult offset, OpFoldResult size,
                          OpFoldResult batch) {
  return isConstantIntValue(offset, 0) && isSameSize(size, batch);
}

/// `value` with the static sizes among `sizes`: the loops insert the tile at
/// `sizes`.
static Value castToTileSizes(OpBuilder &b, Location loc, Value value,
                             ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  RankedTensorType expected = type.clone(shape);
  if (expected == type)
    return value;
  return tensor::CastOp::create(b, loc, expected, value);
}

/// Whether the tile's columns are all the columns of the table.
static bool coversAllColumns(ArrayRef<OpFoldResult> offsets,
                             ArrayRef<OpFoldResult> sizes,
                             ArrayRef<OpFoldResult> columns) {
  for (auto [offset, size, column] : llvm::zip_equal(offsets, sizes, columns))
    if (!isConstantIntValue(offset, 0) || !isSameSize(size, column))
      return false;
  return true;
}

static FailureOr<TilingResult> tileBagOp(OpBuilder &b, BagOpInterface op,
                                         ArrayRef<OpFoldResult> offsets,
                                         ArrayRef<OpFoldResult> sizes) {
  Location loc = op->getLoc();
  BagOperands o = op.getBagOperands();
  SmallVector<OpFoldResult> loopSizes = getLoopSizes(b, op);
  SmallVector<Operation *> slices;
  if (!coversAllColumns(offsets.drop_front(), sizes.drop_front(),
                        ArrayRef(loopSizes).drop_front())) {
    // A quantized row's codes are followed by its scale and bias: a part of
    // its columns is no table of the same layout.
    if (o.rowwise)
      return op->emitOpError()
             << "cannot be tiled over the columns of a row-wise quantized "
                "table; tile its bags only (tile size 0 for dimension 1)";
    o.table =
        sliceColumns(b, loc, o.table, offsets.drop_front(), sizes.drop_front());
    slices.push_back(o.table.getDefiningOp());
  }
  bool allBags = coversAllBags(offsets[0], sizes[0], loopSizes[0]);
  Value tiled = allBags ? op.cloneWithOperands(b, loc, o)
                        : op.cloneOnBags(b, loc, o, offsets[0], sizes[0]);
  Value tile = tiled;
  // A part of a segments op has one more segment, of the others' ids.
  if (op.getBagForm() == BagForm::Segments && !allBags)
    tile = bagops::sliceDim0(b, loc, tiled, b.getIndexAttr(0), sizes[0]);
  tile = castToTileSizes(b, loc, tile, sizes);
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
    SmallVector<Range> domain;
    for (OpFoldResult size : getLoopSizes(b, op))
      domain.push_back(Range{b.getIndexAttr(0), size, b.getIndexAttr(1)});
    return domain;
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
  });
}
