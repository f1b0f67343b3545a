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
// Every tile keeps `padding_idx` as it is (BagOperands carries it). A
// row-wise quantized table is tiled over bags only.
// A contract violation of the whole op stays one of some tile, so the
// checked lowering still stops the program (docs/Bufferization.md).
//
//===----------------------------------------------------------------------===//

#include "embbag/Dialect/EmbBag/IR/TilingInterfaceImpl.h"

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
using namespace mlir::embbag::bagops;

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

/// `offsets[pos]` as an index, or `numIndices` past the last bag.
static Value offsetOrEnd(OpBuilder &b, Location loc, Value offsets, Value pos,
                         Value batch, Value numIndices) {
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, pos, batch);
  auto ifOp = scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &nb, Location nloc) {
        Value offset = tensor::ExtractOp::create(nb, nloc, offsets, pos);
        scf::YieldOp::create(nb, nloc,
                             castIndex(nb, nloc, offset, nb.getIndexType()));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, numIndices);
      });
  return ifOp.getResult(0);
}

/// min(max(v, lo), hi).
static Value clamp(OpBuilder &b, Location loc, Value v, Value lo, Value hi) {
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo),
                                hi);
}

/// embbag.offsets on bags [first, first + count): offsets rebased to the
/// first index the tile reads, indices cut at the next tile's first offset.
///
/// Offsets breaking the contract are clamped into the indices so that every
/// slice is in bounds, and the rebased offsets then break the contract of
/// the tile's op, whose checks stop the program: an offset below 0 stays
/// below 0; one past the end (or past the next tile's first offset, a
/// decrease across tiles) stays past the tile's indices.
static Value tileOffsetsBags(OpBuilder &b, Location loc, Operation *op,
                             BagOperands o, Value first, Value count) {
  Value batch = tensor::DimOp::create(b, loc, o.bags, 0);
  Value numIndices = tensor::DimOp::create(b, loc, o.indices, 0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value next = arith::AddIOp::create(b, loc, first, count);
  Value end =
      clamp(b, loc, offsetOrEnd(b, loc, o.bags, next, batch, numIndices), zero,
            numIndices);
  Value start = clamp(
      b, loc, offsetOrEnd(b, loc, o.bags, first, batch, numIndices), zero, end);
  Value length = arith::SubIOp::create(b, loc, end, start);

  Type indexType = getElementTypeOrSelf(o.bags.getType());
  Value base = castIndex(b, loc, start, indexType);
  // With include_last_offset the tile keeps the offset closing its last
  // bag (offsets[first + count], the `end` above).
  Value numOffsets =
      o.includeLastOffset
          ? arith::AddIOp::create(b, loc, count,
                                  arith::ConstantIndexOp::create(b, loc, 1))
                .getResult()
          : count;
  Value tileOffsets = sliceDim0(b, loc, o.bags, first, numOffsets);
  o.bags = mapElementwise(
      b, loc, tileOffsets, indexType,
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        return {arith::SubIOp::create(nb, nloc, args[0], base)};
      })[0];
  o.indices = sliceDim0(b, loc, o.indices, start, length);
  if (o.weights)
    o.weights = sliceDim0(b, loc, o.weights, start, length);
  return createBagOp(b, loc, op, getReduction(op), o);
}

/// The op of the tile's bags [offset, offset + size), on operands `o` whose
/// table is already the tile's columns. For embbag.segments the result has
/// one more row than the tile, of the ids outside it.
static Value tileBags(OpBuilder &b, Location loc, Operation *op, BagOperands o,
                      OpFoldResult offset, OpFoldResult size) {
  if (isa<PackedOp>(op)) {
    o.indices = sliceDim0(b, loc, o.indices, offset, size);
    if (o.weights)
      o.weights = sliceDim0(b, loc, o.weights, offset, size);
    return createBagOp(b, loc, op, getReduction(op), o);
  }
  Value first = getValueOrCreateConstantIndexOp(b, loc, offset);
  Value count = getValueOrCreateConstantIndexOp(b, loc, size);
  if (isa<OffsetsOp>(op))
    return tileOffsetsBags(b, loc, op, o, first, count);
  materializeStatics(b, loc, o);
  return createSegmentsOnRange(b, loc, op, o, first, count);
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

static FailureOr<TilingResult> tileBagOp(OpBuilder &b, Operation *op,
                                         ArrayRef<OpFoldResult> offsets,
                                         ArrayRef<OpFoldResult> sizes) {
  Location loc = op->getLoc();
  BagOperands o = getBagOperands(op);
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
  Value tiled = allBags ? createBagOp(b, loc, op, getReduction(op), o)
                        : tileBags(b, loc, op, o, offsets[0], sizes[0]);
  Value tile = tiled;
  if (isa<SegmentsOp>(op) && !allBags)
    tile = sliceDim0(b, loc, tiled, b.getIndexAttr(0), sizes[0]);
  tile = castToTileSizes(b, loc, tile, sizes);
  return TilingResult{{tiled.getDefiningOp()}, {tile}, slices};
}

namespace {

template <typename OpTy>
struct BagTilingModel
    : public TilingInterface::ExternalModel<BagTilingModel<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    auto rank = cast<OpTy>(op).getResultType().getRank();
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
    return tileBagOp(b, op, offsets, sizes);
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
    return tileBagOp(b, op, offsets, sizes);
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
